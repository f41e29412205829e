import GitHubIssues
import Synchronization

/// What the diff screen shows, as a value: a pull request's files, each a section of rows.
///
/// A file's rows are its hunk headers, its numbered lines, and the review threads and drafted
/// comments at their lines; each file has its viewed mark. Built from the cache alone; tested
/// without a terminal.
public struct DiffModel: Sendable {
  /// A file's section.
  package struct File: Sendable {
    /// Its identifier, one per path for the model's life (stable across pushes).
    package var id: Int32
    /// The file as the diff holds it.
    package var diff: FileDiff
    /// Its hunks' headers, their lines left out (``DiffModel/hunks(of:)`` reads them).
    package var hunkHeaders: [Hunk]
    /// Its rows, in order.
    package var rows: [DiffRow]
    /// What each row shows, by the row's index.
    package var contents: [Content]
    /// Whether the person marked it viewed, and whether it changed since.
    package var viewed: Viewed
  }

  /// What a row shows.
  package enum Content: Sendable {
    /// A hunk's header, by the hunk's index.
    case hunk(Int32)
    /// A line: the hunk's index and the line's index in it.
    case line(hunk: Int32, line: Int32)
    /// Words about the file.
    case note(String)
    /// A thread of line comments (outdated: its line is gone from the diff).
    case thread(ReviewThread, outdated: Bool)
    /// A comment drafted for the pending review.
    case draft(PendingLineComment)
  }

  /// A file's viewed mark.
  package enum Viewed: Hashable, Sendable {
    /// Not marked.
    case no
    /// Marked, and unchanged since.
    case yes
    /// Marked at another head, and changed since.
    case changedSince
  }

  /// The head commit the files are of.
  package private(set) var headSHA: String
  /// The files, in the diff's order.
  package private(set) var files: [File]
  /// Files GitHub announced but did not list (more than it lists).
  package private(set) var unlisted: Int
  /// The widest line number, in digits: the number columns' width.
  package private(set) var numberWidth: Int
  /// Lines added and removed over every file, and how many files are marked viewed (and not
  /// changed since): the title's figures, kept rather than counted on every frame.
  package private(set) var totals = (additions: 0, deletions: 0, viewed: 0)
  private var ids: [String: Int32]
  private var byID: [Int32: Int]
  /// The files read so far: shared by the model's copies, filled as lines are drawn.
  private let parsed = ParsedHunks()

  /// The hunks of the files read so far, by file.
  final class ParsedHunks: Sendable {
    let hunks = Mutex<[Int32: [Hunk]]>([:])
  }

  /// The model of `diff`, with the pull request's review `threads`, the pending review's
  /// `drafts` and the files marked `viewed`; `previous` keeps the files' identifiers of an
  /// earlier model (a push shown as a staged update).
  package init(
    diff: PullRequestDiff, threads: [ReviewThread] = [], drafts: [PendingLineComment] = [],
    viewed: [String: ViewedFile] = [:], previous: DiffModel? = nil
  ) {
    headSHA = diff.headSHA
    unlisted = max(0, diff.announcedFiles - diff.files.count)
    ids = previous?.ids ?? [:]
    files = []
    files.reserveCapacity(diff.files.count)
    byID = [:]
    var widest = 1
    var threadsByPath: [String: [ReviewThread]] = [:]
    for thread in threads {
      guard let first = thread.comments.first else { continue }
      threadsByPath[first.path, default: []].append(thread)
    }
    var draftsByPath: [String: [PendingLineComment]] = [:]
    for draft in drafts { draftsByPath[draft.comment.path, default: []].append(draft) }
    for fileDiff in diff.files {
      let id: Int32
      if let known = ids[fileDiff.path] {
        id = known
      } else {
        id = Int32(ids.count)
        ids[fileDiff.path] = id
      }
      let mark = viewed[fileDiff.path]
      let viewedState: Viewed =
        mark == nil ? .no : mark?.content == fileDiff.fingerprint ? .yes : .changedSince
      var file = File(
        id: id, diff: fileDiff, hunkHeaders: [], rows: [], contents: [], viewed: viewedState)
      Self.fill(
        &file, threads: threadsByPath[fileDiff.path] ?? [],
        drafts: draftsByPath[fileDiff.path] ?? [], widest: &widest)
      byID[id] = files.count
      totals.additions += fileDiff.additions
      totals.deletions += fileDiff.deletions
      if viewedState == .yes { totals.viewed += 1 }
      files.append(file)
    }
    numberWidth = String(widest).count
  }

  /// Reads a file's hunks into rows, with its threads and drafts after their lines.
  private static func fill(
    _ file: inout File, threads: [ReviewThread], drafts: [PendingLineComment], widest: inout Int
  ) {
    let id = file.id
    func add(_ kind: DiffRow.Kind, _ old: Int32, _ new: Int32, _ content: Content) {
      file.rows.append(
        DiffRow(file: id, kind: kind, old: old, new: new, index: Int32(file.contents.count)))
      file.contents.append(content)
    }
    // Threads and drafts by the line they are on: new side first (where comments usually are).
    var threadsAt: [Int: [ReviewThread]] = [:]
    // On the base's side (`LEFT`): a removed line, or context, by its number in the base.
    var threadsLeft: [Int: [ReviewThread]] = [:]
    var outdated: [ReviewThread] = []
    for thread in threads {
      guard let first = thread.comments.first, let line = first.line else {
        outdated.append(thread)
        continue
      }
      if first.side == .left {
        threadsLeft[line, default: []].append(thread)
      } else {
        threadsAt[line, default: []].append(thread)
      }
    }
    var draftsAt: [Int: [PendingLineComment]] = [:]
    var draftsLeft: [Int: [PendingLineComment]] = [:]
    for draft in drafts {
      if draft.comment.side == .left {
        draftsLeft[draft.comment.line, default: []].append(draft)
      } else {
        draftsAt[draft.comment.line, default: []].append(draft)
      }
    }
    func addNotes(old: Int?, new: Int?) {
      if let new, let here = threadsAt.removeValue(forKey: new) {
        for thread in here { addThread(thread, outdated: false) }
      }
      if let old, let here = threadsLeft.removeValue(forKey: old) {
        for thread in here { addThread(thread, outdated: false) }
      }
      if let new, let here = draftsAt.removeValue(forKey: new) {
        for draft in here { addDraft(draft) }
      }
      if let old, new == nil, let here = draftsLeft.removeValue(forKey: old) {
        for draft in here { addDraft(draft) }
      }
    }
    var threadIDs: Set<Int64> = []
    func addThread(_ thread: ReviewThread, outdated: Bool) {
      // The same thread twice (a repeated answer) is shown once.
      let first = thread.comments.first?.id ?? 0
      guard threadIDs.insert(first).inserted else { return }
      add(
        .thread, Int32(truncatingIfNeeded: first >> 32), Int32(truncatingIfNeeded: first),
        .thread(thread, outdated: outdated))
    }
    func addDraft(_ draft: PendingLineComment) {
      add(
        .draft, Int32(truncatingIfNeeded: draft.id >> 32), Int32(truncatingIfNeeded: draft.id),
        .draft(draft))
    }
    switch file.diff.content {
    case .patch(let text):
      // Numbered without reading the lines' text: a line is read when it is drawn.
      var headers: [Hunk] = []
      var markers: Int32 = 0
      var lineIndex: Int32 = 0
      var rows: [DiffRow] = []
      var contents: [Content] = []
      var notes: [(at: Int, old: Int?, new: Int?)] = []
      rows.reserveCapacity(text.utf8.count / 24)
      contents.reserveCapacity(text.utf8.count / 24)
      let reads = Patch.number(
        text,
        hunk: { hunk in
          rows.append(
            DiffRow(
              file: id, kind: .hunk, old: Int32(hunk.oldStart), new: Int32(hunk.newStart),
              index: Int32(rows.count)))
          contents.append(.hunk(Int32(headers.count)))
          headers.append(hunk)
          lineIndex = 0
        },
        line: { kind, oldNumber, newNumber in
          widest = max(widest, oldNumber ?? 0, newNumber ?? 0)
          // A line's identity is its number in the base where it has one — the base does not
          // move when the head is pushed — so a line keeps it when lines are added above it.
          let (old, new): (Int32, Int32) =
            switch kind {
            case .context: (Int32(oldNumber ?? -1), -3)
            case .removed: (Int32(oldNumber ?? -1), -1)
            case .added: (-1, Int32(newNumber ?? -1))
            // A "no newline" marker has no number of its own: it is kept apart by its place.
            case .noNewline: (-2 - markers, -4)
            }
          if kind == .noNewline {
            markers += 1
          } else if !threadsAt.isEmpty || !threadsLeft.isEmpty || !draftsAt.isEmpty
            || !draftsLeft.isEmpty
          {
            notes.append((rows.count, oldNumber, newNumber))
          }
          rows.append(DiffRow(file: id, kind: .line, old: old, new: new, index: Int32(rows.count)))
          contents.append(.line(hunk: Int32(headers.count - 1), line: lineIndex))
          lineIndex += 1
        })
      // Hunks out of order or overlapping (not what git writes) would give two rows one
      // identity: such a patch is said, not shown.
      guard reads, Self.isOrdered(headers) else {
        add(.note, 0, 0, .note("Its patch could not be read: `issues pr diff` prints it as is."))
        break
      }
      file.hunkHeaders = headers
      if notes.isEmpty {
        file.rows = rows
        file.contents = contents
      } else {
        // Threads and drafts go after their lines: the rows are laid again with them.
        var next = 0
        for (position, row) in rows.enumerated() {
          add(row.kind, row.old, row.new, contents[position])
          if next < notes.count, notes[next].at == position {
            addNotes(old: notes[next].old, new: notes[next].new)
            next += 1
          }
        }
      }
    case .binary: add(.note, 0, 0, .note("A binary file: no lines to show."))
    case .noTextChanges:
      add(
        .note, 0, 0,
        .note(
          file.diff.previousPath.map { "Renamed from \($0), its text as it was." }
            ?? "No change to its text (its mode, or a copy)."))
    case .unavailable(let reason): add(.note, 0, 0, .note("Changes not available: \(reason)"))
    }
    // Threads whose line is gone, and any left unplaced: at the file's end, said as outdated.
    let unplaced =
      outdated + threadsAt.keys.sorted().flatMap { threadsAt[$0] ?? [] }
      + threadsLeft.keys.sorted().flatMap { threadsLeft[$0] ?? [] }
    for thread in unplaced { addThread(thread, outdated: true) }
    for draft in (draftsAt.keys.sorted().flatMap { draftsAt[$0] ?? [] })
      + (draftsLeft.keys.sorted().flatMap { draftsLeft[$0] ?? [] })
    {
      addDraft(draft)
    }
  }

  /// Whether hunks come in order, each after the one before on both sides: then every line
  /// has a number no other line of its kind has in the file.
  static func isOrdered(_ hunks: [Hunk]) -> Bool {
    var old = -1
    var new = -1
    for hunk in hunks {
      // A hunk's lines start at its start (or after it, for an empty side's 0).
      guard hunk.oldStart > old || (hunk.oldCount == 0 && hunk.oldStart >= old),
        hunk.newStart > new || (hunk.newCount == 0 && hunk.newStart >= new),
        hunk.oldStart != old || hunk.newStart != new
      else { return false }
      old = max(old, hunk.oldStart + max(hunk.oldCount, 1) - 1)
      new = max(new, hunk.newStart + max(hunk.newCount, 1) - 1)
    }
    return true
  }

  /// The file a row is in.
  package func file(of row: DiffRow) -> File? {
    byID[row.file].map { files[$0] }
  }

  /// The file with this identifier.
  package func file(id: Int32) -> File? {
    byID[id].map { files[$0] }
  }

  /// The position among ``files`` of the file with this identifier.
  package func fileIndex(id: Int32) -> Int? { byID[id] }

  /// What a row shows, if it is one of the model's.
  package func content(of row: DiffRow) -> Content? {
    // Read in place: a file's arrays are not copied for one row.
    guard let index = byID[row.file], row.index >= 0,
      Int(row.index) < files[index].contents.count
    else { return nil }
    return files[index].contents[Int(row.index)]
  }

  /// The line a row shows, when it shows one.
  package func line(of row: DiffRow) -> DiffLine? {
    guard case .line(let h, let l)? = content(of: row) else { return nil }
    let hunks = hunks(ofFile: row.file)
    guard hunks.indices.contains(Int(h)), hunks[Int(h)].lines.indices.contains(Int(l)) else {
      return nil
    }
    return hunks[Int(h)].lines[Int(l)]
  }

  /// A file's hunks with their lines, read from its patch the first time they are asked for
  /// (a file is read when one of its lines is drawn, not when the diff opens).
  package func hunks(ofFile id: Int32) -> [Hunk] {
    if let known = parsed.hunks.withLock({ $0[id] }) { return known }
    guard let index = byID[id], case .patch(let text) = files[index].diff.content,
      let patch = try? Patch(parsing: text)
    else { return [] }
    parsed.hunks.withLock { $0[id] = patch.hunks }
    return patch.hunks
  }

  /// Where a line comment on this row would go: the line's number on the side it has, `nil`
  /// for a row that is not a commentable line.
  package func commentPlace(of row: DiffRow) -> (
    path: String, line: Int, side: DraftLineComment.Side
  )? {
    guard let line = line(of: row), line.kind != .noNewline, let file = file(of: row) else {
      return nil
    }
    if let new = line.newNumber { return (file.diff.path, new, .right) }
    if let old = line.oldNumber { return (file.diff.path, old, .left) }
    return nil
  }

  /// How many rows of all files are shown.
  public var lineCount: Int {
    files.reduce(0) { $0 + $1.rows.count }
  }

  /// Marks a file viewed or not, as the screen shows it.
  package mutating func setViewed(_ viewed: Viewed, file id: Int32) {
    guard let index = byID[id] else { return }
    totals.viewed += (viewed == .yes ? 1 : 0) - (files[index].viewed == .yes ? 1 : 0)
    files[index].viewed = viewed
  }
}
