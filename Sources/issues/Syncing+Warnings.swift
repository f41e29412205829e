import Foundation
import GitHubIssues
import IssuesBrowser
import TrellisTerminal

extension Syncing {
  /// Warnings a successful sync leaves: skipped items, a renamed repository.
  static func warn(_ summary: SyncSummary, repository: RepositoryName) {
    for skipped in summary.skipped.prefix(20) {
      Terminal.standardError("warning: \(ControlCharacters.visible(skipped.description))\n")
    }
    if summary.skipped.count > 20 {
      Terminal.standardError("warning: \(summary.skipped.count - 20) more items skipped\n")
    }
    if let renamed = summary.renamedTo {
      Terminal.standardError(
        "note: \(repository) is now \(ControlCharacters.visible(renamed)) on GitHub; use that name.\n"
      )
    }
  }
}
