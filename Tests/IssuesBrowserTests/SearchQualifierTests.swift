import Foundation
import GitHubIssues
@testable import IssuesBrowser
import Testing
import TrellisTerminal

/// The search field reads GitHub's qualifiers, and `@me` waits for the host to say who it is.
@MainActor
@Suite struct SearchQualifierTests {
  @Test func qualifiersNarrowTheListAndTheChipCounts() throws {
    var harness = try BrowserHarness()
    harness.press(.character("s"), .character("s"))  // open + closed
    harness.press(.character("/"))
    harness.type("assignee:HRONCOK")
    harness.press(.enter)
    let cache = try BrowserHarness.betamax()
    let expected = try cache.listEntries(IssueFilter(state: .all, assignee: "hroncok"))
    #expect(expected.count == 3)
    #expect(Set(harness.browser.shownNumbers) == Set(expected.map(\.number)))
    #expect(harness.browser.listPane.model.chipCounts[.all] == 3)
  }

  /// Every qualifier of the language works in `/`, and a written `sort:` orders the list and
  /// says so in the filter line.
  @Test func theWholeLanguageNarrowsAndSortsTheList() throws {
    var harness = try BrowserHarness()
    harness.press(.character("s"), .character("s"))  // open + closed
    harness.press(.character("/"))
    harness.type("no:assignee -label:bug sort:created-asc")
    harness.press(.enter)
    let cache = try BrowserHarness.betamax()
    let query = try SearchQuery(parsing: "no:assignee -label:bug sort:created-asc")
    let expected = try #require(query.applied(to: IssueFilter(state: .all), me: nil))
    let numbers = try cache.listEntries(expected).map(\.number)
    #expect(!numbers.isEmpty)
    #expect(harness.browser.listPane.model.chipCounts[.all] == numbers.count)
    #expect(Set(harness.browser.shownNumbers) == Set(numbers))
    #expect(harness.lines.contains { $0.contains("sort:created-asc") })
  }

  @Test func meIsAskedOfTheHostOnceAndTheListWaitsForIt() throws {
    var harness = try BrowserHarness()
    harness.press(.character("s"), .character("s"))
    harness.press(.character("/"))
    harness.type("author:@me")
    let effects = harness.press(.enter)
    #expect(effects == [.lookUpViewer])
    #expect(harness.browser.shownNumbers.isEmpty)
    #expect(harness.lines.contains { $0.contains("Asking GitHub who @me is") })
    // Typing more does not ask again while the answer is on its way.
    harness.press(.character("/"))
    harness.type(" x")
    #expect(harness.press(.backspace, .backspace, .enter).isEmpty)

    harness.browser.setViewer(.success("bboe"))
    harness.frame()
    let cache = try BrowserHarness.betamax()
    let expected = try cache.listEntries(IssueFilter(state: .all, author: "bboe"))
    #expect(expected.count == 5)
    #expect(Set(harness.browser.shownNumbers) == Set(expected.map(\.number)))
  }

  @Test func aFailedLookupSaysWhyAndAsksAgainOnTheNextSearch() throws {
    var harness = try BrowserHarness()
    harness.press(.character("/"))
    harness.type("assignee:@me")
    #expect(harness.press(.enter) == [.lookUpViewer])
    harness.browser.setViewer(.failure(HostFailure("there is no token")))
    harness.frame()
    #expect(harness.lines.contains { $0.contains("Could not tell who @me is: there is no token") })
    harness.press(.character("/"))
    harness.type(" bug")
    #expect(harness.press(.enter) == [.lookUpViewer])
  }
}
