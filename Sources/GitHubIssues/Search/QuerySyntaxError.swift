/// Why a query could not be read, and where: the characters of the query at fault.
///
/// A configuration file turns the position into a line and column of its own
/// (``ConfigFileError``); the command line prints the query with a caret under it.
public struct QuerySyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What is wrong, and what would be right.
  public var message: String
  /// Where the fault starts, in characters from the start of the query.
  public var offset: Int
  /// How many characters it spans (at least one, unless the query is empty).
  public var length: Int

  /// An error at a place in the query.
  public init(_ message: String, offset: Int, length: Int) {
    self.message = message
    self.offset = offset
    self.length = length
  }

  public var description: String { "column \(offset + 1): \(message)" }
}
