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
// dropped connection: `issues close N` must say so at once).

var arguments = ArraySlice(CommandLine.arguments.dropFirst())
var items = 3_000
var fault: String?
var page = 2
var times = 1
while let argument = arguments.popFirst() {
  switch argument {
  case "--items": items = arguments.popFirst().flatMap(Int.init) ?? items
  case "--fault": fault = arguments.popFirst()
  case "--page": page = arguments.popFirst().flatMap(Int.init) ?? page
  case "--times": times = arguments.popFirst().flatMap(Int.init) ?? times
  default:
    FileHandle.standardError.write(
      Data(
        "usage: local-github [--items N] [--fault loop|drop|foreign|stall|slow|edit|drop-write] [--page N] [--times N]\n"
          .utf8))
    exit(2)
  }
}
let repository = RepositoryName(owner: "acme", name: "tracker")
let github = try await LocalGitHub.start()
try await github.serve(
  synthetic: SyntheticRepository(itemCount: items, milestoneCount: 40, seed: 7), as: repository)
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
while true {
  try await Task.sleep(for: .seconds(5))
  let count = await github.requests.count
  FileHandle.standardError.write(Data("requests: \(count)\n".utf8))
}
