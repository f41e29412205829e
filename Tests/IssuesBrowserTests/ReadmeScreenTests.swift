import Foundation
import Testing

/// The README's first screen is the demo as the app draws it, so that it cannot fall behind the
/// app: a change to what the browser shows fails here until the README shows it too.
///
/// `TRELLIS_UPDATE_README=1 swift test --filter ReadmeScreenTests` writes the current screen
/// into the README.
@MainActor
@Suite struct ReadmeScreenTests {
  static let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("README.md")
  /// The sentence the screen's code block follows.
  static let caption = "The browser on a bundled, real recording of betamaxpy/betamax"

  @Test func theReadmeShowsTheDemoAsTheAppDrawsIt() throws {
    // The demo on a 116×24 terminal, at the harness's fixed time (the ages are stable).
    let harness = try BrowserHarness(columns: 116, rows: 24)
    let screen = harness.terminal.lines.map { line in
      String(line.reversed().drop { $0 == " " }.reversed())
    }
    let text = try String(contentsOf: Self.readme, encoding: .utf8)
    var lines = text.components(separatedBy: "\n")
    let caption = try #require(lines.firstIndex { $0.hasPrefix(Self.caption) })
    let open = try #require(lines[caption...].firstIndex { $0.hasPrefix("```") })
    let close = try #require(lines[(open + 1)...].firstIndex { $0.hasPrefix("```") })
    if ProcessInfo.processInfo.environment["TRELLIS_UPDATE_README"] == "1" {
      lines.replaceSubrange((open + 1)..<close, with: screen)
      try lines.joined(separator: "\n").write(to: Self.readme, atomically: true, encoding: .utf8)
      return
    }
    let shown = Array(lines[(open + 1)..<close])
    #expect(
      shown == screen,
      """
      README.md's screen differs from the app's; run with TRELLIS_UPDATE_README=1 to update it:
      \(screen.joined(separator: "\n"))
      """)
  }
}
