import GitHubIssues

/// A row of the issue list: an issue in its section, or a sub-issue shown under its parent
/// though the list shows it elsewhere, or not at all.
///
/// An issue row is its cache row's ``IssueKey``, not GitHub's number: the list holds on to the
/// row whatever GitHub numbers it (an issue filed offline has no number yet). A sub-issue row
/// names the child by number, as GitHub's sub-issue lists do, under its parent's row.
///
/// A sub-issue is reachable from its parent wherever it sits: when it belongs to another
/// milestone's section, or the chip or filter leaves it out, it still opens under its parent,
/// marked with its milestone. An issue can then be on two rows, so rows are not issues.
enum ListItem: Hashable, Sendable {
  /// An issue, in the section the list puts it in.
  case issue(IssueKey)
  /// A sub-issue (by number) shown under its parent, in the parent's section, away from its
  /// own place.
  case subIssue(Int, parent: IssueKey)

  /// The issue row's key, or `nil` for a sub-issue shown away from its place.
  var key: IssueKey? {
    switch self {
    case .issue(let key): key
    case .subIssue: nil
    }
  }
}
