/// Which keys a ``CollectionView`` reads to move the focus.
public enum NavigationKeys: Hashable, Sendable {
  /// Arrows, Page Up/Down, Home/End, Enter and space.
  case standard
  /// The standard keys, and vim's h/j/k/l, g (first) and G (last) — for views whose app does not
  /// use those letters itself.
  case standardAndVim
}

/// A direction the focus moves in.
public enum FocusMove: Hashable, Sendable {
  case up
  case down
  case left
  case right
  case pageUp
  case pageDown
  case first
  case last
}
