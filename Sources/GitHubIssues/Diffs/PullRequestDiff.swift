import Foundation

/// A pull request's changes at one head commit, file by file, as kept in the cache for reading
/// offline.
///
/// Every file says what is known of its changes: the patch, that it is binary, that it has no
/// text changes (a rename), or why its changes could not be had — never an empty patch in the
/// place of one GitHub left out.
public struct PullRequestDiff: Hashable, Sendable, Codable {
  /// The head commit the files are of: a push makes another.
  public var headSHA: String
  /// The files, in GitHub's order.
  public var files: [FileDiff]
  /// How many files GitHub says the pull request changes: more than ``files`` holds when it
  /// changes more than GitHub lists (3,000).
  public var announcedFiles: Int
  /// The base branch the files are compared with, and its commit then (when GitHub said): a
  /// retarget or a push to the base makes the diff another one, at the same head.
  public var base: Base?

  /// The branch and commit a diff is compared with.
  public struct Base: Hashable, Sendable, Codable {
    /// The base branch.
    public var ref: String
    /// Its commit, when GitHub said.
    public var sha: String?

    /// A base.
    public init(ref: String, sha: String?) {
      self.ref = ref
      self.sha = sha
    }
  }

  /// A diff.
  public init(headSHA: String, files: [FileDiff], announcedFiles: Int, base: Base? = nil) {
    self.headSHA = headSHA
    self.files = files
    self.announcedFiles = announcedFiles
    self.base = base
  }
}

/// One file of a pull request's diff.
public struct FileDiff: Hashable, Sendable, Codable {
  /// What is known of a file's changes.
  public enum Content: Hashable, Sendable, Codable {
    /// Its hunks, as a unified diff (``Patch`` reads them).
    case patch(String)
    /// A binary file: no lines to show.
    case binary
    /// No change to its text (renamed or copied as it was, or only its mode changed).
    case noTextChanges
    /// GitHub gave no patch and no other way to have one: why.
    case unavailable(String)
  }

  /// The path in the head commit.
  public var path: String
  /// The path before a rename or copy.
  public var previousPath: String?
  /// GitHub's status: `added`, `removed`, `modified`, `renamed`, `copied`, `changed`,
  /// `unchanged`.
  public var status: String
  /// Lines added, as GitHub counts them.
  public var additions: Int
  /// Lines removed.
  public var deletions: Int
  /// Its changes.
  public var content: Content
  /// The file's header as git wrote it in GitHub's whole diff — `diff --git`, modes, `index`
  /// with the blob ids, the names — up to its first hunk; `nil` when GitHub would not give that
  /// diff (too large), and one is rebuilt from what the files' listing says.
  public var header: String?

  /// A file's diff.
  public init(
    path: String, previousPath: String? = nil, status: String, additions: Int, deletions: Int,
    content: Content, header: String? = nil
  ) {
    self.path = path
    self.previousPath = previousPath
    self.status = status
    self.additions = additions
    self.deletions = deletions
    self.content = content
    self.header = header
  }

  /// The file as `git diff` writes it, for `git apply`: GitHub's own header when it gave one,
  /// else one rebuilt — quoted names, `new file mode` and `deleted file mode` (GitHub's files
  /// carry no modes: a regular file's is written), `/dev/null` — then the hunks.
  public var gitText: String {
    var text = header ?? rebuiltHeader
    switch content {
    case .patch(let patch):
      if header != nil, !text.hasPrefix("--- "), !text.contains("\n--- ") {
        text += nameLines
      }
      text += patch.hasSuffix("\n") ? patch : patch + "\n"
    case .binary:
      if header == nil {
        let before = status == "added" ? "/dev/null" : GitPath.quoted("a/" + oldPath)
        let after = status == "removed" ? "/dev/null" : GitPath.quoted("b/" + path)
        text += "Binary files \(before) and \(after) differ\n"
      }
    case .noTextChanges: break
    case .unavailable(let reason): text += "# \(path): changes not available (\(reason))\n"
    }
    return text
  }

  /// The path before the change.
  private var oldPath: String { previousPath ?? path }

  /// `diff --git`, then what git writes of a creation, a deletion, a rename or a copy.
  private var rebuiltHeader: String {
    var text = "diff --git \(GitPath.quoted("a/" + oldPath)) \(GitPath.quoted("b/" + path))\n"
    switch status {
    case "added": text += "new file mode 100644\n"
    case "removed": text += "deleted file mode 100644\n"
    default: break
    }
    if let previousPath, previousPath != path {
      let verb = status == "copied" ? "copy" : "rename"
      text += "\(verb) from \(GitPath.quoted(previousPath))\n"
      text += "\(verb) to \(GitPath.quoted(path))\n"
    }
    if case .patch = content { text += nameLines }
    return text
  }

  /// The `---` and `+++` lines.
  private var nameLines: String {
    let before = status == "added" ? "/dev/null" : GitPath.quoted("a/" + oldPath)
    let after = status == "removed" ? "/dev/null" : GitPath.quoted("b/" + path)
    return "--- \(GitPath.labelled(before))\n+++ \(GitPath.labelled(after))\n"
  }
}

/// A whole diff as git writes it (GitHub's diff media type), cut into its files.
enum GitDiffSections {
  /// One file's part of a whole diff.
  struct Section: Equatable {
    /// What a file's part holds after its header.
    enum Content: Equatable {
      /// Its hunks, from the first `@@`.
      case patch(String)
      /// `Binary files … differ`.
      case binary
      /// A header and no hunks (a rename, a mode change).
      case noTextChanges
    }

    /// Its lines before the first hunk, from `diff --git`, each ending in a line break.
    var header: String
    /// What follows.
    var content: Content
    /// The blob id of the new version its `index` line names (abbreviated as git writes it),
    /// if it has one.
    var newBlob: String? {
      for line in header.unicodeScalars.split(separator: "\n").map(Substring.init)
      where line.hasPrefix("index ") {
        let ids = line.dropFirst("index ".count).prefix { $0 != " " }
        guard let dots = ids.range(of: "..") else { return nil }
        return String(ids[dots.upperBound...])
      }
      return nil
    }
  }

  /// Each file's section, by its path in the new version.
  ///
  /// Lines end at `\n` alone, so a CRLF file's lines keep their `\r` (a `String` split on the
  /// `Character` `"\n"` would not split at `"\r\n"`, one grapheme). Paths are read as git writes
  /// them: after `b/`, quoted with C escapes when they hold a control character, a quote or a
  /// byte outside ASCII, and followed by a tab on the `+++` line when they hold a space.
  static func sections(_ diff: String) -> [String: Section] {
    var sections: [String: Section] = [:]
    var path: String?
    var header = ""
    var hunks: [Substring] = []
    var binary = false
    func flush() {
      guard let path else { return }
      sections[path] = Section(
        header: header,
        content: binary
          ? .binary
          : hunks.isEmpty ? .noTextChanges : .patch(hunks.joined(separator: "\n") + "\n"))
    }
    var lines = diff.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false)
    // The diff's last line break ends its last line; it does not start another.
    if lines.last?.isEmpty == true { lines.removeLast() }
    for scalars in lines {
      let line = Substring(scalars)
      if line.hasPrefix("diff --git ") {
        flush()
        path = newPath(inHeader: line.dropFirst("diff --git ".count))
        header = ""
        hunks = []
        binary = false
      } else if !hunks.isEmpty || line.hasPrefix("@@") {
        hunks.append(line)
        continue
      } else if line.hasPrefix("+++ "), let named = GitPath.unquoted(line.dropFirst(4), side: "b/")
      {
        path = named
      } else if line.hasPrefix("Binary files ") || line == "GIT binary patch" {
        binary = true
      }
      header += line + "\n"
    }
    flush()
    return sections
  }

  /// The new path of a `diff --git a/OLD b/NEW` line's names: quoted, the last quoted name;
  /// else what follows the last ` b/` (a path may hold spaces).
  private static func newPath(inHeader names: Substring) -> String? {
    if names.hasSuffix("\""),
      let start = names.range(of: " \"b/", options: [.backwards, .literal])
    {
      return GitPath.unquoted(names[names.index(after: start.lowerBound)...], side: "b/")
    }
    return names.range(of: " b/", options: [.backwards, .literal]).map {
      String(names[$0.upperBound...])
    }
  }
}

extension PullRequestDiff {
  /// Why GitHub could not place a line comment on this diff, or `nil` when it can: the file
  /// must be in it with a patch, and every line commented on in one of its hunks, on its side.
  package func problem(placing comment: DraftLineComment) -> String? {
    guard let file = files.first(where: { $0.path == comment.path }) else {
      return "\(comment.path) is not among the pull request's changed files"
    }
    guard case .patch(let text) = file.content, let patch = try? Patch(parsing: text) else {
      let why =
        switch file.content {
        case .binary: "a binary file"
        case .noTextChanges: "its text did not change"
        case .unavailable(let reason): reason
        case .patch: "its patch could not be read"
        }
      return "\(comment.path) has no lines to comment on (\(why))"
    }
    func has(_ line: Int, _ side: DraftLineComment.Side) -> Bool {
      patch.hunks.contains { hunk in
        hunk.lines.contains { (side == .left ? $0.oldNumber : $0.newNumber) == line }
      }
    }
    let side = comment.side == .left ? "the base's" : "the head's"
    guard has(comment.line, comment.side) else {
      return "line \(comment.line) of \(comment.path) is not in the diff on \(side) side"
    }
    if let start = comment.startLine {
      guard start <= comment.line || comment.startSide != comment.side else {
        return "a comment's first line (\(start)) comes after its last (\(comment.line))"
      }
      guard has(start, comment.startSide ?? comment.side) else {
        return "line \(start) of \(comment.path) is not in the diff on \(side) side"
      }
    }
    return nil
  }
}

extension FileDiff {
  /// A fingerprint of what changed in the file (its status, paths and patch), stable across
  /// runs: a file whose fingerprint moved since it was marked viewed changed since.
  public var fingerprint: UInt64 {
    // FNV-1a, 64 bits: the standard library's hashing is seeded per process.
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    func add(_ text: String) {
      for byte in text.utf8 {
        hash ^= UInt64(byte)
        hash = hash &* 0x0000_0100_0000_01b3
      }
      hash ^= 0xff
      hash = hash &* 0x0000_0100_0000_01b3
    }
    add(status)
    add(previousPath ?? "")
    switch content {
    case .patch(let text): add("patch"); add(text)
    case .binary: add("binary \(additions) \(deletions)")
    case .noTextChanges: add("no text changes")
    case .unavailable: add("unavailable \(additions) \(deletions)")
    }
    return hash
  }
}
