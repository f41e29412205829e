import GitHubIssues
import TrellisTerminal

/// What a key asks of the new-issue screen.
///
/// Keys no table binds type into the focused text field.
package enum IssueFormCommand: Hashable, Sendable {
  /// The next field (Tab, ↓), or the next template in the chooser.
  case nextField
  /// The previous field (Shift-Tab, ↑), or the previous template.
  case previousField
  /// The previous option of a dropdown or checkboxes (←).
  case previousOption
  /// The next option (→).
  case nextOption
  /// Choose or tick the option in focus (Space, where no text is typed).
  case toggleOption
  /// Take the template in focus; a new line in a text area; submit on the submit row (Enter).
  case enter
  /// Write the focused text field in $VISUAL or $EDITOR (Ctrl-E).
  case edit
  /// Erase the last character (Backspace).
  case erase
  /// Erase the field (Ctrl-U).
  case eraseAll
  /// File the issue (Ctrl-S), or say what keeps it from being filed.
  case submit
  /// Show every key (F1).
  case showHelp
  /// Leave without filing (Esc).
  case cancel
  /// Leave without filing, as interrupted (Ctrl-C).
  case interrupt
  /// Run one of the person's commands (no item is focused here: it says so).
  case run(UserCommand)
}

extension IssueFormCommand: NamedCommand {
  package var name: String {
    switch self {
    case .nextField: "next-field"
    case .previousField: "previous-field"
    case .previousOption: "previous-option"
    case .nextOption: "next-option"
    case .toggleOption: "choose"
    case .enter: "enter"
    case .edit: "edit"
    case .erase: "erase"
    case .eraseAll: "erase-all"
    case .submit: "submit"
    case .showHelp: "help"
    case .cancel: "cancel"
    case .interrupt: "interrupt"
    case .run(let command): command.title
    }
  }
}

/// The new-issue screen's keys, as one table: the keyboard, the `?` overlay, the status line
/// and `issues help keys` come from it.
package enum IssueFormKeys {
  typealias Row = KeyBinding<IssueFormCommand>

  /// The standard keys.
  package static let standard = KeyBindings<IssueFormCommand>(
    title: "A new issue (n, issues create)",
    rows: [
      Row(
        [.init(.tab, .nextField), .init(.down, .nextField)],
        "the next field (the next template while choosing one)", hint: "next"),
      Row(
        [.init(KeyEvent(.tab, modifiers: .shift), .previousField), .init(.up, .previousField)],
        "the previous field (the previous template)"),
      Row(
        [.init(.left, .previousOption), .init(.right, .nextOption)],
        "the previous or next option of a dropdown or checkboxes"),
      Row(
        [.init(.character(" "), .toggleOption)],
        "choose the option, or tick the box (in a text field it types a space)",
        hint: "choose"),
      Row(
        [.init(.enter, .enter)],
        "take the template; a new line in a text area; file it on the last row"),
      Row(
        [.init(KeyEvent(.character("e"), modifiers: .control), .edit)],
        "write the field in $VISUAL or $EDITOR", hint: "editor"),
      Row([.init(.backspace, .erase)], "erase the last character"),
      Row(
        [.init(KeyEvent(.character("u"), modifiers: .control), .eraseAll)], "erase the field"),
      Row(
        [.init(KeyEvent(.character("s"), modifiers: .control), .submit)],
        "file the issue, or say what the form still needs", hint: "file"),
      Row([.init(.function(1), .showHelp)], "show every key", hint: "keys"),
      Row([.init(.escape, .cancel)], "leave without filing", hint: "cancel"),
      Row(
        [.init(KeyEvent(.character("c"), modifiers: .control), .interrupt)],
        "leave without filing, as interrupted (exit status 130)"),
    ])

  /// The `?` overlay's lines for `keys`.
  package static func helpLines(_ keys: KeyBindings<IssueFormCommand>) -> [HelpLine] {
    HelpOverlay.lines([keys.helpLines, HelpOverlay.keys.helpLines])
  }
}

/// What the new-issue screen asks of its host.
package enum IssueFormEffect: Hashable, Sendable {
  /// File this issue (through the outbox) and leave.
  case file(NewIssue)
  /// Leave without filing.
  case cancel
  /// Leave without filing, as interrupted.
  case interrupted
  /// Open the focused field's text in the person's editor; the result comes back through
  /// ``IssueFormScreen/finishEditing(_:)``.
  case edit(String)
}
