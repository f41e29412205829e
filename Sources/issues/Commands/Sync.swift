import ArgumentParser
import Foundation
import Synchronization
import GitHubIssues
import IssuesBrowser
import TrellisTerminal

/// `issues sync OWNER/REPO`: brings the cache up to date, with a progress bar.
struct Sync: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "sync",
    abstract: "Download a repository's issues into the local cache.",
    discussion: """
      Each page is written as it arrives: an interrupted sync resumes where it stopped. --full \
      lists everything again and removes what GitHub no longer has, but only when the listing \
      proves complete; otherwise it keeps every cached issue and exits with status 1. \
      --comments also lists the repository's comments (all of them the first time, then those \
      updated since). --all mirrors every conversation through GitHub's GraphQL API (it needs \
      a token): comments, events and sub-issues of every issue, for reading offline, within the \
      token's hourly points; cut off, it resumes where it stopped. Once a cache is a mirror, \
      every sync also fetches the conversations that changed. --status says what the cache \
      holds without syncing.
      """)

  @OptionGroup var options: RepositoryOptions

  @Flag(help: "List everything again and remove issues GitHub no longer has.")
  var full = false

  @Flag(help: "Fetch the repository's comments too (after the first time, what changed).")
  var comments = false

  @Flag(help: "Mirror every conversation through GraphQL (needs a token), for reading offline.")
  var all = false

  @Option(help: "With --all: the most GraphQL points this sync may spend.")
  var points: Int?

  @Flag(help: "Say what the cache holds and how much of it can be read offline; sync nothing.")
  var status = false

  func validate() throws {
    if let points, points < 1 { throw ValidationError("--points must be at least 1.") }
    if points != nil, !all { throw ValidationError("--points goes with --all.") }
    if status, all || full || comments {
      throw ValidationError("--status syncs nothing: it goes alone.")
    }
  }

  func run() async throws {
    let (host, repository) = try options.resolve()
    let path = IssueCache.defaultURL(for: repository, host: host)
    let cache = try Terminal.openCache(at: path)
    let showsProgress = isatty(STDERR_FILENO) == 1
    let start = Date()
    if status {
      try printStatus(of: cache, repository: repository, at: path)
      return
    }
    let line = ProgressDisplay(enabled: showsProgress)
    if all {
      guard try TokenDiscovery.token(for: host) != nil else {
        throw CommandFailure(
          "--all mirrors through GitHub's GraphQL API, which needs a token: \(host.tokenAdvice). "
            + "Without one, `issues sync` uses REST.")
      }
      do {
        let summary = try await Syncing.mirror(
          host: host, repository: repository, cache: cache, full: full, pointLimit: points,
          timeout: options.timeout, progress: { line.update($0) },
          waiting: { line.note(Syncing.waitingNote($0)) })
        line.clear()
        let seconds = String(format: "%.1f", Date().timeIntervalSince(start))
        for skipped in summary.skipped.prefix(20) {
          Terminal.standardError("warning: \(skipped)\n")
        }
        let left = summary.pointsLeft.map { ", \($0) left" } ?? ""
        let deleted = summary.deleted > 0 ? ", \(summary.deleted) no longer on GitHub removed" : ""
        print(
          "Mirrored \(repository): \(summary.items) items, \(summary.conversations) conversations, "
            + "\(summary.subIssueLists) sub-issue lists\(deleted) in \(seconds) s; "
            + "\(summary.queries) GraphQL queries, \(summary.pointsSpent) points\(left); "
            + "\(summary.restRequests) REST requests.")
        print(Self.coverageLine(summary.coverage))
      } catch {
        line.clear()
        throw Terminal.failure(error, repository: repository)
      }
      return
    }
    do {
      let summary = try await Syncing.run(
        host: host, repository: repository, cache: cache, full: full, timeout: options.timeout,
        progress: { line.update($0) }, waiting: { line.note(Syncing.waitingNote($0)) })
      line.clear()
      let seconds = String(format: "%.1f", Date().timeIntervalSince(start))
      let total = (try? cache.syncState().itemCount) ?? summary.items
      Syncing.warn(summary, repository: repository)
      let deleted = summary.deleted > 0 ? ", \(summary.deleted) no longer on GitHub removed" : ""
      print(
        "Synced \(repository): \(summary.items) items changed in \(summary.pages) pages"
          + "\(summary.wasFull ? " (full)" : "")\(deleted) in \(seconds) s; \(total) in the cache at \(path.path)"
      )
      if summary.queueSent > 0 || summary.queueWaiting > 0 {
        print(
          "Queue: \(summary.queueSent) queued actions reached GitHub first; "
            + "\(summary.queueWaiting) wait (issues queue lists them).")
      }
      if comments {
        line.note("listing the comments…")
        let client = Syncing.client(
          host: host, token: try TokenDiscovery.token(for: host), timeout: options.timeout)
        let listed = try await CommentSynchronizer(
          client: client, cache: cache, repository: repository
        ).sync(full: full)
        line.clear()
        let removed = listed.deleted > 0 ? ", \(listed.deleted) no longer on GitHub removed" : ""
        let kind = listed.wasFull ? " (all of them)" : " (changed since the last listing)"
        print("Comments: \(listed.comments) in \(listed.pages) pages\(kind)\(removed).")
      }
    } catch {
      line.clear()
      throw Terminal.failure(error, repository: repository)
    }
  }
}

extension Sync {
  /// The coverage line: how many issues can be read offline, and the points the mirror spent.
  static func coverageLine(_ coverage: MirrorCoverage) -> String {
    let kind = coverage.isMirror ? "Mirror" : "Cache"
    return
      "\(kind): \(coverage.completeConversations) of \(coverage.issues) issues readable offline "
      + "(comments and events complete)"
      + (coverage.pointsSpent > 0 ? "; \(coverage.pointsSpent) GraphQL points spent on it." : ".")
  }

  func printStatus(of cache: IssueCache, repository: RepositoryName, at path: URL) throws {
    let state = try cache.syncState()
    let coverage = try cache.mirrorCoverage()
    let synced =
      state.lastSyncedAt.map { "last synced \(ISO8601DateFormatter().string(from: $0))" }
      ?? "never synced"
    print("\(repository): \(state.itemCount) items in \(path.path), \(synced).")
    if state.pendingFullListing != nil {
      print("A full listing is pending: the next sync resumes it.")
    }
    print(Self.coverageLine(coverage))
    if coverage.isMirror {
      print(Self.unfollowedLine)
    }
  }

  /// What a mirror cannot see by `updatedAt`, said where its coverage is.
  static let unfollowedLine =
    "Not followed until the issue changes again: comments edited or deleted and reactions "
    + "added (GitHub does not update the issue for them); `sync --comments` brings edited "
    + "comments, `sync --comments --full` removes deleted ones."
}

/// The progress line on standard error, redrawn every second even when no page arrives, so that
/// a slow server shows as waiting rather than as a hang.
final class ProgressDisplay: Sendable {
  private struct State {
    var last: SyncProgress?
    var note: String?
    var lastChange = Date()
  }
  private let enabled: Bool
  /// What the line shows; the lock is held while it is written, so lines never interleave.
  private let state = Mutex(State())
  private let ticker = Mutex<Task<Void, Never>?>(nil)

  init(enabled: Bool) {
    self.enabled = enabled
    guard enabled else { return }
    let task = Task.detached { [weak self] in
      while !Task.isCancelled {
        try? await Task.sleep(for: .seconds(1))
        self?.draw()
      }
    }
    ticker.withLock { $0 = task }
  }

  func update(_ progress: SyncProgress) {
    state.withLock {
      $0.last = progress
      $0.note = nil
      $0.lastChange = Date()
    }
    draw()
  }

  func note(_ text: String) {
    state.withLock {
      $0.note = text
      $0.lastChange = Date()
    }
    draw()
  }

  func clear() {
    ticker.withLock { $0?.cancel() }
    guard enabled else { return }
    state.withLock { _ in Terminal.standardError("\r\u{1B}[2K") }
  }

  private func draw() {
    guard enabled else { return }
    state.withLock { state in
      let width = Terminal.width(STDERR_FILENO)
      let waited = Int(Date().timeIntervalSince(state.lastChange))
      var text =
        state.note
        ?? ProgressLine.line(
          state.last ?? SyncProgress(phase: .milestones, pages: 0, items: 0), expected: nil,
          width: width - 12)
      if waited >= 2 { text += " · waiting \(waited) s" }
      Terminal.standardError("\r\u{1B}[2K" + String(text.prefix(max(1, width - 1))))
    }
  }
}
