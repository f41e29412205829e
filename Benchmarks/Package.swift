// swift-tools-version: 6.0
// Benchmarks live in their own package so that neither users nor the test build compile them.
// Run from this folder: swift run -c release trellis-bench
//
// `trellis-bench ratios` guards the diff against regressions with no peer: each workload as a
// ratio to a plain Dictionary built from the same identifiers, compared with the README's
// records. The peers (DifferenceKit, ListKit) are measured side by side outside the project; the
// README keeps that comparison as facts.
import PackageDescription

let package = Package(
  name: "TrellisBenchmarks",
  dependencies: [.package(name: "Trellis", path: "..")],
  targets: [
    .executableTarget(
      name: "trellis-portability-check",
      dependencies: [.product(name: "Trellis", package: "Trellis")]),
    .executableTarget(
      name: "trellis-bench",
      dependencies: [
        .product(name: "Trellis", package: "Trellis"),
        .product(name: "TrellisTerminal", package: "Trellis"),
        .product(name: "GitHubIssues", package: "Trellis"),
        .product(name: "IssuesBrowser", package: "Trellis"),
      ]),
  ],
  swiftLanguageModes: [.v6]
)
