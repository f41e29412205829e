import Foundation

/// A comment on an issue or a pull request's conversation through the outbox.
///
/// It landed when the issue's comments, listed completely, hold one with its body, written by
/// the viewer (the token's account, resolved before the first send and kept with the action),
/// newer than every comment of a listing of the issue taken right before the first send, and
/// not already claimed by another action. GitHub's comment ids grow, so "newer" is an id
/// comparison: no clock is trusted, the server's included. The same body by another author, or
/// by the viewer before the first send, is never ours.
struct CommentOperation: OutboxOperation {
  let outbox: ActionReplayer
  /// The comment's text.
  var body: String

  var needsViewer: Bool { true }

  func send(_ action: QueuedAction, on issue: GitHubIssue?, _ pass: ActionReplayer.Pass) async
    -> ActionReplayer.Outcome
  {
    let number = action.issueNumber
    var listedJustNow = false
    if wasSent(action) {
      switch await findPosted(action, viewer: pass.viewer) {
      case .success(let found?):
        guard markDone(action, commentID: found, onIssue: number) else {
          return .stop(cacheFailure())
        }
        return .foundLanded(nil)
      case .success(nil): listedJustNow = true
      case .failure(let error): return .stop(error)
      }
    }
    guard case .sendAndSettle = pass.sending else { return .held }
    guard let viewer = pass.viewer else {
      return .stop(
        unknownViewer(
          "comments of \(repository)#\(number)", "a lost answer could not be checked"))
    }
    let known: Int64?
    do {
      // Every comment on the issue now is older than the one this send makes: list them right
      // before the first send — a cache that looks current may have missed one written since
      // (the same "+1" on the web) — completely, or send nothing.
      if !listedJustNow {
        let outcome = try await ConversationFetcher(
          client: client, cache: cache, repository: repository
        ).fetch(number, force: true)
        if case .listed(let count, false, let announced, _) = outcome {
          return .stop(
            GitHubError(
              .incompleteListing, url: "comments of \(repository)#\(number)",
              detail: "it listed \(count) of \(announced) before sending a comment"))
        }
      }
      known = try cache.newestCommentID()
    } catch let error as GitHubError {
      return .stop(error)
    } catch {
      return .stop(cacheFailure())
    }
    do {
      guard
        try cache.markSending(
          action.id, viewer: viewer, knownCommentID: known ?? 0, knownEventID: nil, now: now())
      else { return .cancelledMeanwhile }
    } catch {
      return .stop(cacheFailure())
    }
    do {
      let comment = try await client.postComment(body, onIssue: number, of: repository)
      try? cache.markDone(
        action.id, issue: nil, comment: comment, commentID: comment.id, onIssue: number,
        now: now())
      return .sent(nil)
    } catch {
      let refusal: String? =
        switch error.code {
        case .notFound, .gone: "#\(number) is no longer on GitHub: \(error.summary())"
        default: OutboxLedger.refusal(error)
        }
      return failed(action, error, refusal: refusal)
    }
  }

  /// Looks for the comment an unanswered send may have made: listed completely, newer than
  /// every comment known at the first send, with the body, by the viewer recorded then (or
  /// resolved now, for an action sent before versions that record it), not claimed by another
  /// action.
  private func findPosted(_ action: QueuedAction, viewer: String?) async
    -> Result<Int64?, GitHubError>
  {
    let number = action.issueNumber
    do {
      let marks = try cache.landedCheckMarks(of: action.id)
      guard let author = marks.viewer ?? viewer else {
        return .failure(
          unknownViewer(
            "comments of \(repository)#\(number)", "whether a comment landed is not known"))
      }
      let outcome = try await ConversationFetcher(
        client: client, cache: cache, repository: repository
      ).fetch(number, force: true)
      if case .listed(let count, false, let announced, _) = outcome {
        return .failure(
          GitHubError(
            .incompleteListing, url: "comments of \(repository)#\(number)",
            detail: "it listed \(count) of \(announced): whether a comment landed is not known"))
      }
      let known = marks.knownCommentID ?? 0
      let claimed = try cache.claimedCommentIDs(onIssue: number)
      let wanted = Self.normalized(body)
      let found = try cache.comments(of: number).first { comment in
        comment.id > known && !claimed.contains(comment.id)
          && Self.normalized(comment.body) == wanted
          && comment.author.lowercased() == author.lowercased()
      }
      return .success(found?.id)
    } catch let error as GitHubError {
      return .failure(error)
    } catch {
      return .failure(cacheFailure())
    }
  }
}
