// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "Trellis",
  products: [
    .library(name: "Trellis", targets: ["Trellis"])
  ],
  targets: [
    // The engine: snapshots, diffing, data source, state. Imports nothing, not even Foundation.
    .target(name: "Trellis"),
    // Test support shared by the test targets: the batch-update replayer, generators, SplitMix64.
    .target(name: "TrellisTestSupport", dependencies: ["Trellis"]),
    .testTarget(name: "TrellisTests", dependencies: ["Trellis", "TrellisTestSupport"]),
    .testTarget(name: "TrellisTestSupportTests", dependencies: ["Trellis", "TrellisTestSupport"]),
  ],
  swiftLanguageModes: [.v6]
)
