/// Which way a layout's content scrolls.
public enum ScrollDirection: Hashable, Sendable {
  /// Content grows downwards.
  case vertical
  /// Content grows to the trailing side.
  case horizontal
}
