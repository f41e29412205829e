import GitHubIssues

extension ScreenConfig {
  /// `issues help config`: every key of the configuration file, generated from what reads it —
  /// the screens' command names from their key tables, the placeholders, the themes and their
  /// roles — so the help cannot name a command that does not exist.
  package static var helpText: String {
    var lines: [String] = []
    lines.append(
      """
      One YAML file holds the dashboard and the person's screens: \
      $XDG_CONFIG_HOME/trellis-issues/dashboard.yml (~/.config without XDG_CONFIG_HOME; \
      `issues dash --config FILE` reads another). A mistake is reported as FILE:LINE:COLUMN \
      and nothing of the file is used. Its keys:
      """)
    lines.append("")
    let keys: [(String, String)] = [
      ("repositories:", "the dashboard's repositories (OWNER/REPO, HOST/OWNER/REPO)"),
      ("hosts:", "per host, api-url: another API root (a proxy, a test server)"),
      (
        "sections:",
        "the dashboard's tabs: title:, query: (issues help search), group-by: repository or none"
      ),
      (
        "accessible:",
        "true: the terminal's cursor on the focus, focus changes said on the status line (also "
          + "--accessible, TRELLIS_ACCESSIBLE=1)"
      ),
      (
        "theme:",
        Theme.builtIn.map(\.name).joined(separator: ", ")
          + " (also --theme), or a mapping: base: a theme, then any role: a style"
      ),
      ("keys:", "per screen, KEY: COMMAND, or KEY: none to unbind"),
      (
        "commands:",
        "your own: key:, title:, run: (a shell command with placeholders), in: foreground or "
          + "background, screens:"
      ),
    ]
    for (key, meaning) in keys { lines += HelpText.entry(key, meaning, column: 17) }
    lines.append("")
    lines.append(
      """
      Keys are a character (j, J, ?), a name (enter, tab, esc, space, backspace, up, down, \
      left, right, home, end, pgup, pgdn, insert, delete, f1–f24), or either after ctrl-, \
      alt- or shift- (ctrl-d, shift-tab). Ctrl-C always quits. A key bound twice on a screen \
      is a mistake; a key bound to a command leaves the command it had.
      """)
    lines.append("")
    lines.append("The commands of each screen (keys: SCREEN: {KEY: COMMAND}):")
    let screens: [(ScreenName, [String])] = [
      (.browser, BrowserKeys.standard.browsing.namedCommands.map(\.name)),
      (.reader, BrowserKeys.standard.reading.namedCommands.map(\.name)),
      (.dashboard, DashboardKeys.standard.namedCommands.map(\.name)),
      (.inbox, InboxKeys.standard.namedCommands.map(\.name)),
      (.form, IssueFormKeys.standard.namedCommands.map(\.name)),
      (.diff, DiffKeys.standard.namedCommands.map(\.name)),
      (.search, BrowserKeys.standard.searching.namedCommands.map(\.name)),
      (.labelPicker, BrowserKeys.standard.pickingLabel.namedCommands.map(\.name)),
      (.milestonePicker, BrowserKeys.standard.movingToMilestone.namedCommands.map(\.name)),
    ]
    for (screen, names) in screens {
      lines.append("")
      lines.append("  \(screen.rawValue):")
      lines += HelpText.wrapped(names.joined(separator: ", "), indent: 4)
    }
    lines.append("")
    lines.append(
      """
      A command's run: is given to /bin/sh with the focused item's values as placeholders, \
      each passed as one argument whatever it holds (quotes, $( ), backticks, newlines) — \
      never pasted into the command's text. They are also in the environment:
      """)
    lines.append("")
    for placeholder in CommandTemplate.Placeholder.allCases {
      lines += HelpText.entry(
        "{\(placeholder.rawValue)}".padding(toLength: 14, withPad: " ", startingAt: 0)
          + placeholder.variable, placeholder.summary, column: 38)
    }
    lines.append("")
    lines.append(
      """
      in: foreground hands the terminal over until the command ends (an editor, a pager, gh \
      pr checkout); background (the default) runs it beside the screen and says its last line \
      or its exit status on the status line. screens: is a list of browser, reader, \
      dashboard, inbox, diff (the default), form, search, label-picker, milestone-picker. In the \
      search, the label picker and a new issue's text fields, a key bound to nothing types.
      """)
    lines.append("")
    lines.append("A theme's roles: " + Theme.roles.map(\.name).joined(separator: ", ") + ".")
    lines.append(
      """
      A style is attributes (bold, dim, italic, underline, reverse), a colour, and "on" a \
      background colour: a name (black, red, green, yellow, blue, magenta, cyan, white, gray, \
      bright-red…), 0–255, #rrggbb, or default. NO_COLOR and 16-colour terminals are honoured; \
      the focus and the selected chip stay visible without colour.
      """)
    lines.append("")
    lines.append("Example:")
    lines.append("")
    lines.append(
      """
        theme: {base: dark, focus: 'bold white on #005f87'}
        keys:
          browser: {K: up, J: down, s: none, S: state}
          dashboard: {n: next-section}
        commands:
          - key: b
            title: check out the branch
            run: gh pr checkout {number} --repo {repository}
            in: foreground
            screens: [browser, dashboard]
          - key: ctrl-n
            title: note it
            run: echo "{repository}#{number} {title}" >> ~/notes.txt
      """)
    return lines.joined(separator: "\n")
  }
}

extension CommandTemplate.Placeholder {
  /// What the placeholder holds, for the help.
  package var summary: String {
    switch self {
    case .host: "the host (github.com)"
    case .repository: "OWNER/REPO"
    case .owner: "OWNER"
    case .name: "REPO"
    case .number: "the issue's or pull request's number"
    case .url: "its web page"
    case .title: "its title"
    case .branch: "a pull request's head branch (when cached)"
    case .kind: "issue or pull-request"
    }
  }
}
