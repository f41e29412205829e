// swift-tools-version: 6.0
// Benchmarks live in their own package so that neither users nor the test build compile them.
// Run from this folder: swift run -c release trellis-bench
//
// The diff benchmarks print a DifferenceKit column beside Trellis when a DifferenceKit checkout is
// named by TRELLIS_BENCH_DIFFERENCEKIT (it is never a dependency of the project itself):
//
//     git clone https://github.com/ra1028/DifferenceKit /tmp/DifferenceKit
//     TRELLIS_BENCH_DIFFERENCEKIT=/tmp/DifferenceKit swift run -c release trellis-bench peer
//
// ListKit (github.com/Iron-Ham/Lists) joins them in the `peer:listkit` and `peer:sectioned` rows
// when TRELLIS_BENCH_LISTKIT names a package built from its snapshot and diff sources. Its own
// manifest cannot be used here (it targets iOS and depends on IGListKit and others for its
// benchmarks), and its diff is internal, so the package is assembled in a scratch folder:
//
//     git clone https://github.com/Iron-Ham/Lists /tmp/Lists
//     mkdir -p /tmp/listkit-peer/Sources/ListKit
//     cp -r /tmp/Lists/Sources/ListKit/{Snapshot,Algorithm} /tmp/listkit-peer/Sources/ListKit/
//
// then, beside them, a manifest with one library product "ListKit" of one target "ListKit", and
// one file that (a) gives Foundation's IndexPath the `init(item:section:)`, `item` and `section`
// that UIKit adds, and (b) exposes the diff as
// `public enum ListKitPeer { static func diff(_ old:_ new:) -> (changes: Int, moves: Int) }`,
// calling `SectionedDiff.diff(old:new:)` and counting the changeset's entries and item moves.
//
//     TRELLIS_BENCH_LISTKIT=/tmp/listkit-peer TRELLIS_BENCH_DIFFERENCEKIT=/tmp/DifferenceKit \
//       swift run -c release trellis-bench peer
import PackageDescription

let peerPath = Context.environment["TRELLIS_BENCH_DIFFERENCEKIT"].flatMap { $0.isEmpty ? nil : $0 }
let listKitPath = Context.environment["TRELLIS_BENCH_LISTKIT"].flatMap { $0.isEmpty ? nil : $0 }

var benchDependencies: [Target.Dependency] = [
  .product(name: "Trellis", package: "Trellis"),
  .product(name: "TrellisTerminal", package: "Trellis"),
  .product(name: "GitHubIssues", package: "Trellis"),
  .product(name: "IssuesBrowser", package: "Trellis"),
]
var packageDependencies: [Package.Dependency] = [.package(name: "Trellis", path: "..")]
if let peerPath {
  packageDependencies.append(.package(name: "DifferenceKit", path: peerPath))
  benchDependencies.append(.product(name: "DifferenceKit", package: "DifferenceKit"))
}
if let listKitPath {
  packageDependencies.append(.package(name: "ListKit", path: listKitPath))
  benchDependencies.append(.product(name: "ListKit", package: "ListKit"))
}

let package = Package(
  name: "TrellisBenchmarks",
  dependencies: packageDependencies,
  targets: [
    .executableTarget(
      name: "trellis-portability-check",
      dependencies: [.product(name: "Trellis", package: "Trellis")]),
    .executableTarget(name: "trellis-bench", dependencies: benchDependencies),
  ],
  swiftLanguageModes: [.v6]
)
