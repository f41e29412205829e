import Foundation
@testable import GitHubIssues
import GitHubTestSupport
import Testing

/// Proxies as the environment names them, as curl and gh read them: which variable applies,
/// which hosts go around it, and that a request really goes through it.
@Suite struct ProxySettingsTests {
  let api = URL(fileURLWithPath: "/").resolved("https://api.github.com/repos/acme/tracker")

  @Test func httpsProxyThenAllProxyAndUppercaseHTTPProxyIgnored() throws {
    let https = ProxySettings(environment: ["HTTPS_PROXY": "proxy.corp:3128"])
    #expect(
      try https.proxy(for: api)
        == .init(kind: .http(user: nil, password: nil), host: "proxy.corp", port: 3128))
    let all = ProxySettings(environment: ["all_proxy": "socks5h://gate:1081"])
    #expect(try all.proxy(for: api) == .init(kind: .socks5, host: "gate", port: 1081))
    #expect(try all.proxy(for: api.resolved("http://ghe.local/api/v3"))?.host == "gate")
    // Only the lowercase http_proxy counts (a CGI environment may set HTTP_PROXY from a header).
    let upper = ProxySettings(environment: ["HTTP_PROXY": "evil:80"])
    #expect(try upper.proxy(for: api.resolved("http://ghe.local/")) == nil)
    #expect(try ProxySettings(environment: [:]).proxy(for: api) == nil)
  }

  @Test func loopbackHostsAreAlwaysReachedDirectly() throws {
    let settings = ProxySettings(environment: ["http_proxy": "proxy:3128", "https_proxy": "p:1"])
    for url in ["http://127.0.0.1:8080/user", "http://localhost/user", "https://[::1]:9/user"] {
      #expect(try settings.proxy(for: api.resolved(url)) == nil, "\(url)")
    }
  }

  @Test func credentialsAndTheDefaultPortAreRead() throws {
    let settings = ProxySettings(environment: ["https_proxy": "http://me:p%40ss@proxy.corp"])
    #expect(
      try settings.proxy(for: api)
        == .init(kind: .http(user: "me", password: "p@ss"), host: "proxy.corp", port: 1080))
  }

  @Test(arguments: [
    ("github.com", "api.github.com", true), (".github.com", "api.github.com", true),
    ("api.github.com:443", "api.github.com", true),
    ("api.github.com:8443", "api.github.com", false),
    ("hub.com", "api.github.com", false), ("*", "api.github.com", true),
    ("example.com, github.com", "api.github.com", true), ("", "api.github.com", false),
  ])
  func noProxyMatchesHostsAndTheirSubdomains(noProxy: String, host: String, direct: Bool) throws {
    let settings = ProxySettings(environment: ["https_proxy": "proxy:3128", "no_proxy": noProxy])
    let proxy = try settings.proxy(for: api.resolved("https://\(host)/user"))
    #expect((proxy == nil) == direct, "no_proxy=\(noProxy) for \(host)")
  }

  @Test func aProxyThatCannotBeUsedFailsRatherThanGoingAround() {
    for value in ["https://tls-proxy:443", "ftp://x", "http://"] {
      let settings = ProxySettings(environment: ["https_proxy": value])
      #expect(throws: ProxySettings.Invalid.self, "\(value)") {
        try settings.proxy(for: api)
      }
    }
  }

  /// Requests go through the proxy: one that is not there fails them in one plain sentence,
  /// and `no_proxy` for the host reaches it directly.
  @Test func requestsGoThroughTheProxyUnlessTheHostIsExcluded() async throws {
    let github = try await LocalGitHub.start()
    defer { Task { await github.stop() } }
    await github.serve(
      "/repos/acme/tracker",
      body: Data(#"{"id":7,"full_name":"acme/tracker","private":false}"#.utf8))
    let unused = "http://127.0.0.1:9"  // the discard port: nothing listens there
    var through = ProxySettings(environment: ["http_proxy": unused])
    through.bypassesLoopback = false
    var client = GitHubClient(
      host: await github.host,
      transport: HTTPClientTransport(timeout: LocalGitHub.patientTimeout, proxies: through))
    client.maximumRetries = 0
    do {
      _ = try await client.repository(RepositoryName(owner: "acme", name: "tracker"))
      Issue.record("the request went around the proxy")
    } catch {
      #expect(error.code == .offline)
      #expect(error.summary().contains("could not connect"), "\(error.summary())")
      #expect(!"\(error)".contains("NSURLErrorDomain"), "\(error)")
    }
    #expect(await github.requests.isEmpty)
    var around = ProxySettings(environment: ["http_proxy": unused, "no_proxy": "127.0.0.1"])
    around.bypassesLoopback = false
    client = GitHubClient(
      host: await github.host,
      transport: HTTPClientTransport(timeout: LocalGitHub.patientTimeout, proxies: around))
    _ = try await client.repository(RepositoryName(owner: "acme", name: "tracker"))
    #expect(await github.requests.count == 1)
  }
}

extension URL {
  /// An absolute URL the test writes out (a bad one is the test's mistake: it stays this URL).
  fileprivate func resolved(_ text: String) -> URL { URL(string: text) ?? self }
}
