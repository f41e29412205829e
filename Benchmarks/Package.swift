// swift-tools-version: 6.0
// Benchmarks live in their own package so that neither users nor the test build compile them.
// Run from this folder: swift run -c release trellis-bench
//
// The diff benchmarks print a DifferenceKit column beside Trellis when a DifferenceKit checkout is
// named by TRELLIS_BENCH_DIFFERENCEKIT (it is never a dependency of the project itself):
//
//     git clone https://github.com/ra1028/DifferenceKit /tmp/DifferenceKit
//     TRELLIS_BENCH_DIFFERENCEKIT=/tmp/DifferenceKit swift run -c release trellis-bench peer
import PackageDescription

let peerPath = Context.environment["TRELLIS_BENCH_DIFFERENCEKIT"].flatMap { $0.isEmpty ? nil : $0 }

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
