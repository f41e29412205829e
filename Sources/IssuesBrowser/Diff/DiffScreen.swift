import Foundation
import GitHubIssues
import Trellis
import TrellisTerminal

/// A pull request's diff as a sectioned list: each file a section under a pinned header (path,
/// status, +/−, viewed mark), its hunks' lines numbered in the old and the new file with the
/// changed words marked, review threads and drafted comments at their lines.
///
/// Its state is a ``DiffModel``; a new push is shown by ``show(_:)`` as a staged update that
/// keeps the focused line (or the nearest line that survived) where it was. What reaches
/// outside (the editor, the cache's marks, GitHub) is a ``DiffEffect`` its host performs.
@MainActor
public final class DiffScreen: Screen {
  /// The repository, for the title and the links.
  package let repository: RepositoryName
  /// The pull request.
  package let number: Int
  /// Its title.
  package let title: String
  /// What is shown.
  package private(set) var model: DiffModel
  /// The keys: the standard ones, or the person's.
  package var keys = DiffKeys.standard
  /// The host, for the links and commands.
  package var host: GitHubHost = .github
  /// The screen size.
  package private(set) var size: TerminalSize
  /// What the title bar says beside the name (reading, the head).
  package var status = ""
  /// The rows.
  let list: CollectionView<Int32, DiffRow>
  private let cells = CellSource<DiffRow>()
  private var message: StatusMessage?
  private var help: HelpOverlay?
  /// The pull request's checks and review as last read ("checks passing, review approved"),
  /// said before a merge is asked; the host keeps it.
  package var mergeState: String?
  /// Whether ``mergeState`` is what GitHub said since `M` was pressed — `M` asks the host to
  /// read it again — or only what the cache last had.
  private(set) var mergeStateFreshness = MergeStateFreshness.current
  /// How the repository lets pull requests be merged, when GitHub said; the host reads it.
  package var mergeMethods: Set<PullRequestMerge.Method>?
  /// The question a merge asks (`M`) — what it depends on above the status line, the choices
  /// on it — until a key answers it.
  private(set) var mergePrompt: (question: String, choices: String)?
  /// Where a range of lines being marked for a comment starts (`V`), if one is.
  private(set) var rangeAnchor: DiffRow?
  /// The file list open over the rows (`t`): the file in focus there.
  private(set) var tree: Int?
  /// The changed words of each hunk drawn so far, by file and hunk.
  private var changedWords: [Int64: [Int: Range<String.Index>]] = [:]
  private let now: () -> Date

  /// A screen showing `model`, the diff of pull request `number` of `repository`.
  public init(
    repository: RepositoryName, number: Int, title: String, model: DiffModel,
    size: TerminalSize, now: @escaping () -> Date = Date.init
  ) {
    self.repository = repository
    self.number = number
    self.title = title
    self.model = model
    self.size = size
    self.now = now
    let cells = cells
    var section = LayoutSection.rows(height: 1)
    section.boundarySupplementaryItems = [.header(height: 1, pinned: true)]
    list = CollectionView(layout: CompositionalLayout(section: section), selection: .none) {
      cells.make($0, $1)
    }
    cells.make = { [unowned self] path, row in self.cell(for: self.current(row, at: path)) }
    list.dataSource.supplementaryProvider = { [unowned self] _, _, file in
      guard let shown = self.model.file(id: file) else { return TextCell("") }
      return DiffFileHeaderCell(file: shown.diff, viewed: shown.viewed)
    }
    place()
    apply(focusFirst: true)
  }

  /// The row as the model holds it now (its content's index current): an identifier kept from
  /// before a push compares equal to its row after it, with the index it had then.
  private func current(_ row: DiffRow, at path: Trellis.IndexPath? = nil) -> DiffRow {
    let path = path ?? list.dataSource.snapshot().indexPath(for: row)
    guard let path, model.files.indices.contains(path.section),
      model.files[path.section].rows.indices.contains(path.item),
      model.files[path.section].rows[path.item] == row
    else { return row }
    return model.files[path.section].rows[path.item]
  }

  /// The focused row, as the model holds it now.
  package var focusedRow: DiffRow? { list.focusedItem.map { current($0) } }

  private func cell(for row: DiffRow) -> any CollectionCell {
    let width = model.numberWidth
    guard let content = model.content(of: row), let index = model.fileIndex(id: row.file) else {
      return TextCell("")
    }
    let shown: DiffRowCell.Shown
    switch content {
    case .hunk(let h): shown = .hunk(model.files[index].hunkHeaders[Int(h)].header)
    case .line(let h, let l):
      let hunks = model.hunks(ofFile: row.file)
      guard hunks.indices.contains(Int(h)), hunks[Int(h)].lines.indices.contains(Int(l)) else {
        return TextCell("")
      }
      let line = hunks[Int(h)].lines[Int(l)]
      let key = Int64(row.file) << 32 | Int64(h)
      let marks: [Int: Range<String.Index>]
      if let known = changedWords[key] {
        marks = known
      } else {
        marks = ChangedWords.inHunk(hunks[Int(h)])
        changedWords[key] = marks
      }
      shown = .line(line, changed: marks[Int(l)])
    case .note(let text): shown = .note(text)
    case .thread(let thread, let outdated): shown = .thread(thread, outdated: outdated)
    case .draft(let draft): shown = .draft(draft)
    }
    return DiffRowCell(shown: shown, numberWidth: width, inRange: isInMarkedRange(row))
  }

  /// The range's first and last lines, in order: the anchor and the focused line, when both
  /// are lines of one hunk (GitHub takes a comment's lines from one hunk).
  private func markedRange() -> (first: DiffRow, last: DiffRow)? {
    guard let anchor = rangeAnchor.map({ current($0) }), let focus = focusedRow,
      anchor.file == focus.file,
      case .line(let anchorHunk, let anchorLine)? = model.content(of: anchor),
      case .line(let focusHunk, let focusLine)? = model.content(of: focus),
      anchorHunk == focusHunk
    else { return nil }
    return anchorLine <= focusLine ? (anchor, focus) : (focus, anchor)
  }

  private func isInMarkedRange(_ row: DiffRow) -> Bool {
    guard rangeAnchor != nil, let range = markedRange(), row.file == range.first.file,
      case .line(let hunk, let line)? = model.content(of: row),
      case .line(let rangeHunk, let first)? = model.content(of: range.first),
      case .line(_, let last)? = model.content(of: range.last), hunk == rangeHunk
    else { return false }
    return (first...last).contains(line)
  }

  // MARK: Data

  /// Shows `model` — a push read again, marks changed — as a staged update: rows that stayed
  /// keep their place, the focused line stays focused, or the nearest line that survived.
  package func show(_ model: DiffModel) {
    let old = list.dataSource.snapshot()
    let focused = focusedRow
    let focusedLine = focused.flatMap { self.model.line(of: $0) }
    let headMoved = model.headSHA != self.model.headSHA
    self.model = model
    changedWords = [:]
    apply(focusFirst: false)
    let snapshot = list.dataSource.snapshot()
    if let anchor = rangeAnchor, !snapshot.contains(item: anchor) { rangeAnchor = nil }
    if let focused, !snapshot.contains(item: focused) {
      // An added line moved by lines added above it: the same text in the same file, nearest
      // to where it was; otherwise the nearest row that survived.
      let moved = focusedLine.flatMap { line in
        model.file(id: focused.file)?.rows.filter {
          model.line(of: $0).map { $0.kind == line.kind && $0.text == line.text } ?? false
        }.min { abs($0.index - focused.index) < abs($1.index - focused.index) }
      }
      list.focus(moved ?? Self.nearestSurvivor(of: focused, in: old, surviving: snapshot))
    }
    if let focused = list.focusedItem { list.scrollToItem(focused, at: .nearest) }
    if headMoved {
      let changed = model.files.count { $0.viewed == .changedSince }
      show(
        message: "Pushed: now at \(model.headSHA.prefix(7))"
          + (changed > 0
            ? "; \(changed) viewed file\(changed == 1 ? "" : "s") changed since." : "."))
    }
  }

  /// The item of `old` nearest to `item` (after it first, then before) that `surviving` holds.
  static func nearestSurvivor(
    of item: DiffRow, in old: Snapshot<Int32, DiffRow>, surviving: Snapshot<Int32, DiffRow>
  ) -> DiffRow? {
    let items = old.itemIdentifiers
    guard let place = items.firstIndex(of: item) else { return surviving.itemIdentifiers.first }
    var distance = 1
    while place - distance >= 0 || place + distance < items.count {
      if place + distance < items.count, surviving.contains(item: items[place + distance]) {
        return surviving.itemIdentifiers.first { $0 == items[place + distance] }
      }
      if place - distance >= 0, surviving.contains(item: items[place - distance]) {
        return surviving.itemIdentifiers.first { $0 == items[place - distance] }
      }
      distance += 1
    }
    return surviving.itemIdentifiers.first
  }

  private func apply(focusFirst: Bool) {
    // Made in one step: each file appended on its own registers the items again and again.
    let snapshot = Snapshot<Int32, DiffRow>(sections: model.files.map { ($0.id, $0.rows) })
    let old = list.dataSource.snapshot()
    // A row whose content moved within its file (lines added above it) is drawn again.
    list.dataSource.apply(snapshot) { row in
      old.contains(item: row) ? .reconfigure : nil
    }
    list.setNeedsDisplay()
    list.placeholder =
      model.files.isEmpty ? .empty("No files changed at \(model.headSHA.prefix(7)).") : nil
    if focusFirst || list.focusedItem == nil {
      list.focus(snapshot.itemIdentifiers.first)
    }
  }

  // MARK: Events

  package func handle(_ event: InputEvent) -> [DiffEffect] {
    if var help {
      if case .key(let key) = event, keys.command(for: key) == .interrupt { return [.interrupted] }
      self.help = help.handle(event, on: size) ? help : nil
      return []
    }
    if tree != nil { return handleTree(event) }
    if mergePrompt != nil, case .key(let key) = event {
      mergePrompt = nil
      let methods: [Character: PullRequestMerge.Method] = ["m": .merge, "s": .squash, "r": .rebase]
      guard key.modifiers.isEmpty, case .character(let letter) = key.key,
        let method = methods[letter]
      else {
        show(message: "Not merged.")
        return []
      }
      if let allowed = mergeMethods, !allowed.contains(method) {
        show(message: "\(repository) does not allow \(method.plural): not merged.")
        return []
      }
      return [.merge(method)]
    }
    guard case .key(let key) = event else {
      _ = list.handle(event)
      return []
    }
    return keys.command(for: key).map(perform) ?? []
  }

  /// Performs a command, whatever key sent it.
  public func perform(_ command: DiffCommand) -> [DiffEffect] {
    switch command {
    case .moveInList(let move):
      list.moveFocus(move)
      // The range follows the focus.
      if rangeAnchor != nil { list.setNeedsDisplay() }
    case .nextFile: jumpFile(by: 1)
    case .previousFile: jumpFile(by: -1)
    case .fileTree:
      guard !model.files.isEmpty else { return [] }
      tree = focusedFileIndex ?? 0
    case .toggleViewed:
      guard let index = focusedFileIndex else { return [] }
      let file = model.files[index]
      let viewed = file.viewed != .yes
      model.setViewed(viewed ? .yes : .no, file: file.id)
      list.setNeedsDisplay(supplementariesOf: file.id)
      if viewed { jumpFile(by: 1) }
      return [
        .setViewed(
          path: file.diff.path,
          viewed ? ViewedFile(headSHA: model.headSHA, content: file.diff.fingerprint) : nil)
      ]
    case .comment:
      if let row = focusedRow, case .thread(let thread, _)? = model.content(of: row),
        let first = thread.comments.first
      {
        return [.reply(first.id)]
      }
      if rangeAnchor != nil {
        guard let range = markedRange(), let first = model.commentPlace(of: range.first),
          let last = model.commentPlace(of: range.last)
        else {
          show(message: "A range is lines of one hunk: move within it, or V to clear it.")
          return []
        }
        rangeAnchor = nil
        list.setNeedsDisplay()
        let one = range.first == range.last
        return [
          .draft(
            DraftLineComment(
              path: last.path, line: last.line, side: last.side,
              startLine: one ? nil : first.line, startSide: one ? nil : first.side, body: ""),
            headSHA: model.headSHA)
        ]
      }
      guard let row = focusedRow, let place = model.commentPlace(of: row) else {
        show(message: "A comment goes on a line of the diff: move to one.")
        return []
      }
      return [
        .draft(
          DraftLineComment(path: place.path, line: place.line, side: place.side, body: ""),
          headSHA: model.headSHA)
      ]
    case .markRange:
      if rangeAnchor != nil {
        rangeAnchor = nil
        list.setNeedsDisplay()
        show(message: "Range cleared.")
        return []
      }
      guard let row = focusedRow, let place = model.commentPlace(of: row) else {
        show(message: "A range starts on a line of the diff: move to one.")
        return []
      }
      rangeAnchor = row
      list.setNeedsDisplay()
      let location = DraftLineComment(
        path: place.path, line: place.line, side: place.side, body: ""
      ).location
      show(message: "Range from \(location): move to its last line, then c.")
    case .discardDraft:
      guard let row = focusedRow, case .draft(let draft)? = model.content(of: row) else {
        show(message: "x drops a drafted comment (⇡): move to one.")
        return []
      }
      return [.discardDraft(draft.id)]
    case .toggleResolved:
      guard let row = focusedRow, case .thread(let thread, _)? = model.content(of: row),
        let first = thread.comments.first
      else {
        show(message: "z resolves a thread of comments (💬): move to one.")
        return []
      }
      return [
        .resolveThread(
          ThreadResolution(commentID: first.id, change: thread.isResolved ? .unresolve : .resolve))
      ]
    case .merge:
      // What the merge depends on is read again before the person answers: the cache's may be
      // old ("checks passing" just before GitHub refuses for a failing one).
      mergeStateFreshness = .reading
      askMerge()
      return [.readMergeState]
    case .submit(let verdict): return [.submit(verdict)]
    case .refresh: return [.refresh]
    case .openInBrowser:
      return [.open("https://\(host.name)/\(repository)/pull/\(number)/files")]
    case .showHelp: help = HelpOverlay(lines: DiffKeys.helpLines(keys))
    case .back: return [.back]
    case .interrupt: return [.interrupted]
    case .run(let command):
      return [
        .run(
          CommandRun(
            command, host: host, repository: repository, number: number, title: title,
            url: "https://\(host.name)/\(repository)/pull/\(number)", isPullRequest: true,
            branch: nil))
      ]
    }
    return []
  }

  /// Shows what GitHub said now of the pull request's checks and review (`.current`), or that
  /// it could not be read and the cache's is said; a merge question open says it at once.
  package func showMergeState(_ summary: String?, freshness: MergeStateFreshness) {
    mergeState = summary
    mergeStateFreshness = freshness
    if mergePrompt != nil { askMerge() }
  }

  /// Opens (or words again) the merge question with what is known of the checks and review.
  private func askMerge() {
    let choices: [(PullRequestMerge.Method, String)] = [
      (.merge, "m merge commit"), (.squash, "s squash"), (.rebase, "r rebase"),
    ]
    let state: String =
      switch mergeStateFreshness {
      case .reading:
        ": reading its checks and review…" + (mergeState.map { " (last read: \($0))" } ?? "")
      case .current: mergeState.map { ": \($0)." } ?? "."
      case .asLastRead(let why):
        mergeState.map { ": \($0) when last read (\(why))." } ?? " (\(why))."
      }
    mergePrompt = (
      "Merge #\(number) at \(model.headSHA.prefix(7))" + state,
      choices.filter { mergeMethods?.contains($0.0) ?? true }.map(\.1)
        .joined(separator: " · ") + " · any other key cancels"
    )
  }

  /// The index of the focused row's file.
  var focusedFileIndex: Int? {
    guard let row = list.focusedItem else { return nil }
    return model.files.firstIndex { $0.id == row.file }
  }

  /// Focuses the first row of the file `offset` files away, its header at the top.
  private func jumpFile(by offset: Int) {
    guard !model.files.isEmpty else { return }
    let current = focusedFileIndex ?? (offset > 0 ? -1 : model.files.count)
    let target = current + offset
    guard model.files.indices.contains(target) else {
      show(message: offset > 0 ? "The last file." : "The first file.")
      return
    }
    focusFile(target)
  }

  private func focusFile(_ index: Int) {
    guard let first = model.files[index].rows.first else { return }
    list.focus(first)
    list.scrollToItem(first, at: .start)
  }

  /// The file list's keys: move, Enter jumps, anything else closes it.
  private func handleTree(_ event: InputEvent) -> [DiffEffect] {
    guard case .key(let key) = event, let index = tree else { return [] }
    switch keys.command(for: key) {
    case .moveInList(.up)?: tree = max(0, index - 1)
    case .moveInList(.down)?: tree = min(model.files.count - 1, index + 1)
    case .moveInList(.pageUp)?: tree = max(0, index - treeRows)
    case .moveInList(.pageDown)?: tree = min(model.files.count - 1, index + treeRows)
    case .moveInList(.first)?: tree = 0
    case .moveInList(.last)?: tree = model.files.count - 1
    case .interrupt?: return [.interrupted]
    default:
      tree = nil
      if key.key == .enter { focusFile(index) }
    }
    return []
  }

  private var treeRows: Int { max(1, size.rows - 6) }

  package func tick() -> [DiffEffect] {
    if let message, message.hasExpired(at: now()) { self.message = nil }
    list.tick()
    return []
  }

  package func show(message text: String) {
    message = StatusMessage(text, now: now())
  }

  package func resize(_ size: TerminalSize) {
    self.size = size
    place()
  }

  private func place() {
    list.frame = CellRect(x: 0, y: 1, width: size.columns, height: max(0, size.rows - 2))
  }

  // MARK: Drawing

  /// Draws the whole screen into a buffer of the screen's size.
  public func render(into screen: inout CellBuffer) {
    if screen.width != size.columns || screen.height != size.rows {
      screen = CellBuffer(width: size.columns, height: size.rows)
    }
    guard !ScreenBars.tooSmall(&screen, size: size, rows: 4, columns: 20) else { return }
    let totals = model.totals
    ScreenBars.title(
      &screen,
      name: "#\(number) · \(model.files.count) files +\(totals.additions) −\(totals.deletions) · "
        + "\(totals.viewed)/\(model.files.count) viewed"
        + (model.unlisted > 0 ? " · \(model.unlisted) not listed by GitHub" : ""),
      status: status.isEmpty ? String(model.headSHA.prefix(7)) : status)
    list.render(into: &screen)
    if let mergePrompt {
      screen.draw(in: CellRect(x: 0, y: size.rows - 2, width: size.columns, height: 1)) {
        $0.fill(style: Theme.bar)
        $0.text(
          " " + DisplayWidth.truncate(mergePrompt.question, toColumns: size.columns - 2), x: 0,
          y: 0, style: Theme.bar.with(.bold))
      }
      ScreenBars.statusLine(&screen, mergePrompt.choices)
    } else {
      ScreenBars.statusLine(&screen, message: message, hints: keys.hints)
    }
    if let tree { drawTree(into: &screen, focused: tree) }
    help?.draw(into: &screen)
  }

  private func drawTree(into screen: inout CellBuffer, focused: Int) {
    let rows = min(treeRows, model.files.count)
    let area = CellRect(
      x: 2, y: 2, width: max(10, size.columns - 4), height: min(size.rows - 3, rows + 2))
    let top = max(0, min(focused - rows / 2, model.files.count - rows))
    let files = model.files
    screen.draw(in: area) { canvas in
      canvas.fill(style: .plain)
      canvas.box(style: Theme.accent)
      canvas.text(" Files (Enter jumps) ", x: 2, y: 0, style: Theme.accent)
      for offset in 0..<max(0, min(rows, area.height - 2)) {
        let index = top + offset
        guard index < files.count else { break }
        let file = files[index]
        let mark =
          switch file.viewed {
          case .yes: "✓"
          case .changedSince: "●"
          case .no: " "
          }
        let style = index == focused ? Theme.focus : Style.plain
        if index == focused {
          canvas.draw(in: CellRect(x: 1, y: offset + 1, width: area.width - 2, height: 1)) {
            $0.fill(style: style)
          }
        }
        let line =
          "\(mark) " + ControlCharacters.visible(file.diff.path)
          + "  +\(file.diff.additions) −\(file.diff.deletions)"
        canvas.text(
          DisplayWidth.truncate(line, toColumns: area.width - 4), x: 2, y: offset + 1,
          style: style)
      }
    }
  }

  package var cursorPosition: CellPoint? {
    if help != nil { return HelpOverlay.cursor }
    if let tree {
      let rows = min(treeRows, model.files.count)
      let top = max(0, min(tree - rows / 2, model.files.count - rows))
      return CellPoint(x: 3, y: 3 + tree - top)
    }
    return list.focusedCell
  }

  package var focusDescription: String? {
    if help != nil { return "the list of keys" }
    if let tree, model.files.indices.contains(tree) {
      return "file \(tree + 1) of \(model.files.count): " + model.files[tree].diff.path
    }
    guard let row = focusedRow, let file = model.file(of: row) else {
      return model.files.isEmpty ? "no files" : nil
    }
    let path = ControlCharacters.visible(file.diff.path)
    if let line = model.line(of: row) {
      let kind =
        switch line.kind {
        case .added: "added"
        case .removed: "removed"
        case .context: "unchanged"
        case .noNewline: "no newline at end"
        }
      let number = line.newNumber ?? line.oldNumber
      return "\(path) line \(number.map(String.init) ?? "?"), \(kind): "
        + DiffRowCell.shown(line.text)
    }
    switch model.content(of: row) {
    case .hunk(let h)?: return "\(path), " + file.hunkHeaders[Int(h)].header
    case .thread(let thread, _)?:
      return "\(path), a \(thread.isResolved ? "resolved " : "")thread by "
        + "\(thread.comments.first?.author ?? "?"): "
        + DiffRowCell.firstLine(thread.comments.first?.body ?? "")
    case .draft(let draft)?:
      return "\(path), your draft: " + DiffRowCell.firstLine(draft.comment.body)
    case .note(let text)?: return "\(path): \(text)"
    default: return path
    }
  }

  /// A new frame of the screen.
  public func render() -> CellBuffer {
    var screen = CellBuffer(width: size.columns, height: size.rows)
    render(into: &screen)
    return screen
  }
}
