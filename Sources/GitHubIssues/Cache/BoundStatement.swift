import GRDB
import GRDBSQLite

/// A statement whose values are bound one at a time, straight into SQLite, then run: what a
/// bulk write runs for every row without building `StatementArguments` (a box per value) for it.
///
/// It owns its statement rather than sharing GRDB's statement cache, so nothing else can bind
/// to it between the ``bind(_:)-(Int64?)`` calls and ``execute()``. It still runs through GRDB,
/// so the transaction observers see every change it makes.
final class BoundStatement {
  let statement: Statement
  private let count: Int32
  private var next: Int32 = 1

  init(_ db: Database, sql: String) throws {
    statement = try db.makeStatement(sql: sql)
    count = sqlite3_bind_parameter_count(statement.sqliteStatement)
    // Marks the arguments as set, so that running the statement without arguments runs what
    // is bound here (SQLite keeps bindings across a reset).
    statement.setUncheckedArguments(
      StatementArguments(Array(repeating: DatabaseValue.null, count: Int(count))))
  }

  func bind(_ value: Int64?) {
    if let value {
      check(sqlite3_bind_int64(statement.sqliteStatement, next, value))
    } else {
      check(sqlite3_bind_null(statement.sqliteStatement, next))
    }
  }

  func bind(_ value: Int?) { bind(value.map(Int64.init)) }

  func bind(_ value: Bool) { bind(Int64(value ? 1 : 0)) }

  /// Binds text as GRDB does: a C string, copied by SQLite.
  func bind(_ value: String?) {
    if let value {
      check(sqlite3_bind_text(statement.sqliteStatement, next, value, -1, Self.transient))
    } else {
      check(sqlite3_bind_null(statement.sqliteStatement, next))
    }
  }

  /// Runs the statement with the values bound since the last run.
  func execute() throws {
    precondition(next == count + 1, "\(next - 1) of \(count) values bound for \(statement.sql)")
    next = 1
    defer { rewind() }
    try statement.execute()
  }

  /// Runs the statement with the values bound since the last run, and answers the integer in
  /// the first column of its first row.
  func fetchInteger() throws -> Int64? {
    precondition(next == count + 1, "\(next - 1) of \(count) values bound for \(statement.sql)")
    next = 1
    defer { rewind() }
    return try Int64.fetchOne(statement)
  }

  /// Makes the statement ready for the next values (SQLite binds only to a statement that is
  /// not running); its answer repeats the run's error, which the run reported already.
  private func rewind() {
    _ = sqlite3_reset(statement.sqliteStatement)
  }

  private func check(_ code: Int32) {
    // Binding only fails on a misuse (an index out of range): the precondition's business.
    precondition(code == SQLITE_OK, "binding value \(next) of \(statement.sql) failed (\(code))")
    next += 1
  }

  /// `SQLITE_TRANSIENT`: SQLite copies the value before the call returns.
  private static var transient: sqlite3_destructor_type {
    unsafeBitCast(-1, to: sqlite3_destructor_type.self)
  }
}
