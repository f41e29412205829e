import Foundation
import GitHubIssues

/// Turns `@me` into the token's login: from the cache when it was asked before with the same
/// token, otherwise from GitHub (`GET /user`, once), remembered for next time.
package struct MeResolver: Sendable {
  let host: GitHubHost
  let cache: IssueCache
  let offline: Bool
  let timeout: Double?

  /// A resolver for the host's token, remembering logins in `cache`; `offline` never asks GitHub.
  package init(host: GitHubHost, cache: IssueCache, offline: Bool, timeout: Double?) {
    self.host = host
    self.cache = cache
    self.offline = offline
    self.timeout = timeout
  }

  /// The login a filter value stands for: itself, or the token's account for `@me`.
  package func login(_ value: String?) async throws -> String? {
    guard let value, value == SearchQuery.me else { return value }
    let token: String?
    do {
      token = try TokenDiscovery.token(for: host)
    } catch {
      throw HostFailure(error.description)
    }
    guard let token else {
      throw HostFailure(
        "@me is the token's account, and there is no token: \(host.tokenAdvice).")
    }
    if let known = try cache.viewerLogin(token: token) { return known }
    guard !offline else {
      throw HostFailure(
        "@me has not been looked up with this token yet: run once without --offline.")
    }
    do {
      let user = try await Syncing.client(host: host, token: token, timeout: timeout)
        .authenticatedUser()
      try cache.setViewerLogin(user.login, token: token)
      return user.login
    } catch {
      throw HostFailure("Could not ask GitHub who @me is: \(error)")
    }
  }
}
