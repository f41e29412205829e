import GitHubIssues
import Testing
import TrellisTestSupport

@Suite struct SearchQueryTests {
  @Test func botsAreNamedAsGhNamesThem() {
    #expect(SearchQuery.actorLogin("octocat") == "octocat")
    #expect(SearchQuery.actorLogin("@me") == "@me")
    #expect(SearchQuery.actorLogin("dependabot[bot]") == "dependabot[bot]")
    #expect(SearchQuery.actorLogin("app/dependabot") == "dependabot[bot]")
    for bad in ["app/", "[bot]", "app/@me", "@me[bot]", "a b", "app/-x", "x[bot][bot]"] {
      #expect(SearchQuery.actorLogin(bad) == nil, "\(bad)")
    }
    #expect(SearchQuery(parsing: "crash author:app/github-actions").author == "github-actions[bot]")
  }

  @Test func qualifiersAndWords() {
    let query = SearchQuery(
      parsing: #"  crash Assignee:@me label:bug label:"good first issue" author:octo-cat on  start"#
    )
    #expect(query.words == ["crash", "on", "start"])
    #expect(query.assignee == "@me")
    #expect(query.author == "octo-cat")
    #expect(query.labels == ["bug", "good first issue"])
    #expect(query.mentionsMe)
  }

  @Test func whatIsNotAQualifierIsAWordNeverDropped() {
    for token in [
      "assignee:", "assignee:x;y", "author:-bad", "mentions:a--b", "label:", "foo:bar", "http://x",
      "assignee:\(String(repeating: "a", count: 40))",
    ] {
      let query = SearchQuery(parsing: token)
      #expect(query.words == [token], "\(token)")
      #expect(query.assignee == nil && query.author == nil && query.labels.isEmpty)
    }
  }

  @Test func meIsResolvedOrTheFilterWaits() {
    let query = SearchQuery(parsing: "author:@me bug")
    #expect(query.applied(to: IssueFilter(), me: nil) == nil)
    let filter = query.applied(to: IssueFilter(labels: ["x"]), me: "octocat")
    #expect(filter?.author == "octocat")
    #expect(filter?.text == "bug")
    #expect(filter?.labels == ["x"])
  }

  /// Property: writing a query and reading it back gives the same query.
  @Test func writingAndReadingRoundTrips() {
    let seed: UInt64 = 2_026
    var rng = SplitMix64(seed: seed)
    let logins = ["a", "octo-cat", "B0b", "@me", "x-1-y"]
    let labels = ["bug", "good first issue", "ui:web", "p1", "wont fix"]
    let words = ["crash", "on", "start", "über", "a-b", "x"]
    func pick<T>(_ values: [T]) -> T { values[Int.random(in: 0..<values.count, using: &rng)] }
    for round in 0..<2_000 {
      var query = SearchQuery()
      query.words = (0..<Int.random(in: 0...3, using: &rng)).map { _ in pick(words) }
      query.labels = (0..<Int.random(in: 0...3, using: &rng)).map { _ in pick(labels) }
      if Bool.random(using: &rng) { query.assignee = pick(logins) }
      if Bool.random(using: &rng) { query.author = pick(logins) }
      if Bool.random(using: &rng) { query.mention = pick(logins) }
      #expect(
        SearchQuery(parsing: query.text) == query, "seed \(seed), round \(round): \(query.text)")
    }
  }
}
