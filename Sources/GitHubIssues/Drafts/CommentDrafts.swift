import Foundation

/// Comment drafts: what a person writes in an editor, kept until it goes to the outbox.
///
/// The words live in the cache's draft store (``IssueCache/saveDraft(_:onIssue:now:)``), the one
/// place every draft is kept, where the outbox gives back what GitHub refused or the person
/// cancelled. The editor works on a file, its buffer: ``openBuffer(for:)`` writes the draft there,
/// ``closeBuffer(for:)`` takes what the editor left into the store and removes the file. A buffer
/// left behind (a crash while editing, or a draft an earlier version kept as a file) is taken
/// into the store the next time drafts are read: the file is newer than what the store holds.
///
/// Buffers live under `XDG_STATE_HOME` (`~/.local/state`), and only the owner can read them.
/// Every write replaces the file atomically, so a crash leaves the old text or the new.
package struct CommentDrafts: Sendable {
  /// The cache whose draft store holds the drafts.
  package let cache: IssueCache
  /// The folder of the editor's buffers.
  package let directory: URL

  /// Drafts kept in a cache, edited in buffers in a folder.
  package init(cache: IssueCache, directory: URL) {
    self.cache = cache
    self.directory = directory
  }

  /// Where a repository's buffers live by default:
  /// `$XDG_STATE_HOME/trellis-issues/HOST/OWNER/REPO/drafts`, with `~/.local/state` when the
  /// variable is unset.
  package static func defaultDirectory(
    for repository: RepositoryName, host: GitHubHost = .github,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> URL {
    let base: URL
    if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
      base = URL(fileURLWithPath: state)
    } else {
      let home = environment["HOME"] ?? FileManager.default.homeDirectoryForCurrentUser.path
      base = URL(fileURLWithPath: home).appendingPathComponent(".local/state")
    }
    return base.appendingPathComponent("trellis-issues").appendingPathComponent(host.storageName)
      .appendingPathComponent(repository.owner).appendingPathComponent(repository.name)
      .appendingPathComponent("drafts")
  }

  /// The editor's buffer for an issue's draft (whether or not it exists).
  package func file(for issue: Int) -> URL {
    directory.appendingPathComponent("\(issue).md")
  }

  /// The mark an earlier version kept while it sent a draft itself (the outbox sends now).
  private func legacyMarker(for issue: Int) -> URL {
    directory.appendingPathComponent("\(issue).sent")
  }

  /// The draft for an issue, if one is saved and holds more than blank space.
  package func draft(for issue: Int) throws -> CommentDraft? {
    try takeLeftBuffer(of: issue)
    return try stored(issue)
  }

  /// Every saved draft, by issue number.
  package func all() throws -> [CommentDraft] {
    if let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) {
      for name in names where name.hasSuffix(".md") {
        if let issue = Int(name.dropLast(3)), issue > 0 { try takeLeftBuffer(of: issue) }
      }
    }
    return try cache.allDrafts().compactMap { draft in
      // A provisional row's number is negative: its draft is its row's.
      guard case .comment(let body) = draft.words, draft.issueNumber != 0,
        !CommentDraft.normalized(body).isEmpty
      else { return nil }
      return CommentDraft(issue: draft.issueNumber, body: body, savedAt: draft.savedAt)
    }.sorted { $0.issue < $1.issue }
  }

  /// Saves a draft's text in the store.
  package func save(_ body: String, for issue: Int) throws {
    try cache.saveDraft(.comment(body), onIssue: issue)
  }

  /// Deletes the draft, and its buffer: it went to the outbox, or the person dropped it.
  package func remove(_ issue: Int) throws {
    for draft in try cache.drafts(onIssue: issue) {
      if case .comment = draft.words { try cache.discardDraft(draft.id) }
    }
    for url in [file(for: issue), legacyMarker(for: issue)]
    where FileManager.default.fileExists(atPath: url.path) {
      try FileManager.default.removeItem(at: url)
    }
  }

  /// Writes the issue's draft (or nothing) to the editor's buffer, and returns the buffer.
  package func openBuffer(for issue: Int) throws -> URL {
    try takeLeftBuffer(of: issue)
    try prepareDirectory()
    let url = file(for: issue)
    try Self.writePrivately(Data((try stored(issue)?.body ?? "").utf8), to: url)
    return url
  }

  /// Takes what the editor left in the buffer into the store (a blank one drops the draft),
  /// removes the buffer, and returns the draft.
  @discardableResult
  package func closeBuffer(for issue: Int) throws -> CommentDraft? {
    let url = file(for: issue)
    guard FileManager.default.fileExists(atPath: url.path) else { return try stored(issue) }
    let body = String(decoding: try Data(contentsOf: url), as: UTF8.self)
    if CommentDraft.normalized(body).isEmpty {
      try remove(issue)
      return nil
    }
    try save(body, for: issue)
    try FileManager.default.removeItem(at: url)
    return try stored(issue)
  }

  /// A buffer left behind for an issue: taken into the store, unless it is blank.
  private func takeLeftBuffer(of issue: Int) throws {
    let url = file(for: issue)
    guard FileManager.default.fileExists(atPath: url.path) else { return }
    let body = String(decoding: try Data(contentsOf: url), as: UTF8.self)
    if !CommentDraft.normalized(body).isEmpty {
      if let kept = try stored(issue),
        CommentDraft.normalized(kept.body) != CommentDraft.normalized(body),
        !CommentDraft.normalized(body).contains(CommentDraft.normalized(kept.body))
      {
        // Both hold words: neither is dropped.
        try save(kept.body + "\n\n" + body, for: issue)
      } else {
        try save(body, for: issue)
      }
    }
    try FileManager.default.removeItem(at: url)
    let marker = legacyMarker(for: issue)
    if FileManager.default.fileExists(atPath: marker.path) {
      try FileManager.default.removeItem(at: marker)
    }
  }

  private func stored(_ issue: Int) throws -> CommentDraft? {
    for draft in try cache.drafts(onIssue: issue) {
      if case .comment(let body) = draft.words, !CommentDraft.normalized(body).isEmpty {
        return CommentDraft(issue: issue, body: body, savedAt: draft.savedAt)
      }
    }
    return nil
  }

  /// Creates the folder, readable only by its owner.
  package func prepareDirectory() throws {
    try FileManager.default.createDirectory(
      at: directory, withIntermediateDirectories: true,
      attributes: [.posixPermissions: 0o700])
  }

  /// Writes a file readable only by its owner from the start, and puts it in place in one
  /// step.
  private static func writePrivately(_ data: Data, to url: URL) throws {
    let temporary = url.deletingLastPathComponent().appendingPathComponent(
      ".\(url.lastPathComponent).\(UUID().uuidString)")
    guard
      FileManager.default.createFile(
        atPath: temporary.path, contents: data, attributes: [.posixPermissions: 0o600])
    else {
      throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: temporary.path])
    }
    guard rename(temporary.path, url.path) == 0 else {
      try? FileManager.default.removeItem(at: temporary)
      throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
    }
  }
}
