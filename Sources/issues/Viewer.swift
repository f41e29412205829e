import GitHubIssues
import IssuesBrowser

extension MeResolver {
  /// The login gh's `viewerDidAuthor` compares with: `nil` without a token (nobody is the
  /// viewer), else the token's account, asked of GitHub once when the cache does not know it.
  ///
  /// - Throws: ``CommandFailure`` when it cannot be known (`--offline` before it was asked, or
  ///   GitHub not answering): the field is refused rather than printed as `false`.
  static func viewer(
    host: GitHubHost, cache: IssueCache, offline: Bool, timeout: Double?
  ) async throws -> String? {
    guard (try? TokenDiscovery.token(for: host)) ?? nil != nil else { return nil }
    do {
      return try await MeResolver(host: host, cache: cache, offline: offline, timeout: timeout)
        .login(SearchQuery.me)
    } catch {
      throw CommandFailure("viewerDidAuthor needs the token's account: \(error)")
    }
  }

  /// Asks GitHub once who the token's account is, when the cache does not know it yet, so that
  /// an offline read later knows `@me` and `viewerDidAuthor`; a failure is left for the read
  /// that needs it to say.
  static func remember(token: String?, client: GitHubClient, cache: IssueCache) async {
    guard let token, (try? cache.viewerLogin(token: token)) ?? nil == nil,
      let user = try? await client.authenticatedUser()
    else { return }
    try? cache.setViewerLogin(user.login, token: token)
  }
}
