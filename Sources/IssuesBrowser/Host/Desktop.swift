import Foundation
import GitHubIssues

/// The desktop around the terminal: the web browser and the clipboard, through the tools that
/// the system has.
package enum Desktop {
  /// Opens a URL in the web browser and says what happened.
  package static func open(_ url: String) -> String {
    for name in ["xdg-open", "open", "wslview"] {
      if let tool = ExternalTool(named: name), tool.launch([url]) { return "Opened \(url)" }
    }
    return "No way to open a browser here (xdg-open, open): \(url)"
  }

  /// Copies text to the clipboard with a clipboard tool; `nil` when there is none (or it failed).
  package static func copy(_ text: String) -> String? {
    let tools = [
      ["wl-copy"], ["xclip", "-selection", "clipboard"], ["xsel", "--clipboard", "--input"],
      ["pbcopy"], ["clip.exe"],
    ]
    for command in tools {
      if let tool = ExternalTool(named: command[0]),
        tool.launch(Array(command.dropFirst()), input: text)
      {
        return "Copied \(text)"
      }
    }
    return nil
  }

  /// The escape sequence (OSC 52) that asks the terminal itself to set the clipboard: it works
  /// over SSH, in terminals that allow it.
  package static func terminalClipboardSequence(_ text: String) -> [UInt8] {
    Array("\u{1B}]52;c;\(Data(text.utf8).base64EncodedString())\u{07}".utf8)
  }
}
