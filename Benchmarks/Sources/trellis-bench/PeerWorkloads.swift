#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Trellis

// `peer`: what a caller pays end to end for a diff, on the workload the peers (DifferenceKit,
// ListKit) are compared on outside the project. Every workload uses the same generated data:
// `Element`s (an identifier and a content version), 10% each deleted, inserted, moved and updated,
// as in `flat:N`. The peers are not built here (their code is not ours to commit; review measures
// them side by side); `ratios` guards these workloads against regressions instead.
//
//     trellis-bench peer            # 100k and 1M
//     trellis-bench peer:1M

/// One row of the peer table: Trellis's median, with a note.
func reportPeer(_ name: String, trellis: Double, note: String = "") {
  let line = name.padding(to: 38) + format(trellis).leftPadding(to: 10) + " ms"
  print(line + (note.isEmpty ? "" : "   " + note))
}

/// A ratio with one decimal, without Foundation.
func ratio(_ value: Double) -> String {
  let tenths = Int(value * 10 + 0.5)
  return "\(tenths / 10).\(tenths % 10)"
}

/// The medians of several workloads measured in turn — one run of each, then the next round —
/// after one warm-up run of each, with the last result of each.
func measureInTurn(runs: Int, _ bodies: [() -> Any]) -> [(median: Double, result: Any)] {
  var results = bodies.map { $0() }
  var times = [[Double]](repeating: [], count: bodies.count)
  for _ in 0..<runs {
    for (index, body) in bodies.enumerated() {
      let start = clock.now
      results[index] = body()
      times[index].append(milliseconds(clock.now - start))
    }
  }
  return bodies.indices.map { (median(times[$0]), results[$0]) }
}

/// The snapshot a caller builds from its models.
func makeSnapshot(_ elements: [Element]) -> Snapshot<Int, Int> {
  Snapshot(sections: [(0, identifiers(of: elements))])
}

/// The models' identifiers, gathered by a loop (the order of measurement, not the method, made
/// `Array.map` look slower in `peer-profile N build`: the second one measured pays the page faults).
func identifiers(of elements: [Element]) -> [Int] {
  var result: [Int] = []
  result.reserveCapacity(elements.count)
  for element in elements { result.append(element.id) }
  return result
}

/// Content versions by identifier, for the snapshot path's update check (identifiers are dense).
func versions(_ elements: [Element], count: Int) -> [Int] {
  var result = [Int](repeating: -1, count: count)
  for element in elements { result[element.id] = element.version }
  return result
}

@MainActor
func peerWorkloads(wanted: (String) -> Bool) {
  func label(_ count: Int) -> String {
    count >= 1_000_000 ? "\(count / 1_000_000)M" : "\(count / 1000)k"
  }
  guard [100_000, 1_000_000].contains(where: { wanted("peer:\(label($0))") }) else { return }
  print("")
  print("peer workload".padding(to: 38) + "Trellis".leftPadding(to: 13))
  for count in [100_000, 1_000_000] where wanted("peer:\(label(count))") {
    var rng = SplitMix64(state: 42)
    let (source, target) = flatWorkload(count: count, rng: &rng)
    let runs = count >= 1_000_000 ? 7 : 21
    let suffix = label(count)
    let sourceVersions = versions(source, count: count + count / 10)
    let targetVersions = versions(target, count: count + count / 10)
    let update: (Int) -> ItemUpdate? = {
      sourceVersions[$0] == targetVersions[$0] ? nil : .reconfigure
    }

    // Building one snapshot from the caller's models.
    let build = measure(runs: 3 * runs) { makeSnapshot(target) }.median
    reportPeer("build one snapshot \(suffix)", trellis: build)
    let ids = identifiers(of: target)
    let appended = measure(runs: 3 * runs) {
      var snapshot = Snapshot<Int, Int>()
      snapshot.appendSections([0])
      snapshot.appendItems(ids, toSection: 0)
      return snapshot
    }.median
    reportPeer("appendItems of \(suffix) ids", trellis: appended)

    // The diff alone, both snapshots built beforehand.
    let before = makeSnapshot(source)
    let after = makeSnapshot(target)
    let diffOnly = measure(runs: runs) {
      Trellis.StagedChangeset(from: before, to: after, itemUpdate: update)
    }
    reportPeer(
      "diff only \(suffix)", trellis: diffOnly.median,
      note: "moves \(diffOnly.result.itemMoveCount)")
    let diffOnlyUnchecked = measure(runs: runs) { Trellis.StagedChangeset(from: before, to: after) }
    reportPeer("diff only, no update check \(suffix)", trellis: diffOnlyUnchecked.median)

    // Models in, changeset out: both snapshots built and diffed, or the arrays given, in turn.
    let inTurn = measureInTurn(
      runs: runs,
      [
        {
          Trellis.StagedChangeset(
            from: makeSnapshot(source), to: makeSnapshot(target), itemUpdate: update)
        },
        { Trellis.StagedChangeset(source: source, target: target) },
      ])
    let moves = (inTurn[0].result as? Trellis.StagedChangeset<Int, Int>)?.itemMoveCount ?? -1
    reportPeer("build both + diff \(suffix)", trellis: inTurn[0].median, note: "moves \(moves)")
    reportPeer("flat API (arrays in) \(suffix)", trellis: inTurn[1].median)

    // Identical content in two separately built snapshots: equality and the diff.
    let first = makeSnapshot(source)
    let second = makeSnapshot(source.map { $0 })
    let equal = measure(runs: runs) { first == second }
    precondition(equal.result, "identical snapshots compare unequal")
    let identical = measure(runs: runs) { Trellis.StagedChangeset(from: first, to: second) }
    precondition(identical.result.isEmpty, "identical snapshots produced changes")
    // A copy, so that the comparison reads two arrays (the same array twice lets the optimizer
    // drop the comparison of each element with itself).
    let sourceCopy = source.map { $0 }
    let identicalFlat = measure(runs: runs) {
      Trellis.StagedChangeset(source: source, target: sourceCopy)
    }
    reportPeer("identical snapshots, == \(suffix)", trellis: equal.median)
    reportPeer("identical snapshots, diff \(suffix)", trellis: identical.median)
    reportPeer("identical arrays, flat API \(suffix)", trellis: identicalFlat.median)

    // One item moved from the front to the back.
    let moved = Array(source.dropFirst()) + [source[0]]
    let move1 = measure(runs: runs) { Trellis.StagedChangeset(source: source, target: moved) }
    let move1Snapshots = measure(runs: runs) {
      Trellis.StagedChangeset(from: makeSnapshot(source), to: makeSnapshot(moved))
    }
    reportPeer("move1, flat API \(suffix)", trellis: move1.median)
    reportPeer("move1, build both + diff \(suffix)", trellis: move1Snapshots.median)

    // String identifiers, whose hash is not a few cycles: a data source holding the source
    // applies the target built as a snapshot, then given as sections (the fused path, which
    // hashes each item once), in turn.
    var sourceNames: [String] = []
    var targetNames: [String] = []
    for element in source { sourceNames.append("issue \(element.id)") }
    for element in target { targetNames.append("issue \(element.id)") }
    let named = Snapshot(sections: [(0, sourceNames)])
    let dataSource = DiffableDataSource<Int, String, Int>(view: nil) { _, _ in 0 }
    let applied = measureInTurn(
      runs: runs,
      [
        {
          dataSource.applySnapshotUsingReloadData(named)
          dataSource.apply(Snapshot(sections: [(0, targetNames)]))
          return dataSource.snapshot().numberOfItems
        },
        {
          dataSource.applySnapshotUsingReloadData(named)
          dataSource.apply(sections: [(0, targetNames)])
          return dataSource.snapshot().numberOfItems
        },
      ])
    reportPeer("strings, apply(snapshot) \(suffix)", trellis: applied[0].median)
    reportPeer(
      "strings, apply(sections:) \(suffix)", trellis: applied[1].median,
      note: "×\(ratio(applied[0].median / applied[1].median)) of apply(snapshot)")

    // Peak memory, each in a fresh process so that one measurement's freed pages do not hide the
    // next one's.
    for mode in ["snapshots", "flat"] {
      fflush(nil)
      let status = system("'\(executablePath())' peer-memory \(mode) \(count)")
      if status != 0 { print("Error: peer-memory \(mode) exited with \(status)") }
    }
  }
}

/// `peer-memory MODE N`: the peak resident memory one diff of the `peer` workload adds above its
/// input (the two element arrays), for `snapshots` (build both + diff) or `flat`.
func peerMemory(mode: String, count: Int) -> Bool {
  var rng = SplitMix64(state: 42)
  let (source, target) = flatWorkload(count: count, rng: &rng)
  let sourceVersions = versions(source, count: count + count / 10)
  let targetVersions = versions(target, count: count + count / 10)
  releaseFreedMemory()
  guard let baseline = residentKilobytes("VmRSS:"), resetPeak() else {
    print("Error: peer-memory needs /proc/self/status and /proc/self/clear_refs (Linux).")
    return false
  }
  var changes = 0
  switch mode {
  case "snapshots":
    let result = Trellis.StagedChangeset(from: makeSnapshot(source), to: makeSnapshot(target)) {
      sourceVersions[$0] == targetVersions[$0] ? nil : .reconfigure
    }
    changes = result.count
  case "flat":
    changes = Trellis.StagedChangeset(source: source, target: target).count
  default:
    print("Error: unknown peer-memory mode \(mode); use snapshots or flat.")
    return false
  }
  guard let peak = residentKilobytes("VmHWM:") else { return false }
  let megabytes = Double(peak - baseline) / 1024
  print(
    "peak memory above input, \(mode)".padding(to: 34)
      + format(megabytes).leftPadding(to: 10) + " MB   (\(changes) stages)")
  return true
}

/// A `kB` field of /proc/self/status.
func residentKilobytes(_ field: String) -> Int? {
  guard let file = fopen("/proc/self/status", "r") else { return nil }
  defer { fclose(file) }
  var buffer = [CChar](repeating: 0, count: 256)
  while fgets(&buffer, Int32(buffer.count), file) != nil {
    let line = String(
      decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    if line.hasPrefix(field) {
      return Int(line.dropFirst(field.count).filter { $0.isNumber }.map(String.init).joined())
    }
  }
  return nil
}

/// Resets the peak resident size (VmHWM) to the current one.
func resetPeak() -> Bool {
  guard let file = fopen("/proc/self/clear_refs", "w") else { return false }
  defer { fclose(file) }
  return fputs("5", file) >= 0
}

/// Returns freed heap pages to the system (glibc's `malloc_trim`, looked up at run time because
/// the Glibc module does not import malloc.h), so the baseline counts only live memory.
func releaseFreedMemory() {
  #if canImport(Glibc)
  typealias Trim = @convention(c) (Int) -> Int32
  if let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "malloc_trim") {
    _ = unsafeBitCast(symbol, to: Trim.self)(0)
  }
  #endif
}

/// This executable's path, for running a measurement in a fresh process.
func executablePath() -> String {
  var buffer = [CChar](repeating: 0, count: 4096)
  let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
  guard length > 0 else { return CommandLine.arguments[0] }
  return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
