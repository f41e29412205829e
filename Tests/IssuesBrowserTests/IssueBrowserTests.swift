import Foundation
import GitHubIssues
@testable import IssuesBrowser
import Testing
import Trellis
import TrellisTerminal
import TrellisTestSupport

@MainActor
@Suite struct IssueBrowserTests {
  @Test func itStartsOnAllWithTheOpenIssuesGroupedByMilestone() throws {
    let harness = try BrowserHarness()
    #expect(harness.browser.selectedChip == .all)
    #expect(harness.lines[1].contains(" All 13 "))
    #expect(harness.lines[1].contains(" No milestone 11 "))
    #expect(harness.lines[1].contains(" 1.0.0 2 "))
    #expect(harness.lines[3].hasPrefix(" 1.0.0  2 open issues"))
    #expect(harness.browser.shownNumbers.count == 13)
  }

  @Test func selectingAChipRewritesOnlyTheOldAndNewChipsAndTheList() throws {
    var harness = try BrowserHarness()
    let all = try #require(harness.columns(of: " All 13 ", row: 1))
    let none = try #require(harness.columns(of: " No milestone 11 ", row: 1))
    // → moves the focus (underline) from All to No milestone: those two chips only.
    harness.browser.handle(.key(KeyEvent(.right))).forEach { _ in }
    var frame = harness.frame()
    var chipColumns = Set(frame.changed.filter { $0.y == 1 }.map(\.x))
    #expect(!chipColumns.isEmpty)
    #expect(chipColumns.isSubset(of: Set(all).union(none)))
    // Enter selects it: again only those two chips on the chip row; the list follows at once.
    harness.browser.handle(.key(KeyEvent(.enter))).forEach { _ in }
    frame = harness.frame()
    chipColumns = Set(frame.changed.filter { $0.y == 1 }.map(\.x))
    #expect(chipColumns.isSubset(of: Set(all).union(none)))
    #expect(chipColumns.contains(all.lowerBound + 1) && chipColumns.contains(none.lowerBound + 1))
    #expect(harness.browser.selectedChip == .withoutMilestone)
    #expect(harness.lines[3].hasPrefix(" Open  11"))
    #expect(harness.browser.shownNumbers.count == 11)
    #expect(!frame.rows.contains(0))
    // The selected chip is filled, the old one is not.
    #expect(harness.terminal.screen[none.lowerBound + 1, 1].style.background == .cyan)
    #expect(harness.terminal.screen[all.lowerBound + 1, 1].style.background != .cyan)
  }

  @Test func theStateToggleCyclesOpenClosedAll() throws {
    var harness = try BrowserHarness()
    harness.press(.character("s"))
    #expect(harness.browser.state.filter.state == .closed)
    #expect(harness.lines[1].contains(" All 70 "))
    #expect(harness.lines[2].contains("closed · recently updated"))
    #expect(harness.browser.shownNumbers.count == 70)
    harness.press(.character("s"))
    #expect(harness.browser.state.filter.state == .all)
    #expect(harness.browser.shownNumbers.count == 83)
    harness.press(.character("s"))
    #expect(harness.browser.state.filter.state == .open)
  }

  @Test func searchWaitsForAPauseInTyping() throws {
    var harness = try BrowserHarness()
    harness.press(.character("/"))
    harness.type("cassette")
    // Not yet: typing has not paused.
    #expect(harness.browser.shownNumbers.count == 13)
    #expect(harness.lines.last?.contains("cassette▏") == true)
    harness.wait(0.2)
    let shown = harness.browser.shownNumbers
    #expect(!shown.isEmpty && shown.count < 13)
    #expect(harness.lines[2].contains("search: “cassette”"))
    harness.press(.escape)
    #expect(harness.browser.shownNumbers.count == 13)
  }

  @Test func theLabelFilterShowsOnlyThatLabel() throws {
    var harness = try BrowserHarness()
    harness.press(.character("l"))
    #expect(harness.lines.contains { $0.contains("Any label") })
    harness.press(.down, .enter)  // the first label, alphabetically
    let label = try #require(harness.browser.state.filter.labels.first)
    let cache = try BrowserHarness.betamax()
    let expected = try cache.listEntries(IssueFilter(labels: [label])).map(\.number)
    #expect(Set(harness.browser.shownNumbers) == Set(expected))
  }

  @Test func pullRequestsAreHiddenUnlessAskedFor() throws {
    var harness = try BrowserHarness()
    harness.press(.character("s"), .character("s"))  // open + closed
    let issuesOnly = harness.browser.shownNumbers.count
    harness.press(.character("p"))
    #expect(harness.browser.shownNumbers.count == 150)
    #expect(issuesOnly == 83)
  }

  @Test func effectsOpenCopyRefreshAndQuit() throws {
    var harness = try BrowserHarness()
    let first = try #require(harness.browser.focusedIssue)
    #expect(harness.press(.character("o")) == [.open(first.htmlURL ?? "")])
    // As gh-dash has them: y the number, Y the URL.
    #expect(harness.press(.character("y")) == [.copy(String(first.number))])
    #expect(harness.press(.character("Y")) == [.copy(first.htmlURL ?? "")])
    #expect(harness.press(.character("r")) == [.refresh])
    #expect(harness.press(.character("q")) == [.quit])
  }

  /// An issue not filed yet has no page and no number to open or copy, nor a number for a
  /// command of one's own.
  @Test func anIssueNotFiledYetIsNotOpenedOrCopied() throws {
    let cache = try BrowserHarness.betamax()
    try cache.enqueueNewIssue(NewIssue(title: "Filed offline"), author: "octocat")
    var harness = try BrowserHarness(cache: cache)
    // Not in a milestone: the last section's, newest first there.
    let number = try #require(harness.browser.shownNumbers.first { $0 < 0 })
    while harness.browser.focusedIssue?.number != number,
      harness.browser.focusedIssue?.number != harness.browser.shownNumbers.last
    {
      harness.press(.down)
    }
    let focused = try #require(harness.browser.focusedIssue)
    try #require(focused.isProvisional && focused.title == "Filed offline")
    #expect(harness.press(.character("o")) == [])
    #expect(harness.press(.character("y")) == [])
    #expect(harness.press(.character("Y")) == [])
    harness.press(.up)
    #expect(harness.press(.character("y")) != [])
  }

  @Test func enterReadsTheFocusedIssueAndEscapeComesBack() throws {
    var harness = try BrowserHarness(columns: 80, rows: 24)
    let issue = try #require(harness.browser.focusedIssue)
    harness.press(.enter)
    // The author's header, pinned, then the issue.
    #expect(harness.lines[1].contains(issue.author))
    #expect(harness.lines[2].contains("#\(issue.number) "))
    harness.press(.escape)
    #expect(harness.lines[1].contains(" All 13 "))
  }

  @Test func resizingKeepsTheFocusedIssueOnScreen() throws {
    var harness = try BrowserHarness(columns: 100, rows: 30)
    harness.press(.character("s"))  // 70 closed issues
    for _ in 0..<40 { harness.press(.down) }
    let focused = try #require(harness.browser.focusedIssue)
    harness.resize(columns: 70, rows: 12)
    #expect(harness.lines.count == 12)
    #expect(harness.lines.contains { $0.contains("#\(focused.number) ") })
    harness.resize(columns: 140, rows: 40)
    #expect(harness.lines.contains { $0.contains("#\(focused.number) ") })
  }

  @Test func loadingEmptyAndErrorAreStatesOfTheirOwn() throws {
    let empty = try IssueCache()
    var harness = try BrowserHarness(cache: empty, status: .syncing(nil))
    #expect(harness.lines.contains { $0.contains("Fetching the issues of betamaxpy/betamax") })
    harness.browser.syncStatus = .missingToken(.github)
    harness.frame()
    #expect(harness.lines.contains { $0.contains("set GH_TOKEN") })
    harness.browser.syncStatus = .upToDate(Date(timeIntervalSince1970: 0))
    harness.frame()
    #expect(harness.lines.contains { $0.contains("No open issues.") })
  }
}

@MainActor
@Suite struct IssueBrowserRobustnessTests {
  /// Property: random keys, clicks, pastes and sizes (down to a few cells) never trap, and every
  /// frame is the size of the screen with the focused issue, if any, among the list's items.
  @Test func randomUseNeverBreaksTheScreen() throws {
    let seed: UInt64 = 77
    var rng = SplitMix64(seed: seed)
    var harness = try BrowserHarness(columns: 90, rows: 24)
    let keys: [Key] = [
      .up, .down, .left, .right, .enter, .escape, .pageUp, .pageDown, .home, .end, .backspace,
      .tab, .character("s"), .character("l"), .character("/"), .character("c"),
      .character("p"), .character("?"), .character("j"), .character("k"), .character("g"),
      .character("G"), .character("x"), .character("마"), .character("😃"), .character(" "),
    ]
    for step in 0..<1500 {
      switch Int.random(in: 0..<20, using: &rng) {
      case 0:
        let columns = Int.random(in: 1...160, using: &rng)
        let rows = Int.random(in: 1...50, using: &rng)
        harness.resize(columns: columns, rows: rows)
      case 1:
        let x = Int.random(in: 0..<harness.browser.size.columns, using: &rng)
        let y = Int.random(in: 0..<harness.browser.size.rows, using: &rng)
        let kinds: [MouseEvent.Kind] = [.press(.left), .release(.left), .scrollUp, .scrollDown]
        let kind = kinds[Int.random(in: 0..<kinds.count, using: &rng)]
        _ = harness.browser.handle(.mouse(MouseEvent(kind, x: x, y: y)))
        harness.frame()
      case 2:
        _ = harness.browser.handle(.paste("cassette\nrecord"))
        harness.wait(0.2)
      default:
        let key = keys[Int.random(in: 0..<keys.count, using: &rng)]
        if harness.press(key).contains(.quit) { continue }
        if step % 7 == 0 { harness.wait(0.2) }
      }
      let screen = harness.browser.render()
      #expect(
        screen.width == harness.browser.size.columns && screen.height == harness.browser.size.rows,
        "seed \(seed), step \(step)")
      if let focused = harness.browser.focusedIssue {
        #expect(harness.browser.shownNumbers.contains(focused.number), "seed \(seed), step \(step)")
      }
    }
  }
}

@MainActor
@Suite struct ChipCountTests {
  /// Whatever the filters, each chip's count is the number of items the list shows when that
  /// chip is selected.
  @Test func chipCountsAlwaysMatchTheList() throws {
    var harness = try BrowserHarness(columns: 160, rows: 30)
    let titles = ["All", "No milestone", "1.0.0", "0.7.0", "0.5.0", "0.6.0"]
    for keys: [Key] in [[], [.character("s")], [.character("p")], [.character("s")]] {
      for key in keys { harness.press(key) }
      for (index, title) in titles.enumerated() {
        if index > 0 { harness.press(.right, .enter) }
        let shown = harness.browser.shownNumbers.count
        #expect(
          harness.lines[1].contains(" \(title) \(shown) "),
          "\(title) with \(harness.browser.state.filter): \(harness.lines[1])")
      }
      for _ in titles.dropFirst() { harness.press(.left) }
      harness.press(.enter)
      #expect(harness.browser.selectedChip == .all)
    }
  }

  @Test func searchingNarrowsTheCounts() throws {
    var harness = try BrowserHarness(columns: 160, rows: 30)
    harness.press(.character("/"))
    harness.type("cassette")
    harness.press(.enter)
    let total = harness.browser.shownNumbers.count
    #expect(harness.lines[1].contains(" All \(total) "))
  }
}

@MainActor
@Suite struct LabelPickerTests {
  @Test func typingNarrowsTheLabelsAndEnterPicksTheFirstMatch() throws {
    var harness = try BrowserHarness()
    harness.press(.character("l"))
    harness.type("doc")
    #expect(harness.lines.contains { $0.contains("Label: doc▏") })
    harness.press(.enter)
    #expect(harness.browser.state.filter.labels.first == "Docs")
    let cache = try BrowserHarness.betamax()
    #expect(
      Set(harness.browser.shownNumbers)
        == Set(try cache.listEntries(IssueFilter(labels: ["Docs"])).map(\.number)))
    // Escape clears what was typed, then closes; the label stays.
    harness.press(.character("l"))
    harness.type("zz")
    harness.press(.escape, .escape)
    #expect(harness.browser.state.filter.labels.first == "Docs")
    #expect(!harness.lines.contains { $0.contains("Label") && $0.contains("╭") })
  }
}

@MainActor
@Suite struct PreviewTests {
  @Test func theWheelOverThePreviewScrollsItAndANewIssueStartsAtTheTop() throws {
    var harness = try BrowserHarness(columns: 120, rows: 16)
    harness.press(.down, .down)  // #137, whose body is longer than the pane
    let top = harness.lines[3]
    _ = harness.browser.handle(.mouse(MouseEvent(.scrollDown, x: 100, y: 8)))
    harness.frame()
    #expect(harness.lines[3] != top)
    #expect(harness.lines[3].contains("#137") == false)
    harness.press(.down)
    #expect(harness.browser.focusedIssue.map { harness.lines[3].contains("#\($0.number)") } == true)
  }
}

@MainActor
@Suite struct PreparedPreviewTests {
  /// Property: a browser that renders previews ahead of the focus after every frame, as its host
  /// does, draws every frame as one that never does, whatever keys come.
  @Test func previewsRenderedAheadDrawWhatRenderingThemOnDemandDraws() throws {
    let seed: UInt64 = 52
    var rng = SplitMix64(seed: seed)
    var ahead = try BrowserHarness(columns: 130, rows: 24)
    var plain = try BrowserHarness(columns: 130, rows: 24)
    let keys: [Key] = [
      .up, .down, .down, .down, .left, .right, .enter, .escape, .pageDown, .pageUp, .home, .end,
      .tab, .character("s"), .character("j"), .character("k"), .character(" "),
    ]
    for step in 0..<400 {
      let key = keys[Int.random(in: 0..<keys.count, using: &rng)]
      ahead.press(key)
      plain.press(key)
      ahead.browser.prepareNextFrame()
      #expect(ahead.lines == plain.lines, "seed \(seed), step \(step), key \(key)")
    }
  }

  @Test func theRowsNextToTheFocusAndAChipsFirstRowAreRenderedAhead() throws {
    var harness = try BrowserHarness(columns: 130, rows: 24)
    let pane = harness.browser.listPane
    let width = harness.browser.geometry.previewTextWidth
    // Moved without drawing: the row the focus lands on has its preview only if it was rendered
    // ahead. Down crosses into the next section, up comes back.
    for key in [Key.down, .down, .down, .up] {
      harness.browser.prepareNextFrame()
      _ = harness.browser.handle(.key(KeyEvent(key)))
      let focused = try #require(pane.list.focusedItem)
      #expect(pane.previews.contains(focused, width: width), "after \(key)")
    }
    harness.frame()

    harness.press(.right, .right)
    let chip = try #require(pane.chips.focusedItem)
    harness.browser.prepareNextFrame()
    let first = try #require(pane.model.likelyFirstItem(under: chip))
    #expect(pane.previews.contains(first, width: width))
    harness.press(.enter)
    #expect(pane.list.focusedItem == first)
  }
}

@MainActor
@Suite struct LongBodyAheadTests {
  /// A neighbour whose body is longer than `longestBodyAhead` is not rendered ahead (the next
  /// key would wait for it), and still shows, whole, once the focus reaches it.
  @Test func aLongBodyIsRenderedOnlyWhenTheFocusReachesIt() throws {
    var update = try BundledDataset.load()
    // The row below the first (#40) is #52.
    let index = try #require(update.issues.firstIndex { $0.number == 52 })
    let line = "A pasted log line that goes on for a while, 0123456789.\n"
    let long = String(repeating: line, count: IssueListPane.longestBodyAhead / line.utf8.count + 2)
    update.issues[index].body = "The last words of a long paste\n\n" + long
    let cache = try IssueCache()
    try cache.apply(update)
    var harness = try BrowserHarness(columns: 130, rows: 24, cache: cache)
    let pane = harness.browser.listPane
    let width = harness.browser.geometry.previewTextWidth
    harness.browser.prepareNextFrame()
    _ = harness.browser.handle(.key(KeyEvent(.down)))
    let focused = try #require(pane.list.focusedItem)
    #expect(pane.model.number(of: focused) == 52)
    #expect(!pane.previews.contains(focused, width: width))
    harness.frame()
    #expect(harness.text.contains("The last words of a long paste"))
    #expect(pane.previews.contains(focused, width: width))
  }
}

@MainActor
@Suite struct EmptyContainerTests {
  /// A terminal reported as zero columns or rows (`stty rows 0`, a resize race) is a screen with
  /// nothing to draw: every key and every frame terminates, and growing again draws the browser.
  @Test(arguments: [(0, 5), (5, 0), (0, 0), (1, 1), (1, 0)])
  func zeroSizedScreensTakeEveryKey(columns: Int, rows: Int) throws {
    var harness = try BrowserHarness(columns: 60, rows: 20)
    harness.resize(columns: columns, rows: rows)
    for key: Key in [
      .down, .up, .right, .left, .pageDown, .pageUp, .end, .home, .enter, .escape,
      .character("s"), .character("l"), .character("?"), .character("/"), .character("G"),
    ] {
      harness.press(key)
      harness.press(.escape)
    }
    harness.resize(columns: 60, rows: 20)
    #expect(harness.lines.joined().contains("betamax"))
  }
}

@MainActor
@Suite struct OverlayTests {
  /// At every small size the label picker's list stays inside its border, and the border inside
  /// the screen.
  @Test(arguments: [(8, 6), (12, 7), (20, 8), (30, 10), (5, 20)])
  func theLabelPickerStaysInsideItsBorder(columns: Int, rows: Int) throws {
    var harness = try BrowserHarness(columns: columns, rows: rows)
    harness.press(.character("l"))
    let frame = harness.browser.labelPicker.view.frame
    if frame.width > 0 && frame.height > 0 {
      #expect(frame.x >= 1 && frame.y >= 1)
      #expect(frame.x + frame.width <= columns - 1)
      #expect(frame.y + frame.height <= rows - 1)
    }
  }

  /// On a wide terminal the keys' help shows every line whole.
  @Test func theHelpUsesAWideTerminal() throws {
    var harness = try BrowserHarness(columns: 160, rows: 40)
    harness.press(.character("?"))
    #expect(harness.lines.contains { $0.contains("filter by label (type to narrow, Enter picks)") })
  }
}
