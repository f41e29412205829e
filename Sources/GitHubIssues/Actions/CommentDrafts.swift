import Foundation

/// The editor's buffer for comments: what a person writes, kept until it goes to the outbox.
///
/// The outbox (the cache's action queue) is then its record until GitHub has it. One folder per
/// repository, a file per issue (`12.md`, the text as typed, so an editor can open it).
///
/// Drafts are the user's words, not a cache: they live under `XDG_STATE_HOME`
/// (`~/.local/state`), not beside the cache, and only the owner can read them. Every write
/// replaces the file atomically, so a crash leaves the old text or the new, never half.
package struct CommentDrafts: Sendable {
  /// The folder.
  package let directory: URL

  /// Drafts kept in a folder.
  package init(directory: URL) {
    self.directory = directory
  }

  /// Where a repository's drafts live by default:
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

  /// The file that holds the draft for an issue (whether or not there is one): what an editor
  /// opens.
  package func file(for issue: Int) -> URL {
    directory.appendingPathComponent("\(issue).md")
  }

  /// The mark an earlier version kept while it sent a draft itself (the outbox sends now).
  private func legacyMarker(for issue: Int) -> URL {
    directory.appendingPathComponent("\(issue).sent")
  }

  /// The draft for an issue, if one is saved and holds more than blank space.
  package func draft(for issue: Int) throws -> CommentDraft? {
    let url = file(for: issue)
    guard FileManager.default.fileExists(atPath: url.path) else { return nil }
    let body = String(decoding: try Data(contentsOf: url), as: UTF8.self)
    guard !CommentDraft.normalized(body).isEmpty else { return nil }
    let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
    let savedAt = attributes[.modificationDate] as? Date ?? Date()
    return CommentDraft(issue: issue, body: body, savedAt: savedAt)
  }

  /// Every saved draft, by issue number.
  package func all() throws -> [CommentDraft] {
    guard
      let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path)
    else { return [] }
    return try names.compactMap { name in
      guard name.hasSuffix(".md"), let issue = Int(name.dropLast(3)), issue > 0 else {
        return nil
      }
      return try draft(for: issue)
    }.sorted { $0.issue < $1.issue }
  }

  /// Saves a draft's text, replacing the file in one step.
  package func save(_ body: String, for issue: Int) throws {
    try prepareDirectory()
    try Self.writePrivately(Data(body.utf8), to: file(for: issue))
  }

  /// Deletes the draft: it went to the outbox, or the person dropped it.
  package func remove(_ issue: Int) throws {
    for url in [file(for: issue), legacyMarker(for: issue)]
    where FileManager.default.fileExists(atPath: url.path) {
      try FileManager.default.removeItem(at: url)
    }
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
