import Foundation
import Synchronization

/// The pause GitHub asked of a host's writes — a secondary limit's `retry-after`, the primary
/// quota's reset — kept where every process that writes to that host reads it.
///
/// GitHub counts its limits per account, not per repository: a content-creation limit met by
/// one repository's queue holds the others' and the inbox's triage as well. So the pause is one
/// file in the host's folder of the cache (`…/trellis-issues/HOST/write.pause`: no owner's
/// folder can have the name, as no GitHub login holds a dot), read by every outbox before it
/// sends (``OutboxLoop``) and written when GitHub asks for one. A store kept outside that layout
/// keeps its pause beside its file; one in memory, in memory.
///
/// A damaged or unreadable file is no pause: it can hold writes back, never lose them.
package final class WritePause: Sendable {
  /// A pause: until when, and GitHub's words.
  package struct Pause: Sendable, Equatable {
    /// When writes may go again.
    package var until: Date
    /// What GitHub said, for the person.
    package var detail: String?
  }

  /// The file the pause is kept in, or `nil` for a store in memory.
  private let file: String?
  /// The pause of a store in memory.
  private let memory = Mutex<Pause?>(nil)

  /// The longest pause kept: a `retry-after` or reset further away than GitHub's hourly window
  /// is taken for an hour, so that a wrong answer cannot hold the queue for longer.
  package static var longest: TimeInterval { 3600 }

  /// The pause of the host whose store is the file at `path`; in memory when `path` is `nil`.
  package init(forStoreAt path: String?) {
    file = path.map(Self.file(forStoreAt:))
  }

  /// Where the pause of a store's host is kept: the host's folder when the store is in the
  /// cache's layout (`…/trellis-issues/HOST/…`), else beside the store.
  static func file(forStoreAt path: String) -> String {
    var folder = URL(fileURLWithPath: path).deletingLastPathComponent()
    while folder.pathComponents.count > 1 {
      let parent = folder.deletingLastPathComponent()
      if parent.lastPathComponent == "trellis-issues" {
        return folder.appendingPathComponent("write.pause").path
      }
      folder = parent
    }
    return path + ".write.pause"
  }

  /// The pause kept, if any (ended or not).
  package func current() -> Pause? {
    guard let path = file else { return memory.withLock { $0 } }
    // Read no more than a pause takes: a file grown huge (damaged, or not ours) is no pause.
    guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
    defer { try? handle.close() }
    guard let data = try? handle.read(upToCount: 4096) else { return nil }
    let lines = String(decoding: data, as: UTF8.self)
      .split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
    guard let seconds = lines.first.flatMap({ Double($0) }), seconds.isFinite else { return nil }
    return Pause(
      until: Date(timeIntervalSince1970: seconds),
      detail: lines.count > 1 && !lines[1].isEmpty ? String(lines[1]) : nil)
  }

  /// The pause that holds writes at `now`, if one does.
  package func holding(at now: Date) -> Pause? {
    current().flatMap { $0.until > now ? $0 : nil }
  }

  /// Keeps the pause GitHub asked for, at most ``longest`` from `now`; a pause kept already
  /// that ends later stays.
  package func keep(until: Date, detail: String?, now: Date) throws {
    let until = min(until, now.addingTimeInterval(Self.longest))
    let detail = detail.map { $0.replacingOccurrences(of: "\n", with: " ") }
    let kept = current()
    let pause =
      if let kept, kept.until > until, kept.until <= now.addingTimeInterval(Self.longest) {
        Pause(until: kept.until, detail: kept.detail)
      } else {
        Pause(until: until, detail: detail)
      }
    guard let path = file else {
      memory.withLock { $0 = pause }
      return
    }
    let text = "\(pause.until.timeIntervalSince1970)\n\(pause.detail ?? "")"
    try FileManager.default.createDirectory(
      atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    // Written whole, then moved in place: a reader sees the old pause or the new one.
    try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
  }
}
