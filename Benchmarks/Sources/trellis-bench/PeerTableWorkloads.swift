import Trellis

/// A snapshot's sections as the lists a caller builds one from: each identifier with its items.
func sectionLists(_ snapshot: Snapshot<Int, Int>) -> [(Int, [Int])] {
  snapshot.sectionIdentifiers.map { ($0, snapshot.itemIdentifiers(inSection: $0)) }
}

#if canImport(DifferenceKit)
import DifferenceKit

/// A section of the sectioned peer workload, for DifferenceKit's `ArraySection`.
struct PeerSection: Hashable, Differentiable {
  var id: Int
  var differenceIdentifier: Int { id }
  func isContentEqual(to source: PeerSection) -> Bool { true }
}
#endif

#if canImport(ListKit)
import ListKit
#endif

// `peer:listkit` and `peer:sectioned`: Trellis beside DifferenceKit and ListKit (each when built
// in, see Package.swift), every row measured in turn in one process so that the ratios hold
// while the machine's speed swings.
//
//     trellis-bench peer:listkit          # 10k, 50k, 100k and 1M
//     trellis-bench peer:sectioned        # 100 sections × 1,000 items

/// One row of the three-way table: Trellis's median, then each peer's median and ratio.
func reportPeers(_ name: String, trellis: Double, peers: [Double?], note: String = "") {
  var line = name.padding(to: 36) + format(trellis).leftPadding(to: 10) + " ms"
  for peer in peers {
    if let peer {
      line +=
        format(peer).leftPadding(to: 12) + " ms" + ("×" + ratio(peer / trellis)).leftPadding(to: 8)
    } else {
      line += "—".leftPadding(to: 15) + "".leftPadding(to: 8)
    }
  }
  print(line + (note.isEmpty ? "" : "   " + note))
}

/// Measures Trellis's body and each built-in peer's, in turn; `nil` for a peer not built in.
func measurePeers(
  runs: Int, trellis: @escaping () -> Any, differenceKit: (() -> Any)?, listKit: (() -> Any)?
) -> (trellis: Double, differenceKit: Double?, listKit: Double?, results: [Any]) {
  var bodies: [() -> Any] = [trellis]
  if let differenceKit { bodies.append(differenceKit) }
  if let listKit { bodies.append(listKit) }
  let measured = measureInTurn(runs: runs, bodies)
  var index = 1
  var dk: Double?
  var lk: Double?
  if differenceKit != nil {
    dk = measured[index].median
    index += 1
  }
  if listKit != nil { lk = measured[index].median }
  return (measured[0].median, dk, lk, measured.map(\.result))
}

@MainActor
func peerTableWorkloads(wanted: (String) -> Bool) {
  #if canImport(DifferenceKit)
  let differenceKitName = "DifferenceKit"
  #else
  let differenceKitName = "(no DifferenceKit)"
  #endif
  #if canImport(ListKit)
  let listKitName = "ListKit"
  #else
  let listKitName = "(no ListKit)"
  #endif
  func label(_ count: Int) -> String {
    count >= 1_000_000 ? "\(count / 1_000_000)M" : "\(count / 1000)k"
  }
  let sizes = [10_000, 50_000, 100_000, 1_000_000].filter { wanted("peer:listkit:\(label($0))") }
  let sectioned = wanted("peer:sectioned")
  guard !sizes.isEmpty || sectioned else { return }
  print("")
  print(
    "peers, models in, changes out".padding(to: 36) + "Trellis".leftPadding(to: 13)
      + differenceKitName.leftPadding(to: 15) + "".padding(to: 8)
      + listKitName.leftPadding(to: 15))

  for count in sizes {
    var rng = SplitMix64(state: 42)
    let (source, target) = flatWorkload(count: count, rng: &rng)
    let runs = count >= 1_000_000 ? 7 : count >= 100_000 ? 21 : 41
    let suffix = label(count)
    let sourceVersions = versions(source, count: count + count / 10)
    let targetVersions = versions(target, count: count + count / 10)
    let update: (Int) -> ItemUpdate? = {
      sourceVersions[$0] == targetVersions[$0] ? nil : .reconfigure
    }

    // Build both snapshots from the models and diff them. DifferenceKit takes the arrays.
    var differenceKit: (() -> Any)?
    var listKit: (() -> Any)?
    #if canImport(DifferenceKit)
    differenceKit = { DifferenceKit.StagedChangeset(source: source, target: target) }
    #endif
    #if canImport(ListKit)
    listKit = {
      ListKitPeer.diff(
        DiffableDataSourceSnapshot(sections: [(0, identifiers(of: source))]),
        DiffableDataSourceSnapshot(sections: [(0, identifiers(of: target))]))
    }
    #endif
    let diffed = measurePeers(
      runs: runs,
      trellis: {
        Trellis.StagedChangeset(
          from: makeSnapshot(source), to: makeSnapshot(target), itemUpdate: update)
      }, differenceKit: differenceKit, listKit: listKit)
    var note =
      "moves \((diffed.results[0] as? Trellis.StagedChangeset<Int, Int>)?.itemMoveCount ?? -1)"
    #if canImport(ListKit)
    if let moves = (diffed.results.last as? (changes: Int, moves: Int))?.moves {
      note += ", ListKit \(moves)"
    }
    #endif
    reportPeers(
      "build both + diff \(suffix)", trellis: diffed.trellis,
      peers: [diffed.differenceKit, diffed.listKit], note: note)

    // Build one snapshot, then ask where items are: the first lookup, and a screenful's worth
    // (100 items spread over the list) as a view asks after an update.
    let ids = identifiers(of: target)
    let probes = stride(from: 0, to: ids.count, by: max(1, ids.count / 100)).map { ids[$0] }
    let middle = ids[ids.count / 2]
    listKit = nil
    #if canImport(ListKit)
    listKit = {
      DiffableDataSourceSnapshot(sections: [(0, identifiers(of: target))]).index(ofItem: middle)
        ?? -1
    }
    #endif
    let first = measurePeers(
      runs: runs,
      trellis: { makeSnapshot(target).indexOfItem(middle) ?? -1 }, differenceKit: nil,
      listKit: listKit)
    reportPeers(
      "build + first lookup \(suffix)", trellis: first.trellis, peers: [nil, first.listKit],
      note: "the middle item")
    listKit = nil
    #if canImport(ListKit)
    listKit = {
      let snapshot = DiffableDataSourceSnapshot(sections: [(0, identifiers(of: target))])
      var sum = 0
      for probe in probes { sum &+= snapshot.index(ofItem: probe) ?? -1 }
      return sum
    }
    #endif
    let hundred = measurePeers(
      runs: runs,
      trellis: {
        let snapshot = makeSnapshot(target)
        var sum = 0
        for probe in probes { sum &+= snapshot.indexOfItem(probe) ?? -1 }
        return sum
      }, differenceKit: nil, listKit: listKit)
    reportPeers(
      "build + 100 lookups \(suffix)", trellis: hundred.trellis, peers: [nil, hundred.listKit])

    // Identical content, both snapshots built from the models.
    let copy = source.map { $0 }
    differenceKit = nil
    listKit = nil
    #if canImport(DifferenceKit)
    differenceKit = { DifferenceKit.StagedChangeset(source: source, target: copy) }
    #endif
    #if canImport(ListKit)
    listKit = {
      ListKitPeer.diff(
        DiffableDataSourceSnapshot(sections: [(0, identifiers(of: source))]),
        DiffableDataSourceSnapshot(sections: [(0, identifiers(of: copy))]))
    }
    #endif
    let identical = measurePeers(
      runs: runs,
      trellis: { Trellis.StagedChangeset(from: makeSnapshot(source), to: makeSnapshot(copy)) },
      differenceKit: differenceKit, listKit: listKit)
    reportPeers(
      "identical, build both + diff \(suffix)", trellis: identical.trellis,
      peers: [identical.differenceKit, identical.listKit])

    // One item moved from the front to the back.
    let moved = Array(source.dropFirst()) + [source[0]]
    differenceKit = nil
    listKit = nil
    #if canImport(DifferenceKit)
    differenceKit = { DifferenceKit.StagedChangeset(source: source, target: moved) }
    #endif
    #if canImport(ListKit)
    listKit = {
      ListKitPeer.diff(
        DiffableDataSourceSnapshot(sections: [(0, identifiers(of: source))]),
        DiffableDataSourceSnapshot(sections: [(0, identifiers(of: moved))]))
    }
    #endif
    let moveOne = measurePeers(
      runs: runs,
      trellis: { Trellis.StagedChangeset(from: makeSnapshot(source), to: makeSnapshot(moved)) },
      differenceKit: differenceKit, listKit: listKit)
    var moveNote =
      "moves \((moveOne.results[0] as? Trellis.StagedChangeset<Int, Int>)?.itemMoveCount ?? -1)"
    #if canImport(ListKit)
    if let moves = (moveOne.results.last as? (changes: Int, moves: Int))?.moves {
      moveNote += ", ListKit \(moves)"
    }
    #endif
    reportPeers(
      "move one, build both + diff \(suffix)", trellis: moveOne.trellis,
      peers: [moveOne.differenceKit, moveOne.listKit], note: moveNote)
  }

  if sectioned {
    var rng = SplitMix64(state: 42)
    let (source, target, changed) = sectionedWorkload(sections: 100, items: 1000, rng: &rng)
    let (sourceSections, targetSections) = (sectionLists(source), sectionLists(target))
    // Content versions by identifier, as the flat rows keep them (DifferenceKit reads the same
    // versions from its elements).
    let identifierBound =
      (targetSections.flatMap(\.1) + sourceSections.flatMap(\.1)).max().map { $0 + 1 } ?? 0
    let sourceVersions = [Int](repeating: 0, count: identifierBound)
    var targetVersions = sourceVersions
    for id in changed { targetVersions[id] = 1 }
    let update: (Int) -> ItemUpdate? = {
      sourceVersions[$0] == targetVersions[$0] ? nil : .reconfigure
    }
    var differenceKit: (() -> Any)?
    var listKit: (() -> Any)?
    #if canImport(DifferenceKit)
    let dkSource = sourceSections.map { section, ids in
      ArraySection(
        model: PeerSection(id: section), elements: ids.map { Element(id: $0, version: 0) })
    }
    let dkTarget = targetSections.map { section, ids in
      ArraySection(
        model: PeerSection(id: section),
        elements: ids.map { Element(id: $0, version: changed.contains($0) ? 1 : 0) })
    }
    differenceKit = { DifferenceKit.StagedChangeset(source: dkSource, target: dkTarget) }
    #endif
    #if canImport(ListKit)
    listKit = {
      ListKitPeer.diff(
        DiffableDataSourceSnapshot(sections: sourceSections),
        DiffableDataSourceSnapshot(sections: targetSections))
    }
    #endif
    let measured = measurePeers(
      runs: 21,
      trellis: {
        Trellis.StagedChangeset(
          from: Snapshot(sections: sourceSections), to: Snapshot(sections: targetSections),
          itemUpdate: update)
      }, differenceKit: differenceKit, listKit: listKit)
    let minimum = minimalItemMoves(
      sourceSections.map(\.1), targetSections.map(\.1),
      sectionIDs: (source.sectionIdentifiers, target.sectionIdentifiers))
    var note =
      "moves \((measured.results[0] as? Trellis.StagedChangeset<Int, Int>)?.itemMoveCount ?? -1) (minimum \(minimum))"
    #if canImport(DifferenceKit)
    if let changes = measured.results[1]
      as? DifferenceKit.StagedChangeset<[ArraySection<PeerSection, Element>]>
    {
      note += ", DifferenceKit \(changes.reduce(0) { $0 + $1.elementMoved.count })"
    }
    #endif
    #if canImport(ListKit)
    if let moves = (measured.results.last as? (changes: Int, moves: Int))?.moves {
      note += ", ListKit \(moves)"
    }
    #endif
    reportPeers(
      "sectioned 100×1000, build both + diff", trellis: measured.trellis,
      peers: [measured.differenceKit, measured.listKit], note: note)
  }
}
