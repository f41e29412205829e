/// One of the person's own commands, from the configuration's `commands:`: a key, what it is
/// called, and the shell command it runs on the focused item.
///
/// ```yaml
/// commands:
///   - key: b
///     title: check out the branch
///     run: gh pr checkout {number} --repo {repository}
///     in: foreground        # the terminal is handed over; default: background
///     screens: [browser, dashboard]
/// ```
public struct UserCommand: Hashable, Sendable {
  /// Where the command runs.
  public enum Mode: String, Hashable, Sendable, CaseIterable {
    /// With the terminal handed over until it ends (an editor, a pager, `gh pr checkout`).
    case foreground
    /// Beside the screen; its result (the last line it printed, or its exit status) is said on
    /// the status line.
    case background
  }

  /// What the help and the status line call it.
  public var title: String
  /// The shell command, with placeholders for the focused item.
  package var template: CommandTemplate
  /// Where it runs.
  public var mode: Mode

  /// A command.
  public init(title: String, template: CommandTemplate, mode: Mode) {
    self.title = title
    self.template = template
    self.mode = mode
  }
}
