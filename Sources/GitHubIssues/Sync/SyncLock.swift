import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An exclusive lock on one cache's syncs, held from before the first request to after the last
/// write, so that two syncs (the browser's and `issues sync` in another terminal) never download
/// the same pages twice or race to write them.
///
/// It is an advisory `flock` on `CACHE.sqlite.lock`, which holds the holder's process id. The
/// kernel releases it when the holder exits, however it exits, so a crashed sync never leaves a
/// stale lock. Readers never take it.
final class SyncLock: Sendable {
  private let descriptor: Int32

  private init(descriptor: Int32) { self.descriptor = descriptor }

  deinit {
    flock(descriptor, LOCK_UN)
    close(descriptor)
  }

  /// What a sync does when another one holds the lock.
  enum Policy: Sendable {
    /// Fail at once with ``GitHubError/Code/syncInProgress``, naming the holder's process.
    case failFast
    /// Wait for the other to finish; `waiting` is told its process id once.
    case wait(waiting: @Sendable (Int32?) -> Void)
  }

  /// Takes the lock for a cache file.
  static func acquire(forCacheAt path: String, policy: Policy) async throws(GitHubError)
    -> SyncLock
  {
    let lockPath = path + ".lock"
    let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else {
      throw GitHubError(
        .syncInProgress, url: lockPath,
        detail: "cannot open the lock file: \(String(cString: strerror(errno)))")
    }
    var toldWaiting = false
    while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
      guard errno == EWOULDBLOCK || errno == EINTR else {
        let reason = String(cString: strerror(errno))
        close(descriptor)
        throw GitHubError(.syncInProgress, url: lockPath, detail: "cannot lock: \(reason)")
      }
      let holder = Self.holder(descriptor)
      switch policy {
      case .failFast:
        close(descriptor)
        throw GitHubError(
          .syncInProgress, url: path,
          detail: holder.map { "process \($0) is syncing it" } ?? "another process is syncing it")
      case .wait(let waiting):
        if !toldWaiting {
          waiting(holder)
          toldWaiting = true
        }
        do {
          try await Task.sleep(for: .milliseconds(100))
        } catch {
          close(descriptor)
          throw GitHubError(.offline, url: path, detail: "cancelled")
        }
      }
    }
    let pid = "\(getpid())\n"
    _ = ftruncate(descriptor, 0)
    _ = pid.withCString { pwrite(descriptor, $0, strlen($0), 0) }
    return SyncLock(descriptor: descriptor)
  }

  /// The process id the holder wrote, if readable.
  private static func holder(_ descriptor: Int32) -> Int32? {
    var buffer = [UInt8](repeating: 0, count: 32)
    let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, 31, 0) }
    guard count > 0 else { return nil }
    return Int32(
      String(decoding: buffer[..<count], as: UTF8.self).trimmingCharacters(
        in: .whitespacesAndNewlines))
  }
}
