// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "Trellis",
  products: [
    .library(name: "Trellis", targets: ["Trellis"]),
    .library(name: "TrellisTerminal", targets: ["TrellisTerminal"]),
    .executable(name: "trellis-terminal-demo", targets: ["trellis-terminal-demo"]),
  ],
  targets: [
    // The engine: snapshots, diffing, data source, state. Imports nothing, not even Foundation.
    .target(name: "Trellis"),
    // Test support shared by the test targets: the batch-update replayer, generators, SplitMix64.
    .target(name: "TrellisTestSupport", dependencies: ["Trellis"]),
    // The terminal layer: session, input, display width, cell buffer, diffed rendering. Glibc/Darwin only.
    .target(name: "TrellisTerminal", dependencies: ["Trellis"]),
    .executableTarget(name: "trellis-terminal-demo", dependencies: ["TrellisTerminal"]),
    // Ends a terminal session in a chosen way, for the restore tests; not a product.
    .executableTarget(name: "trellis-terminal-probe", dependencies: ["TrellisTerminal"]),
    .testTarget(name: "TrellisTests", dependencies: ["Trellis", "TrellisTestSupport"]),
    .testTarget(name: "TrellisTestSupportTests", dependencies: ["Trellis", "TrellisTestSupport"]),
    .testTarget(
      name: "TrellisTerminalTests",
      dependencies: ["TrellisTerminal", "TrellisTestSupport", "trellis-terminal-probe"]),
  ],
  swiftLanguageModes: [.v6]
)
