import Foundation
import GitHubIssues
import GitHubTestSupport

// A local GitHub for trying `issues` against faults by hand and for measuring them:
//
//     swift run local-github --items 100000 --fault drop --page 900
//     issues sync acme/tracker --api-url http://127.0.0.1:PORT
//
// It serves a synthetic repository `acme/tracker` in pages of 100, prints its URL, and runs until
// interrupted. A sync lists by key (each request a first page from a later `since`), so "page N"
// is the Nth request of the listing. Faults: loop (page N and every later one link back to page
// 1), drop (page N's connection is dropped mid-body, `--times` times), foreign (page N links to
// another host), stall (page N never answers), slow (every page answers after half a second:
// watch the browser fill), edit (three items of every page are edited right after it is served),
// drop-write (every write to issue N = `--page` is read, then answered with half a body and a
// dropped connection: `issues close N` must say so at once), graphql-edit (three issues of every
// GraphQL page that has a next are edited right after it is served).
//
// For the mirror (`issues sync --all`, with any GH_TOKEN): `--comments N --events N` serve about
// that many comments and timeline events over the issues, `--parent-spacing N` makes one issue in
// N a parent of sub-issues, `--latency MS` delays every answer. A line `check PATH` on standard
// input compares the cache at PATH with what is served and prints `differences: N` (and the
// first few), then `points: SPENT` (GraphQL points charged so far); a line `points` prints only
// the latter. `--notifications N` serves N notification threads (`issues inbox --api-url …`);
// a line `notify` adds one. `--templates DIR` serves the files of DIR as the repository's
// `.github/ISSUE_TEMPLATE` (`issues create --api-url …`). `--diffs N` serves every pull request
// a diff of N files (`issues pr diff`, `d` in the browser).

var arguments = ArraySlice(CommandLine.arguments.dropFirst())
var items = 3_000
var fault: String?
var page = 2
var times = 1
var comments = 0
var events = 0
var parentSpacing = 100
var latency = 0
var notifications = 0
var pollInterval = 60
var templates: String?
var diffs = 0
while let argument = arguments.popFirst() {
  switch argument {
  case "--items": items = arguments.popFirst().flatMap(Int.init) ?? items
  case "--fault": fault = arguments.popFirst()
  case "--page": page = arguments.popFirst().flatMap(Int.init) ?? page
  case "--times": times = arguments.popFirst().flatMap(Int.init) ?? times
  case "--comments": comments = arguments.popFirst().flatMap(Int.init) ?? comments
  case "--events": events = arguments.popFirst().flatMap(Int.init) ?? events
  case "--parent-spacing":
    parentSpacing = max(6, arguments.popFirst().flatMap(Int.init) ?? parentSpacing)
  case "--latency": latency = arguments.popFirst().flatMap(Int.init) ?? latency
  case "--poll-interval":
    pollInterval = max(1, arguments.popFirst().flatMap(Int.init) ?? pollInterval)
  case "--templates": templates = arguments.popFirst()
  case "--diffs": diffs = arguments.popFirst().flatMap(Int.init) ?? diffs
  case "--notifications":
    notifications = arguments.popFirst().flatMap(Int.init) ?? notifications
  default:
    FileHandle.standardError.write(
      Data(
        "usage: local-github [--items N] [--fault loop|drop|foreign|stall|slow|edit|drop-write|graphql-edit] [--page N] [--times N] [--comments N] [--events N] [--parent-spacing N] [--latency MS] [--notifications N] [--poll-interval S] [--templates DIR] [--diffs N]\n"
          .utf8))
    exit(2)
  }
}
let repository = RepositoryName(owner: "acme", name: "tracker")
let github = try await LocalGitHub.start()
try await github.serve(
  synthetic: SyntheticRepository(
    itemCount: items, milestoneCount: 40, seed: 7, parentSpacing: parentSpacing),
  as: repository)
if comments > 0 || events > 0 {
  await github.serveConversations(in: repository, comments: comments, events: events)
}
if latency > 0 { await github.setLatency(.milliseconds(latency)) }
if let templates {
  let folder = URL(fileURLWithPath: templates)
  let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
  try await github.serveIssueTemplates(
    names.map { ($0, try String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8)) },
    of: repository)
}
// Notification threads about the served items, one a minute back from now; a line `notify` on
// standard input adds a new one.
let reasons = ["review_requested", "mention", "assign", "subscribed", "comment", "team_mention"]
let served = await github.servedItems(in: repository)
func notify(_ index: Int, at date: Date) async {
  guard !served.isEmpty else { return }
  let item = served[index % served.count].number
  let json = await github.itemJSON(number: item, in: repository) ?? ""
  await github.addNotification(
    NotificationThread(
      id: "\(9_000 + index)", repository: "\(repository)", number: item,
      isPullRequest: json.contains("\"pull_request\""), title: "Thread about #\(item)",
      reason: reasons[index % reasons.count], updatedAt: date))
}
// Every pull request's diff: N files of a 30-line hunk each (`issues pr diff`, `d`).
for item in served where diffs > 0 {
  guard
    (await github.itemJSON(number: item.number, in: repository) ?? "")
      .contains("\"pull_request\"")
  else { continue }
  let files = (0..<diffs).map { index in
    PullRequestFile(
      path: "Sources/Module\(index)/File\(index).swift", status: "modified", additions: 10,
      deletions: 10,
      patch: "@@ -1,30 +1,30 @@ struct File\(index) {\n"
        + (1...30).map { line in
          line % 3 == 0
            ? "-  let old\(line) = \(line)\n+  let new\(line) = \(line * 2)" : "   line \(line)"
        }.joined(separator: "\n"))
  }
  await github.servePullRequestFiles(
    files, ofPullRequest: item.number, in: repository,
    head: String(repeating: "\(item.number % 10)", count: 40))
}
await github.setPollInterval(pollInterval)
for index in 0..<notifications {
  await notify(index, at: Date().addingTimeInterval(-60 * Double(index)))
}
let path = "/repos/acme/tracker/issues"
switch fault {
case "loop": await github.inject(.loopToFirstPage, path: path, times: .max, after: page - 1)
case "drop": await github.inject(.dropConnection, path: path, times: times, after: page - 1)
case "foreign":
  await github.inject(
    .nextLink("http://127.0.0.2:9/repos/acme/tracker/issues?page=3"), path: path, times: .max,
    after: page - 1)
case "stall": await github.inject(.stall(seconds: 3_600), path: path, times: .max, after: page - 1)
case "slow": await github.inject(.delayed(seconds: 0.5), path: path, times: .max)
case "edit": await github.editWhileListing(repository, count: 3)
case "graphql-edit": await github.configureGraphQL { $0.editsPerPage = 3 }
case "drop-write":
  for method in ["PATCH", "POST"] {
    for target in ["\(path)/\(page)", "\(path)/\(page)/comments"] {
      await github.inject(.dropConnection, path: target, method: method, times: .max)
    }
  }
default: break
}
FileHandle.standardOutput.write(Data((await github.baseURL.absoluteString + "\n").utf8))
signal(SIGTERM) { _ in exit(0) }
Task.detached {
  while let line = readLine() {
    if line == "notify" {
      await notify(Int.random(in: 10_000...99_999), at: Date())
      continue
    }
    if line == "points" {
      FileHandle.standardOutput.write(Data("points: \(await github.graphQLState.spent)\n".utf8))
      continue
    }
    guard line.hasPrefix("check ") else { continue }
    let path = String(line.dropFirst(6))
    var answer: String
    do {
      let differences = try await github.differences(
        from: try IssueCache(path: path), in: repository)
      answer = "differences: \(differences.count)\n"
      for difference in differences.prefix(10) { answer += "  \(difference)\n" }
    } catch {
      answer = "differences: unknown (\(error))\n"
    }
    let queries = await github.graphQLState.queries.sorted { $0.key < $1.key }
    answer += "queries: " + queries.map { "\($0.key) \($0.value)" }.joined(separator: ", ") + "\n"
    answer += "points: \(await github.graphQLState.spent)\n"
    FileHandle.standardOutput.write(Data(answer.utf8))
  }
}
while true {
  try await Task.sleep(for: .seconds(5))
  let count = await github.requests.count
  FileHandle.standardError.write(Data("requests: \(count)\n".utf8))
}
