import Foundation
import GitHubIssues
import IssuesBrowser
import TrellisTerminal

/// `issues:*`: the browser on a 100,000-item synthetic repository (60 milestones) cached on disk,
/// on a 200×60 screen: startup to the first frame's bytes, and keypress to frame.
@MainActor
func issuesWorkloads(wanted: (String) -> Bool) throws {
  // `issues:startup` runs this one alone: startup, keypress, chip select and search.
  guard wanted("issues:startup") else { return }
  let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
    "trellis-bench-issues-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: directory) }
  let path = directory.appendingPathComponent("large.sqlite").path
  try IssueCache(path: path).apply(
    SyntheticRepository(itemCount: 100_000, milestoneCount: 60).make())
  let size = TerminalSize(columns: 200, rows: 60)
  let repository = RepositoryName(owner: "synthetic", name: "large")

  // Startup: open the file, build the chips and the list of open issues, draw and encode a frame.
  var startupBytes = 0
  let startup = medianOf(runs: 11) {
    guard let cache = try? IssueCache(path: path) else { return }
    let browser = IssueBrowser(cache: cache, repository: repository, size: size)
    var renderer = FrameRenderer()
    startupBytes = renderer.render(browser.render()).count
  }
  print(
    "issues:startup:100k".padding(to: 26) + format(startup).leftPadding(to: 8)
      + " ms   open cache → first frame's bytes, median of 11 (\(startupBytes) bytes)")

  let cache = try IssueCache(path: path)
  let browser = IssueBrowser(cache: cache, repository: repository, size: size)
  var screen = CellBuffer(width: 200, height: 60)
  var renderer = FrameRenderer()
  browser.render(into: &screen)
  _ = renderer.render(screen)
  func press(_ key: Key) -> Int {
    _ = browser.handle(.key(KeyEvent(key)))
    browser.render(into: &screen)
    return renderer.render(screen).count
  }
  var bytes: [Double] = []
  // `TRELLIS_BENCH_KEYPRESSES=20000` makes the presses most of a profile.
  let presses =
    ProcessInfo.processInfo.environment["TRELLIS_BENCH_KEYPRESSES"].flatMap(Int.init) ?? 1000
  browser.prepareNextFrame()
  let down = medianOf(
    runs: presses, { bytes.append(Double(press(.down))) },
    between: { browser.prepareNextFrame() })
  // The bytes of the list's own change: each frame and the one before it with the preview pane
  // (right of the list's "│" border) blanked, encoded one after the other.
  var listBytes: [Double] = []
  let previewX =
    (0..<200).first { x in (4..<50).allSatisfy { screen[x, $0].grapheme == "│" } } ?? 200
  func withoutPreview(_ frame: CellBuffer) -> CellBuffer {
    var frame = frame
    frame.draw(in: CellRect(x: previewX, y: 0, width: 200 - previewX, height: 60)) {
      $0.fill()
    }
    return frame
  }
  for _ in 0..<200 {
    let before = screen
    _ = browser.handle(.key(KeyEvent(.down)))
    browser.render(into: &screen)
    var encoder = FrameRenderer()
    _ = encoder.render(withoutPreview(before))
    listBytes.append(Double(encoder.render(withoutPreview(screen)).count))
  }
  _ = renderer.render(screen)
  print(
    "issues:keypress:100k".padding(to: 26) + format(down).leftPadding(to: 8)
      + " ms   ↓ in the list to frame bytes, median of \(presses) (\(Int(median(bytes))) bytes;"
      + " the list's own \(Int(median(listBytes))), the rest the preview pane)")

  var chipBytes: [Double] = []
  var forward = true
  var step = 0
  var chipTimes: [Double] = []
  for _ in 0..<60 {
    // → → … then ← ← …, each followed by Enter: a new milestone, its list, the frame. What the
    // host does after each frame (`prepareNextFrame`) is not timed.
    step += 1
    if step % 20 == 0 { forward.toggle() }
    let start = clock.now
    _ = browser.handle(.key(KeyEvent(forward ? .right : .left)))
    let focused = clock.now
    browser.render(into: &screen)
    let focusDrawn = clock.now
    _ = renderer.render(screen)
    let moved = clock.now
    browser.prepareNextFrame()
    let entered = clock.now
    _ = browser.handle(.key(KeyEvent(.enter)))
    let handled = clock.now
    browser.render(into: &screen)
    let drawn = clock.now
    chipBytes.append(Double(renderer.render(screen).count))
    printParts([
      ("move", focused - start), ("draw", focusDrawn - focused), ("encode", moved - focusDrawn),
      ("enter", handled - entered), ("draw", drawn - handled),
      ("encode", clock.now - drawn),
    ])
    chipTimes.append(milliseconds(moved - start) + milliseconds(clock.now - entered))
    browser.prepareNextFrame()
  }
  let chip = median(chipTimes)
  print(
    "issues:chip-select:100k".padding(to: 26) + format(chip).leftPadding(to: 8)
      + " ms   → or ← then Enter: query, diff, lay out, frame; median of 60"
      + " (\(Int(median(chipBytes))) bytes)")

  // A search, once typing pauses: FTS query for the list and for the chip counts, diff, frame.
  // (Typing itself only edits the field: that is a keypress like any other.)
  let words = ["dark", "memory", "검색", "export", "scroll", "crash"]
  var clock = Date()
  let searching = IssueBrowser(
    cache: cache, repository: repository, size: size, now: { clock })
  var searchScreen = CellBuffer(width: 200, height: 60)
  var searchRenderer = FrameRenderer()
  searching.render(into: &searchScreen)
  _ = searchRenderer.render(searchScreen)
  var times: [Double] = []
  for index in 0..<24 {
    _ = searching.handle(.key(KeyEvent(.escape)))
    _ = searching.handle(.key(KeyEvent(.character("/"))))
    for character in words[index % words.count] {
      _ = searching.handle(.key(KeyEvent(.character(character))))
    }
    clock = clock.addingTimeInterval(1)
    let start = ContinuousClock.now
    searching.tick()
    searching.render(into: &searchScreen)
    _ = searchRenderer.render(searchScreen)
    times.append(milliseconds(ContinuousClock.now - start))
    _ = searching.handle(.key(KeyEvent(.enter)))
  }
  let search = median(times)
  print(
    "issues:search-apply:100k".padding(to: 26) + format(search).leftPadding(to: 8)
      + " ms   a search applied once typing pauses: one FTS query for list and chip counts, diff,"
      + " frame; median of 24")
}

/// `issues:reader:2k-comments`: the reader on an issue with 2,000 cached comments (Markdown with a
/// list, emphasis and code, reactions on some): Enter to the first frame's bytes, and a line
/// scrolled (↓) to frame.
@MainActor
func readerWorkloads(wanted: (String) -> Bool) throws {
  guard wanted("issues:reader") else { return }
  let cache = try IssueCache()
  try cache.apply(SyntheticRepository(itemCount: 1_000, milestoneCount: 5).make())
  let size = TerminalSize(columns: 200, rows: 60)
  let browser = IssueBrowser(
    cache: cache, repository: RepositoryName(owner: "synthetic", name: "large"), size: size)
  // The focused issue, as `y` copies its number.
  guard case .copy(let text)? = browser.handle(.key(KeyEvent(.character("y")))).first,
    let number = Int(text), let issue = try cache.issue(number: number)
  else { return }
  let start = Date(timeIntervalSince1970: 1_700_000_000)
  var comments: [GitHubComment] = []
  for id in 1...2_000 {
    let code = id % 3 == 0 ? "\n```\nlet x = \(id)\n```\n" : ""
    let body =
      "Comment \(id): I looked at **this** again and the `cache` still misses.\n\n"
      + "- first step, which takes a while to explain in words that wrap\n- second step\n" + code
    let written = start.addingTimeInterval(Double(id) * 60)
    comments.append(
      GitHubComment(
        id: Int64(id), user: GitHubUser(login: "user\(id % 37)", id: Int64(id % 37)), body: body,
        createdAt: written, updatedAt: written.addingTimeInterval(id % 5 == 0 ? 10 : 0),
        authorAssociation: id % 4 == 0 ? "MEMBER" : "NONE",
        reactions: id % 2 == 0 ? ["+1": id % 7 + 1, "heart": 1] : [:]))
  }
  try cache.writeComments(comments, of: issue.number, completeAsOf: issue.updatedAt)
  var screen = CellBuffer(width: 200, height: 60)
  var renderer = FrameRenderer()
  browser.render(into: &screen)
  _ = renderer.render(screen)
  var openBytes = 0
  var openTimes: [Double] = []
  for _ in 0..<21 {
    _ = browser.handle(.key(KeyEvent(.escape)))
    browser.render(into: &screen)
    _ = renderer.render(screen)
    let start = ContinuousClock.now
    _ = browser.handle(.key(KeyEvent(.enter)))
    browser.render(into: &screen)
    openBytes = renderer.render(screen).count
    openTimes.append(milliseconds(ContinuousClock.now - start))
  }
  let open = median(openTimes)
  print(
    "issues:reader-open:2k".padding(to: 26) + format(open).leftPadding(to: 8)
      + " ms   Enter on an issue with 2,000 cached comments → first frame's bytes, median of 21"
      + " (\(openBytes) bytes)")
  var bytes: [Double] = []
  let key = medianOf(runs: 1000) {
    _ = browser.handle(.key(KeyEvent(.down)))
    browser.render(into: &screen)
    bytes.append(Double(renderer.render(screen).count))
  }
  print(
    "issues:reader-key:2k".padding(to: 26) + format(key).leftPadding(to: 8)
      + " ms   ↓ in that thread to frame bytes, median of 1000 (\(Int(median(bytes))) bytes)")
}

/// `issues:sync-page:100k`: the browser on a 100,000-item cache following the cache as a sync
/// commits a page of 100 issues: the commit (with the observer's merge of the changed rows), the
/// chips and list updated, the frame drawn and encoded.
@MainActor
func issuesLiveWorkloads(wanted: (String) -> Bool) async throws {
  guard wanted("issues:sync-page") || wanted("issues:milestone-move") || wanted("issues:close")
  else { return }
  let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
    "trellis-bench-live-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: directory) }
  let cache = try IssueCache(path: directory.appendingPathComponent("large.sqlite").path)
  try cache.apply(SyntheticRepository(itemCount: 100_000, milestoneCount: 60).make())
  let size = TerminalSize(columns: 200, rows: 60)
  let browser = IssueBrowser(
    cache: cache, repository: RepositoryName(owner: "synthetic", name: "large"), size: size)
  var lists = cache.observeList(browser.observedFilter).makeAsyncIterator()
  guard let first = try await lists.next() else { return }
  browser.apply(first)
  var screen = CellBuffer(width: 200, height: 60)
  var renderer = FrameRenderer()
  browser.render(into: &screen)
  _ = renderer.render(screen)
  let old = Date(timeIntervalSince1970: 1_500_000_000)
  var totals: [Double] = []
  var afterCommit: [Double] = []
  var bytes: [Double] = []
  for run in 0..<41 where wanted("issues:sync-page") {
    // A page as a first sync writes it: older than everything shown, so it lands below.
    let page = (0..<100).map { index -> GitHubIssue in
      let number = 500_000 + run * 100 + index
      return GitHubIssue(
        id: Int64(number), number: number, title: "Synced issue \(number)", state: .open,
        user: GitHubUser(login: "octocat", id: 1), labels: [], milestone: nil, comments: 0,
        createdAt: old, updatedAt: old.addingTimeInterval(Double(-number)), body: nil,
        isPullRequest: false)
    }
    let start = clock.now
    try cache.writePage(page, advancingMarks: false)
    let committed = clock.now
    guard let list = try await lists.next() else { break }
    browser.apply(list)
    browser.render(into: &screen)
    let frame = renderer.render(screen)
    let end = clock.now
    guard run > 0 else { continue }  // warm-up
    totals.append(milliseconds(end - start))
    afterCommit.append(milliseconds(end - committed))
    bytes.append(Double(frame.count))
  }
  if !afterCommit.isEmpty {
    print(
      "issues:sync-page:100k".padding(to: 26) + format(median(afterCommit)).leftPadding(to: 8)
        + " ms   a committed page of 100 issues to the frame's bytes, median of 40"
        + " (\(Int(median(bytes))) bytes; with the commit and the observer's merge:"
        + " \(format(median(totals))) ms)")
  }
  if wanted("issues:close") { try await closeWorkload(cache: cache, size: size) }
  guard wanted("issues:milestone-move") else { return }

  // `issues:milestone-move:100k`: m, → and Enter move the focused issue to the next milestone;
  // the host shows the change in the cache (one transaction), the observer merges the row, the
  // browser moves it between sections and recounts two chips, and the frame is drawn. What
  // GitHub answers later is not part of it.
  var moves: [Double] = []
  var moveBytes: [Double] = []
  for run in 0..<41 {
    _ = browser.perform(.moveToMilestone)
    _ = browser.perform(.moveAlongChips(.right))
    let effects = browser.perform(.moveToFocusedChip)
    guard case .edit(let request)? = effects.first else {
      print("issues:milestone-move:100k  no move asked for (\(effects))")
      return
    }
    let start = clock.now
    for change in request.changes { try cache.enqueue(.change(change), onIssue: request.number) }
    let t1 = clock.now
    guard let list = try await lists.next() else { break }
    let t2 = clock.now
    browser.apply(list)
    let t3 = clock.now
    browser.render(into: &screen)
    let frame = renderer.render(screen)
    let end = clock.now
    printParts([("enqueue", t1 - start), ("list", t2 - t1), ("apply", t3 - t2), ("draw", end - t3)])
    browser.actionFinished(request.id, .success("moved"))
    guard run > 0 else { continue }  // warm-up
    moves.append(milliseconds(end - start))
    moveBytes.append(Double(frame.count))
  }
  print(
    "issues:milestone-move:100k".padding(to: 26) + format(median(moves)).leftPadding(to: 8)
      + " ms   m → Enter, shown in the cache, to the frame's bytes, median of 40"
      + " (\(Int(median(moveBytes))) bytes)")
}

/// `issues:close:100k`: `x` on the focused issue, as the host performs it, to the frame's bytes.
///
/// The browser plans it from the row it drew, the queue commits it (synced off the input path),
/// the observer leaves the write's list before the write returns, the row is patched as written
/// and the list edited. The row leaves the open list in that frame.
@MainActor
func closeWorkload(cache: IssueCache, size: TerminalSize) async throws {
  let browser = IssueBrowser(
    cache: cache, repository: RepositoryName(owner: "synthetic", name: "large"), size: size)
  browser.writeAccess = .queued(reason: "offline mode")
  let follower = ListFollower(cache: cache) {}
  follower.follow(browser.observedFilter)
  var first: ObservedIssueList?
  while first == nil {
    if case .success(let list)? = follower.take() {
      first = list
    } else {
      try await Task.sleep(for: .milliseconds(2))
    }
  }
  guard let first else { return }
  browser.apply(first)
  var screen = CellBuffer(width: size.columns, height: size.rows)
  var renderer = FrameRenderer()
  browser.render(into: &screen)
  _ = renderer.render(screen)
  var times: [Double] = []
  var bytes: [Double] = []
  for run in 0..<41 {
    let start = clock.now
    guard case .edit(let request)? = browser.perform(.close(.completed)).first else {
      print("issues:close:100k  no close asked for")
      return
    }
    let planned = clock.now
    let queued = try request.changes.map {
      try cache.enqueue(.change($0), onIssue: request.number, durability: .deferred)
    }
    let enqueued = clock.now
    browser.showQueued(queued, on: request.number)
    if case .success(let list)? = follower.take() { browser.apply(list) }
    let applied = clock.now
    browser.render(into: &screen)
    let drawn = clock.now
    let frame = renderer.render(screen)
    let end = clock.now
    printParts([
      ("plan", planned - start), ("enqueue", enqueued - planned), ("apply", applied - enqueued),
      ("draw", drawn - applied), ("encode", end - drawn),
    ])
    // Untimed, as the host does once the frame is written. The host syncs the commit to the
    // disk off the input path; it is done here before the next key, as it is long done before
    // a person's next key (a sync still running would contend with the next commit).
    browser.prepareNextFrame()
    browser.actionFinished(request.id, .success("closed"))
    cache.syncWrites()
    guard run > 0 else { continue }  // warm-up
    times.append(milliseconds(end - start))
    bytes.append(Double(frame.count))
  }
  print(
    "issues:close:100k".padding(to: 26) + format(median(times)).leftPadding(to: 8)
      + " ms   x → queued (synced off the input path), list taken, row patched, frame bytes;"
      + " median of 40 (\(Int(median(bytes))) bytes)")
  follower.stop()
}

/// With `TRELLIS_BENCH_PARTS` set, prints where one run of a workload went, part by part.
func printParts(_ parts: [(name: String, duration: Duration)]) {
  guard ProcessInfo.processInfo.environment["TRELLIS_BENCH_PARTS"] != nil else { return }
  print("parts " + parts.map { "\($0.name) \(milliseconds($0.duration))" }.joined(separator: " "))
}
