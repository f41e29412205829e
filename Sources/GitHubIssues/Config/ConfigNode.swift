/// A value of the configuration file with where it is, so that a mistake in it is reported at
/// its line and column.
///
/// The file's YAML, as every reader of it sees it: the dashboard's sections, the keys, the
/// commands and the theme are all read from these.
public struct ConfigNode: Hashable, Sendable {
  /// How a scalar was written, which places a column inside it.
  public enum ScalarStyle: Hashable, Sendable {
    /// Bare text.
    case plain
    /// Between quotes (the text starts a column after the quote).
    case quoted
    /// A literal or folded block (`|`, `>`), on the lines after.
    case block
  }

  /// What the node holds.
  public indirect enum Value: Hashable, Sendable {
    /// Text, and how it was written.
    case scalar(String, ScalarStyle)
    /// A list.
    case sequence([ConfigNode])
    /// Keys and their values, in the file's order.
    case mapping([ConfigPair])
  }

  /// What the node holds.
  public var value: Value
  /// Its line, from 1.
  public var line: Int
  /// Its column, from 1.
  public var column: Int

  /// A node at a place.
  public init(_ value: Value, line: Int, column: Int) {
    self.value = value
    self.line = line
    self.column = column
  }

  /// Its text, when it is a scalar.
  package var scalar: String? {
    if case .scalar(let text, _) = value { text } else { nil }
  }
}

/// A key of a mapping and its value.
public struct ConfigPair: Hashable, Sendable {
  /// The key's text.
  public var key: String
  /// The key, for errors about it.
  package var keyNode: ConfigNode
  /// The value.
  public var value: ConfigNode

  /// A pair.
  public init(key: String, keyNode: ConfigNode, value: ConfigNode) {
    self.key = key
    self.keyNode = keyNode
    self.value = value
  }
}
