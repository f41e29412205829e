import GitHubIssues

/// Every screen's keys, for `issues help keys`: the browser's tables, then the dashboard's, the
/// inbox's and the new issue's.
package enum ScreenKeys {
  /// The same tables as plain text: each title, then a line per row, its keys in a column.
  package static var helpText: String {
    let lines = HelpOverlay.lines(
      [
        BrowserKeys.standard.helpLines, DashboardKeys.standard.helpLines,
        InboxKeys.standard.helpLines, IssueFormKeys.standard.helpLines,
        DiffKeys.standard.helpLines,
      ]
    )
    // The list of keys has the same table on every screen: printed once.
    var seen: Set<HelpLine> = []
    var tables: [[HelpLine]] = [[]]
    for line in lines {
      if line.keys.isEmpty && !line.isTitle {
        tables.append([])
      } else {
        tables[tables.count - 1].append(line)
      }
    }
    tables = tables.filter { table in
      guard let title = table.first else { return false }
      return seen.insert(title).inserted
    }
    var text: [String] = []
    for table in tables {
      if !text.isEmpty { text.append("") }
      for line in table {
        text += line.isTitle ? [line.keys] : HelpText.entry(line.keys, line.summary, column: 26)
      }
    }
    return text.joined(separator: "\n")
  }
}
