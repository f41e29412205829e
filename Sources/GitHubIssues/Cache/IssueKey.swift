import GRDB

/// The cache's own identity for an issue or pull request row: given when the row is first
/// written, never changed, never reused after the row is deleted.
///
/// GitHub's number and id are facts about a row, filled in when known; the key is what the list,
/// the reader, the observers and the outbox hold on to. An issue filed offline has a key long
/// before GitHub numbers it, and keeps it when GitHub does, so nothing that points at it has to
/// follow a change of identity.
public struct IssueKey: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// The key's value: the row's `key` column (its SQLite rowid).
  package var rawValue: Int64

  /// Wraps a key read from the cache.
  public init(rawValue: Int64) {
    self.rawValue = rawValue
  }

  public static func < (lhs: IssueKey, rhs: IssueKey) -> Bool {
    lhs.rawValue < rhs.rawValue
  }

  public var description: String { "key \(rawValue)" }
}

extension IssueKey: DatabaseValueConvertible {
  public var databaseValue: DatabaseValue { rawValue.databaseValue }

  public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> IssueKey? {
    Int64.fromDatabaseValue(dbValue).map(IssueKey.init(rawValue:))
  }
}
