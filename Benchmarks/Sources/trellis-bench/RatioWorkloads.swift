#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Trellis

// `ratios`: the diff workloads as ratios to a plain `Dictionary` built from the same identifiers in
// the same process, measured in turn, so that the figures hold from one machine (and one of its
// speed phases) to the next. Benchmarks/README.md records each ratio between its `diff-ratios`
// markers; a ratio more than 25% above its record fails the run, loudly, with exit status 1.
//
//     trellis-bench ratios                 # compare with the README's records
//     trellis-bench ratios --readme PATH   # another README

/// A snapshot's sections as the lists a caller builds one from: each identifier with its items.
func sectionLists(_ snapshot: Snapshot<Int, Int>) -> [(Int, [Int])] {
  snapshot.sectionIdentifiers.map { ($0, snapshot.itemIdentifiers(inSection: $0)) }
}

/// The baseline: a dictionary from each identifier to its position, as a caller keeping an index
/// of its models would build it.
func positionDictionary(_ identifiers: [Int]) -> [Int: Int] {
  var dictionary: [Int: Int] = [:]
  dictionary.reserveCapacity(identifiers.count)
  for (position, identifier) in identifiers.enumerated() { dictionary[identifier] = position }
  return dictionary
}

/// One guarded workload: Trellis's body, and the dictionaries built from the identifiers it reads.
struct RatioWorkload {
  var name: String
  var runs: Int
  var trellis: () -> Any
  var baseline: () -> Any
}

/// How far a ratio may grow over its record before the guard fails.
let ratioTolerance = 1.25

/// The guarded workloads, built from the same data as `peer` and `sectioned:100x1000`.
func ratioWorkloads() -> [RatioWorkload] {
  var workloads: [RatioWorkload] = []
  for count in [100_000, 1_000_000] {
    let suffix = count >= 1_000_000 ? "1M" : "100k"
    let runs = count >= 1_000_000 ? 7 : 21
    var rng = SplitMix64(state: 42)
    let (source, target) = flatWorkload(count: count, rng: &rng)
    let sourceIDs = identifiers(of: source)
    let targetIDs = identifiers(of: target)
    let sourceVersions = versions(source, count: count + count / 10)
    let targetVersions = versions(target, count: count + count / 10)
    let update: (Int) -> ItemUpdate? = {
      sourceVersions[$0] == targetVersions[$0] ? nil : .reconfigure
    }
    let both: () -> Any = { (positionDictionary(sourceIDs), positionDictionary(targetIDs)) }
    workloads.append(
      RatioWorkload(
        name: "build both + diff \(suffix)", runs: runs,
        trellis: {
          StagedChangeset(from: makeSnapshot(source), to: makeSnapshot(target), itemUpdate: update)
        }, baseline: both))
    let moved = Array(source.dropFirst()) + [source[0]]
    let movedIDs = identifiers(of: moved)
    workloads.append(
      RatioWorkload(
        name: "move one, build both + diff \(suffix)", runs: runs,
        trellis: { StagedChangeset(from: makeSnapshot(source), to: makeSnapshot(moved)) },
        baseline: { (positionDictionary(sourceIDs), positionDictionary(movedIDs)) }))
    guard count < 1_000_000 else { continue }
    let before = makeSnapshot(source)
    let after = makeSnapshot(target)
    workloads.append(
      RatioWorkload(
        name: "diff only \(suffix)", runs: runs,
        trellis: { StagedChangeset(from: before, to: after, itemUpdate: update) }, baseline: both))
    workloads.append(
      RatioWorkload(
        name: "build one snapshot \(suffix)", runs: 3 * runs,
        trellis: { makeSnapshot(target) }, baseline: { positionDictionary(targetIDs) }))
    workloads.append(
      RatioWorkload(
        name: "flat API (arrays in) \(suffix)", runs: runs,
        trellis: { StagedChangeset(source: source, target: target) }, baseline: both))
    let copy = source.map { $0 }
    let copyIDs = identifiers(of: copy)
    workloads.append(
      RatioWorkload(
        name: "identical, build both + diff \(suffix)", runs: runs,
        trellis: { StagedChangeset(from: makeSnapshot(source), to: makeSnapshot(copy)) },
        baseline: { (positionDictionary(sourceIDs), positionDictionary(copyIDs)) }))
  }
  var rng = SplitMix64(state: 42)
  let (source, target, changed) = sectionedWorkload(sections: 100, items: 1000, rng: &rng)
  let (sourceSections, targetSections) = (sectionLists(source), sectionLists(target))
  let sourceIDs = sourceSections.flatMap(\.1)
  let targetIDs = targetSections.flatMap(\.1)
  workloads.append(
    RatioWorkload(
      name: "sectioned 100×1000, build both + diff", runs: 21,
      trellis: {
        StagedChangeset(
          from: Snapshot(sections: sourceSections), to: Snapshot(sections: targetSections)
        ) { changed.contains($0) ? .reconfigure : nil }
      }, baseline: { (positionDictionary(sourceIDs), positionDictionary(targetIDs)) }))
  return workloads
}

/// The recorded ratios: the rows `| workload | ratio |` between the README's
/// `<!-- diff-ratios:begin -->` and `<!-- diff-ratios:end -->` markers.
func recordedRatios(readme path: String) -> [String: Double]? {
  guard let file = fopen(path, "r") else { return nil }
  defer { fclose(file) }
  var text: [UInt8] = []
  var buffer = [UInt8](repeating: 0, count: 65_536)
  while true {
    let read = fread(&buffer, 1, buffer.count, file)
    if read <= 0 { break }
    text.append(contentsOf: buffer[..<read])
  }
  let readme = String(decoding: text, as: UTF8.self)
  var inside = false
  var ratios: [String: Double] = [:]
  for line in readme.split(separator: "\n", omittingEmptySubsequences: false) {
    if line.hasPrefix("<!-- diff-ratios:begin -->") {
      inside = true
    } else if line.hasPrefix("<!-- diff-ratios:end -->") {
      return ratios
    } else if inside {
      let cells = line.split(separator: "|").map { $0.trimming(" ") }
      if cells.count >= 2, let value = Double(cells[1].trimming("×")) {
        ratios[String(cells[0])] = value
      }
    }
  }
  return nil
}

extension Substring {
  /// The text without a character repeated at either end.
  func trimming(_ character: Character) -> Substring {
    var text = self
    while text.first == character { text.removeFirst() }
    while text.last == character { text.removeLast() }
    return text
  }
}

/// Two decimals, without Foundation.
func hundredths(_ value: Double) -> String {
  let scaled = Int(value * 100 + 0.5)
  let fraction = String(scaled % 100)
  return "\(scaled / 100).\(fraction.count == 1 ? "0" : "")\(fraction)"
}

/// Runs the guard; returns whether every ratio is within its record's tolerance.
@MainActor
func runRatioGuard(readme: String) -> Bool {
  guard let records = recordedRatios(readme: readme) else {
    print("Error: no `<!-- diff-ratios:begin -->` table in \(readme).")
    return false
  }
  print(
    "workload".padding(to: 40) + "Trellis".leftPadding(to: 11) + "Dictionary".leftPadding(to: 13)
      + "ratio".leftPadding(to: 8) + "recorded".leftPadding(to: 10))
  var failures: [String] = []
  for workload in ratioWorkloads() {
    let measured = measureInTurn(runs: workload.runs, [workload.trellis, workload.baseline])
    let value = measured[0].median / measured[1].median
    var line =
      workload.name.padding(to: 40) + (format(measured[0].median) + " ms").leftPadding(to: 11)
      + (format(measured[1].median) + " ms").leftPadding(to: 13)
      + ("×" + hundredths(value)).leftPadding(to: 8)
    if let record = records[workload.name] {
      line += ("×" + hundredths(record)).leftPadding(to: 10)
      if value > record * ratioTolerance {
        line += "   ✘ REGRESSION: more than 25% above the record"
        failures.append(workload.name)
      }
    } else {
      line += "—".leftPadding(to: 10) + "   ✘ NOT RECORDED in the README"
      failures.append(workload.name)
    }
    print(line)
    fflush(nil)
  }
  if failures.isEmpty {
    print("every ratio within 25% of its record")
    return true
  }
  print(
    "✘ \(failures.count) workload(s) regressed or unrecorded: \(failures.joined(separator: ", "))")
  return false
}

/// The benchmarks' README (`Benchmarks/README.md`) of the tree this source file was built from.
func defaultReadmePath() -> String {
  var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
  parts.removeLast(3)  // RatioWorkloads.swift, trellis-bench, Sources
  return parts.joined(separator: "/") + "/README.md"
}
