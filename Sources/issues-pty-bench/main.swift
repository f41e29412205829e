import Foundation
import GitHubIssues
import GitHubTestSupport
import TerminalTestSupport

#if canImport(Glibc)
import Glibc
#endif

// The real `issues` in a 200×60 pseudo-terminal, timed from outside as a person sees it:
//
//     swift build -c release --product issues
//     swift run -c release issues-pty-bench [--items 100000] [--runs 21]
//
// A local GitHub serves a synthetic repository of `--items` issues (60 milestones); `issues sync`
// fills a cache from it, as a person's first sync would. Then, with no token in the environment
// and a `gh` on the PATH that takes 60 ms to say it has none (as an installed, logged-out gh
// does):
// - `launch`: the process started → its first frame on screen (the title and the list's rows),
//   median of `--runs` launches;
// - `search`: the last key of a word typed after `/` → the list filtered on screen, median of
//   `--runs` words.

var arguments = ArraySlice(CommandLine.arguments.dropFirst())
var items = 100_000
var runs = 21
var keptWork: String?
var only: String?
var issuesPath = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
  .appendingPathComponent("issues").path
while let argument = arguments.popFirst() {
  switch argument {
  case "--items": items = arguments.popFirst().flatMap(Int.init) ?? items
  case "--runs": runs = arguments.popFirst().flatMap(Int.init) ?? runs
  case "--issues": issuesPath = arguments.popFirst() ?? issuesPath
  case "--work": keptWork = arguments.popFirst()
  case "--only": only = arguments.popFirst()
  default:
    FileHandle.standardError.write(
      Data(
        "usage: issues-pty-bench [--items N] [--runs N] [--issues PATH] [--work DIR] [--only launch]\n"
          .utf8))
    exit(2)
  }
}
guard FileManager.default.isExecutableFile(atPath: issuesPath) else {
  FileHandle.standardError.write(
    Data("no issues at \(issuesPath): swift build -c release --product issues\n".utf8))
  exit(1)
}

func median(_ values: [Double]) -> Double {
  let sorted = values.sorted()
  return sorted.isEmpty ? .nan : sorted[sorted.count / 2]
}

func format(_ value: Double) -> String { String(format: "%.1f", value) }

let repository = RepositoryName(owner: "synthetic", name: "large")
let github = try await LocalGitHub.start()
try await github.serve(
  synthetic: SyntheticRepository(itemCount: items, milestoneCount: 60), as: repository)
let url = await github.baseURL.absoluteString
// `--work DIR` keeps the synced cache there, and uses it again on the next run.
let work =
  keptWork.map { URL(fileURLWithPath: $0) }
  ?? FileManager.default.temporaryDirectory.appendingPathComponent(
    "issues-pty-bench-\(UUID().uuidString)")
let bin = work.appendingPathComponent("bin")
let cached = FileManager.default.fileExists(atPath: work.appendingPathComponent("cache").path)
try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
defer { if keptWork == nil { try? FileManager.default.removeItem(at: work) } }
// A logged-out gh: 60 ms to say there is no token.
let gh = bin.appendingPathComponent("gh")
try "#!/bin/sh\nsleep 0.06\necho 'no oauth token' >&2\nexit 1\n".write(
  to: gh, atomically: true, encoding: .utf8)
chmod(gh.path, 0o755)
var environment = ProcessInfo.processInfo.environment
for name in [
  "GH_TOKEN", "GITHUB_TOKEN", "GH_ENTERPRISE_TOKEN", "GITHUB_ENTERPRISE_TOKEN", "GH_REPO",
] {
  environment[name] = nil
}
environment["XDG_CACHE_HOME"] = work.appendingPathComponent("cache").path
environment["XDG_CONFIG_HOME"] = work.appendingPathComponent("config").path
environment["PATH"] = bin.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")

// The cache, filled as a person's first sync fills it.
// The cache's folder is named by the API's host and port: a kept cache moves to this run's.
let hostFolder = work.appendingPathComponent("cache/trellis-issues")
if cached, let host = URL(string: url).flatMap({ u in u.host.map { "\($0):\(u.port ?? 80)" } }),
  let kept = try? FileManager.default.contentsOfDirectory(atPath: hostFolder.path).first,
  kept != host
{
  try FileManager.default.moveItem(
    at: hostFolder.appendingPathComponent(kept), to: hostFolder.appendingPathComponent(host))
}
let syncStart = Date()
if !cached {
  let sync = Process()
  sync.executableURL = URL(fileURLWithPath: issuesPath)
  sync.arguments = ["sync", "\(repository)", "--api-url", url]
  sync.environment = environment
  sync.standardOutput = FileHandle.nullDevice
  try sync.run()
  sync.waitUntilExit()
  guard sync.terminationStatus == 0 else {
    FileHandle.standardError.write(Data("issues sync failed (\(sync.terminationStatus))\n".utf8))
    exit(1)
  }
}
let cacheBytes =
  (FileManager.default.enumerator(atPath: work.appendingPathComponent("cache").path)?.allObjects
  as? [String] ?? []).filter { $0.hasSuffix(".sqlite") }.compactMap { name in
    try? FileManager.default.attributesOfItem(
      atPath: work.appendingPathComponent("cache").appendingPathComponent(name).path)[.size]
      as? Int
  }.reduce(0, +)
print(
  "cache: \(items) issues "
    + (cached ? "synced before" : "synced in \(format(Date().timeIntervalSince(syncStart))) s")
    + ", \(cacheBytes / 1_000_000) MB")

/// `issues` in a 200×60 pseudo-terminal, and what it drew.
@MainActor
final class Session {
  let pty: PseudoTerminal
  let process: Process
  var terminal = VirtualTerminal(width: 200, height: 60)

  init(_ arguments: [String]) throws {
    pty = try PseudoTerminal(columns: 200, rows: 60)
    process = try pty.launch(issuesPath, arguments, environment: environment)
  }

  /// Reads until `condition` holds of the screen (or `seconds` pass); whether it held.
  @discardableResult
  func read(seconds: Double = 20, until condition: (VirtualTerminal) -> Bool) -> Bool {
    var buffer = [UInt8](repeating: 0, count: 65536)
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
      var poller = pollfd(fd: pty.master, events: Int16(POLLIN), revents: 0)
      guard poll(&poller, 1, 5) > 0 else { continue }
      let count = Glibc.read(pty.master, &buffer, buffer.count)
      if count > 0 {
        terminal.write(buffer[0..<count])
        if condition(terminal) { return true }
      }
    }
    return false
  }

  func quit() {
    pty.type("q")
    let deadline = Date().addingTimeInterval(10)
    while process.isRunning, Date() < deadline {
      read(seconds: 0.05) { _ in false }
    }
    if process.isRunning { process.terminate() }
  }
}

/// The first frame: the title bar names the repository and the list shows rows.
@MainActor
func firstFrameIsDrawn(_ terminal: VirtualTerminal) -> Bool {
  terminal.lines[0].contains("synthetic/large") && terminal.lines[4].contains("#")
    && terminal.lines[59].contains("quit")
}

var launches: [Double] = []
for run in 0...runs where only == nil || only == "launch" {
  let start = Date()
  let session = try Session(["\(repository)", "--api-url", url])
  let drawn = session.read(until: firstFrameIsDrawn)
  let elapsed = Date().timeIntervalSince(start) * 1000
  session.quit()
  guard drawn else {
    print("launch: no first frame within 20 s")
    exit(1)
  }
  if run > 0 { launches.append(elapsed) }  // the first warms the page cache
}
print(
  "issues-pty:launch:\(items)".padding(toLength: 30, withPad: " ", startingAt: 0)
    + format(median(launches)).leftPadding(to: 8)
    + " ms   launch → first frame in a 200×60 pty, no token, a 60 ms gh; median of \(runs)"
    + " (min \(format(launches.min() ?? .nan)), max \(format(launches.max() ?? .nan)))")

if only == "launch" {
  await github.stop()
  exit(0)
}
// Searching: `/`, a word typed a key every 40 ms, then the time until the list is filtered.
let words = ["memory", "crash", "export", "scroll", "dark", "search", "layout", "cache"]
let session = try Session(["\(repository)", "--api-url", url])
session.read(until: firstFrameIsDrawn)
session.read(seconds: 60) { $0.lines[0].contains("up to date") }
var searches: [Double] = []
for run in 0..<runs {
  let word = words[run % words.count]
  session.pty.type("/")
  session.read(seconds: 2) { $0.lines[59].hasPrefix(" / ") }
  var typed = Date()
  for (index, character) in word.enumerated() {
    session.pty.type(String(character))
    typed = Date()
    if index + 1 < word.count { session.read(seconds: 0.04) { _ in false } }
  }
  let shown = session.read(seconds: 5) { $0.lines[2].contains("search: “\(word)”") }
  let elapsed = Date().timeIntervalSince(typed) * 1000
  if !shown {
    print(
      "search: “\(word)” never showed:\n  \(session.terminal.lines[2])\n  \(session.terminal.lines[59])"
    )
  }
  searches.append(elapsed)
  // Esc clears it; the list comes back whole before the next word.
  session.pty.type("\u{1B}")
  session.read(seconds: 5) { !$0.lines[2].contains("search:") }
  session.read(seconds: 0.2) { _ in false }
}
session.quit()
print(
  "issues-pty:search:\(items)".padding(toLength: 30, withPad: " ", startingAt: 0)
    + format(median(searches)).leftPadding(to: 8)
    + " ms   last key of a word after / → the list filtered on screen; median of \(runs)"
    + " (min \(format(searches.min() ?? .nan)), max \(format(searches.max() ?? .nan)))")
await github.stop()

extension String {
  func leftPadding(to width: Int) -> String {
    count >= width ? self : String(repeating: " ", count: width - count) + self
  }
}
