import ArgumentParser
import Foundation
import GitHubIssues
import TrellisTerminal

/// The search and label flags as gh reads them, shared by `list` and `pr list`.
enum SearchOption {
  /// The query of a `--search` value; `nil` without one.
  ///
  /// - Throws: a usage error quoting the query with a caret under the characters at fault.
  static func query(_ text: String?) throws -> SearchQuery? {
    guard let text else { return nil }
    do {
      return try SearchQuery(parsing: text)
    } catch {
      let visible = ControlCharacters.visible(text)
      let caret =
        String(repeating: " ", count: error.offset)
        + String(repeating: "^", count: max(error.length, 1))
      throw ValidationError("--search: \(error.message)\n  \(visible)\n  \(caret)")
    }
  }

  /// Label flags, each split at its commas: gh reads `-l bug,crash` as two labels.
  static func labels(_ values: [String]) -> [String] {
    var labels: [String] = []
    for value in values {
      for part in value.split(separator: ",") {
        let name = part.trimmingCharacters(in: .whitespaces)
        if !name.isEmpty, !labels.contains(name) { labels.append(name) }
      }
    }
    return labels
  }
}
