import Foundation
import GitHubIssues
import GitHubTestSupport
import Testing

/// A repository's templates brought into its cache through the contents API: listed with an
/// entity tag, read file by file only when a file changed, kept for offline use.
@Suite(.serialized) struct IssueTemplateFetcherTests {
  let acme = RepositoryName(owner: "acme", name: "tracker")

  private func setUp() async throws -> (LocalGitHub, IssueTemplateFetcher, IssueCache) {
    let github = try await LocalGitHub.start()
    var client = GitHubClient(
      host: await github.host, token: "test-token", transport: HTTPClientTransport(timeout: 5))
    client.initialBackoff = .milliseconds(1)
    client.maximumRetries = 0
    let cache = try IssueCache()
    return (github, IssueTemplateFetcher(client: client, cache: cache, repository: acme), cache)
  }

  private func contentRequests(_ github: LocalGitHub) async -> [String] {
    await github.requests.map(\.target).filter { $0.contains("/contents/") }
  }

  @Test func aRealFolderIsReadOnceThenAnsweredNotModified() async throws {
    let (github, fetcher, cache) = try await setUp()
    defer { Task { await github.stop() } }
    let yazi = try #require(try Fixtures.issueTemplateFolders()["sxyazi__yazi"])
    try await github.serveIssueTemplates(yazi, of: acme)
    #expect(try cache.issueTemplates() == nil)

    let first = try await fetcher.fetch()
    #expect(first == IssueTemplates(files: yazi))
    #expect(first.templates.map(\.file) == ["bug.yml", "feature.yml"])
    // The listing, then each file.
    #expect(await contentRequests(github).count == 1 + yazi.count)

    let second = try await fetcher.fetch()
    #expect(second == first)
    // One conditional listing, answered 304.
    #expect(await contentRequests(github).count == 2 + yazi.count)
    #expect(try cache.issueTemplates()?.templates == first)
  }

  @Test func onlyChangedFilesAreReadAgainAndRemovedOnesAreForgotten() async throws {
    let (github, fetcher, cache) = try await setUp()
    defer { Task { await github.stop() } }
    let bug = ("bug.md", "---\nname: Bug\nabout: A bug\n---\nWhat happened?\n")
    let feature = ("feature.md", "---\nname: Feature\nabout: An idea\n---\n")
    try await github.serveIssueTemplates([bug, feature], of: acme)
    _ = try await fetcher.fetch()
    let before = await contentRequests(github).count

    let changedBug = ("bug.md", "---\nname: Bug\nabout: A bug\n---\nSteps?\n")
    let question = ("question.md", "---\nname: Question\nabout: Ask\n---\n")
    try await github.serveIssueTemplates([changedBug, question], of: acme)
    let read = try await fetcher.fetch()
    #expect(read.templates.map(\.name) == ["Bug", "Question"])
    #expect(read.template(named: "Bug")?.content == .markdown("Steps?\n"))
    let after = await contentRequests(github)
    // The listing and the two new files; feature.md is gone, not read.
    #expect(
      after.dropFirst(before) == [
        "/repos/acme/tracker/contents/.github/ISSUE_TEMPLATE",
        "/repos/acme/tracker/contents/.github/ISSUE_TEMPLATE/bug.md",
        "/repos/acme/tracker/contents/.github/ISSUE_TEMPLATE/question.md",
      ])
    #expect(try cache.issueTemplateSHAs().keys.sorted() == ["bug.md", "question.md"])
  }

  @Test func aRepositoryWithoutTheFolderHasNoTemplates() async throws {
    let (github, fetcher, cache) = try await setUp()
    defer { Task { await github.stop() } }
    try await github.serveIssueTemplates([("bug.md", "---\nname: B\nabout: b\n---\n")], of: acme)
    _ = try await fetcher.fetch()
    try await github.serveIssueTemplates(nil, of: acme)
    #expect(try await fetcher.fetch() == IssueTemplates())
    #expect(try cache.issueTemplates()?.templates == IssueTemplates())
  }

  @Test func aFailureLeavesTheKeptTemplatesForOfflineUse() async throws {
    let (github, fetcher, cache) = try await setUp()
    defer { Task { await github.stop() } }
    let bug = ("bug.md", "---\nname: Bug\nabout: A bug\n---\n")
    try await github.serveIssueTemplates([bug], of: acme)
    let kept = try await fetcher.fetch()
    try await github.serveIssueTemplates(
      [bug, ("new.md", "---\nname: New\nabout: Something new\n---\n")], of: acme)
    await github.inject(
      .status(502), path: "/repos/acme/tracker/contents/.github/ISSUE_TEMPLATE/new.md")
    await #expect(throws: GitHubError.self) { try await fetcher.fetch() }
    #expect(try cache.issueTemplates()?.templates == kept)
    // The listing's entity tag was not kept without its files: the next read lists again.
    let read = try await fetcher.fetch()
    #expect(read.templates.map(\.name) == ["Bug", "New"])
  }
}
