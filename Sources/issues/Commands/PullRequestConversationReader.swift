import Foundation
import GitHubIssues
import IssuesBrowser

/// Where `pr view` and `pr list` read what their conversation and file fields print: fetched
/// from GitHub into the cache first (unless offline), then the cache; a field whose data was
/// never read is refused, never printed empty.
struct PullRequestConversationReader {
  var host: GitHubHost
  var repository: RepositoryName
  var cache: IssueCache
  var offline: Bool
  var timeout: Double?

  /// What `fields` (or, without them, the `--comments` conversation) need of pull request
  /// `number`; `nil` when they need neither its conversation nor its files.
  ///
  /// - Throws: ``CommandFailure`` when a field's data was never read.
  func conversation(
    of number: Int, fields: [PullRequestJSON.Field]?, comments: Bool
  ) async throws -> PullRequestJSON.Conversation? {
    let readsConversation = comments || (fields?.contains(where: \.isConversation) ?? false)
    let readsFiles = fields?.contains(where: \.isDiff) ?? false
    guard readsConversation || readsFiles else { return nil }
    let threadStates = fields?.contains(.reviewThreads) == true
    if readsConversation, !offline { await fetch(number, threadStates: threadStates) }
    let diff = readsFiles ? try await files(of: number) : nil
    guard readsConversation else {
      return PullRequestJSON.Conversation(comments: [], reviews: [], checks: [], diff: diff)
    }
    let checks = try cache.checks(of: number)?.checks
    if let fields {
      try Self.refuseUnread(
        fields, number: number,
        reviews: fields.contains(.reviews) ? try cache.reviews(of: number, threaded: false) : [],
        checks: checks, offline: offline)
    }
    return PullRequestJSON.Conversation(
      comments: try cache.comments(of: number),
      reviews: try cache.reviews(of: number, threaded: fields == nil),
      threads: threadStates ? try cache.reviews(of: number).flatMap(\.threads) : [],
      threadStates: threadStates ? try cache.threadStates(of: number) : [:],
      checks: checks ?? [],
      viewer: fields?.contains(.comments) == true
        ? try await MeResolver.viewer(
          host: host, cache: cache, offline: offline, timeout: timeout) : nil,
      diff: diff)
  }

  /// Fetches the pull request's conversation (comments, reviews, line comments, checks) into
  /// the cache; a failure is said and the cached one printed.
  private func fetch(_ number: Int, threadStates: Bool) async {
    do {
      let token = try TokenDiscovery.token(for: host)
      let client = Syncing.client(host: host, token: token, timeout: timeout)
      await MeResolver.remember(token: token, client: client, cache: cache)
      _ = try await ConversationFetcher(client: client, cache: cache, repository: repository)
        .fetch(number)
      if threadStates {
        // Whether each thread is resolved: GraphQL only; kept from a complete read.
        try cache.keepThreadStates(
          try await client.reviewThreads(ofPullRequest: number, in: repository),
          ofPullRequest: number)
      }
    } catch {
      Terminal.standardError(
        "warning: #\(number): \(Terminal.failure(error, repository: repository)) "
          + "Showing the cache.\n")
    }
  }

  /// The pull request's files: read from GitHub into the cache (unless offline), or as kept;
  /// never printed empty when they were never read.
  private func files(of number: Int) async throws -> PullRequestDiff {
    if !offline {
      do {
        let client = Syncing.client(
          host: host, token: try TokenDiscovery.token(for: host), timeout: timeout)
        return try await PullRequestDiffFetcher(
          client: client, cache: cache, repository: repository
        ).fetch(number)
      } catch {
        Terminal.standardError(
          "warning: #\(number): \(Terminal.failure(error, repository: repository)) "
            + "Using the files kept.\n")
      }
    }
    guard let kept = try cache.pullRequestDiff(number) else {
      throw CommandFailure(
        "The files of #\(number) are not cached: "
          + (offline
            ? "run without --offline (or `issues pr diff \(number)`)."
            : "GitHub did not give them now."))
    }
    return kept
  }

  /// Refuses the conversation fields the cache cannot print as gh would: checks never read,
  /// and reviews read before their ids were kept.
  static func refuseUnread(
    _ fields: [PullRequestJSON.Field], number: Int, reviews: [PullRequestReview],
    checks: [PullRequestCheck]?, offline: Bool
  ) throws {
    let how =
      offline ? " (run without --offline to read them)." : " (GitHub did not give them now)."
    if fields.contains(.statusCheckRollup), checks == nil {
      throw CommandFailure("The checks of #\(number) have not been read" + how)
    }
    if fields.contains(.reviews), reviews.contains(where: { $0.nodeID == nil }) {
      throw CommandFailure("The reviews of #\(number) were read without their ids" + how)
    }
  }
}
