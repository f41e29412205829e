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
      host: await github.host, token: "test-token",
      transport: HTTPClientTransport(timeout: LocalGitHub.patientTimeout))
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

  /// A hostile contents server is read only for what it proves.
  ///
  /// A file listed at 2 MB is never asked for; a file whose bytes are not the size announced,
  /// or not UTF-8, is refused and reported; entries outside the folder (a path elsewhere, a name with a slash, a folder, a symlink) are never read. The
  /// good files are read, and a refused file's earlier version is kept.
  @Test func aHostileContentsServerIsReadOnlyForWhatItProves() async throws {
    let (github, fetcher, cache) = try await setUp()
    defer { Task { await github.stop() } }
    let root = "/repos/acme/tracker/contents/"
    let folder = IssueTemplates.folder
    let good = "---\nname: Good\nabout: Fine\n---\nBody\n"
    let old = "---\nname: Liar\nabout: Before it lied\n---\n"
    try await github.serveIssueTemplates([("good.md", good), ("liar.md", old)], of: acme)
    #expect(try await fetcher.fetch().templates.map(\.name) == ["Good", "Liar"])

    func entry(_ name: String, path: String? = nil, size: Int, type: String = "file")
      -> [String: Any]
    {
      [
        "name": name, "path": path ?? folder + "/" + name, "sha": "sha-\(name)-2", "size": size,
        "type": type,
      ]
    }
    func file(_ name: String, bytes: Data, size: Int) throws -> Data {
      try JSONSerialization.data(withJSONObject: [
        "name": name, "path": folder + "/" + name, "sha": "sha-\(name)-2", "size": size,
        "type": "file", "encoding": "base64", "content": bytes.base64EncodedString(),
      ])
    }
    let listing: [[String: Any]] = [
      entry("good.md", size: good.utf8.count).merging(["sha": "unchanged"]) { $1 },
      entry("big.yml", size: 2_000_000),
      entry("liar.md", size: 10),
      entry("latin.md", size: 4),
      entry("escape.yml", path: "secrets/escape.yml", size: 10),
      entry("../up.yml", path: folder + "/../up.yml", size: 10),
      entry("sub.yml", size: 0, type: "dir"),
      entry("link.yml", size: 10, type: "symlink"),
    ]
    await github.serve(
      root + folder, body: try JSONSerialization.data(withJSONObject: listing), etag: "\"v2\"")
    await github.serve(
      root + folder + "/liar.md",
      body: try file("liar.md", bytes: Data(repeating: 0x41, count: 20), size: 10))
    await github.serve(
      root + folder + "/latin.md",
      body: try file("latin.md", bytes: Data([0x63, 0x61, 0x66, 0xE9]), size: 4))
    // The good file is read again (its SHA changed), as served.
    await github.serve(
      root + folder + "/good.md",
      body: try file("good.md", bytes: Data(good.utf8), size: good.utf8.count))
    let before = await github.requests.count

    let read = try await fetcher.fetch()
    let asked = await github.requests.dropFirst(before).map(\.target)
    #expect(asked.count == 4, "\(asked)")
    #expect(
      !asked.contains {
        $0.contains("big.yml") || $0.contains("escape") || $0.contains("up.yml")
          || $0.contains("sub.yml") || $0.contains("link.yml")
      })
    #expect(read.templates.map(\.name) == ["Good", "Liar"])
    #expect(read.templates.first { $0.name == "Liar" }?.about == "Before it lied")
    let problems = read.problems.map(\.description)
    #expect(problems.count == 3, "\(problems)")
    #expect(
      problems.contains { $0.hasPrefix(folder + "/big.yml:1:1: not read: it is 2000000 bytes") })
    #expect(
      problems.contains {
        $0.contains("liar.md") && $0.contains("10 bytes announced") && $0.contains("is kept")
      })
    #expect(problems.contains { $0.contains("latin.md") && $0.contains("not UTF-8") })
    #expect(try cache.issueTemplates()?.templates.templates.map(\.name) == ["Good", "Liar"])
  }
}
