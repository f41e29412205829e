import GitHubIssues
import TrellisTerminal

/// The preview lines of the last few issues at a width, so that Markdown is rendered once per
/// issue and width, not once per frame, and the rows next to the focus can be rendered before the
/// focus reaches them.
///
/// A memo, not state: forgetting it changes nothing on screen, only what the next frame costs.
final class PreviewMemo {
  /// The focused row's lines and its neighbours', most recently used last.
  private var memo: [(item: ListItem, width: Int, lines: [StyledLine])] = []
  /// How many previews are kept: the focused row's and the two next to it.
  static let capacity = 3

  /// The lines of a row's issue at `width`: remembered ones, or `make()`'s, remembered.
  func lines(of item: ListItem, width: Int, make: () -> [StyledLine]?) -> [StyledLine]? {
    if let index = memo.firstIndex(where: { $0.item == item && $0.width == width }) {
      let found = memo.remove(at: index)
      memo.append(found)
      return found.lines
    }
    guard let lines = make() else { return nil }
    remember(item, width: width, lines: lines)
    return lines
  }

  /// Whether a row's lines at `width` are remembered.
  func contains(_ item: ListItem, width: Int) -> Bool {
    memo.contains { $0.item == item && $0.width == width }
  }

  /// Remembers lines made ahead of the focus, forgetting the least recently used beyond
  /// ``capacity``.
  func remember(_ item: ListItem, width: Int, lines: [StyledLine]) {
    memo.removeAll { $0.item == item && $0.width == width }
    memo.append((item, width, lines))
    if memo.count > Self.capacity { memo.removeFirst(memo.count - Self.capacity) }
  }

  /// Forgets the lines of rows of one of `keys` (their issues changed), and of sub-issue rows
  /// (their issue may be any of them).
  func forget(_ keys: Set<IssueKey>) {
    memo.removeAll { $0.item.key.map(keys.contains) ?? true }
  }

  /// Forgets the lines.
  func clear() { memo.removeAll() }
}
