import Foundation

/// Posts comments from drafts kept on disk, so that a comment is never lost and never posted
/// twice.
///
/// The draft is saved before anything is sent, and marked as sent just before the request. It is
/// deleted only when GitHub returned the comment, in which case the comment is cached too. When
/// the answer never came (the process was killed, the connection dropped, GitHub failed), the
/// mark stays: the next ``post(issue:)`` reads the issue's comments first, and when the draft is
/// among them it is settled without posting it again.
public struct CommentPoster: Sendable {
  /// The client comments go through.
  public var client: GitHubClient
  /// Where posted comments are cached.
  public var cache: IssueCache
  /// The issue's repository.
  public var repository: RepositoryName
  /// Where drafts are kept.
  public var drafts: CommentDrafts

  /// A poster for a repository's issues.
  public init(
    client: GitHubClient, cache: IssueCache, repository: RepositoryName, drafts: CommentDrafts
  ) {
    self.client = client
    self.cache = cache
    self.repository = repository
    self.drafts = drafts
  }

  /// How a draft reached GitHub.
  public enum Outcome: Hashable, Sendable {
    /// It was posted now.
    case posted(CachedComment)
    /// An earlier send had landed without its answer arriving; it was found among the issue's
    /// comments and not posted again.
    case foundPosted(CachedComment)

    /// The comment as GitHub has it.
    public var comment: CachedComment {
      switch self {
      case .posted(let comment), .foundPosted(let comment): comment
      }
    }
  }

  /// Saves `body` as the issue's draft and posts it.
  public func post(_ body: String, issue number: Int) async throws(CommentPostFailure) -> Outcome {
    do {
      try drafts.save(body, for: number)
    } catch {
      throw .local("could not save the draft in \(drafts.directory.path): \(error)")
    }
    return try await post(issue: number)
  }

  /// Posts the draft saved for an issue, unless an earlier send of it landed.
  public func post(issue number: Int) async throws(CommentPostFailure) -> Outcome {
    let draft: CommentDraft
    do {
      guard let saved = try drafts.draft(for: number) else { throw CommentPostFailure.noDraft }
      draft = saved
    } catch let failure as CommentPostFailure {
      throw failure
    } catch {
      throw .local("could not read the draft in \(drafts.directory.path): \(error)")
    }
    if draft.sentAt != nil {
      if let found = try await findPosted(draft) {
        try settle(number)
        return .foundPosted(found)
      }
    }
    do {
      try drafts.markSent(number, at: Date())
    } catch {
      throw .local("could not mark the draft as sent: \(error)")
    }
    let comment: GitHubComment
    do {
      comment = try await client.postComment(draft.body, onIssue: number, of: repository)
    } catch {
      if (400..<500).contains(error.status ?? 0) {
        // Refused: nothing was created, and the draft is simply a draft again.
        try? drafts.markNotSent(number)
        throw .refused(error)
      }
      throw .unconfirmed(error)
    }
    do {
      try cache.addPostedComment(comment, to: number)
    } catch {
      // Posted: the draft must go, or it would be offered again; the next fetch caches it.
    }
    try settle(number)
    return .posted(CachedComment(comment, issue: number))
  }

  /// Looks for a draft that was sent among the issue's comments on GitHub.
  private func findPosted(_ draft: CommentDraft) async throws(CommentPostFailure)
    -> CachedComment?
  {
    let fetcher = ConversationFetcher(client: client, cache: cache, repository: repository)
    do {
      _ = try await fetcher.fetch(draft.issue, force: true)
    } catch {
      throw .unconfirmed(error)
    }
    let comments: [CachedComment]
    do {
      comments = try cache.comments(of: draft.issue)
    } catch {
      throw .local("could not read the cached comments: \(error)")
    }
    return comments.last { draft.matches($0) }
  }

  private func settle(_ number: Int) throws(CommentPostFailure) {
    do {
      try drafts.remove(number)
    } catch {
      throw .local("the comment was posted, but its draft could not be deleted: \(error)")
    }
  }
}

/// A draft that was not posted; it stays on disk in every case.
public enum CommentPostFailure: Error, Sendable, CustomStringConvertible {
  /// There is no draft for the issue.
  case noDraft
  /// GitHub refused it (a 4xx): nothing was created.
  case refused(GitHubError)
  /// The answer did not come, or GitHub failed: it may have been created; the next send checks
  /// before posting again.
  case unconfirmed(GitHubError)
  /// The draft could not be read or written.
  case local(String)

  public var description: String {
    switch self {
    case .noDraft: "there is no saved draft"
    case .refused(let error): "\(error) The draft is kept."
    case .unconfirmed(let error):
      "\(error) The draft is kept; sending it again first checks whether it landed."
    case .local(let text): text
    }
  }
}
