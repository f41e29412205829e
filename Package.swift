// swift-tools-version: 6.0
import PackageDescription

// `TRELLIS_INTERNAL_CHECKS=1 swift test` compiles the internal invariant checks into the engine and
// the cache (and only there, so that no dependency is rebuilt); `-Xswiftc -DTRELLIS_INTERNAL_CHECKS`
// does the same for every module.
let internalChecks: [SwiftSetting] =
  Context.environment["TRELLIS_INTERNAL_CHECKS"] == "1" ? [.define("TRELLIS_INTERNAL_CHECKS")] : []

let package = Package(
  name: "Trellis",
  products: [
    .library(name: "Trellis", targets: ["Trellis"]),
    .library(name: "TrellisTerminal", targets: ["TrellisTerminal"]),
    .library(name: "GitHubIssues", targets: ["GitHubIssues"]),
    .library(name: "IssuesBrowser", targets: ["IssuesBrowser"]),
    .executable(name: "trellis-terminal-demo", targets: ["trellis-terminal-demo"]),
    .executable(name: "trellis-gallery", targets: ["trellis-gallery"]),
    .executable(name: "issues", targets: ["issues"]),
  ],
  dependencies: [
    .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    .package(url: "https://github.com/swhitty/FlyingFox", from: "0.27.1"),
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
    .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
    // `swift package generate-documentation`: CI builds the libraries' catalogs with it.
    .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
  ],
  targets: [
    // The engine: snapshots, diffing, data source, state. Imports nothing, not even Foundation.
    .target(name: "Trellis", swiftSettings: internalChecks),
    // Test support shared by the test targets: the batch-update replayer, generators, SplitMix64.
    .target(name: "TrellisTestSupport", dependencies: ["Trellis"]),
    // The terminal layer: session, input, display width, cell buffer, diffed rendering. Glibc/Darwin only.
    .target(name: "TrellisTerminal", dependencies: ["Trellis"]),
    .executableTarget(name: "trellis-terminal-demo", dependencies: ["TrellisTerminal"]),
    // The gallery: every layout, live and interactive, in the terminal.
    .executableTarget(name: "trellis-gallery", dependencies: ["Trellis", "TrellisTerminal"]),
    // Ends a terminal session in a chosen way, for the restore tests; not a product.
    .executableTarget(name: "trellis-terminal-probe", dependencies: ["TrellisTerminal"]),
    // The GitHub REST client and the SQLite cache the issues app reads from. Requests go through
    // AsyncHTTPClient: no hidden resends, timeouts per phase, no libcurl at process start.
    .target(
      name: "GitHubIssues",
      dependencies: [
        .product(name: "GRDB", package: "GRDB.swift"),
        // SQLite's own binding calls, for the rows a bulk write binds value by value.
        .product(name: "GRDBSQLite", package: "GRDB.swift"),
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        // The dashboard's configuration file: YAML, as gh and gh-dash write theirs.
        .product(name: "Yams", package: "Yams"),
      ],
      resources: [.copy("Resources/Datasets")], swiftSettings: internalChecks),
    // Test support: a pseudo-terminal to run programs in, and a local GitHub serving recordings.
    .target(name: "TerminalTestSupport", dependencies: ["TrellisTerminal"]),
    .target(
      name: "GitHubTestSupport",
      dependencies: ["GitHubIssues", .product(name: "FlyingFox", package: "FlyingFox")],
      resources: [.copy("Fixtures")]),
    // A local GitHub serving a synthetic repository with a chosen fault, for trying and measuring
    // `issues` by hand; not a product.
    .executableTarget(name: "local-github", dependencies: ["GitHubIssues", "GitHubTestSupport"]),
    // The real `issues` in a pseudo-terminal, timed from outside: launch → first frame, and a
    // search typed → on screen (`swift run -c release issues-pty-bench`).
    .executableTarget(
      name: "issues-pty-bench",
      dependencies: ["GitHubIssues", "GitHubTestSupport", "TerminalTestSupport"]),
    // The issues browser: its screen, keys and text rendering, testable without a terminal.
    .target(
      name: "IssuesBrowser", dependencies: ["Trellis", "TrellisTerminal", "GitHubIssues"]),
    // The `issues` command: the browser in a terminal, `list` and `sync`.
    .executableTarget(
      name: "issues",
      dependencies: [
        "IssuesBrowser", "GitHubIssues", "TrellisTerminal",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]),
    .testTarget(name: "TrellisTests", dependencies: ["Trellis", "TrellisTestSupport"]),
    .testTarget(name: "TrellisTestSupportTests", dependencies: ["Trellis", "TrellisTestSupport"]),
    .testTarget(
      name: "TrellisTerminalTests",
      dependencies: [
        "TrellisTerminal", "TrellisTestSupport", "TerminalTestSupport", "trellis-terminal-probe",
        "trellis-gallery",
      ]),
    .testTarget(
      name: "GitHubIssuesTests",
      dependencies: [
        "GitHubIssues", "GitHubTestSupport", "TrellisTestSupport",
        .product(name: "GRDB", package: "GRDB.swift"),
      ]),
    .testTarget(
      name: "IssuesBrowserTests",
      dependencies: [
        "IssuesBrowser", "GitHubIssues", "TrellisTerminal", "TrellisTestSupport",
        "GitHubTestSupport", "TerminalTestSupport", "issues",
      ]),
  ],
  swiftLanguageModes: [.v6]
)
