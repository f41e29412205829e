#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GitHubIssues
import Trellis

// Release-mode benchmarks of the diff. Each workload runs a few times; the median is printed with
// the move count and the minimum move count computed independently.
//
//     swift run -c release trellis-bench            # every workload
//     swift run -c release trellis-bench flat:100000

let clock = ContinuousClock()

func milliseconds(_ duration: Duration) -> Double {
  let (seconds, attoseconds) = duration.components
  return Double(seconds) * 1000 + Double(attoseconds) / 1e15
}

func median(_ values: [Double]) -> Double {
  let sorted = values.sorted()
  return sorted.count % 2 == 1
    ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

func measure<T>(runs: Int, _ body: () -> T) -> (median: Double, result: T) {
  var times: [Double] = []
  var result = body()  // warm-up
  for _ in 0..<runs {
    let start = clock.now
    result = body()
    times.append(milliseconds(clock.now - start))
  }
  return (median(times), result)
}

func report(_ name: String, _ ms: Double, moves: Int, minimum: Int, extra: String = "") {
  let time = format(ms)
  let padded = name.padding(to: 22) + time.leftPadding(to: 10) + " ms"
  print(
    "\(padded)   moves \(moves) (minimum \(minimum))\(moves == minimum ? "" : "  ✘ NOT MINIMAL")\(extra)"
  )
}

/// Milliseconds with three decimals, without Foundation or libm.
func format(_ ms: Double) -> String {
  let micro = Int(ms * 1000 + 0.5)
  let fraction = String(micro % 1000)
  return "\(micro / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
}

extension String {
  func padding(to width: Int) -> String {
    self + String(repeating: " ", count: max(0, width - count))
  }
  func leftPadding(to width: Int) -> String {
    String(repeating: " ", count: max(0, width - count)) + self
  }
}

if CommandLine.arguments.dropFirst().first == "make-cache" {
  // The 100,000-item synthetic repository as a cache file, for timing the real `issues` binary
  // (`make-cache PATH [ITEMS [SEED]]` for another size or repository).
  let arguments = Array(CommandLine.arguments.dropFirst(2))
  let path = arguments.first ?? "large.sqlite"
  let items = arguments.count > 1 ? Int(arguments[1]) ?? 100_000 : 100_000
  let seed = arguments.count > 2 ? UInt64(arguments[2]) ?? 42 : 42
  do {
    try IssueCache(path: path).apply(
      SyntheticRepository(itemCount: items, milestoneCount: 60, seed: seed).make())
    print("wrote \(path)")
    exit(0)
  } catch {
    print("Error: \(error)")
    exit(1)
  }
}

if CommandLine.arguments.dropFirst().first == "decoder-fuzz" {
  // A long randomized run of the input decoder: `trellis-bench decoder-fuzz 600` for ten minutes.
  let seconds = CommandLine.arguments.dropFirst(2).first.flatMap(Int.init) ?? 60
  var rng = SplitMix64(state: UInt64(seconds))
  print("seed \(seconds)")
  exit(runDecoderFuzz(seconds: seconds, rng: &rng) ? 0 : 1)
}

if CommandLine.arguments.dropFirst().first == "ratios" {
  let arguments = Array(CommandLine.arguments.dropFirst(2))
  var readme = defaultReadmePath()
  if let flag = arguments.firstIndex(of: "--readme"), flag + 1 < arguments.count {
    readme = arguments[flag + 1]
  }
  exit(runRatioGuard(readme: readme) ? 0 : 1)
}

if CommandLine.arguments.dropFirst().first == "peer-memory" {
  let arguments = Array(CommandLine.arguments.dropFirst(2))
  let count = arguments.dropFirst().first.flatMap(Int.init) ?? 1_000_000
  exit(peerMemory(mode: arguments.first ?? "snapshots", count: count) ? 0 : 1)
}

if CommandLine.arguments.dropFirst().first == "layout-query-profile" {
  layoutQueryProfile(queries: CommandLine.arguments.dropFirst(2).first.flatMap(Int.init) ?? 100_000)
  exit(0)
}

if CommandLine.arguments.dropFirst().first == "layout-memory" {
  exit(layoutMemory() ? 0 : 1)
}

if CommandLine.arguments.dropFirst().first == "peer-profile" {
  // The snapshot diff of the `peer` workload in a loop, for a profiler: `peer-profile 100000`;
  // `peer-profile 1000000 build` builds the target snapshot instead, and prints the median (and
  // what gathering the identifiers costs with `Array.map` and with a loop); `peer-profile 1000000
  // move1` moves one item, both snapshots built from the models; `peer-profile 100000 sectioned` diffs
  // 100 sections × 1,000 items, both snapshots built.
  let count = CommandLine.arguments.dropFirst(2).first.flatMap(Int.init) ?? 100_000
  var rng = SplitMix64(state: 42)
  let (source, target) = flatWorkload(count: count, rng: &rng)
  let repeats = max(1, 20_000_000 / count)
  if CommandLine.arguments.dropFirst(3).first == "build" {
    let ids = identifiers(of: target)
    let (ms, built) = measure(runs: repeats) { Snapshot(sections: [(0, ids)]) }
    print("build \(count): \(format(ms)) ms median of \(repeats), \(built.numberOfItems) items")
    let (mapped, _) = measure(runs: repeats) { target.map(\.id) }
    let (gathered, _) = measure(runs: repeats) { identifiers(of: target) }
    print(
      "identifiers of \(count) elements: Array.map \(format(mapped)) ms, loop \(format(gathered)) ms"
    )
    exit(0)
  }
  if CommandLine.arguments.dropFirst(3).first == "sectioned" {
    // 100 sections × 1,000 items, both snapshots built from their sections' identifiers.
    var rng = SplitMix64(state: 42)
    let (source, target, _) = sectionedWorkload(sections: 100, items: 1000, rng: &rng)
    let (sourceSections, targetSections) = (sectionLists(source), sectionLists(target))
    let (ms, changes) = measure(runs: 200) {
      StagedChangeset(
        from: Snapshot(sections: sourceSections), to: Snapshot(sections: targetSections))
    }
    print(
      "sectioned 100×1000, build both + diff: \(format(ms)) ms median of 200, \(changes.itemMoveCount) moves"
    )
    exit(0)
  }
  if CommandLine.arguments.dropFirst(3).first == "move1" {
    // One item moved from the front to the back, both snapshots built from the models.
    let moved = Array(source.dropFirst()) + [source[0]]
    let (ms, changes) = measure(runs: repeats) {
      StagedChangeset(from: makeSnapshot(source), to: makeSnapshot(moved))
    }
    print(
      "move1 \(count), build both + diff: \(format(ms)) ms median of \(repeats), \(changes.itemMoveCount) moves"
    )
    exit(0)
  }
  let before = makeSnapshot(source)
  let after = makeSnapshot(target)
  var stages = 0
  for _ in 0..<repeats {
    stages += StagedChangeset(from: before, to: after).count
  }
  print("\(stages) stages")
  exit(0)
}

if CommandLine.arguments.dropFirst().first == "pictures" {
  writePictures(to: CommandLine.arguments.dropFirst(2).first ?? ".")
  exit(0)
}

let filter = CommandLine.arguments.dropFirst().first
func wanted(_ name: String) -> Bool { filter.map { name.hasPrefix($0) } ?? true }

print("workload                  median       moves")
for count in [1_000, 10_000, 100_000, 1_000_000] where wanted("flat:\(count)") {
  var rng = SplitMix64(state: 42)
  let (source, target) = flatWorkload(count: count, rng: &rng)
  let runs = count >= 1_000_000 ? 7 : 21
  let (ms, changes) = measure(runs: runs) { StagedChangeset(source: source, target: target) }
  let minimum = minimalItemMoves([source.map(\.id)], [target.map(\.id)], sectionIDs: ([0], [0]))
  report("flat:\(count)", ms, moves: changes.itemMoveCount, minimum: minimum)
}

if wanted("unchanged:1000000") {
  let source = (0..<1_000_000).map { Element(id: $0, version: 0) }
  let target = source
  let (ms, changes) = measure(runs: 11) { StagedChangeset(source: source, target: target) }
  report("unchanged:1000000", ms, moves: changes.itemMoveCount, minimum: 0)
}

if wanted("move1:1000000") {
  let source = (0..<1_000_000).map { Element(id: $0, version: 0) }
  let target = Array(source.dropFirst()) + [source[0]]
  let (ms, changes) = measure(runs: 7) { StagedChangeset(source: source, target: target) }
  report("move1:1000000", ms, moves: changes.itemMoveCount, minimum: 1)
}

if wanted("sectioned:100x1000") {
  var rng = SplitMix64(state: 42)
  let (source, target, changed) = sectionedWorkload(sections: 100, items: 1000, rng: &rng)
  let (ms, changes) = measure(runs: 21) {
    StagedChangeset(from: source, to: target) { changed.contains($0) ? .reconfigure : nil }
  }
  let minimum = minimalItemMoves(
    source.sectionIdentifiers.map { source.itemIdentifiers(inSection: $0) },
    target.sectionIdentifiers.map { target.itemIdentifiers(inSection: $0) },
    sectionIDs: (source.sectionIdentifiers, target.sectionIdentifiers))
  let (build, _) = measure(runs: 11) {
    Snapshot(
      sections: target.sectionIdentifiers.map { ($0, target.itemIdentifiers(inSection: $0)) })
  }
  report(
    "sectioned:100x1000", ms, moves: changes.itemMoveCount, minimum: minimum,
    extra: ", section moves \(changes.sectionMoveCount); building one snapshot: \(format(build)) ms"
  )
}

if wanted("render:200x60") {
  var rng = SplitMix64(state: 42)
  let (microseconds, bytes) = renderWorkload(rng: &rng)
  print(
    "render:200x60".padding(to: 22) + format(microseconds / 1000).leftPadding(to: 10)
      + " ms   per frame with 5% of cells changed, \(bytes) bytes")
}

if wanted("render:one-cell") {
  print("render:one-cell".padding(to: 22) + "\(oneCellBytes()) bytes".leftPadding(to: 13))
}

if wanted("decoder") {
  var rng = SplitMix64(state: 42)
  runDecoderWorkloads(rng: &rng)
}

peerWorkloads(wanted: wanted)
layoutWorkloads(wanted: wanted)
collectionWorkloads(wanted: wanted)
await liveWorkloads(wanted: wanted)
do {
  try await issuesLiveWorkloads(wanted: wanted)
} catch {
  print("Error: live issues benchmark failed: \(error)")
}
do {
  try issuesWorkloads(wanted: wanted)
  try readerWorkloads(wanted: wanted)
} catch {
  print("Error: issues benchmarks failed: \(error)")
}

do {
  try await dashboardWorkloads(wanted: wanted)
} catch {
  print("Error: dashboard benchmarks failed: \(error)")
}

do {
  try inboxWorkloads(wanted: wanted)
  try createWorkloads(wanted: wanted)
  try diffWorkloads(wanted: wanted)
} catch {
  print("Error: inbox benchmarks failed: \(error)")
}

do {
  try cacheWorkloads(wanted: wanted)
} catch {
  print("Error: cache benchmarks failed: \(error)")
}
