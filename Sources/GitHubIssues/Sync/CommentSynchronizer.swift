import Foundation

/// Brings every comment of a repository into the cache (`issues sync --comments`), through the
/// repository-wide listing: the first time all of them, then only those updated since the last.
///
/// A full listing is bounded by the comment counts the cached issues announce (plus a margin
/// for comments written meanwhile); when it proves complete (the pages the first one announced,
/// none skipped), comments GitHub no longer has are deleted and every issue's comments become
/// current. An incremental listing (`since`) deletes nothing and makes nothing current: a
/// deleted comment does not show in it. Each page is written as it arrives, with the mark, so an
/// interrupted listing resumes.
public struct CommentSynchronizer: Sendable {
  /// The client requests go through.
  public var client: GitHubClient
  /// The cache written to.
  public var cache: IssueCache
  /// The repository.
  public var repository: RepositoryName

  /// A synchronizer for a repository's comments.
  public init(client: GitHubClient, cache: IssueCache, repository: RepositoryName) {
    self.client = client
    self.cache = cache
    self.repository = repository
  }

  /// What a comment sync did.
  public struct Summary: Hashable, Sendable {
    /// Comments written.
    public var comments: Int
    /// Pages fetched.
    public var pages: Int
    /// Whether every comment was listed (not only those updated since the last listing).
    public var wasFull: Bool
    /// For a full listing, whether it proved complete.
    public var complete: Bool
    /// Comments deleted because GitHub no longer has them.
    public var deleted: Int
  }

  /// Lists the repository's comments: all of them with `full` or the first time, otherwise those
  /// updated since the last listing.
  public func sync(full: Bool = false) async throws(GitHubError) -> Summary {
    let mark = try read { try cache.commentMark() }
    let isFull = full || mark == nil
    // A second of overlap: comments updated in the mark's second are listed again (upserted).
    let since = isFull ? nil : mark?.addingTimeInterval(-1)
    let limit =
      isFull
      ? try read { try cache.announcedCommentCount() } + ConversationFetcher.commentMargin : nil
    var summary = Summary(comments: 0, pages: 0, wasFull: isFull, complete: false, deleted: 0)
    var proof = ListingProof()
    var skipped = 0
    var seen: Set<Int64> = []
    for try await page in client.repositoryCommentPages(of: repository, since: since) {
      proof.record(page)
      summary.pages += 1
      skipped += page.skipped.count
      if isFull {
        for comment in page.items { seen.insert(comment.id) }
        if let limit, seen.count > limit {
          throw GitHubError(
            .pagination, url: "comments of \(repository)",
            detail: "more than the \(limit - ConversationFetcher.commentMargin) comments the "
              + "cached issues announce")
        }
      }
      summary.comments += try read { try cache.writeRepositoryComments(page.items) }
    }
    if isFull, proof.gap == nil, skipped == 0 {
      summary.complete = true
      summary.deleted = try read { try cache.finishCompleteCommentListing(seen: seen) }
    }
    return summary
  }

  private func read<T>(_ body: () throws -> T) throws(GitHubError) -> T {
    do {
      return try body()
    } catch {
      throw GitHubError(.decoding, url: "cache", detail: "the cache failed: \(error)")
    }
  }
}
