import Foundation

/// A reply to a thread of line comments through the outbox, settled after a lost answer by
/// listing the pull request's line comments before anything is sent twice.
struct ReplyOperation: OutboxOperation {
  let outbox: ActionReplayer
  /// The thread, by its first comment, and the reply's text.
  var reply: ThreadReply

  var needsViewer: Bool { true }

  /// Replies to a thread, or settles a reply sent without an answer.
  ///
  /// A lost answer is found among the pull request's line comments, read newest first down to
  /// those known at the first send: by the viewer recorded then, newer than every line comment
  /// then, answering the thread's first comment, with the text, not claimed by another reply.
  func send(_ action: QueuedAction, on issue: GitHubIssue?, _ pass: ActionReplayer.Pass) async
    -> ActionReplayer.Outcome
  {
    let number = read(issue).number
    let marks = marks(of: action)
    var newest: Int64?
    if wasSent(action) {
      guard let viewer = marks.viewer ?? pass.viewer else {
        return .stop(
          unknownViewer(
            "line comments of \(repository)#\(number)", "whether the reply landed is not known"))
      }
      let known = marks.knownCommentID ?? 0
      let wanted = Self.normalized(reply.body)
      // Two whole reads before "not landed": a comment deleted between the pages of one read
      // shifts the ones after it up a page, and ours could be the one that slid past.
      for _ in 0..<2 {
        switch await lineComments(ofPullRequest: number, newerThan: known) {
        case .failure(let error): return .stop(error)
        case .success(let listed):
          let claimed: Set<Int64>
          do {
            claimed = try cache.claimedReplyIDs(onPullRequest: number)
          } catch {
            return .stop(cacheFailure())
          }
          if let found = listed.first(where: {
            $0.id > known && !claimed.contains($0.id) && $0.inReplyTo == reply.commentID
              && $0.author.lowercased() == viewer.lowercased()
              && Self.normalized($0.body) == wanted
          }) {
            guard markReplied(action, found.id, number) else { return .stop(cacheFailure()) }
            return .foundLanded(nil)
          }
          newest = max(newest ?? 0, listed.map(\.id).max() ?? 0)
        }
      }
    }
    guard case .sendAndSettle = pass.sending else { return .held }
    guard let viewer = pass.viewer else {
      return .stop(
        unknownViewer(
          "line comments of \(repository)#\(number)", "a lost answer could not be checked"))
    }
    if newest == nil {
      switch await newestLineCommentID(ofPullRequest: number) {
      case .success(let id): newest = id
      case .failure(let error): return .stop(error)
      }
    }
    do {
      guard
        try cache.markSending(
          action.id, viewer: viewer, knownCommentID: newest, knownEventID: nil,
          sending: .reply(reply), now: now())
      else { return .cancelledMeanwhile }
    } catch {
      return .stop(cacheFailure())
    }
    do {
      let made = try await client.reply(reply, onPullRequest: number, in: repository)
      guard markReplied(action, made.id, number) else { return .stop(cacheFailure()) }
      return .sent(nil)
    } catch {
      let refusal: String? =
        switch error.code {
        case .notFound, .validation:
          "GitHub refused the reply on #\(number) (the thread's comment gone?): "
            + error.summary()
        default: OutboxLedger.refusal(error)
        }
      return failed(action, error, refusal: refusal)
    }
  }

  private func markReplied(_ action: QueuedAction, _ id: Int64, _ number: Int) -> Bool {
    markDone(action, commentID: id, onIssue: number)
  }

  /// The pull request's line comments newest first, down to those older than the newest one
  /// known at the first send (a reply made after it cannot be older, so the walk stops
  /// there); more than ``ReviewOperation/pageLimit`` pages, or an item that cannot be read, is a failure.
  private func lineComments(ofPullRequest number: Int, newerThan known: Int64) async
    -> Result<[ReviewComment], GitHubError>
  {
    var items: [ReviewComment] = []
    // When the newest comment known then was written (second precision: a reply written after
    // it has this time or a later one).
    var floor: Date?
    var count = 0
    // Walked only down to the floor, so only what the pages read is judged: an item that
    // cannot be read may be the reply.
    var proof = ListingProof()
    do {
      for try await page in client.reviewCommentPages(
        of: repository, pullRequest: number, newestFirst: true)
      {
        count += 1
        guard count <= ReviewOperation.pageLimit else {
          return .failure(
            GitHubError(
              .incompleteListing, url: "line comments of \(repository)#\(number)",
              detail: "more than \(ReviewOperation.pageLimit) pages: not all were read"))
        }
        proof.record(page)
        guard proof.unreadable == 0 else {
          return .failure(
            GitHubError(
              .incompleteListing, url: "line comments of \(repository)#\(number)",
              detail: "an item could not be read: whether the reply landed is not known"))
        }
        items += page.items
        if floor == nil, let reached = page.items.first(where: { $0.id <= known }) {
          floor = reached.createdAt
        }
        if let floor, let last = page.items.last, last.createdAt < floor { break }
      }
    } catch {
      return .failure(error)
    }
    return .success(items)
  }

  /// The id of the newest line comment (0 for none), from the first page, newest first.
  ///
  /// Same-second comments come in any order, so a newer id on a later page is possible: the
  /// mark can only be too low, which widens the later search, never narrows it.
  private func newestLineCommentID(ofPullRequest number: Int) async -> Result<Int64, GitHubError> {
    do {
      for try await page in client.reviewCommentPages(
        of: repository, pullRequest: number, newestFirst: true)
      {
        return .success(page.items.map(\.id).max() ?? 0)
      }
      return .success(0)
    } catch {
      return .failure(error)
    }
  }
}
