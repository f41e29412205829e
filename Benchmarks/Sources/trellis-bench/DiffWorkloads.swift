import Foundation
import GitHubIssues
import IssuesBrowser
import TrellisTerminal

/// The diff screen's workloads, on a pull request of 1,000 files and 50,000 changed lines kept
/// in a cache on disk.
///
/// `diff:open`: `d` → the first frame's bytes: the diff, its threads, drafts and viewed marks
/// read from SQLite, every patch read into numbered rows, the sectioned list's snapshot applied
/// and the frame drawn at 200×60 and encoded. `diff:down` and `diff:page`: ↓ and PgDn in the
/// middle of the diff → the changed cells' bytes.
@MainActor
func diffWorkloads(wanted: (String) -> Bool) throws {
  guard wanted("diff") else { return }
  let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
    "trellis-bench-diff-\(UUID().uuidString)")
  defer { try? FileManager.default.removeItem(at: directory) }
  try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  let cache = try IssueCache(path: directory.appendingPathComponent("diff.sqlite").path)
  try cache.apply(SyntheticRepository(itemCount: 200, milestoneCount: 4).make())
  guard let number = try cache.issues(IssueFilter(state: .all, kind: .pullRequests)).first?.number
  else { return }
  // 1,000 files of 50 changed lines each: rewritten lines (changed words to mark) and additions.
  let files = (0..<1_000).map { index -> FileDiff in
    var lines: [String] = []
    for line in 0..<10 {
      lines.append(" let context\(line) = \(index)")
      lines.append("-let value\(line) = compute(\(line), \(index))")
      lines.append("+let value\(line) = compute(\(line), \(index) + 1)")
    }
    for line in 0..<30 { lines.append("+  appended(\(line)) // file \(index)") }
    let patch = "@@ -1,20 +1,50 @@ struct File\(index) {\n" + lines.joined(separator: "\n") + "\n"
    return FileDiff(
      path: "Sources/Module\(index / 50)/File\(index).swift", status: "modified",
      additions: 40, deletions: 10, content: .patch(patch))
  }
  let head = String(repeating: "a", count: 40)
  try cache.keepPullRequestDiff(
    PullRequestDiff(headSHA: head, files: files, announcedFiles: files.count), of: number,
    at: Date())
  let lineCount = files.count * 50
  let repository = RepositoryName(owner: "acme", name: "tracker")
  let size = TerminalSize(columns: 200, rows: 60)

  var rows = 0
  let (openMedian, _) = measure(runs: 21) { () -> Int in
    guard let model = try? DiffHost.model(of: number, in: cache) else { return 0 }
    let screen = DiffScreen(
      repository: repository, number: number, title: "Bench", model: model, size: size)
    var renderer = FrameRenderer()
    rows = model.lineCount
    return renderer.render(screen.render()).count
  }
  print(
    "diff:open".padding(to: 22) + format(openMedian).leftPadding(to: 10)
      + " ms   d → first frame's bytes: \(files.count) files, \(lineCount) changed lines, "
      + "\(rows) rows from the cache (target ≤ 50)")

  guard let model = try DiffHost.model(of: number, in: cache) else { return }
  let screen = DiffScreen(
    repository: repository, number: number, title: "Bench", model: model, size: size)
  var renderer = FrameRenderer()
  var frame = CellBuffer(width: size.columns, height: size.rows)
  screen.render(into: &frame)
  _ = renderer.render(frame)
  for _ in 0..<500 { _ = screen.perform(.nextFile) }
  func keyed(_ command: DiffCommand) -> Int {
    _ = screen.perform(command)
    screen.render(into: &frame)
    return renderer.render(frame).count
  }
  let (downMedian, _) = measure(runs: 201) { keyed(.moveInList(.down)) }
  print(
    "diff:down".padding(to: 22) + format(downMedian).leftPadding(to: 10)
      + " ms   ↓ in the middle of the 50,000-line diff → the frame's bytes (target ≤ 2)")
  let (pageMedian, _) = measure(runs: 201) { keyed(.moveInList(.pageDown)) }
  print(
    "diff:page".padding(to: 22) + format(pageMedian).leftPadding(to: 10)
      + " ms   PgDn in the 50,000-line diff → the frame's bytes (target ≤ 2)")
}
