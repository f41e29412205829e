// Links the Trellis core with nothing else — no Foundation, no Glibc — so that a dependency of
// the core on a system library (libm's round, for instance) fails the build here, as it would for
// a user on a platform without it. CI builds this target.
import Trellis

// `duplicate`: traps on a duplicate identifier, so that CI sees the release build's message
// name it (it once arrived empty there).
if CommandLine.arguments.dropFirst().first == "duplicate" {
  _ = Snapshot<Int, String>(sections: [(1, ["x", "y", "y"])])
}

let old = Snapshot(sections: [("a", [1, 2, 3]), ("b", [4])])
let new = Snapshot(sections: [("b", [4, 1]), ("a", [3])])
let changes = StagedChangeset(from: old, to: new)

var flow = FlowLayout()
flow.prepare(LayoutContext(itemCounts: [10], containerSize: Size(width: 100.5, height: 100)))
var waterfall = WaterfallLayout()
waterfall.prepare(LayoutContext(itemCounts: [10], containerSize: Size(width: 100, height: 100)))
let item = LayoutItem(size: LayoutSize(width: .fractionalWidth(0.3), height: .absolute(33.333)))
var section = LayoutSection(
  group: .horizontal(
    size: LayoutSize(width: .fractionalWidth(0.9), height: .absolute(40)), subitems: [.item(item)]))
section.orthogonalScrollingBehavior = .paging
var compositional = CompositionalLayout(section: section)
compositional.prepare(LayoutContext(itemCounts: [30], containerSize: Size(width: 100, height: 100)))
let target = compositional.targetOrthogonalOffset(forSection: 0, proposed: 130.7, velocity: 1)
let picture = LayoutPicture.svg(
  of: compositional.allAttributes, contentSize: compositional.contentSize)
var selection = SelectionModel<Int>.single()
selection.select(3)
print(
  changes.count, flow.contentSize, waterfall.contentSize, target, picture.count,
  selection.selectedIdentifiers)
