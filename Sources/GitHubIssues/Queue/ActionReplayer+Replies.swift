import Foundation

// A reply to a thread of line comments through the outbox, settled after a lost answer by
// listing the pull request's line comments before anything is sent twice.

extension ActionReplayer {
  /// Replies to a thread, or settles a reply sent without an answer.
  ///
  /// A lost answer is found among the pull request's line comments, listed whole: by the viewer
  /// recorded at the first send, newer than every line comment then, answering the thread's
  /// first comment, with the text, not claimed by another reply.
  func send(
    _ reply: ThreadReply, _ action: QueuedAction, _ issue: GitHubIssue, _ pass: Pass
  ) async -> Outcome {
    let number = issue.number
    let marks = (try? cache.landedCheckMarks(of: action.id)) ?? LandedCheckMarks()
    var newest: Int64?
    if case .sending = action.status {
      guard let viewer = marks.viewer ?? pass.viewer else {
        return .stop(
          GitHubError(
            .unauthorized, url: "line comments of \(repository)#\(number)",
            detail: "the token's account is not known: whether the reply landed is not known"))
      }
      switch await lineComments(ofPullRequest: number) {
      case .failure(let error): return .stop(error)
      case .success(let listed):
        let claimed: Set<Int64>
        do {
          claimed = try cache.claimedReplyIDs(onPullRequest: number)
        } catch {
          return .stop(cacheFailure())
        }
        let known = marks.knownCommentID ?? 0
        let wanted = Self.normalized(reply.body)
        if let found = listed.first(where: {
          $0.id > known && !claimed.contains($0.id) && $0.inReplyTo == reply.commentID
            && $0.author.lowercased() == viewer.lowercased()
            && Self.normalized($0.body) == wanted
        }) {
          guard markReplied(action, found.id, number) else { return .stop(cacheFailure()) }
          return .foundLanded(nil)
        }
        newest = listed.map(\.id).max() ?? 0
      }
    }
    guard case .sendAndSettle = pass.sending else { return .held }
    guard let viewer = pass.viewer else {
      return .stop(
        GitHubError(
          .unauthorized, url: "line comments of \(repository)#\(number)",
          detail: "the token's account is not known, so a lost answer could not be checked"))
    }
    if newest == nil {
      switch await lineComments(ofPullRequest: number) {
      case .success(let listed): newest = listed.map(\.id).max() ?? 0
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
    (try? cache.markDone(
      action.id, issue: nil, comment: nil, commentID: id, onIssue: number, now: now())) != nil
  }

  /// Every line comment of the pull request, oldest first; a listing longer than the limit, or
  /// an item that cannot be read, is a failure.
  private func lineComments(ofPullRequest number: Int) async
    -> Result<[ReviewComment], GitHubError>
  {
    await Self.whole(
      client.reviewCommentPages(of: repository, pullRequest: number),
      what: "line comments of \(repository)#\(number)")
  }
}
