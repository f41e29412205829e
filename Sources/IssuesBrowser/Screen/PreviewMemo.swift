import GitHubIssues
import TrellisTerminal

/// The last issue's preview lines at a width, so that Markdown is rendered once per issue and
/// width, not once per frame.
///
/// A memo, not state: forgetting it changes nothing on screen, only what the next frame costs.
final class PreviewMemo {
  private var memo: (item: ListItem, width: Int, lines: [StyledLine])?

  /// The lines of a row's issue at `width`: remembered ones, or `make()`'s, remembered.
  func lines(of item: ListItem, width: Int, make: () -> [StyledLine]?) -> [StyledLine]? {
    if let memo, memo.item == item, memo.width == width { return memo.lines }
    guard let lines = make() else { return nil }
    memo = (item, width, lines)
    return lines
  }

  /// Forgets the lines if they are those of a row of one of `keys` (their issues changed), or of
  /// a sub-issue row (its issue may be any of them).
  func forget(_ keys: Set<IssueKey>) {
    guard let memo else { return }
    if memo.item.key.map(keys.contains) ?? true { self.memo = nil }
  }

  /// Forgets the lines.
  func clear() { memo = nil }
}
