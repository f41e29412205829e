import Foundation
import GitHubIssues

/// `cache:*`: a 100,000-item synthetic repository (60 milestones) in an on-disk cache.
func cacheWorkloads(wanted: (String) -> Bool) throws {
  // `cache:import` alone runs the import and nothing after it.
  guard wanted("cache") || wanted("cache:import:100000") else { return }
  let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
    "trellis-bench-\(UUID().uuidString)")
  defer {
    if ProcessInfo.processInfo.environment["TRELLIS_BENCH_KEEP"] == nil {
      try? FileManager.default.removeItem(at: directory)
    } else {
      print("kept \(directory.path)")
    }
  }
  let path = directory.appendingPathComponent("large.sqlite").path
  let update = SyntheticRepository(itemCount: 100_000, milestoneCount: 60).make()

  // Import: a fresh database each run.
  var importTimes: [Double] = []
  for run in 0..<3 {
    let runPath = directory.appendingPathComponent("import-\(run).sqlite").path
    let start = clock.now
    let cache = try IssueCache(path: runPath)
    try cache.apply(update)
    importTimes.append(milliseconds(clock.now - start))
  }
  let importMedian = median(importTimes)
  print(
    "cache:import:100000".padding(to: 22) + format(importMedian).leftPadding(to: 10)
      + " ms   \(Int(100_000 / (importMedian / 1000))) rows/s")
  guard wanted("cache") else { return }

  let cache = try IssueCache(path: path)
  try cache.apply(update)
  var rng = SplitMix64(state: 7)

  let (filter, filtered) = measure(runs: 51) {
    (try? cache.issues(
      IssueFilter(milestone: .number(Int.random(in: 1...60, using: &rng)), state: .open)))?.count
      ?? 0
  }
  print(
    "cache:filter-milestone".padding(to: 22) + format(filter).leftPadding(to: 10)
      + " ms   \(filtered) rows (last run)")

  let (allOpen, openCount) = measure(runs: 21) {
    (try? cache.issues(IssueFilter(state: .open)))?.count ?? 0
  }
  print(
    "cache:filter-all-open".padding(to: 22) + format(allOpen).leftPadding(to: 10)
      + " ms   \(openCount) rows")

  let words = ["dark", "memory", "검색", "전체선택", "export", "scroll"]
  var word = 0
  let (search, found) = measure(runs: 31) {
    word += 1
    return (try? cache.issues(IssueFilter(state: .all, text: words[word % words.count])))?.count
      ?? 0
  }
  print(
    "cache:search".padding(to: 22) + format(search).leftPadding(to: 10)
      + " ms   \(found) rows (last run)")

  word = 0
  let (searchEntries, foundEntries) = measure(runs: 31) {
    word += 1
    return (try? cache.listEntries(IssueFilter(state: .all, text: words[word % words.count])))?
      .count ?? 0
  }
  print(
    "cache:search-entries".padding(to: 22) + format(searchEntries).leftPadding(to: 10)
      + " ms   \(foundEntries) entries (last run), what a list's snapshot needs")
  // `issues list -S` with four qualifiers, as the command asks the cache: the search read by
  // the one parser, its terms put on the list's filter (open issues, newest first), and the
  // first 30 rows with their assignees (gh's default limit).
  let searches = [
    "label:bug no:assignee -label:docs created:>=2020-01-01",
    "label:ui comments:>2 updated:>=2021-01-01 -label:bug",
    "no:milestone label:feature comments:<5 dark",
  ]
  var which = 0
  let (qualified, qualifiedRows) = measure(runs: 31) { () -> Int in
    which += 1
    guard let query = try? SearchQuery(parsing: searches[which % searches.count]),
      let filter = query.applied(
        to: IssueFilter(state: .open, sort: .created, limit: 30), me: nil)
    else { return -1 }
    return (try? cache.issues(filter))?.count ?? -1
  }
  print(
    "cache:list-4-qualifiers".padding(to: 22) + format(qualified).leftPadding(to: 10)
      + " ms   \(qualifiedRows) rows (last run), `list -S` with four qualifiers")
  let (allOpenEntries, openEntries) = measure(runs: 21) {
    (try? cache.listEntries(IssueFilter(state: .open)))?.count ?? 0
  }
  print(
    "cache:all-open-entries".padding(to: 22) + format(allOpenEntries).leftPadding(to: 10)
      + " ms   \(openEntries) entries")

  let (open, firstScreen) = measure(runs: 11) { () -> Int in
    guard let reopened = try? IssueCache(path: path),
      // As the browser starts: every milestone's entries give the chip counts.
      let entries = try? reopened.listEntries(IssueFilter(milestone: .all, state: .open))
    else { return -1 }
    let counts = EntryCounts(entries)
    let rows = try? reopened.issues(numbers: entries.prefix(60).map(\.number))
    return (rows?.count ?? 0) + (counts.all == entries.count ? 0 : -1000)
  }
  print(
    "cache:open-first-screen".padding(to: 22) + format(open).leftPadding(to: 10)
      + " ms   open, entries and chip counts, \(firstScreen) rows")
}
