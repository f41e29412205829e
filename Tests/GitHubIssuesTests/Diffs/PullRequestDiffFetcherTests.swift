import Foundation
@testable import GitHubIssues
import GitHubTestSupport
import Testing

/// A pull request's files read into the cache: every page, patches GitHub dropped for size
/// found in its whole diff, binary, renamed and removed files said as such, a push read again.
@Suite(.serialized) struct PullRequestDiffFetcherTests {
  let acme = RepositoryName(owner: "acme", name: "tracker")

  private func setUp() async throws -> (LocalGitHub, PullRequestDiffFetcher, IssueCache, Int) {
    let github = try await LocalGitHub.start()
    try await github.serve(
      synthetic: SyntheticRepository(itemCount: 40, milestoneCount: 2, seed: 5), as: acme)
    var client = GitHubClient(
      host: await github.host, token: "test-token", transport: HTTPClientTransport(timeout: 60))
    client.initialBackoff = .milliseconds(1)
    client.maximumRetries = 0
    let cache = try IssueCache()
    var pull: Int?
    for number in 1...40 where pull == nil {
      if await github.issue(number: number, in: acme)?.isPullRequest == true { pull = number }
    }
    return (
      github, PullRequestDiffFetcher(client: client, cache: cache, repository: acme), cache,
      try #require(pull)
    )
  }

  /// `lines` changed lines: a hunk of that many additions.
  static func patch(adding lines: Int, tag: String) -> String {
    "@@ -0,0 +1,\(lines) @@\n" + (1...lines).map { "+\(tag) line \($0)" }.joined(separator: "\n")
  }

  @Test func aThousandFilesAreReadWithDroppedPatchesFoundAndOddFilesSaid() async throws {
    let (github, fetcher, cache, number) = try await setUp()
    defer { Task { await github.stop() } }
    // 1,000 files, 50,000 changed lines.
    var files = (0..<996).map { index in
      PullRequestFile(
        path: "Sources/File\(index).swift", status: "added", additions: 50, deletions: 0,
        patch: Self.patch(adding: 50, tag: "f\(index)"))
    }
    files += [
      PullRequestFile(
        path: "Big.swift", status: "modified", additions: 200, deletions: 0,
        patch: Self.patch(adding: 200, tag: "big")),
      PullRequestFile(path: "logo.png", status: "modified", additions: 0, deletions: 0, patch: nil),
      PullRequestFile(
        path: "New/Name.swift", previousPath: "Old/Name.swift", status: "renamed", additions: 0,
        deletions: 0, patch: nil),
      PullRequestFile(
        path: "Gone.swift", status: "removed", additions: 0, deletions: 2,
        patch: "@@ -1,2 +0,0 @@\n-a\n-b"),
    ]
    await github.servePullRequestFiles(
      files, ofPullRequest: number, in: acme, head: String(repeating: "a", count: 40),
      dropped: ["Big.swift"], binary: ["logo.png"])
    let before = await github.requests.count

    let diff = try await fetcher.fetch(number)
    let asked = await github.requests.dropFirst(before).map(\.target)
    // The pull request, ten pages of files with the pull request read again after each (no
    // push or retarget meanwhile), the whole diff once (each file's header, and the two
    // without a patch), the pull request once more, and the issue, which no sync brought into
    // this cache.
    #expect(asked.count == 24, "\(asked)")  // 1 + 10 × 2 + 1 + 1 + 1
    #expect(asked.last == "/repos/acme/tracker/issues/\(number)")
    #expect(try cache.issue(number: number)?.isPullRequest == true)
    #expect(diff.files.count == 1_000 && diff.announcedFiles == 1_000)
    #expect(diff.files.map(\.path) == files.map(\.path))
    let byPath = Dictionary(uniqueKeysWithValues: diff.files.map { ($0.path, $0) })
    // Dropped for size: found in the whole diff, counted from it.
    #expect(byPath["Big.swift"]?.content == .patch(Self.patch(adding: 200, tag: "big") + "\n"))
    #expect(byPath["Big.swift"]?.additions == 200)
    #expect(byPath["logo.png"]?.content == .binary)
    #expect(byPath["New/Name.swift"]?.content == .noTextChanges)
    #expect(byPath["New/Name.swift"]?.previousPath == "Old/Name.swift")
    #expect(byPath["Gone.swift"]?.status == "removed")
    let lines = diff.files.compactMap { file -> Int? in
      guard case .patch(let text) = file.content else { return nil }
      return try? Patch(parsing: text).changeCount.additions
    }.reduce(0, +)
    #expect(lines == 996 * 50 + 200)
    // Kept: read offline as it was.
    #expect(try cache.pullRequestDiff(number) == diff)

    // The same head: nothing read but the pull request.
    let again = await github.requests.count
    #expect(try await fetcher.fetch(number) == diff)
    #expect(await github.requests.count - again == 1)
  }

  @Test func aPushIsReadAgainAndATooLargeDiffLeavesDroppedPatchesSaid() async throws {
    let (github, fetcher, cache, number) = try await setUp()
    defer { Task { await github.stop() } }
    let first = [
      PullRequestFile(
        path: "a.swift", status: "modified", additions: 1, deletions: 0,
        patch: "@@ -1 +1,2 @@\n a\n+b")
    ]
    await github.servePullRequestFiles(
      first, ofPullRequest: number, in: acme, head: String(repeating: "1", count: 40))
    #expect(try await fetcher.fetch(number).files.count == 1)

    // Force-pushed: another head, other files; one dropped, and the whole diff refused.
    let second =
      first + [
        PullRequestFile(
          path: "huge.json", status: "added", additions: 9, deletions: 0,
          patch: Self.patch(adding: 9, tag: "j"))
      ]
    await github.servePullRequestFiles(
      second, ofPullRequest: number, in: acme, head: String(repeating: "2", count: 40),
      dropped: ["huge.json"], diffTooLarge: true)
    let diff = try await fetcher.fetch(number)
    #expect(diff.headSHA == String(repeating: "2", count: 40))
    #expect(diff.files.map(\.path) == ["a.swift", "huge.json"])
    guard case .unavailable(let reason) = diff.files[1].content else {
      Issue.record("a dropped patch shown as \(diff.files[1].content)")
      return
    }
    #expect(reason.contains("too large"))
    #expect(try cache.pullRequestDiff(number)?.headSHA == diff.headSHA)
    // What a person reads says so, never an empty change.
    #expect(diff.files[1].gitText.contains("changes not available"))
  }

  /// A branch name from GitHub that git would refuse (`..`, an empty or dotted segment) never
  /// reaches a request: a `DELETE` with `..` in its path could reach another resource.
  @Test func aBranchNameGitWouldRefuseIsNeverSent() async throws {
    let (github, fetcher, _, _) = try await setUp()
    defer { Task { await github.stop() } }
    let before = await github.requests.count
    for name in ["../../../../repos/acme/other", "a//b", ".hidden", "x.lock", "", "a\u{1B}b"] {
      await #expect(throws: GitHubError.self) {
        try await fetcher.client.deleteBranch(name, in: acme)
      }
      await #expect(throws: GitHubError.self) {
        _ = try await fetcher.client.hasBranch(name, in: acme)
      }
    }
    #expect(await github.requests.count == before)
    // A name with slashes, as branches have, goes as one path.
    try await fetcher.client.deleteBranch("feature/x", in: acme)
    #expect(await github.deletedBranches == ["feature/x"])
  }

  /// A push between two pages of the files, or an item served with its name nulled: nothing is
  /// kept, and the next read (the push over) keeps the new head's files whole.
  @Test func aPushMidListingOrANulledFileKeepsNothing() async throws {
    let (github, fetcher, cache, number) = try await setUp()
    defer { Task { await github.stop() } }
    func files(_ tag: String, _ count: Int) -> [PullRequestFile] {
      (0..<count).map {
        PullRequestFile(
          path: "\(tag)/\($0).swift", status: "added", additions: 1, deletions: 0,
          patch: Self.patch(adding: 1, tag: tag))
      }
    }
    let (first, second) = (String(repeating: "1", count: 40), String(repeating: "2", count: 40))
    await github.servePullRequestFiles(
      files("old", 250), ofPullRequest: number, in: acme, head: first,
      pushing: (afterPage: 1, head: second, files: files("new", 250)))
    await #expect(throws: GitHubError.self) { try await fetcher.fetch(number) }
    #expect(try cache.pullRequestDiff(number) == nil)
    let read = try await fetcher.fetch(number)
    let newPaths = files("new", 250).map(\.path)
    #expect(read.headSHA == second)
    #expect(read.files.map(\.path) == newPaths)

    await github.servePullRequestFiles(
      files("third", 150), ofPullRequest: number, in: acme,
      head: String(repeating: "3", count: 40), nulling: "third/120.swift")
    await #expect(throws: GitHubError.self) { try await fetcher.fetch(number) }
    // The diff kept before stays as it was.
    #expect(try cache.pullRequestDiff(number) == read)
  }
}

extension PullRequestDiffFetcherTests {
  /// A cache whose diffs were kept as one JSON document each (v19) keeps them as rows per
  /// file; a document that cannot be read is left to be read again.
  @Test func diffsKeptAsJSONAreMovedToRowsPerFile() throws {
    let diff = PullRequestDiff(
      headSHA: String(repeating: "f", count: 40),
      files: [
        FileDiff(
          path: "a.swift", status: "modified", additions: 1, deletions: 1,
          content: .patch("@@ -1 +1 @@\n-a\n+b\n")),
        FileDiff(
          path: "New.swift", previousPath: "Old.swift", status: "renamed", additions: 0,
          deletions: 0, content: .noTextChanges),
        FileDiff(path: "x.png", status: "added", additions: 0, deletions: 0, content: .binary),
        FileDiff(
          path: "big.txt", status: "added", additions: 0, deletions: 0,
          content: .unavailable("GitHub refused the whole diff")),
      ], announcedFiles: 5)
    let json = String(decoding: try JSONEncoder().encode(diff), as: UTF8.self)
      .replacingOccurrences(of: "'", with: "''")
    let path = try IssueCacheTests.cacheFromAnOlderRelease(
      upTo: "v19: pull requests' diffs",
      sql: """
        INSERT INTO pullRequestDiff(number, headSHA, diff, readAt)
        VALUES (4, '\(diff.headSHA)', '\(json)', '2026-11-01 00:00:00.000'),
          (5, 'abc', 'not json', '2026-11-01 00:00:00.000');
        """)
    defer { IssueCacheTests.removeFolder(of: path) }
    let cache = try IssueCache(path: path)
    #expect(try cache.pullRequestDiff(4) == diff)
    #expect(try cache.pullRequestDiff(5) == nil)
  }
}

extension PullRequestDiffFetcherTests {
  static func files(_ tag: String, _ count: Int) -> [PullRequestFile] {
    (0..<count).map {
      PullRequestFile(
        path: "\(tag)/\($0).swift", status: "added", additions: 1, deletions: 0,
        patch: patch(adding: 1, tag: tag))
    }
  }

  /// Files of two heads or two bases are never kept as one diff.
  ///
  /// A push while the whole diff is read, a retarget while the files are listed, a listing
  /// that changes under the same head, or an answer that announces no file count keep
  /// nothing; a retarget after a diff was kept reads the files again.
  @Test func filesOfTwoHeadsOrTwoBasesAreNeverMixed() async throws {
    let (github, fetcher, cache, number) = try await setUp()
    defer { Task { await github.stop() } }
    let head = { (digit: Character) in String(repeating: digit, count: 40) }
    // Pushed while the whole diff was read: its blob ids cannot show a push that adds files.
    await github.servePullRequestFiles(
      Self.files("old", 150), ofPullRequest: number, in: acme, head: head("1"),
      pushingAfterDiff: (head: head("2"), files: Self.files("old", 150) + Self.files("new", 1)))
    await #expect(throws: GitHubError.self) { try await fetcher.fetch(number) }
    #expect(try cache.pullRequestDiff(number) == nil)
    let read = try await fetcher.fetch(number)
    #expect(read.headSHA == head("2") && read.files.count == 151)
    #expect(read.base?.ref == "main" && read.base?.sha != nil)

    // Retargeted after it was kept (the pull request below merged): read again.
    await github.retargetPullRequest(number, in: acme, to: "release")
    let before = await github.requests.count
    let retargeted = try await fetcher.fetch(number)
    #expect(await github.requests.count - before > 1, "the kept diff was of another base")
    #expect(retargeted.base?.ref == "release")
    #expect(try cache.pullRequestDiff(number) == retargeted)

    // Retargeted between two pages of the files.
    await github.servePullRequestFiles(
      Self.files("third", 250), ofPullRequest: number, in: acme, head: head("3"),
      retargeting: (afterPage: 1, base: "next"))
    await #expect(throws: GitHubError.self) { try await fetcher.fetch(number) }
    #expect(try cache.pullRequestDiff(number) == retargeted)

    // The listing changes under the same head: ten files more ahead of the rest.
    await github.servePullRequestFiles(
      Self.files("grow", 250), ofPullRequest: number, in: acme, head: head("4"),
      pushing: (afterPage: 1, head: head("4"), files: Self.files("a", 10) + Self.files("grow", 250))
    )
    await #expect(throws: GitHubError.self) { try await fetcher.fetch(number) }
    #expect(try cache.pullRequestDiff(number) == retargeted)

    // No `changed_files`: nothing proves the listing whole, even a short one.
    await github.servePullRequestFiles(
      Self.files("count", 3), ofPullRequest: number, in: acme, head: head("5"),
      announcingCount: false)
    await #expect(throws: GitHubError.self) { try await fetcher.fetch(number) }
    #expect(try cache.pullRequestDiff(number) == retargeted)
  }
}
