import Foundation
import GitHubIssues
import GitHubTestSupport
import Testing

/// Decoding every era of recorded responses.
@Suite struct ModelDecodingTests {
  private func issues(_ recording: String) throws -> [GitHubIssue] {
    try Fixtures.bodies(recording).flatMap {
      try GitHubJSON.decoder.decode([GitHubIssue].self, from: $0)
    }
  }

  @Test(
    arguments: [
      (#""sub_issues_summary": {"total": 5, "completed": 2, "percent_completed": 40}"#, 5, 2),
      (#""sub_issues_summary": null"#, nil, nil),
      (#""sub_issues_summary": "five""#, nil, nil),
      (#""sub_issues_summary": {"total": null, "completed": 3}"#, 0, 0),
      (#""sub_issues_summary": {"total": -4, "completed": 9}"#, 0, 0),
      (#""sub_issues_summary": {"total": 3, "completed": 9}"#, 3, 3),
    ] as [(String, Int?, Int?)])
  func aSubIssueSummaryIsReadLeniently(field: String, total: Int?, completed: Int?) throws {
    let json = #"""
      {"id": 1, "number": 7, "title": "t", "state": "open", "created_at": "2024-01-01T00:00:00Z",
       "updated_at": "2024-01-02T00:00:00Z", \#(field)}
      """#
    let issue = try GitHubJSON.decoder.decode(GitHubIssue.self, from: Data(json.utf8))
    #expect(issue.subIssues?.total == total)
    #expect(issue.subIssues?.completed == completed)
  }

  @Test func hub4jClosedIssuesAre243IssuesAnd363PullRequests() throws {
    let items = try issues("hub4j__github_api_closed_issues_21_pages.json")
    #expect(items.count == 606)
    #expect(items.filter(\.isPullRequest).count == 363)
    #expect(items.allSatisfy { $0.state == .closed })
  }

  @Test func betamaxHas150ItemsWith19InFourMilestones() throws {
    let items = try issues("github3py__betamax_issues_state_all.json")
    #expect(items.count == 150)
    #expect(items.filter { !$0.isPullRequest }.count == 83)
    #expect(items.filter { $0.milestone != nil }.count == 19)
    #expect(Set(items.compactMap(\.milestone?.number)).count == 4)
  }

  @Test func modernFieldsAndNormalizedFixturesDecode() throws {
    let items = try issues("octokit_fixtures__paginate_issues.json")
    #expect(items.count == 13)
    let search = try Fixtures.bodies("github3py__search_issues_bug_label.json").first ?? Data()
    struct SearchResult: Decodable { var items: [GitHubIssue] }
    let found = try GitHubJSON.decoder.decode(SearchResult.self, from: search).items
    #expect(found.count == 57)
    #expect(found.contains { $0.title == "新版本的问题" })
  }

  @Test func milestonesOfEveryEraDecode() throws {
    let kcc = try GitHubJSON.decoder.decode(
      [GitHubMilestone].self, from: Fixtures.data("kcc__milestones_48.json"))
    #expect(kcc.count == 48)
    #expect(kcc.filter { $0.state == .open }.count == 8)
    #expect(kcc.filter { $0.dueOn != nil }.count == 34)
    let old = try Fixtures.bodies("github3py__github3py_milestones.json").first ?? Data()
    #expect(try GitHubJSON.decoder.decode([GitHubMilestone].self, from: old).count == 6)
  }

  @Test func onlyTheEssentialFieldsAreRequired() throws {
    let minimal = """
      [{"id": 1, "number": 2, "title": "t", "state": "open", "user": {"login": "a", "id": 3}, "labels": [],
        "created_at": "2020-01-01T00:00:00Z", "updated_at": "2020-01-02T00:00:00Z", "brand_new_field": {"x": 1}}]
      """
    let issue = try #require(
      try GitHubJSON.decoder.decode([GitHubIssue].self, from: Data(minimal.utf8)).first)
    #expect(issue.comments == 0)
    #expect(issue.milestone == nil)
    #expect(!issue.isPullRequest)
  }

  @Test func oneBadItemIsSkippedWithItsNumberAndFieldAndThePageKeepsTheRest() async throws {
    let body = """
      [{"id": 1, "number": 2, "state": "open", "labels": [],
        "created_at": "2020-01-01T00:00:00Z", "updated_at": "2020-01-02T00:00:00Z"},
       {"id": 3, "number": 4, "title": "kept", "state": "open", "user": null, "labels": ["bug"],
        "assignees": null, "milestone": null, "body": null, "closed_at": null,
        "created_at": "2020-01-01T00:00:00Z", "updated_at": "2020-01-02T00:00:00Z"}]
      """
    let transport = FakeTransport { _ in HTTPResponse(status: 200, body: Data(body.utf8)) }
    let client = GitHubClient(host: .github, transport: transport)
    var pages = client.issuePages(of: RepositoryName(owner: "o", name: "r"), query: IssueQuery())
      .makeAsyncIterator()
    let page = try #require(try await pages.next())
    #expect(page.items.map(\.number) == [4])
    #expect(page.items.first?.user == .ghost)
    #expect(page.items.first?.labels.map(\.name) == ["bug"])
    #expect(page.skipped == [SkippedItem(id: 1, number: 2, reason: "field `title`: missing")])
  }

  @Test func aBodyThatIsNoListNamesTheURL() async throws {
    let transport = FakeTransport { _ in HTTPResponse(status: 200, body: Data("{}".utf8)) }
    let client = GitHubClient(host: .github, transport: transport)
    var pages = client.issuePages(of: RepositoryName(owner: "o", name: "r"), query: IssueQuery())
      .makeAsyncIterator()
    do {
      _ = try await pages.next()
      Issue.record("expected a decoding error")
    } catch {
      #expect(error.code == .decoding)
      #expect(error.url.hasPrefix("https://api.github.com/repos/o/r/issues?"))
    }
  }
}
