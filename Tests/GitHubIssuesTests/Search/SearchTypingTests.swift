import GitHubIssues
import Testing
import TrellisTestSupport

/// The search as it is typed (the browser's `/`) and as it narrows one repository's list
/// (`issues list -S`): the same language, leniently read.
@Suite struct SearchTypingTests {
  @Test func botsAreNamedAsGhNamesThem() throws {
    #expect(SearchQuery.actorLogin("octocat") == "octocat")
    #expect(SearchQuery.actorLogin("@me") == "@me")
    #expect(SearchQuery.actorLogin("dependabot[bot]") == "dependabot[bot]")
    #expect(SearchQuery.actorLogin("app/dependabot") == "dependabot[bot]")
    for bad in ["app/", "[bot]", "app/@me", "@me[bot]", "a b", "app/-x", "x[bot][bot]"] {
      #expect(SearchQuery.actorLogin(bad) == nil, "\(bad)")
    }
    #expect(
      try SearchQuery(parsing: "crash author:app/github-actions").terms.last
        == QueryTerm(.author(.login("github-actions[bot]"))))
  }

  @Test func typingReadsEveryQualifier() {
    let query = SearchQuery(
      typing: #"  crash Assignee:@me label:bug -label:"good first issue" no:milestone is:closed"#)
    #expect(
      query.terms == [
        QueryTerm(.text("crash")), QueryTerm(.assignee(.me)), QueryTerm(.label(anyOf: ["bug"])),
        QueryTerm(.label(anyOf: ["good first issue"]), .exclude),
        QueryTerm(.missing(.milestone)), QueryTerm(.state(.closed)),
      ])
    #expect(query.mentionsMe)
  }

  /// What does not read yet is searched for as words: nothing typed is dropped or an error.
  @Test func anUnfinishedTermIsAWord() {
    for (typed, words) in [
      ("assignee:", ["assignee:"]), ("author:-bad", ["author:-bad"]), ("is:clo", ["is:clo"]),
      ("lable:bug", ["lable:bug"]), (#"crash "on st"#, ["crash", "on", "st"]),
      ("a OR b", ["a", "b"]), ("sort:stars", ["sort:stars"]),
    ] {
      let query = SearchQuery(typing: typed)
      #expect(query.terms == words.map { QueryTerm(.text($0)) }, "\(typed)")
    }
    // An unfinished excluded qualifier excludes its words, not a word with the `-`.
    #expect(
      SearchQuery(typing: "-lable:bug").terms == [QueryTerm(.text("lable:bug"), .exclude)])
    // Random text never traps.
    let seed: UInt64 = 0x7A_11F6
    print("SearchTypingTests seed \(seed)")
    var random = SplitMix64(seed: seed)
    let alphabet = Array(#"ab -:"NOT,.<>=*@/12 \#t"#)
    for _ in 0..<3_000 {
      let text = String(
        (0..<Int(random.next() % 24)).map { _ in
          alphabet[Int(random.next() % UInt64(alphabet.count))]
        })
      _ = SearchQuery(typing: text)
    }
  }

  @Test func meIsResolvedOrTheFilterWaits() throws {
    let query = try SearchQuery(parsing: "author:@me bug -label:wontfix sort:comments-asc")
    #expect(query.applied(to: IssueFilter(), me: nil) == nil)
    let filter = try #require(
      query.applied(to: IssueFilter(labels: ["x"], text: "old"), me: "octo"))
    #expect(
      filter.terms == [
        QueryTerm(.author(.login("octo"))), QueryTerm(.text("bug")),
        QueryTerm(.label(anyOf: ["wontfix"]), .exclude),
      ])
    #expect(filter.text == nil)
    #expect(filter.labels == ["x"])
    #expect(filter.sort == .comments)
    #expect(filter.direction == .ascending)
    // Scope terms are left to the repository the list is of.
    let scoped = try SearchQuery(parsing: "repo:a/b crash").applied(to: IssueFilter(), me: nil)
    #expect(scoped?.terms == [QueryTerm(.text("crash"))])
  }
}
