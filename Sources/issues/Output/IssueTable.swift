import Foundation
import GitHubIssues
import IssuesBrowser
import TrellisTerminal

/// The output of `issues list`: a table sized to the terminal, tab-separated values for pipes,
/// or JSON.
enum IssueTable {
  /// A table with a header, columns aligned by display width and titles truncated so that every
  /// line fits `width` columns.
  static func table(
    _ issues: [CachedIssue], milestones: [Int: GitHubMilestone], width: Int, now: Date
  ) -> String {
    table(
      issues.map { issue in
        Row(
          number: issue.numberLabel, issue: issue,
          milestone: issue.milestoneNumber.flatMap { milestones[$0]?.title } ?? "")
      }, width: width, now: now)
  }

  /// A row of ``table(_:width:now:)``: the issue, how its number is written (`#12`, or
  /// `acme/web#12` on a dashboard spanning repositories) and its milestone's title.
  struct Row {
    var number: String
    var issue: CachedIssue
    var milestone: String
  }

  /// A table of rows, as ``table(_:milestones:width:now:)`` draws issues.
  static func table(_ rows: [Row], width: Int, now: Date) -> String {
    guard !rows.isEmpty else { return "" }
    let issues = rows.map(\.issue)
    let showMilestone = Set(rows.map(\.milestone)).count > 1
    let numbers = rows.map { visible($0.number) }
    let ages = issues.map { RelativeAge.describe($0.updatedAt, now: now) }
    let labels = issues.map { visible($0.labels.joined(separator: ", ")) }
    let milestoneNames = rows.map { visible($0.milestone) }
    let numberWidth = min(32, max(6, numbers.map(DisplayWidth.of).max() ?? 0))
    let ageWidth = max(7, ages.map(DisplayWidth.of).max() ?? 0)
    let authorWidth = min(
      16, max(6, issues.map { DisplayWidth.of(visible($0.author)) }.max() ?? 0))
    var labelWidth = min(24, max(6, labels.map(DisplayWidth.of).max() ?? 0))
    var milestoneWidth =
      showMilestone ? min(20, max(9, milestoneNames.map(DisplayWidth.of).max() ?? 0)) : 0
    let fixed = { numberWidth + ageWidth + authorWidth + labelWidth + milestoneWidth + 2 * 5 }
    // The title keeps at least 20 columns: narrow the labels and milestones first.
    if width - fixed() < 20 { labelWidth = max(0, labelWidth - (20 - (width - fixed()))) }
    if width - fixed() < 20 { milestoneWidth = max(0, milestoneWidth - (20 - (width - fixed()))) }
    let titleWidth = max(10, width - fixed())
    func cell(_ text: String, _ width: Int) -> String {
      DisplayWidth.pad(DisplayWidth.truncate(text, toColumns: width), toColumns: width)
    }
    var lines: [String] = []
    var header = [
      cell("NUMBER", numberWidth), cell("TITLE", titleWidth), cell("LABELS", labelWidth),
    ]
    if milestoneWidth > 0 { header.append(cell("MILESTONE", milestoneWidth)) }
    header += [cell("AUTHOR", authorWidth), cell("UPDATED", ageWidth)]
    lines.append(header.joined(separator: "  ").trimmingTrailingSpaces())
    for (index, issue) in issues.enumerated() {
      var columns = [
        cell(numbers[index], numberWidth), cell(visible(issue.title), titleWidth),
        cell(labels[index], labelWidth),
      ]
      if milestoneWidth > 0 { columns.append(cell(milestoneNames[index], milestoneWidth)) }
      columns += [cell(visible(issue.author), authorWidth), cell(ages[index], ageWidth)]
      lines.append(columns.joined(separator: "  ").trimmingTrailingSpaces())
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// Text from GitHub, with every control character shown and none interpreted: a title can
  /// neither drive the terminal nor split a record.
  static func visible(_ text: String) -> String { ControlCharacters.visible(text) }

  /// One line per issue, fields separated by tabs, as `gh issue list` prints to a pipe: number,
  /// state (`OPEN`, `CLOSED`), title, labels (`, `-separated), updated time (RFC 3339, UTC).
  ///
  /// Tabs, line breaks and other control characters in the text are shown as control pictures, so
  /// every record is one line.
  static func tabSeparated(_ issues: [CachedIssue]) -> String {
    issues.map(tabSeparatedLine).joined()
  }

  /// One record of ``tabSeparated(_:)``, with its line feed.
  static func tabSeparatedLine(_ issue: CachedIssue) -> String {
    [
      issue.isProvisional ? "new" : String(issue.number), issue.state == .open ? "OPEN" : "CLOSED",
      visible(issue.title.split(whereSeparator: \.isWhitespace).joined(separator: " ")),
      visible(issue.labels.joined(separator: ", ")), IssueJSON.timestamp(issue.updatedAt),
    ].joined(separator: "\t") + "\n"
  }
}

extension String {
  fileprivate func trimmingTrailingSpaces() -> String {
    var copy = self
    while copy.last == " " { copy.removeLast() }
    return copy
  }

}
