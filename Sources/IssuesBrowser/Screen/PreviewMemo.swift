import TrellisTerminal

/// The last issue's preview lines at a width, so that Markdown is rendered once per issue and
/// width, not once per frame.
///
/// A memo, not state: forgetting it changes nothing on screen, only what the next frame costs.
final class PreviewMemo {
  private var memo: (number: Int, width: Int, lines: [StyledLine])?

  /// The lines of issue `number` at `width`: remembered ones, or `make()`'s, remembered.
  func lines(of number: Int, width: Int, make: () -> [StyledLine]?) -> [StyledLine]? {
    if let memo, memo.number == number, memo.width == width { return memo.lines }
    guard let lines = make() else { return nil }
    memo = (number, width, lines)
    return lines
  }

  /// Forgets the lines if they are those of one of `numbers` (their issues changed).
  func forget(_ numbers: Set<Int>) {
    if let memo, numbers.contains(memo.number) { self.memo = nil }
  }

  /// Forgets the lines.
  func clear() { memo = nil }
}
