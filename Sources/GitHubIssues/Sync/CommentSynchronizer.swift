import Foundation

/// Brings every comment of a repository into the cache (`issues sync --comments`), through the
/// repository-wide listing: the first time all of them, then only those updated since the last.
///
/// The listing pages by `updated_at` (``UpdatedOrderListing``), so a comment edited while it
/// runs is seen twice rather than shifting another out of the pages. A full listing is bounded
/// by the comment counts the cached issues announce (plus a margin for comments written
/// meanwhile) and must deliver about as many (within 1 %, at least 5): short of that it deletes
/// nothing and fails with ``GitHubError/Code/incompleteListing``. When it ends complete, each
/// cached comment it did not see is asked for on its own and deleted only when GitHub answers
/// `404` or `410`; then every issue's comments become current. An incremental listing (`since`)
/// deletes nothing and makes nothing current: a deleted comment does not show in it. Each page
/// is written as it arrives, with the mark, so an interrupted listing resumes.
package struct CommentSynchronizer: Sendable {
  /// The client requests go through.
  package var client: GitHubClient
  /// The cache written to.
  package var cache: IssueCache
  /// The repository.
  package var repository: RepositoryName

  /// A synchronizer for a repository's comments.
  package init(client: GitHubClient, cache: IssueCache, repository: RepositoryName) {
    self.client = client
    self.cache = cache
    self.repository = repository
  }

  /// What a comment sync did.
  package struct Summary: Hashable, Sendable {
    /// Comments written.
    package var comments: Int
    /// Pages fetched.
    package var pages: Int
    /// Whether every comment was listed (not only those updated since the last listing).
    package var wasFull: Bool
    /// For a full listing, whether it proved complete.
    package var complete: Bool
    /// Comments deleted because GitHub no longer has them.
    package var deleted: Int
  }

  /// Lists the repository's comments: all of them with `full` or the first time, otherwise those
  /// updated since the last listing.
  ///
  /// - Throws: ``GitHubError``; ``GitHubError/Code/incompleteListing`` when a full listing cannot
  ///   prove it saw every comment (every page it fetched stays written, nothing is deleted).
  package func sync(full: Bool = false) async throws(GitHubError) -> Summary {
    let mark = try read { try cache.commentMark() }
    let isFull = full || mark == nil
    // A second of overlap: comments updated in the mark's second are listed again (upserted).
    let since = isFull ? nil : mark?.addingTimeInterval(-1)
    let announced = isFull ? try read { try cache.announcedCommentCount() } : 0
    let limit = announced + ConversationFetcher.commentMargin
    var summary = Summary(comments: 0, pages: 0, wasFull: isFull, complete: false, deleted: 0)
    let repository = repository
    var listing = UpdatedOrderListing<GitHubComment>(client: client, since: since) {
      [client] since in client.repositoryCommentPages(of: repository, since: since).first
    }
    var skipped = 0
    while let page = try await listing.next() {
      skipped += page.skipped.count
      if isFull, listing.seen.count > limit {
        throw GitHubError(
          .pagination, url: "comments of \(repository)",
          detail: "more than the \(announced) comments the cached issues announce")
      }
      summary.comments += try read {
        try cache.writeRepositoryComments(page.items, advancingMark: page.inOrder)
      }
    }
    summary.pages = listing.pages
    guard isFull else { return summary }
    var seen = Set(listing.seen.keys)
    var gap = listing.unproven
    if gap == nil, skipped > 0 {
      gap = "\(skipped) comments could not be read"
    }
    if gap == nil, seen.count < announced - max(5, announced / 100) {
      gap = "it listed \(seen.count) comments where the cached issues announce \(announced)"
    }
    var gone: [Int64] = []
    if gap == nil {
      do throws(GitHubError) {
        let unlisted = try read { try cache.unlistedComments(seen: seen) }
        let checked = try await Self.confirm(unlisted, client: client, repository: repository)
        summary.pages += unlisted.count
        gone = checked.gone
        for comment in checked.present {
          seen.insert(comment.id)
          summary.comments += try read {
            try cache.writeRepositoryComments([comment], advancingMark: false)
          }
        }
      } catch {
        gap = error.detail ?? error.summary()
      }
    }
    if let gap {
      throw GitHubError(.incompleteListing, url: "comments of \(repository)", detail: gap)
    }
    summary.complete = true
    summary.deleted = try read {
      try cache.finishCompleteCommentListing(seen: seen, confirmedGone: gone)
    }
    return summary
  }

  /// The most cached comments a full listing asks for one by one because it did not list them.
  package static let maximumUnlistedChecks = 1_000

  /// Asks GitHub for each comment a listing did not see: those it answers `404` or `410` for are
  /// gone; the others are returned to be written.
  ///
  /// - Throws: ``GitHubError/Code/incompleteListing`` when one cannot be confirmed either way,
  ///   or when there are more than ``maximumUnlistedChecks``.
  static func confirm(
    _ ids: [Int64], client: GitHubClient, repository: RepositoryName
  ) async throws(GitHubError) -> (gone: [Int64], present: [GitHubComment]) {
    guard ids.count <= maximumUnlistedChecks else {
      throw GitHubError(
        .incompleteListing, url: "comments of \(repository)",
        detail: "\(ids.count) cached comments were not listed, more than can be checked one by one")
    }
    var gone: [Int64] = []
    var present: [GitHubComment] = []
    for id in ids {
      do throws(GitHubError) {
        let comment = try await client.comment(id, of: repository)
        guard comment.id == id else {
          throw GitHubError(
            .decoding, url: "comment \(id)", detail: "GitHub answered with comment \(comment.id)")
        }
        present.append(comment)
      } catch let error where error.code == .notFound || error.code == .gone {
        gone.append(id)
      } catch {
        throw GitHubError(
          .incompleteListing, url: "comments of \(repository)",
          detail: "comment \(id) was not listed and could not be checked (\(error.summary()))")
      }
    }
    return (gone, present)
  }

  private func read<T>(_ body: () throws -> T) throws(GitHubError) -> T {
    do {
      return try body()
    } catch {
      throw GitHubError(.decoding, url: "cache", detail: "the cache failed: \(error)")
    }
  }
}
