import GRDB

/// Which issues have actions waiting in the queue, and which of those are in conflict: what
/// the list marks on their rows (`⇡`, `!`).
public struct QueueMarks: Hashable, Sendable {
  /// Issues with an action pending, being sent, or in conflict.
  package var waiting: Set<Int>
  /// Issues with an action in conflict, waiting for the person.
  package var conflicted: Set<Int>

  /// No mark.
  public init(waiting: Set<Int> = [], conflicted: Set<Int> = []) {
    self.waiting = waiting
    self.conflicted = conflicted
  }

  /// The marks as the queue holds them now, in one read.
  init(_ db: Database) throws {
    var waiting: Set<Int> = []
    var conflicted: Set<Int> = []
    // Read after every commit that touched the queue: kept prepared.
    let statement = try db.cachedStatement(
      sql: """
        SELECT DISTINCT issueNumber, status = 'conflict' FROM queuedAction
        WHERE status IN ('pending', 'sending', 'conflict')
        """)
    let rows = try Row.fetchCursor(statement)
    while let row = try rows.next() {
      let number: Int = row[0]
      waiting.insert(number)
      if row[1] as Bool { conflicted.insert(number) }
    }
    self.init(waiting: waiting, conflicted: conflicted)
  }
}
