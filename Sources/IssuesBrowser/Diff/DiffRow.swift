/// A row of the diff screen, as its list knows it: which file, what kind of row, and where in
/// the file — an identity that survives a push for every line the push did not move.
///
/// `index` says where the row's content is in its file's rows *now*; it is not part of the
/// identity, so that a staged update after a push matches a line to itself even when lines
/// were added above it.
package struct DiffRow: Hashable, Sendable {
  /// What a row shows.
  package enum Kind: UInt8, Hashable, Sendable {
    /// A hunk's header (`@@ -10,3 +10,4 @@ section`).
    case hunk
    /// A line of a hunk.
    case line
    /// What the file is when it has no lines to show (binary, renamed as it was, not given).
    case note
    /// A thread of line comments, after the line it is on.
    case thread
    /// A line comment drafted for the pending review, after its line.
    case draft
  }

  /// The file's identifier (stable across pushes: one per path).
  package var file: Int32
  /// What it shows.
  package var kind: Kind
  /// A context or removed line's old number (-1 for an added one), a hunk's old start, a
  /// thread's or draft's identifier (high half).
  package var old: Int32
  /// An added line's new number (a negative mark for the others: -3 context, -1 removed), a
  /// hunk's new start, a thread's or draft's identifier (low half).
  package var new: Int32
  /// Where its content is among the file's rows now (not part of the identity).
  package var index: Int32

  /// A row.
  package init(file: Int32, kind: Kind, old: Int32, new: Int32, index: Int32) {
    self.file = file
    self.kind = kind
    self.old = old
    self.new = new
    self.index = index
  }

  package static func == (lhs: DiffRow, rhs: DiffRow) -> Bool {
    lhs.file == rhs.file && lhs.kind == rhs.kind && lhs.old == rhs.old && lhs.new == rhs.new
  }

  package func hash(into hasher: inout Hasher) {
    hasher.combine(file)
    hasher.combine(kind)
    hasher.combine(old)
    hasher.combine(new)
  }
}
