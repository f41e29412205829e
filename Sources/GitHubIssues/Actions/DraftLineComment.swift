/// A comment on lines of a pull request's diff, drafted for the next review: kept in the
/// cache (the pending review) until the review goes to the outbox with it.
public struct DraftLineComment: Hashable, Sendable, Codable {
  /// Which version of the file a line number counts in.
  public enum Side: String, Hashable, Sendable, Codable, CaseIterable {
    /// The base's version: a removed line, or context counted in the old file.
    case left = "LEFT"
    /// The head's version: an added line, or context counted in the new file.
    case right = "RIGHT"
  }

  /// The file's path at the head.
  public var path: String
  /// The last line commented on.
  public var line: Int
  /// The side `line` counts in.
  public var side: Side
  /// The first line, for a comment on several lines (`nil` for one line).
  public var startLine: Int?
  /// The side `startLine` counts in.
  public var startSide: Side?
  /// The comment, in Markdown (a ```` ```suggestion ```` block proposes a change).
  public var body: String

  /// A comment on one line, or on `startLine` through `line`.
  public init(
    path: String, line: Int, side: Side = .right, startLine: Int? = nil,
    startSide: Side? = nil, body: String
  ) {
    self.path = path
    self.line = line
    self.side = side
    self.startLine = startLine
    self.startSide = startLine == nil ? nil : (startSide ?? side)
    self.body = body
  }

  /// "Sources/a.swift:12" or "Sources/a.swift:10-12" (with `L` for the base's side).
  package var location: String {
    let prefix = side == .left ? "L" : ""
    if let startLine, startLine != line { return "\(path):\(prefix)\(startLine)-\(line)" }
    return "\(path):\(prefix)\(line)"
  }
}
