import Foundation
import GitHubIssues
@testable import IssuesBrowser
import Testing

/// The browser's value model, without a terminal, a cache or a view.
@Suite struct BrowserStateTests {
  static let start = Date(timeIntervalSince1970: 1_800_000_000)

  @Test func whatEachFilterChangeReloads() {
    var state = BrowserState()
    #expect(state.cycleState() == .countsAndList)
    #expect(state.filter.state == .closed)
    #expect(state.cycleSort() == .list)
    #expect(state.filter.sort == .created)
    #expect(state.togglePullRequests() == .countsAndList)
    #expect(state.filter.kind == .both)
    // The chip narrows the list; the counts stay. Selecting it again changes nothing.
    #expect(state.select(.number(3)) == .chip)
    #expect(state.select(.number(3)) == .nothing)
    #expect(state.filter.milestone == .number(3))
  }

  @Test func aSearchAppliesOnceTypingPauses() {
    var state = BrowserState()
    state.beginSearch()
    state.type("cr", now: Self.start)
    state.type("ash", now: Self.start.addingTimeInterval(0.1))
    // 0.11 s after the first keys, but only 0.01 s after the last: still typing.
    #expect(state.tick(now: Self.start.addingTimeInterval(0.11)) == .nothing)
    #expect(state.filter.text == nil)
    #expect(state.searchDeadline == Self.start.addingTimeInterval(0.1 + state.searchDelay))
    #expect(state.tick(now: Self.start.addingTimeInterval(0.14)) == .countsAndList)
    #expect(state.filter.text == "crash")
    #expect(state.mode == .searching)
    // Nothing pending: later ticks change nothing.
    #expect(state.tick(now: Self.start.addingTimeInterval(1)) == .nothing)
  }

  @Test func aPasteWhileBrowsingOpensTheSearchWithoutLineBreaks() {
    var state = BrowserState()
    state.type("two\nlines\r\n", now: Self.start)
    #expect(state.mode == .searching)
    #expect(state.searchDraft == "twolines")
    #expect(state.commitSearch() == .countsAndList)
    #expect(state.filter.text == "twolines")
    #expect(state.mode == .browsing)
  }

  @Test func aSearchHoldsABoundedNumberOfCharactersAndSaysWhenAPasteWasCut() {
    var state = BrowserState()
    let limit = BrowserState.maximumSearchLength
    state.type("한글 ", now: Self.start)
    #expect(state.flash == nil)
    state.type(String(repeating: "abcd\n", count: 400_000), now: Self.start)
    #expect(state.searchDraft.count == limit)
    #expect(state.searchDraft.hasPrefix("한글 abcdabcd"))
    #expect(state.flash?.text.contains("\(limit) characters") == true)
    // Typing at the limit adds nothing; erasing makes room again.
    state.type("x", now: Self.start)
    #expect(state.searchDraft.count == limit)
    state.eraseSearch(now: Self.start)
    state.type("xy", now: Self.start)
    #expect(state.searchDraft.count == limit && state.searchDraft.hasSuffix("x"))
    state.typeLabelQuery(String(repeating: "l", count: 10_000), now: Self.start)
    #expect(state.labelQuery.count == limit)
  }

  @Test func blankSearchesClearAndEscapeCancels() {
    var state = BrowserState()
    state.beginSearch()
    state.type("  bug ", now: Self.start)
    #expect(state.commitSearch() == .countsAndList)
    #expect(state.filter.text == "bug")
    // Reopening starts from the current search; erasing it all and committing clears it.
    state.beginSearch()
    #expect(state.searchDraft == "bug")
    state.eraseSearch(all: true, now: Self.start)
    state.type("   ", now: Self.start)
    #expect(state.commitSearch() == .countsAndList)
    #expect(state.filter.text == nil)
    state.beginSearch()
    state.type("x", now: Self.start)
    state.eraseSearch(now: Self.start)
    state.eraseSearch(now: Self.start)  // nothing left to erase
    #expect(state.searchDraft == "")
    #expect(state.cancelSearch() == .nothing)
  }

  @Test func escapeClearsSearchAndLabelOnlyWhenThereAreSome() {
    var state = BrowserState()
    #expect(state.clearFilters() == .nothing)
    #expect(state.pick(label: "bug") == .countsAndList)
    #expect(state.pick(label: "bug") == .nothing)
    state.filter.text = "crash"
    #expect(state.clearFilters() == .countsAndList)
    #expect(state.filter.labels.isEmpty && state.filter.text == nil)
  }

  @Test func messagesExpireAfterFourSeconds() {
    var state = BrowserState()
    state.show(message: "Copied", now: Self.start)
    _ = state.tick(now: Self.start.addingTimeInterval(3.9))
    #expect(state.flash?.text == "Copied")
    _ = state.tick(now: Self.start.addingTimeInterval(4))
    #expect(state.flash == nil)
  }

  @Test func scrollingStaysBetweenTheTopAndTheLastScreen() {
    var state = BrowserState()
    state.scrollPreview(by: 30, lineCount: 25, height: 10)
    #expect(state.previewOffset == 15)
    state.scrollPreview(by: -100, lineCount: 25, height: 10)
    #expect(state.previewOffset == 0)
  }
}
