import Trellis

/// A view that applies batch updates at once, as a terminal collection view does, so that the
/// live workloads time the data source and not a fake animation.
@MainActor
final class CountingView: BatchUpdatingView {
  var batches = 0
  var inserted = 0
  /// When the last batch update reached the view, and when its data switch ended.
  var reached = clock.now
  var switched = clock.now
  func performBatchUpdates(_ update: BatchUpdate, animated: Bool, updateData: () -> Void) {
    reached = clock.now
    updateData()
    switched = clock.now
    batches += 1
    inserted += update.itemInserts.count
  }
  func reloadData() {}
}

/// `live:*`: data that flows.
///
/// A stream of snapshots through ``DiffableDataSource/bind(_:)``, and
/// expanding a node of a section snapshot.
@MainActor
func liveWorkloads(wanted: (String) -> Bool) async {
  if wanted("live:diff-1pct") {
    // What one element of the stream costs without the binding: diff a 100k list with 1% changes.
    var rng = SplitMix64(state: 11)
    let base = Snapshot(sections: (0..<50).map { ($0, Array(($0 * 2_000)..<($0 * 2_000 + 2_000))) })
    var times: [Double] = []
    for _ in 0..<21 {
      let next = perturbed(base, percent: 1, fresh: 1_000_000, rng: &rng)
      let start = clock.now
      _ = StagedChangeset(from: base, to: next)
      times.append(milliseconds(clock.now - start))
    }
    print(
      "live:diff-1pct".padding(to: 22) + format(median(times)).leftPadding(to: 10)
        + " ms   100k items in 50 sections, 1% deleted and 1% inserted, diff only")
  }

  if wanted("live:stream") {
    var rng = SplitMix64(state: 12)
    var snapshots: [Snapshot<Int, Int>] = []
    var current = Snapshot(
      sections: (0..<50).map { ($0, Array(($0 * 2_000)..<($0 * 2_000 + 2_000))) })
    var fresh = 1_000_000
    for _ in 0..<1_000 {
      current = perturbed(current, percent: 1, fresh: fresh, rng: &rng)
      fresh += 2_000
      snapshots.append(current)
    }
    let view = CountingView()
    let dataSource = DiffableDataSource<Int, Int, Int>(view: view) { _, id in id }
    await dataSource.apply(snapshots[0])
    let (stream, continuation) = AsyncStream<Snapshot<Int, Int>>.makeStream()
    var times: [Double] = []
    var last = clock.now
    let toSend = Array(snapshots.dropFirst())
    let producer = Task.detached {
      for snapshot in toSend {
        continuation.yield(snapshot)
        // A producer a little faster than the consumer: some elements arrive while one applies.
        try? await Task.sleep(for: .microseconds(2_000))
      }
      continuation.finish()
    }
    let start = clock.now
    let report = try? await dataSource.bind(stream) { _ in
      let now = clock.now
      times.append(milliseconds(now - last))
      last = now
    }
    _ = await producer.value
    let total = milliseconds(clock.now - start)
    let sorted = times.sorted()
    let p99 = sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, sorted.count * 99 / 100)]
    print(
      "live:stream".padding(to: 22) + format(median(times)).leftPadding(to: 10)
        + " ms   per applied element (p99 \(format(p99)) ms); 999 snapshots of 100k with 1% changes,"
        + " applied \(report?.applied ?? 0), skipped \(report?.skipped ?? 0), \(format(total)) ms in all;"
        + " the final view is the last snapshot: \(dataSource.snapshot() == snapshots.last)")
  }

  if wanted("live:expand") {
    var times: [Double] = []
    var visibleTimes: [Double] = []
    var reachTimes: [Double] = []
    var switchTimes: [Double] = []
    var inserted = 0
    for _ in 0..<21 {
      let view = CountingView()
      let dataSource = DiffableDataSource<Int, Int, Int>(view: view) { _, id in id }
      var tree = SectionSnapshot<Int>()
      tree.append(Array(0..<90_000))
      tree.append(Array(1_000_000..<1_010_000), to: 45_000)
      dataSource.apply(tree, to: 0)
      tree.expand([45_000])
      let visibleStart = clock.now
      _ = tree.visibleItems
      visibleTimes.append(milliseconds(clock.now - visibleStart))
      let start = clock.now
      dataSource.apply(tree, to: 0)
      times.append(milliseconds(clock.now - start))
      reachTimes.append(milliseconds(view.reached - start))
      switchTimes.append(milliseconds(view.switched - view.reached))
      inserted = view.inserted
    }
    print(
      "live:expand".padding(to: 22) + format(median(times)).leftPadding(to: 10)
        + " ms   expand a node of 10,000 children in a 100k list, to the view's batch update"
        + " (\(inserted) rows inserted in one batch): \(format(median(reachTimes))) ms until the view"
        + " gets the update, \(format(median(switchTimes))) ms to switch the data;"
        + " listing the visible items alone: \(format(median(visibleTimes))) ms")
  }
}

/// A copy of a snapshot with `percent` of its items deleted, as many inserted and as many moved
/// to random places, all in one shot.
func perturbed(
  _ snapshot: Snapshot<Int, Int>, percent: Int, fresh: Int, rng: inout SplitMix64
) -> Snapshot<Int, Int> {
  var sections = snapshot.sectionIdentifiers.map { snapshot.itemIdentifiers(inSection: $0) }
  let count = snapshot.numberOfItems * percent / 100
  var next = fresh
  for _ in 0..<count {
    let from = Int.random(in: 0..<sections.count, using: &rng)
    if !sections[from].isEmpty {
      sections[from].remove(at: Int.random(in: 0..<sections[from].count, using: &rng))
    }
    let to = Int.random(in: 0..<sections.count, using: &rng)
    sections[to].insert(next, at: Int.random(in: 0...sections[to].count, using: &rng))
    next += 1
  }
  return Snapshot(sections: zip(snapshot.sectionIdentifiers, sections).map { ($0, $1) })
}
