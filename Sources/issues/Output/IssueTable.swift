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
    guard !issues.isEmpty else { return "" }
    let showMilestone = Set(issues.map(\.milestoneNumber)).count > 1
    let numbers = issues.map { "#\($0.number)" }
    let ages = issues.map { RelativeAge.describe($0.updatedAt, now: now) }
    let labels = issues.map { visible($0.labels.joined(separator: ", ")) }
    let milestoneNames = issues.map {
      visible($0.milestoneNumber.flatMap { milestones[$0]?.title } ?? "")
    }
    let numberWidth = max(6, numbers.map(DisplayWidth.of).max() ?? 0)
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

  /// One line per issue, fields separated by tabs, as `gh` prints to a pipe: number, state, title,
  /// labels, milestone, author, updated time (ISO 8601).
  ///
  /// Tabs, line breaks and other control characters in the text are shown as control pictures, so
  /// every record is one line.
  static func tabSeparated(_ issues: [CachedIssue], milestones: [Int: GitHubMilestone])
    -> String
  {
    let iso = ISO8601DateFormatter()
    return issues.map { tabSeparatedLine($0, milestones: milestones, iso: iso) }.joined()
  }

  /// One record of ``tabSeparated(_:milestones:)``, with its line feed.
  static func tabSeparatedLine(
    _ issue: CachedIssue, milestones: [Int: GitHubMilestone], iso: ISO8601DateFormatter
  ) -> String {
    [
      String(issue.number), issue.state.rawValue, visible(issue.title),
      visible(issue.labels.joined(separator: ", ")),
      visible(issue.milestoneNumber.flatMap { milestones[$0]?.title } ?? ""),
      visible(issue.author), iso.string(from: issue.updatedAt),
    ].joined(separator: "\t") + "\n"
  }

  /// The issues as a JSON array, for scripts.
  static func json(_ issues: [CachedIssue], milestones: [Int: GitHubMilestone]) throws
    -> String
  {
    var writer = JSONArrayWriter()
    var text = ""
    for issue in issues { text += try writer.element(issue, milestones: milestones) }
    return text + writer.end()
  }

  /// Writes a JSON array one element at a time, so that a list of any length is printed in
  /// constant memory; the output is the same as ``IssueTable/json(_:milestones:)``.
  struct JSONArrayWriter {
    private var count = 0
    private let encoder: JSONEncoder = {
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
      encoder.dateEncodingStrategy = .iso8601
      return encoder
    }()

    /// Creates a writer for an empty array.
    init() {}

    /// The text of one more element, with what separates it from the previous one.
    mutating func element(_ issue: CachedIssue, milestones: [Int: GitHubMilestone]) throws
      -> String
    {
      let entry = IssueTable.entry(issue, milestones: milestones)
      let body = Self.escapingControls(String(decoding: try encoder.encode(entry), as: UTF8.self))
        .split(separator: "\n", omittingEmptySubsequences: false)
        .map { "  " + $0 }.joined(separator: "\n")
      defer { count += 1 }
      return (count == 0 ? "[\n" : ",\n") + body
    }

    /// JSON with C1 controls and bidirectional overrides written as `\uXXXX` too (the encoder
    /// escapes only C0), so that no byte of it drives a terminal it is printed to.
    static func escapingControls(_ json: String) -> String {
      // The encoder already wrote C0 controls as escapes, and no line feed is inside a string.
      let unescaped = { (scalar: Unicode.Scalar) in
        scalar.value >= 0x20 && ControlCharacters.isInterpreted(scalar)
      }
      guard json.unicodeScalars.contains(where: unescaped) else { return json }
      var result = ""
      for scalar in json.unicodeScalars {
        if unescaped(scalar) {
          let hex = String(scalar.value, radix: 16)
          result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        } else {
          result.unicodeScalars.append(scalar)
        }
      }
      return result
    }

    /// The text that closes the array.
    func end() -> String { count == 0 ? "[\n\n]\n" : "\n]\n" }
  }

  static func entry(_ issue: CachedIssue, milestones: [Int: GitHubMilestone]) -> some Encodable {
    struct Entry: Encodable {
      var number: Int
      var title: String
      var state: String
      var isPullRequest: Bool
      var author: String
      var labels: [String]
      var milestone: String?
      var comments: Int
      var createdAt: Date
      var updatedAt: Date
      var closedAt: Date?
      var url: String?
    }
    return Entry(
      number: issue.number, title: issue.title, state: issue.state.rawValue,
      isPullRequest: issue.isPullRequest, author: issue.author, labels: issue.labels,
      milestone: issue.milestoneNumber.flatMap { milestones[$0]?.title },
      comments: issue.comments, createdAt: issue.createdAt, updatedAt: issue.updatedAt,
      closedAt: issue.closedAt, url: issue.htmlURL)
  }
}

extension String {
  fileprivate func trimmingTrailingSpaces() -> String {
    var copy = self
    while copy.last == " " { copy.removeLast() }
    return copy
  }

}
