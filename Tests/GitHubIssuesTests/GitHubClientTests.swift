import Foundation
import GitHubIssues
import Testing

@Suite struct GitHubClientTests {
  let repo = RepositoryName(owner: "octo", name: "hello")

  private func client(
    token: String? = nil, maximumRetries: Int = 2,
    _ answer: @escaping @Sendable (HTTPRequest) throws -> HTTPResponse
  ) -> (GitHubClient, FakeTransport) {
    let transport = FakeTransport(answer)
    var client = GitHubClient(
      host: .github, token: token, transport: transport,
      now: { Date(timeIntervalSince1970: 1_000_000) })
    client.maximumRetries = maximumRetries
    client.initialBackoff = .milliseconds(1)
    return (client, transport)
  }

  private func firstError(_ client: GitHubClient) async -> GitHubError? {
    do {
      for try await _ in client.issuePages(of: repo, query: IssueQuery()) {}
      return nil
    } catch {
      return error
    }
  }

  @Test func requestsCarryGitHubsHeadersAndTheToken() async throws {
    let (client, transport) = client(token: "secret") { _ in
      HTTPResponse(status: 200, body: Data("[]".utf8))
    }
    for try await _ in client.issuePages(
      of: repo, query: IssueQuery(state: .all, milestone: .withoutMilestone, labels: ["bug", "ui"]))
    {}
    let request = try #require(transport.requests.first)
    #expect(request.headers["Accept"] == "application/vnd.github+json")
    #expect(request.headers["X-GitHub-Api-Version"] == "2022-11-28")
    #expect(request.headers["User-Agent"]?.isEmpty == false)
    #expect(request.headers["Authorization"] == "Bearer secret")
    let query = try #require(
      URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems)
    #expect(query.contains(URLQueryItem(name: "state", value: "all")))
    #expect(query.contains(URLQueryItem(name: "milestone", value: "none")))
    #expect(query.contains(URLQueryItem(name: "labels", value: "bug,ui")))
    #expect(query.contains(URLQueryItem(name: "per_page", value: "100")))
    #expect(request.url.path == "/repos/octo/hello/issues")
  }

  @Test func noTokenSendsNoAuthorization() async throws {
    let (client, transport) = client { _ in HTTPResponse(status: 200, body: Data("[]".utf8)) }
    for try await _ in client.issuePages(of: repo, query: IssueQuery()) {}
    #expect(transport.requests.first?.headers["Authorization"] == nil)
  }

  @Test func aGraphQLQueryAnsweredWithoutDataIsNotCalledARefusedChange() {
    let query = GitHubError(
      .validation, method: "POST", url: "https://api.github.com/graphql",
      detail: "MirrorIssues: Something went wrong")
    #expect(query.description.contains("GitHub did not answer the query"))
    #expect(!query.description.contains("refused the change"))
    let write = GitHubError(
      .validation, method: "PATCH", url: "https://api.github.com/repos/a/b/issues/1")
    #expect(write.description.contains("GitHub refused the change (422)"))
  }

  @Test func enterpriseHostsUseApiV3() {
    #expect(
      GitHubHost.enterprise("git.example.com").url("/repos/a/b").absoluteString
        == "https://git.example.com/api/v3/repos/a/b")
    #expect(GitHubHost.named("github.com") == .github)
    #expect(
      GitHubHost.named("ghe.corp:8443")?.apiBaseURL.absoluteString == "https://ghe.corp:8443/api/v3"
    )
    #expect(GitHubHost.named("not a host") == nil)
  }

  @Test func paginationFollowsTheLinkHeaderExactly() async throws {
    let (client, transport) = client { request in
      switch request.url.query ?? "" {
      case let query where query.contains("cursor=abc"):
        return HTTPResponse(status: 200, body: Data("[]".utf8))
      default:
        return HTTPResponse(
          status: 200,
          headers: [
            "Link": #"<https://api.github.com/repositories/1/issues?cursor=abc&page=2>; rel="next""#
          ],
          body: Data("[]".utf8))
      }
    }
    var count = 0
    for try await _ in client.issuePages(of: repo, query: IssueQuery()) { count += 1 }
    #expect(count == 2)
    #expect(
      transport.requests.last?.url.absoluteString
        == "https://api.github.com/repositories/1/issues?cursor=abc&page=2")
  }

  @Test func aRateLimitWithNoQuotaLeftSaysWhenItResets() async throws {
    let (client, _) = client { _ in
      HTTPResponse(
        status: 403,
        headers: [
          "x-ratelimit-remaining": "0", "x-ratelimit-limit": "60", "x-ratelimit-reset": "1500000",
        ],
        body: Data(#"{"message":"API rate limit exceeded"}"#.utf8))
    }
    let error = await firstError(client)
    #expect(error?.code == .rateLimited)
    #expect(error?.resetAt == Date(timeIntervalSince1970: 1_500_000))
    #expect(error?.rateLimit == .primary(resource: nil, limit: 60))
    let utc = try #require(TimeZone(identifier: "UTC"))
    let sentence = try #require(
      error?.describe(now: Date(timeIntervalSince1970: 1_500_000 - 600), timeZone: utc))
    #expect(sentence.contains("until 08:40:00 GMT (1970-01-18, in 10 min)"))
    #expect(sentence.contains("a token (GH_TOKEN or GITHUB_TOKEN) raises the limit"))
  }

  @Test func retryAfterIsTheTimeToWait() async {
    let (client, _) = client { _ in
      HTTPResponse(status: 403, headers: ["Retry-After": "60"], body: Data("{}".utf8))
    }
    let error = await firstError(client)
    #expect(error?.code == .rateLimited)
    #expect(error?.resetAt == Date(timeIntervalSince1970: 1_000_060))
  }

  @Test func forbiddenWithQuotaLeftIsNotARateLimit() async {
    let (client, _) = client { _ in
      HTTPResponse(
        status: 403,
        headers: [
          "x-ratelimit-remaining": "10", "x-ratelimit-limit": "60", "x-ratelimit-reset": "1",
        ], body: Data("{}".utf8))
    }
    #expect(await firstError(client)?.code == .forbidden)
  }

  @Test(arguments: [
    (401, GitHubError.Code.unauthorized), (404, .notFound), (422, .validation),
    (418, .unexpectedStatus),
  ])
  func statusesBecomeTypedErrors(status: Int, code: GitHubError.Code) async {
    let (client, _) = client { _ in
      HTTPResponse(status: status, body: Data(#"{"message":"nope"}"#.utf8))
    }
    let error = await firstError(client)
    #expect(error?.code == code)
    #expect(error?.detail == "nope")
    #expect(error?.description.contains("secret") == false)
  }

  @Test func tokenAdviceNamesTheHostsVariablesAndLogin() async throws {
    let enterprise = GitHubHost.enterprise("ghe.example.com")
    for (host, variable, login) in [
      (GitHubHost.github, "GH_TOKEN", "`gh auth login`"),
      (enterprise, "GH_ENTERPRISE_TOKEN", "`gh auth login --hostname ghe.example.com`"),
    ] {
      let transport = FakeTransport { _ in
        HTTPResponse(status: 401, body: Data(#"{"message":"Requires authentication"}"#.utf8))
      }
      var client = GitHubClient(host: host, transport: transport)
      client.maximumRetries = 0
      let error = try #require(await firstError(client))
      #expect(error.host == host)
      #expect(error.description.contains(variable), "\(error)")
      #expect(error.description.contains(login), "\(error)")
      #expect(host.tokenAdvice.contains(variable) && host.tokenAdvice.contains(login))
    }
    #expect(!GitHubHost.enterprise("ghe.example.com").tokenAdvice.contains("GH_TOKEN "))
  }

  @Test func serverErrorsAreRetriedABoundedNumberOfTimes() async throws {
    let attempts = Counter()
    let (client, _) = client(maximumRetries: 2) { _ in
      attempts.increment() < 2
        ? HTTPResponse(status: 502, body: Data()) : HTTPResponse(status: 200, body: Data("[]".utf8))
    }
    for try await _ in client.issuePages(of: repo, query: IssueQuery()) {}
    #expect(attempts.value == 3)

    let always = Counter()
    let (failing, _) = self.client(maximumRetries: 2) { _ in
      always.increment()
      return HTTPResponse(status: 500, body: Data())
    }
    #expect(await firstError(failing)?.code == .serverError)
    #expect(always.value == 3)
  }

  @Test func aSilentServerIsReportedOnceAndADroppedConnectionIsRetried() async {
    let (timingOut, silent) = client(maximumRetries: 3) { _ in throw URLError(.timedOut) }
    #expect(await firstError(timingOut)?.code == .offline)
    #expect(silent.requests.count == 1)
    let drops = Counter()
    let (dropping, _) = client(maximumRetries: 3) { _ in
      if drops.increment() < 2 { throw URLError(.networkConnectionLost) }
      return HTTPResponse(status: 200, body: Data("[]".utf8))
    }
    #expect(await firstError(dropping) == nil)
    #expect(drops.value == 3)
    let (offline, transport) = client { _ in throw URLError(.notConnectedToInternet) }
    #expect(await firstError(offline)?.code == .offline)
    #expect(transport.requests.count == 1)
  }

  @Test func conditionalRequestsSendTheStoredETagAndA304IsNotModified() async throws {
    let store = InMemoryETagStore()
    let transport = FakeTransport { request in
      request.headers["If-None-Match"] == "\"v1\""
        ? HTTPResponse(status: 304, headers: ["ETag": "\"v1\""])
        : HTTPResponse(status: 200, headers: ["ETag": "\"v1\""], body: Data("[]".utf8))
    }
    let client = GitHubClient(host: .github, transport: transport, etags: store)
    var first: [Bool] = []
    for try await page in client.milestonePages(of: repo) { first.append(page.isNotModified) }
    var second: [Bool] = []
    for try await page in client.milestonePages(of: repo) { second.append(page.isNotModified) }
    #expect(first == [false])
    #expect(second == [true])
  }

  @Test func tokensAreFoundAsGhFindsThem() throws {
    let none: (String) -> String? = { _ in nil }
    #expect(
      try TokenDiscovery.token(
        for: .github, environment: ["GH_TOKEN": "a", "GITHUB_TOKEN": "b"], askGH: none) == "a")
    #expect(
      try TokenDiscovery.token(for: .github, environment: ["GITHUB_TOKEN": "b"], askGH: none) == "b"
    )
    #expect(
      try TokenDiscovery.token(for: .github, environment: ["GH_ENTERPRISE_TOKEN": "e"], askGH: none)
        == nil)
    #expect(
      try TokenDiscovery.token(
        for: .enterprise("ghe.corp"),
        environment: ["GH_TOKEN": "a", "GITHUB_ENTERPRISE_TOKEN": "e"], askGH: none)
        == "e")
    #expect(
      try TokenDiscovery.token(
        for: .github, environment: [:], askGH: { $0 == "github.com" ? "from-gh" : nil })
        == "from-gh")
  }

  @Test func linkHeadersParse() {
    let link = LinkHeader(
      #"<https://api.github.com/repositories/617210/issues?state=closed&page=2>; rel="next", <https://api.github.com/repositories/617210/issues?state=closed&page=21>; rel="last""#
    )
    #expect(
      link.next?.absoluteString
        == "https://api.github.com/repositories/617210/issues?state=closed&page=2")
    #expect(link.relations["last"] != nil)
    #expect(LinkHeader(nil).next == nil)
    #expect(LinkHeader("garbage, <>; rel").next == nil)
  }

  @Test func repositoryNamesAreChecked() {
    #expect(RepositoryName("apple/swift")?.description == "apple/swift")
    #expect(RepositoryName("apple") == nil)
    #expect(RepositoryName("a/b/c") == nil)
    #expect(RepositoryName("/b") == nil)
    #expect(RepositoryName("a/b c") == nil)
  }
}

final class Counter: @unchecked Sendable {
  private let lock = NSLock()
  private var count = 0
  var value: Int { lock.withLock { count } }
  /// Increments and returns the value before.
  @discardableResult func increment() -> Int {
    lock.withLock {
      defer { count += 1 }
      return count
    }
  }
}
