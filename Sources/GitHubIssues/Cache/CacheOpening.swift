import Foundation
import GRDB

/// Why a cache file could not be used as it was.
package enum CacheProblem: Error, Hashable, Sendable, CustomStringConvertible {
  /// The file is not a SQLite database, or it is cut short or corrupt.
  case damaged(path: String, reason: String)
  /// The file was written by a newer version, with migrations this one does not know.
  case newerSchema(path: String, unknownMigrations: [String])
  /// The file or its folder cannot be created, read or written.
  case unusable(path: String, reason: String)

  package var description: String {
    switch self {
    case .damaged(let path, let reason): "The cache at \(path) is damaged (\(reason))."
    case .newerSchema(let path, let unknown):
      "The cache at \(path) was written by a newer version of issues (it has "
        + "\(unknown.joined(separator: ", ")))."
    case .unusable(let path, let reason): "Cannot use the cache at \(path): \(reason)."
    }
  }
}

extension IssueCache {
  /// Opens the cache at a path the way the app does: a damaged file, or one written by a newer
  /// version, is moved aside (kept for inspection, never deleted) and a new cache is started, since
  /// a cache can always be synced again.
  ///
  /// - Returns: The cache, and the problem that was recovered from with where the old file went.
  /// - Throws: ``CacheProblem/unusable(path:reason:)`` when the folder or file cannot be used,
  ///   naming the path and why (a file where a folder should be, no permission).
  package static func openRecovering(at url: URL) throws(CacheProblem) -> (
    cache: IssueCache, recovered: (problem: CacheProblem, keptAt: String)?
  ) {
    try checkFolder(url.deletingLastPathComponent())
    do {
      return (try IssueCache(checkingPath: url.path), nil)
    } catch let problem as CacheProblem {
      guard case .unusable = problem else {
        let kept = url.path + ".bad-\(Int(Date().timeIntervalSince1970))"
        do {
          try FileManager.default.moveItem(atPath: url.path, toPath: kept)
          for suffix in ["-wal", "-shm"] {
            try? FileManager.default.moveItem(atPath: url.path + suffix, toPath: kept + suffix)
          }
          return (try IssueCache(checkingPath: url.path), (problem, kept))
        } catch let again as CacheProblem {
          throw again
        } catch {
          throw .unusable(path: url.path, reason: "cannot move it aside: \(reason(error))")
        }
      }
      throw problem
    } catch {
      throw .unusable(path: url.path, reason: reason(error))
    }
  }

  /// Opens a cache after checking that the file is a whole SQLite database with a schema this
  /// version knows.
  ///
  /// A cache that is current (every migration applied, in write-ahead-log mode) is checked and
  /// opened under a shared lock of its folder, so that the caches of one owner open side by side
  /// (a dashboard opens twenty); any other is checked again, created or migrated under the
  /// exclusive lock, since another process may be doing the same.
  convenience init(checkingPath path: String) throws {
    var lock = Self.lockFolder(of: path, exclusive: false)
    defer { Self.unlock(lock) }
    // The checking connection stays open until the pool has opened: closing the file's last
    // connection checkpoints the write-ahead log and deletes it, which the pool would then create
    // again.
    var check = try Self.check(path)
    defer { try? check.connection?.close() }
    if !check.isCurrent {
      try check.connection?.close()
      Self.unlock(lock)
      lock = Self.lockFolder(of: path, exclusive: true)
      check = try Self.check(path)
    }
    // Every migration applied, as just read under the lock: nothing to migrate (each migration
    // check is a write barrier).
    try self.init(openingUnderLock: path, migrated: check.isMigrated)
  }

  /// What opening a cache file found: whether every migration is applied, whether it is in
  /// write-ahead-log mode, and the connection that read it (left open).
  private struct OpeningCheck {
    var connection: DatabaseQueue?
    var isMigrated: Bool
    var isWriteAheadLog: Bool

    var isCurrent: Bool { isMigrated && isWriteAheadLog }
  }

  /// Checks a cache file's header, permissions, migrations and journal mode; the connection that
  /// read a current cache is left open.
  private static func check(_ path: String) throws -> OpeningCheck {
    if FileManager.default.fileExists(atPath: path) {
      if let problem = headerProblem(path) {
        throw CacheProblem.damaged(path: path, reason: problem)
      }
      if access(path, R_OK | W_OK) != 0 {
        throw CacheProblem.unusable(path: path, reason: "no permission to read and write it")
      }
    }
    do {
      var configuration = Configuration()
      configuration.busyMode = .timeout(10)
      let queue = try DatabaseQueue(path: path, configuration: configuration)
      let known = Set(migrator.migrations)
      let (applied, journalMode) = try queue.read { db -> ([String], String?) in
        _ = try Row.fetchAll(db, sql: "SELECT name FROM sqlite_master")
        let mode = try String.fetchOne(db, sql: "PRAGMA journal_mode")
        guard try db.tableExists("grdb_migrations") else { return ([], mode) }
        return (try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations"), mode)
      }
      let unknown = applied.filter { !known.contains($0) }
      if !unknown.isEmpty {
        try? queue.close()
        throw CacheProblem.newerSchema(path: path, unknownMigrations: unknown)
      }
      var check = OpeningCheck(
        connection: queue, isMigrated: Set(applied) == known,
        isWriteAheadLog: journalMode?.lowercased() == "wal")
      if !check.isCurrent {
        try queue.close()
        check.connection = nil
      }
      return check
    } catch let error as DatabaseError
      where [.SQLITE_CORRUPT, .SQLITE_NOTADB].contains(error.resultCode)
    {
      throw CacheProblem.damaged(path: path, reason: error.message ?? "\(error.resultCode)")
    }
  }

  /// What is wrong with the first 100 bytes of a database file, if anything: not SQLite, or
  /// shorter than the pages its header counts.
  static func headerProblem(_ path: String) -> String? {
    guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
    defer { try? handle.close() }
    let header = (try? handle.read(upToCount: 100)) ?? Data()
    let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    if size == 0 { return nil }  // an empty file becomes a new database
    guard header.count == 100, header.starts(with: Array("SQLite format 3\0".utf8)) else {
      return "not a SQLite database"
    }
    let bytes = [UInt8](header)
    func integer(_ offset: Int, _ count: Int) -> Int {
      bytes[offset..<(offset + count)].reduce(0) { $0 << 8 | Int($1) }
    }
    var pageSize = integer(16, 2)
    if pageSize == 1 { pageSize = 65_536 }
    let pages = integer(28, 4)
    // The page count is valid when written by the same change as the header's counter.
    if integer(92, 4) == integer(24, 4), pages > 0, size < pages * pageSize {
      return "cut short: \(size) bytes where its header counts \(pages * pageSize)"
    }
    return nil
  }

  /// Checks that a folder exists (creating it) and can hold the cache.
  static func checkFolder(_ folder: URL) throws(CacheProblem) {
    var isDirectory: ObjCBool = false
    // The first part of the path that exists must be a folder.
    var existing = folder
    while !FileManager.default.fileExists(atPath: existing.path, isDirectory: &isDirectory),
      existing.pathComponents.count > 1
    {
      existing.deleteLastPathComponent()
    }
    guard isDirectory.boolValue else {
      throw .unusable(path: folder.path, reason: "\(existing.path) is a file, not a folder")
    }
    do {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    } catch {
      throw .unusable(path: folder.path, reason: reason(error))
    }
    guard access(folder.path, W_OK | X_OK) == 0 else {
      throw .unusable(path: folder.path, reason: "no permission to write in this folder")
    }
  }

  /// A system error said in words, without Foundation's wrapping.
  static func reason(_ error: any Error) -> String {
    let nsError = error as NSError
    if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError,
      underlying.domain == NSPOSIXErrorDomain
    {
      return String(cString: strerror(Int32(underlying.code)))
    }
    if nsError.domain == NSPOSIXErrorDomain {
      return String(cString: strerror(Int32(nsError.code)))
    }
    if let error = error as? DatabaseError { return error.message ?? "\(error.resultCode)" }
    return nsError.localizedDescription
  }
}
