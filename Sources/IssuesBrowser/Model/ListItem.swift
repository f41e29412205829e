/// A row of the issue list: an issue in its section, or a sub-issue shown under its parent
/// though the list shows it elsewhere, or not at all.
///
/// A sub-issue is reachable from its parent wherever it sits: when it belongs to another
/// milestone's section, or the chip or filter leaves it out, it still opens under its parent,
/// marked with its milestone. An issue can then be on two rows, so rows are not numbers.
enum ListItem: Hashable, Sendable {
  /// An issue, in the section the list puts it in.
  case issue(Int)
  /// A sub-issue shown under its parent, in the parent's section, away from its own place.
  case subIssue(Int, parent: Int)

  /// The issue the row shows: what Enter opens and an action acts on.
  var number: Int {
    switch self {
    case .issue(let number), .subIssue(let number, _): number
    }
  }
}
