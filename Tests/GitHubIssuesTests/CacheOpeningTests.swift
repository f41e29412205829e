import Foundation
import GRDB
import Synchronization
import Testing

@testable import GitHubIssues

/// A cache file is a cache: damaged or from a newer version, it is moved aside (kept) and a new
/// one started; a place that cannot hold it is an error naming the path and why.
@Suite struct CacheOpeningTests {
  private func folder() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "trellis-open-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  private func filledCache(at url: URL) throws {
    let cache = try IssueCache(path: url.path)
    try cache.apply(BundledDataset.load())
  }

  @Test func garbageIsMovedAsideAndANewCacheStarts() throws {
    let folder = try folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let url = folder.appendingPathComponent("r.sqlite")
    try Data(repeating: 0x41, count: 5000).write(to: url)
    let (cache, recovered) = try IssueCache.openRecovering(at: url)
    #expect(try cache.syncState().itemCount == 0)
    let (problem, kept) = try #require(recovered)
    #expect(problem == .damaged(path: url.path, reason: "not a SQLite database"))
    #expect(FileManager.default.fileExists(atPath: kept))
  }

  @Test func aTruncatedCacheIsDetected() throws {
    let folder = try folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let url = folder.appendingPathComponent("r.sqlite")
    try filledCache(at: url)
    let data = try Data(contentsOf: url)
    try data.prefix(data.count / 2).write(to: url)
    let (_, recovered) = try IssueCache.openRecovering(at: url)
    guard case .damaged(_, let reason)? = recovered?.problem else {
      Issue.record("expected a damaged cache, got \(String(describing: recovered))")
      return
    }
    #expect(reason.hasPrefix("cut short"))
  }

  @Test func aCacheFromANewerVersionIsMovedAsideNotMisread() throws {
    let folder = try folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let url = folder.appendingPathComponent("r.sqlite")
    try filledCache(at: url)
    let queue = try DatabaseQueue(path: url.path)
    try queue.write { db in
      try db.execute(sql: "INSERT INTO grdb_migrations VALUES ('v9: from the future')")
    }
    try queue.close()
    let (cache, recovered) = try IssueCache.openRecovering(at: url)
    #expect(
      recovered?.problem == .newerSchema(path: url.path, unknownMigrations: ["v9: from the future"])
    )
    #expect(try cache.syncState().itemCount == 0)
  }

  @Test func aGoodCacheOpensAsItIs() throws {
    let folder = try folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let url = folder.appendingPathComponent("r.sqlite")
    try filledCache(at: url)
    let (cache, recovered) = try IssueCache.openRecovering(at: url)
    #expect(recovered == nil)
    #expect(try cache.syncState().itemCount == 150)
  }

  @Test func aFileWhereAFolderShouldBeIsNamed() throws {
    let folder = try folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("github.com")
    try Data("x".utf8).write(to: file)
    do {
      _ = try IssueCache.openRecovering(at: file.appendingPathComponent("o/r.sqlite"))
      Issue.record("expected an error")
    } catch {
      #expect(error.description.contains("\(file.path) is a file, not a folder"))
    }
  }

  /// A current cache opens under a shared lock of its folder: another holder of a shared lock (a
  /// process opening a sibling cache) does not make it wait, as the exclusive lock would.
  @Test func aCurrentCacheOpensBesideAnotherOpening() throws {
    let folder = try folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let url = folder.appendingPathComponent("r.sqlite")
    try filledCache(at: url)
    let held = IssueCache.lockFolder(of: url.path, exclusive: false)
    defer { IssueCache.unlock(held) }
    let opened = DispatchSemaphore(value: 0)
    let items = Mutex<Int?>(nil)
    Thread.detachNewThread {
      let count = try? IssueCache.openRecovering(at: url).cache.syncState().itemCount
      items.withLock { $0 = count }
      opened.signal()
    }
    #expect(opened.wait(timeout: .now() + 20) == .success, "the open waited for the shared lock")
    #expect(items.withLock { $0 } == 150)
  }

  /// A new cache is still created under the exclusive lock: eight openings of one new file at
  /// once all succeed, on one schema.
  @Test func aNewCacheOpenedByManyAtOnceIsCreatedOnce() throws {
    let folder = try folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let url = folder.appendingPathComponent("r.sqlite")
    let failures = Mutex<[String]>([])
    DispatchQueue.concurrentPerform(iterations: 8) { _ in
      do {
        let (cache, recovered) = try IssueCache.openRecovering(at: url)
        if let recovered { failures.withLock { $0.append("recovered: \(recovered.problem)") } }
        _ = try cache.syncState()
      } catch {
        failures.withLock { $0.append("\(error)") }
      }
    }
    #expect(failures.withLock { $0 } == [])
    let queue = try DatabaseQueue(path: url.path)
    let (mode, migrations) = try queue.read { db in
      (
        try String.fetchOne(db, sql: "PRAGMA journal_mode"),
        try Int.fetchOne(db, sql: "SELECT count(*) FROM grdb_migrations")
      )
    }
    try queue.close()
    #expect(mode == "wal")
    #expect(migrations == IssueCache.migrator.migrations.count)
  }
}
