import Foundation
import GitHubIssues
import IssuesBrowser

/// `dashboard:*`: 20 repositories × 10,000 items (issues and pull requests, 200,000 rows) on two
/// hosts, each in its own on-disk cache, read as one dashboard.
func dashboardWorkloads(wanted: (String) -> Bool) async throws {
  guard wanted("dashboard") else { return }
  let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
    "trellis-bench-dashboard-\(UUID().uuidString)")
  defer {
    if ProcessInfo.processInfo.environment["TRELLIS_BENCH_KEEP"] == nil {
      try? FileManager.default.removeItem(at: directory)
    } else {
      print("kept \(directory.path)")
    }
  }
  let hosts = [GitHubHost.github, .enterprise("ghe.example.com")]
  var sources: [(DashboardSource, String)] = []
  let importStart = clock.now
  for index in 0..<20 {
    let source = DashboardSource(
      host: hosts[index % 2], repository: RepositoryName(owner: "acme", name: "repo\(index)"))
    let path = directory.appendingPathComponent("\(source.host.name)-\(index).sqlite").path
    let cache = try IssueCache(path: path)
    try cache.apply(SyntheticRepository(itemCount: 10_000, seed: UInt64(100 + index)).make())
    sources.append((source, path))
  }
  print(
    "dashboard:import".padding(to: 22)
      + format(milliseconds(clock.now - importStart)).leftPadding(to: 10)
      + " ms   20 caches × 10,000 items on 2 hosts (setup, not a target)")

  let sections = try [
    "is:open is:pr author:octocat sort:updated-desc",
    "is:open label:bug",
    "is:open is:issue label:bug,ui milestone:v3.4 sort:created-desc",
    "is:closed comments:>30 -label:docs",
    "repo:acme/repo3 is:open is:issue",
  ].map { try SearchQuery(parsing: $0) }

  // First screen, as `issues` opens a dashboard: every cache (side by side), the first
  // section's entries, the rows a screen shows.
  let paths = Dictionary(uniqueKeysWithValues: sources.map { ($0.0, $0.1) })
  let config = DashboardConfig(
    repositories: sources.map(\.0),
    sections: sections.enumerated().map { DashboardSection(title: "\($0)", query: $1) })
  var firstScreenTimes: [Double] = []
  var firstRows = 0
  for _ in 0..<12 {
    let start = clock.now
    let opened = try await DashboardOpening.open(
      config, offline: true, timeout: nil,
      cacheURL: { URL(fileURLWithPath: paths[$0] ?? "/nonexistent") })
    let entries = try opened.dashboard.entries(sections[0])
    firstRows = try opened.dashboard.items(entries.prefix(40)).count
    firstScreenTimes.append(milliseconds(clock.now - start))
  }
  let firstScreen = median(Array(firstScreenTimes.dropFirst()))
  print(
    "dashboard:first-screen".padding(to: 22) + format(firstScreen).leftPadding(to: 10)
      + " ms   open 20 caches, first section, \(firstRows) rows (target ≤ 100)")

  let (opening, opened) = measure(runs: 11) { () -> Int in
    (try? sources.map { _, path in try IssueCache(path: path) })?.count ?? -1
  }
  print(
    "dashboard:open-caches".padding(to: 22) + format(opening).leftPadding(to: 10)
      + " ms   \(opened) caches opened and migrations checked")

  let dashboard = Dashboard(
    repositories: try sources.map { source, path in
      Dashboard.Repository(source: source, cache: try IssueCache(path: path), me: "octocat")
    })
  var next = 0
  let (switching, switchedRows) = measure(runs: 51) { () -> Int in
    next = (next + 1) % sections.count
    let entries = (try? dashboard.entries(sections[next])) ?? []
    return (try? dashboard.items(entries.prefix(40)).count) ?? -1
  }
  print(
    "dashboard:switch".padding(to: 22) + format(switching).leftPadding(to: 10)
      + " ms   another section's entries and first 40 rows, \(switchedRows) rows (target ≤ 5)")

  // A section's entries are kept while the dashboard shows it (and refreshed when a cache
  // changes): switching reads the rows of the screen.
  let held = try sections.map { try dashboard.entries($0) }
  next = 0
  let (switchHeld, heldRows) = measure(runs: 51) { () -> Int in
    next = (next + 1) % sections.count
    return (try? dashboard.items(held[next].prefix(40)).count) ?? -1
  }
  print(
    "dashboard:switch-held".padding(to: 22) + format(switchHeld).leftPadding(to: 10)
      + " ms   another section's first 40 rows from its kept entries, \(heldRows) rows (target ≤ 5)"
  )

  for (name, query) in [
    ("dashboard:query4", sections[0]), ("dashboard:query4-labels", sections[2]),
    ("dashboard:query-broad", sections[1]), ("dashboard:query-negated", sections[3]),
  ] {
    let (time, count) = measure(runs: 31) { (try? dashboard.entries(query))?.count ?? -1 }
    print(
      name.padding(to: 22) + format(time).leftPadding(to: 10)
        + " ms   \(count) of 200,000 rows: \(query.text)")
  }
}
