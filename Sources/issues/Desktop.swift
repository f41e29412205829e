import Foundation

/// The desktop around the terminal: the web browser and the clipboard, through the tools that
/// the system has.
enum Desktop {
  /// Opens a URL in the web browser and says what happened.
  static func open(_ url: String) -> String {
    for tool in [["xdg-open"], ["open"], ["wslview"]] where exists(tool[0]) {
      if run(tool + [url], input: nil) { return "Opened \(url)" }
    }
    return "No way to open a browser here (xdg-open, open): \(url)"
  }

  /// Copies text to the clipboard with a clipboard tool; `nil` when there is none (or it failed).
  static func copy(_ text: String) -> String? {
    let tools = [
      ["wl-copy"], ["xclip", "-selection", "clipboard"], ["xsel", "--clipboard", "--input"],
      ["pbcopy"], ["clip.exe"],
    ]
    for tool in tools where exists(tool[0]) {
      if run(tool, input: text) { return "Copied \(text)" }
    }
    return nil
  }

  /// The escape sequence (OSC 52) that asks the terminal itself to set the clipboard: it works
  /// over SSH, in terminals that allow it.
  static func terminalClipboardSequence(_ text: String) -> [UInt8] {
    Array("\u{1B}]52;c;\(Data(text.utf8).base64EncodedString())\u{07}".utf8)
  }

  private static func exists(_ tool: String) -> Bool {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return path.split(separator: ":").contains {
      FileManager.default.isExecutableFile(atPath: "\($0)/\(tool)")
    }
  }

  /// Runs a tool without touching the terminal; true when it started and succeeded.
  private static func run(_ command: [String], input: String?) -> Bool {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = command
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    let pipe = Pipe()
    process.standardInput = input == nil ? FileHandle.nullDevice : pipe
    do {
      try process.run()
    } catch {
      return false
    }
    if let input {
      pipe.fileHandleForWriting.write(Data(input.utf8))
      try? pipe.fileHandleForWriting.close()
    }
    // Browsers' launchers return at once; clipboard tools once they hold the text.
    let deadline = Date().addingTimeInterval(2)
    while process.isRunning && Date() < deadline { usleep(10_000) }
    return !process.isRunning ? process.terminationStatus == 0 : true
  }
}
