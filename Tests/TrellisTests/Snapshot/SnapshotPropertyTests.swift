import Testing
import Trellis
import TrellisTestSupport

/// Random sequences of every snapshot mutation, checked after each step against a plain model
/// (an array of sections with their items) on every lookup.
@Suite struct SnapshotPropertyTests {
  struct Model {
    var sections: [(id: Int, items: [Int])] = []

    var allItems: [Int] { sections.flatMap(\.items) }

    func location(of item: Int) -> (section: Int, item: Int)? {
      for (s, section) in sections.enumerated() {
        if let i = section.items.firstIndex(of: item) { return (s, i) }
      }
      return nil
    }
  }

  @Test(arguments: 0..<20 as Range<UInt64>)
  func everyMutationKeepsLookupsEqualToAPlainModel(seed: UInt64) {
    var rng = SplitMix64(seed: seed)
    var snapshot = Snapshot<Int, Int>()
    var model = Model()
    var next = 0
    func fresh(_ count: Int) -> [Int] {
      defer { next += count }
      return Array(next..<(next + count))
    }
    for step in 0..<300 {
      let items = model.allItems
      let operation = Int.random(in: 0..<12, using: &rng)
      switch operation {
      case 0:
        let ids = fresh(Int.random(in: 0...2, using: &rng))
        snapshot.appendSections(ids)
        model.sections += ids.map { ($0, []) }
      case 1 where !model.sections.isEmpty:
        let anchor = Int.random(in: 0..<model.sections.count, using: &rng)
        let ids = fresh(Int.random(in: 1...2, using: &rng))
        let after = Bool.random(using: &rng)
        if after {
          snapshot.insertSections(ids, afterSection: model.sections[anchor].id)
        } else {
          snapshot.insertSections(ids, beforeSection: model.sections[anchor].id)
        }
        model.sections.insert(contentsOf: ids.map { ($0, []) }, at: anchor + (after ? 1 : 0))
      case 2 where !model.sections.isEmpty:
        let doomed = model.sections.map(\.id).filter { _ in Int.random(in: 0..<4, using: &rng) == 0
        }
        snapshot.deleteSections(doomed)
        model.sections.removeAll { doomed.contains($0.id) }
      case 3 where model.sections.count > 1:
        let from = Int.random(in: 0..<model.sections.count, using: &rng)
        var to = Int.random(in: 0..<model.sections.count, using: &rng)
        if to == from { to = (from + 1) % model.sections.count }
        let moving = model.sections[from]
        let anchor = model.sections[to].id
        let after = Bool.random(using: &rng)
        if after {
          snapshot.moveSection(moving.id, afterSection: anchor)
        } else {
          snapshot.moveSection(moving.id, beforeSection: anchor)
        }
        model.sections.remove(at: from)
        let anchorIndex = model.sections.firstIndex { $0.id == anchor } ?? 0
        model.sections.insert(moving, at: anchorIndex + (after ? 1 : 0))
      case 4 where !model.sections.isEmpty, 5 where !model.sections.isEmpty:
        let ids = fresh(Int.random(in: 0...5, using: &rng))
        if Bool.random(using: &rng) {
          snapshot.appendItems(ids)
          model.sections[model.sections.count - 1].items += ids
        } else {
          let s = Int.random(in: 0..<model.sections.count, using: &rng)
          snapshot.appendItems(ids, toSection: model.sections[s].id)
          model.sections[s].items += ids
        }
      case 6 where !items.isEmpty:
        let anchor = items[Int.random(in: 0..<items.count, using: &rng)]
        let ids = fresh(Int.random(in: 1...3, using: &rng))
        let after = Bool.random(using: &rng)
        if after {
          snapshot.insertItems(ids, afterItem: anchor)
        } else {
          snapshot.insertItems(ids, beforeItem: anchor)
        }
        if let at = model.location(of: anchor) {
          model.sections[at.section].items.insert(contentsOf: ids, at: at.item + (after ? 1 : 0))
        }
      case 7 where !items.isEmpty:
        let doomed = items.filter { _ in Int.random(in: 0..<5, using: &rng) == 0 }
        snapshot.deleteItems(doomed)
        for index in model.sections.indices {
          model.sections[index].items.removeAll { doomed.contains($0) }
        }
      case 8 where items.count > 1:
        let moving = items[Int.random(in: 0..<items.count, using: &rng)]
        var anchor = items[Int.random(in: 0..<items.count, using: &rng)]
        if anchor == moving { anchor = items.first { $0 != moving } ?? anchor }
        let after = Bool.random(using: &rng)
        if after {
          snapshot.moveItem(moving, afterItem: anchor)
        } else {
          snapshot.moveItem(moving, beforeItem: anchor)
        }
        if let from = model.location(of: moving) {
          model.sections[from.section].items.remove(at: from.item)
        }
        if let to = model.location(of: anchor) {
          model.sections[to.section].items.insert(moving, at: to.item + (after ? 1 : 0))
        }
      case 9 where !items.isEmpty:
        snapshot.reloadItems([items[Int.random(in: 0..<items.count, using: &rng)]])
      case 10 where Int.random(in: 0..<20, using: &rng) == 0:
        snapshot.deleteAllItems()
        model.sections = []
      default:
        break
      }
      check(snapshot, against: model, "seed \(seed), step \(step), operation \(operation)")
    }
  }

  private func check(_ snapshot: Snapshot<Int, Int>, against model: Model, _ context: String) {
    #expect(snapshot.sectionIdentifiers == model.sections.map(\.id), "\(context)")
    #expect(snapshot.itemIdentifiers == model.allItems, "\(context)")
    #expect(snapshot.numberOfItems == model.allItems.count, "\(context)")
    var flat = 0
    for (s, section) in model.sections.enumerated() {
      #expect(snapshot.indexOfSection(section.id) == s, "\(context)")
      #expect(snapshot.itemIdentifiers(inSection: section.id) == section.items, "\(context)")
      for (i, item) in section.items.enumerated() {
        #expect(snapshot.indexPath(for: item) == IndexPath(item: i, section: s), "\(context)")
        #expect(snapshot.indexOfItem(item) == flat, "\(context)")
        #expect(snapshot.sectionIdentifier(containingItem: item) == section.id, "\(context)")
        flat += 1
      }
    }
    let reloaded = snapshot.reloadedItemIdentifiers
    #expect(reloaded.allSatisfy { snapshot.contains(item: $0) }, "\(context)")
  }
}
