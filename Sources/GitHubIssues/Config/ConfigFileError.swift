/// A mistake in a file the app reads (the configuration file, an issue form or template), and
/// where it is: `FILE:LINE:COLUMN: message`,
/// as compilers write them, so an editor can jump there.
public struct ConfigFileError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The file.
  public var file: String
  /// The line, from 1.
  public var line: Int
  /// The column, from 1.
  public var column: Int
  /// What is wrong, and what would be right.
  public var message: String

  /// An error at a place in a file.
  public init(file: String, line: Int, column: Int, message: String) {
    self.file = file
    self.line = line
    self.column = column
    self.message = message
  }

  public var description: String { "\(file):\(line):\(column): \(message)" }
}
