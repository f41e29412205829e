import Foundation

/// Brings one issue and its comments into the cache: the issue itself, then its comments unless
/// the cached ones are current (listed completely since the issue last changed).
///
/// The listing is bounded by what GitHub announced: the pages the first one promised (checked by
/// the client) and the issue's comment count plus a margin for comments written meanwhile. It is
/// complete only when it ended on the last page announced, skipped nothing, and delivered at
/// least the comments the issue announces; a short listing is tried once more with the issue
/// read again (a comment deleted meanwhile lowers the count). Cached comments it did not list
/// are deleted only when complete and each is answered `404` or `410` on its own.
package struct ConversationFetcher: Sendable {
  /// The client requests go through.
  package var client: GitHubClient
  /// Where the issue and its comments are kept.
  package var cache: IssueCache
  /// The repository of the issue.
  package var repository: RepositoryName

  /// How many comments beyond the announced count a listing may bring (written while it runs).
  package static let commentMargin = 1_000

  /// A fetcher for a repository's issues.
  package init(client: GitHubClient, cache: IssueCache, repository: RepositoryName) {
    self.client = client
    self.cache = cache
    self.repository = repository
  }

  /// What a fetch did.
  package enum Outcome: Hashable, Sendable {
    /// The cached comments were current: only the issue was fetched.
    case current
    /// This many comments were listed and stored, of the `announced` count the issue gave;
    /// `complete` when the listing proved it saw them all (and deleted what GitHub confirmed it
    /// no longer has). `skippedEvents` timeline records could not be read and were left out.
    case listed(count: Int, complete: Bool, announced: Int, skippedEvents: Int)
  }

  /// Fetches issue `number` and, unless current (or with `force`), its comments.
  package func fetch(_ number: Int, force: Bool = false) async throws(GitHubError) -> Outcome {
    var issue = try await client.issue(number, of: repository)
    guard issue.number == number else {
      throw GitHubError(
        .decoding, url: "issue \(number) of \(repository)",
        detail: "GitHub answered with issue \(issue.number)")
    }
    try write("write") { try cache.writePage([issue], advancingMarks: false) }
    if !force, try write("read", { try cache.commentsAreCurrent(of: number) }) {
      if issue.isPullRequest {
        // Reviews come with the timeline; checks change without the pull request changing.
        if !(try write("read", { try cache.timelineIsCurrent(of: number) })) {
          _ = await fetchTimeline(
            of: number, announcedComments: issue.comments, asOf: issue.updatedAt)
        }
        await fetchPullRequest(number)
      }
      return .current
    }
    var listed = try await listComments(of: issue)
    if !listed.complete {
      // Short of what the issue announced: read it again (a comment may have been deleted)
      // and list once more.
      issue = try await client.issue(number, of: repository)
      try write("write") { try cache.writePage([issue], advancingMarks: false) }
      listed = try await listComments(of: issue)
    }
    var gone: [Int64] = []
    var comments = listed.comments
    if listed.complete {
      let listedIDs = Set(comments.map { $0.id })
      let unlisted = try write("read") { try cache.commentIDs(of: number) }.filter {
        !listedIDs.contains($0)
      }
      let checked = try await CommentSynchronizer.confirm(
        unlisted, client: client, repository: repository)
      gone = checked.gone
      comments += checked.present.filter { $0.issueNumber == nil || $0.issueNumber == number }
    }
    try write("write") {
      try cache.writeComments(
        comments, of: number, completeAsOf: listed.complete ? issue.updatedAt : nil,
        confirmedGone: gone)
    }
    let timelineSkips = await fetchTimeline(
      of: number, announcedComments: issue.comments, asOf: issue.updatedAt)
    if issue.isPullRequest { await fetchPullRequest(number) }
    return .listed(
      count: comments.count, complete: listed.complete,
      announced: issue.comments, skippedEvents: timelineSkips)
  }

  /// Lists an issue's comments, saying whether the listing proved it saw them all.
  private func listComments(of issue: GitHubIssue) async throws(GitHubError) -> (
    comments: [GitHubComment], complete: Bool
  ) {
    let (comments, proof) = try await ListingProof.collect(
      client.commentPages(of: repository, issue: issue.number), announced: max(0, issue.comments),
      itemLimit: max(0, issue.comments) + Self.commentMargin)
    if proof.cutShort != nil {
      throw GitHubError(
        .pagination, url: "comments of \(repository)#\(issue.number)",
        detail: "more than the \(issue.comments) comments the issue announced")
    }
    return (comments, proof.gap == nil)
  }

  /// How many timeline entries beyond the announced comments a listing may bring (events).
  package static let timelineMargin = 5_000

  /// Replaces the issue's cached timeline with a complete listing of it.
  ///
  /// It keeps the cached one when the listing fails or does not prove complete (the
  /// conversation is shown either way). A record that cannot be read is left out, the rest kept.
  ///
  /// - Returns: How many records were left out.
  private func fetchTimeline(of number: Int, announcedComments: Int, asOf: Date) async -> Int {
    let events: [GitHubTimelineEvent]
    let proof: ListingProof
    do {
      (events, proof) = try await ListingProof.collect(
        client.timelinePages(of: repository, issue: number),
        itemLimit: max(0, announcedComments) + Self.timelineMargin)
    } catch {
      return 0
    }
    // A record that cannot be read is left out, the rest kept; pages that prove nothing
    // replace nothing.
    guard proof.pagesGap == nil else { return proof.unreadable }
    do {
      try cache.replaceTimeline(
        of: number, with: events, completeAsOf: proof.unreadable == 0 ? asOf : nil)
    } catch {
      // The conversation is shown without its events; the cached ones stay.
    }
    return proof.unreadable
  }

  /// Brings a pull request's own parts into the cache (see ``PullRequestFetcher``), its review
  /// decision worked out from the reviews the timeline brought.
  private func fetchPullRequest(_ number: Int) async {
    let reviews = (try? cache.reviews(of: number, threaded: false)) ?? []
    _ = await PullRequestFetcher(client: client, cache: cache, repository: repository)
      .fetch(number, reviews: reviews, lineComments: true)
  }

  private func write<T>(_ what: String, _ body: () throws -> T) throws(GitHubError) -> T {
    do {
      return try body()
    } catch {
      throw GitHubError(.decoding, url: "cache", detail: "could not \(what) the cache: \(error)")
    }
  }
}
