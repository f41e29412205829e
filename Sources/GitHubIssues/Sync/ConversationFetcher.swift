import Foundation

/// Brings one issue and its comments into the cache: the issue itself, then its comments unless
/// the cached ones are current (listed completely since the issue last changed).
///
/// The listing is bounded by what GitHub announced: the pages the first one promised (checked by
/// the client) and the issue's comment count plus a margin for comments written meanwhile.
/// Cached comments are deleted only when the listing proved complete.
public struct ConversationFetcher: Sendable {
  /// The client requests go through.
  public var client: GitHubClient
  /// Where the issue and its comments are kept.
  public var cache: IssueCache
  /// The repository of the issue.
  public var repository: RepositoryName

  /// How many comments beyond the announced count a listing may bring (written while it runs).
  public static let commentMargin = 1_000

  /// A fetcher for a repository's issues.
  public init(client: GitHubClient, cache: IssueCache, repository: RepositoryName) {
    self.client = client
    self.cache = cache
    self.repository = repository
  }

  /// What a fetch did.
  public enum Outcome: Hashable, Sendable {
    /// The cached comments were current: only the issue was fetched.
    case current
    /// This many comments were listed and stored; `complete` when the listing proved it saw
    /// them all (and deleted what GitHub no longer has).
    case listed(count: Int, complete: Bool)
  }

  /// Fetches issue `number` and, unless current (or with `force`), its comments.
  public func fetch(_ number: Int, force: Bool = false) async throws(GitHubError) -> Outcome {
    let issue = try await client.issue(number, of: repository)
    guard issue.number == number else {
      throw GitHubError(
        .decoding, url: "issue \(number) of \(repository)",
        detail: "GitHub answered with issue \(issue.number)")
    }
    try write("write") { try cache.writePage([issue], advancingMarks: false) }
    if !force, try write("read", { try cache.commentsAreCurrent(of: number) }) {
      return .current
    }
    var comments: [GitHubComment] = []
    var proof = ListingProof()
    var skipped = 0
    let limit = max(0, issue.comments) + Self.commentMargin
    for try await page in client.commentPages(of: repository, issue: number) {
      proof.record(page)
      skipped += page.skipped.count
      comments += page.items
      guard comments.count <= limit else {
        throw GitHubError(
          .pagination, url: "comments of \(repository)#\(number)",
          detail: "more than the \(issue.comments) comments the issue announced")
      }
    }
    let complete = proof.gap == nil && skipped == 0
    try write("write") {
      try cache.writeComments(comments, of: number, completeAsOf: complete ? issue.updatedAt : nil)
    }
    await fetchTimeline(of: number, announcedComments: issue.comments)
    return .listed(count: comments.count, complete: complete)
  }

  /// How many timeline entries beyond the announced comments a listing may bring (events).
  public static let timelineMargin = 5_000

  /// Replaces the issue's cached timeline with a complete listing of it; keeps the cached one
  /// when the listing fails or does not prove complete (the conversation is shown either way).
  private func fetchTimeline(of number: Int, announcedComments: Int) async {
    var events: [GitHubTimelineEvent] = []
    var proof = ListingProof()
    let limit = max(0, announcedComments) + Self.timelineMargin
    do {
      for try await page in client.timelinePages(of: repository, issue: number) {
        proof.record(page)
        guard page.skipped.isEmpty else { return }
        events += page.items
        guard events.count <= limit else { return }
      }
    } catch {
      return
    }
    guard proof.gap == nil else { return }
    try? cache.replaceTimeline(of: number, with: events)
  }

  private func write<T>(_ what: String, _ body: () throws -> T) throws(GitHubError) -> T {
    do {
      return try body()
    } catch {
      throw GitHubError(.decoding, url: "cache", detail: "could not \(what) the cache: \(error)")
    }
  }
}
