import Testing
import Trellis
import TrellisTestSupport

@Suite struct SectionSnapshotTests {
  func outline() -> SectionSnapshot<String> {
    var tree = SectionSnapshot<String>()
    tree.append(["fruit", "vegetables"])
    tree.append(["apple", "pear"], to: "fruit")
    tree.append(["green", "red"], to: "apple")
    tree.append(["leek"], to: "vegetables")
    return tree
  }

  @Test func itemsAreDepthFirstAndOnlyExpandedSubtreesAreVisible() {
    var tree = outline()
    #expect(tree.items == ["fruit", "apple", "green", "red", "pear", "vegetables", "leek"])
    #expect(tree.rootItems == ["fruit", "vegetables"])
    #expect(tree.visibleItems == ["fruit", "vegetables"])
    tree.expand(["fruit"])
    #expect(tree.visibleItems == ["fruit", "apple", "pear", "vegetables"])
    tree.expand(["apple"])
    #expect(tree.visibleItems == ["fruit", "apple", "green", "red", "pear", "vegetables"])
    // Collapsing a parent hides its subtree but keeps the subtree's own expansion.
    tree.collapse(["fruit"])
    #expect(tree.visibleItems == ["fruit", "vegetables"])
    #expect(tree.isExpanded("apple"))
    #expect(!tree.isVisible("green"))
    tree.expand(["fruit"])
    #expect(tree.isVisible("green"))
  }

  @Test func levelsParentsAndChildren() {
    let tree = outline()
    #expect(tree.level(of: "fruit") == 0)
    #expect(tree.level(of: "red") == 2)
    #expect(tree.parent(of: "red") == "apple")
    #expect(tree.parent(of: "fruit") == nil)
    #expect(tree.children(of: "fruit") == ["apple", "pear"])
    #expect(tree.children(of: nil) == ["fruit", "vegetables"])
    #expect(tree.index(of: "pear") == 4)
    #expect(tree.index(of: "kiwi") == nil)
    #expect(tree.contains("leek") && !tree.contains("kiwi"))
  }

  @Test func subtreesAreCopiedWithTheirExpansion() {
    var tree = outline()
    tree.expand(["apple"])
    let fruit = tree.snapshot(of: "fruit")
    #expect(fruit.items == ["apple", "green", "red", "pear"])
    #expect(fruit.rootItems == ["apple", "pear"])
    #expect(fruit.parent(of: "apple") == nil)
    #expect(fruit.level(of: "green") == 1)
    #expect(fruit.isExpanded("apple"))
    let withParent = tree.snapshot(of: "apple", includingParent: true)
    #expect(withParent.items == ["apple", "green", "red"])
    #expect(withParent.level(of: "apple") == 0)
  }

  @Test func insertingDeletingAndReplacing() {
    var tree = outline()
    tree.insert(["banana"], after: "apple")
    #expect(tree.children(of: "fruit") == ["apple", "banana", "pear"])
    tree.insert(["cherry"], before: "apple")
    #expect(tree.children(of: "fruit") == ["cherry", "apple", "banana", "pear"])
    tree.delete(["apple"])
    #expect(!tree.contains("green"))
    #expect(tree.items == ["fruit", "cherry", "banana", "pear", "vegetables", "leek"])
    var herbs = SectionSnapshot<String>()
    herbs.append(["basil", "mint"])
    herbs.append(["spearmint"], to: "mint")
    tree.replace(childrenOf: "vegetables", using: herbs)
    #expect(tree.children(of: "vegetables") == ["basil", "mint"])
    #expect(tree.parent(of: "spearmint") == "mint")
    #expect(tree.level(of: "spearmint") == 2)
    #expect(!tree.contains("leek"))
    var nuts = SectionSnapshot<String>()
    nuts.append(["walnut"])
    nuts.append(["shell"], to: "walnut")
    tree.append(nuts, to: "banana")
    #expect(tree.parent(of: "walnut") == "banana")
    #expect(tree.parent(of: "shell") == "walnut")
    #expect(tree.level(of: "shell") == 3)
  }

  @Test func visualDescriptionShowsTheTree() {
    var tree = outline()
    tree.expand(["fruit"])
    #expect(
      tree.visualDescription() == """
        - fruit
          + apple
              green
              red
            pear
        + vegetables
            leek
        """)
  }

  @Test func reservingRoomChangesNothingBuilt() {
    var reserved = SectionSnapshot<String>()
    reserved.reserveCapacity(100)
    #expect(reserved == SectionSnapshot<String>())
    reserved.append(["fruit", "vegetables"])
    reserved.append(["apple", "pear"], to: "fruit")
    reserved.append(["green", "red"], to: "apple")
    reserved.append(["leek"], to: "vegetables")
    reserved.reserveCapacity(2)
    #expect(reserved == outline())
    #expect(reserved.parent(of: "red") == "apple" && reserved.level(of: "red") == 2)
  }

  @Test func anItemUnderTwoParentsIsRejected() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      var tree = SectionSnapshot<Int>()
      tree.append([1, 2])
      tree.append([3], to: 1)
      tree.append([3], to: 2)
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("Item identifier 3 is already in the section snapshot, under 1"))
  }

  @Test func anItemUnderItsOwnDescendantIsRejected() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      var tree = SectionSnapshot<Int>()
      tree.append([1])
      tree.append([2], to: 1)
      var cycle = SectionSnapshot<Int>()
      cycle.append([1])
      tree.append(cycle, to: 2)
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("Item identifier 1 is already in the section snapshot, a root item"))
    #expect(message.contains("adding it under 2 would make it its own ancestor"))
  }

  @Test func aParentThatIsNotInTheSnapshotIsRejected() async {
    await #expect(processExitsWith: .failure) {
      var tree = SectionSnapshot<Int>()
      tree.append([1])
      tree.append([2], to: 99)
    }
  }

  /// Random trees built through every mutation agree with a plain model of parents and children.
  @Test(arguments: 0..<20 as Range<UInt64>)
  func randomTreesAgreeWithAModel(seed: UInt64) {
    var rng = SplitMix64(seed: seed)
    var tree = SectionSnapshot<Int>()
    var model = TreeModel()
    var next = 0
    for _ in 0..<200 {
      let existing = model.all
      switch Int.random(in: 0..<10, using: &rng) {
      case 0..<4:
        let parent =
          existing.isEmpty || Bool.random(using: &rng) ? nil : existing.randomElement(using: &rng)
        let items = Array(next..<(next + Int.random(in: 1...4, using: &rng)))
        next += items.count
        tree.append(items, to: parent)
        model.append(items, to: parent)
      case 4 where !existing.isEmpty:
        let sibling = existing.randomElement(using: &rng)!
        tree.insert([next], before: sibling)
        model.insert(next, besides: sibling, after: false)
        next += 1
      case 5 where !existing.isEmpty:
        let sibling = existing.randomElement(using: &rng)!
        tree.insert([next], after: sibling)
        model.insert(next, besides: sibling, after: true)
        next += 1
      case 6 where !existing.isEmpty:
        let doomed = existing.randomElement(using: &rng)!
        tree.delete([doomed])
        model.delete(doomed)
      default:
        guard let item = existing.randomElement(using: &rng) else { continue }
        if Bool.random(using: &rng) {
          tree.expand([item])
          model.expanded.insert(item)
        } else {
          tree.collapse([item])
          model.expanded.remove(item)
        }
      }
      #expect(tree.items == model.all, "seed \(seed)")
      #expect(tree.visibleItems == model.visible, "seed \(seed)")
      for item in model.all {
        #expect(tree.parent(of: item) == model.parent[item]!, "seed \(seed)")
        #expect(tree.level(of: item) == model.level(of: item), "seed \(seed)")
      }
    }
  }
}

/// Parents and ordered children, the obvious way.
struct TreeModel {
  var roots: [Int] = []
  var children: [Int: [Int]] = [:]
  var parent: [Int: Int?] = [:]
  var expanded: Set<Int> = []

  var all: [Int] { walk(roots, onlyVisible: false) }
  var visible: [Int] { walk(roots, onlyVisible: true) }

  func walk(_ items: [Int], onlyVisible: Bool) -> [Int] {
    items.flatMap { item in
      [item]
        + (onlyVisible && !expanded.contains(item)
          ? [] : walk(children[item] ?? [], onlyVisible: onlyVisible))
    }
  }

  func level(of item: Int) -> Int {
    guard let up = parent[item], let up else { return 0 }
    return level(of: up) + 1
  }

  mutating func append(_ items: [Int], to parent: Int?) {
    for item in items { self.parent[item] = .some(parent) }
    if let parent { children[parent, default: []] += items } else { roots += items }
  }

  mutating func insert(_ item: Int, besides sibling: Int, after: Bool) {
    let up = parent[sibling] ?? nil
    parent[item] = .some(up)
    func place(_ list: inout [Int]) {
      let index = (list.firstIndex(of: sibling) ?? list.count) + (after ? 1 : 0)
      list.insert(item, at: index)
    }
    if let up { place(&children[up, default: []]) } else { place(&roots) }
  }

  mutating func delete(_ item: Int) {
    for child in children[item] ?? [] { delete(child) }
    children[item] = nil
    expanded.remove(item)
    if let up = parent[item] ?? nil {
      children[up]?.removeAll { $0 == item }
    } else {
      roots.removeAll { $0 == item }
    }
    parent[item] = nil
  }
}
