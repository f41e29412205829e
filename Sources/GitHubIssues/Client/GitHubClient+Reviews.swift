import Foundation

// Writing a pull request review, and reading back what a review made: the outbox's landed
// check for a review whose answer was lost.

extension GitHubClient {
  /// Submits a review with its line comments in one request
  /// (`POST /repos/{owner}/{repo}/pulls/{number}/reviews`) and returns it as GitHub made it.
  ///
  /// It is sent once: a review sent twice is two reviews. ``ActionReplayer`` settles a lost
  /// answer by reading the pull request's reviews before anything is sent again.
  package func submitReview(
    _ review: ReviewSubmission, onPullRequest number: Int, in repository: RepositoryName
  ) async throws(GitHubError) -> PullRequestReview {
    var body: [String: Any] = ["event": review.verdict.event, "body": review.body]
    if let commit = review.commitID { body["commit_id"] = commit }
    if !review.comments.isEmpty {
      body["comments"] = review.comments.map { comment in
        var item: [String: Any] = [
          "path": comment.path, "line": comment.line, "side": comment.side.rawValue,
          "body": comment.body,
        ]
        if let start = comment.startLine, start != comment.line {
          item["start_line"] = start
          item["start_side"] = (comment.startSide ?? comment.side).rawValue
        }
        return item
      }
    }
    return try await writeJSON(
      "POST", "/repos/\(repository.owner)/\(repository.name)/pulls/\(number)/reviews", body,
      as: PullRequestReview.self)
  }

  /// Replies to a thread of line comments
  /// (`POST /repos/{owner}/{repo}/pulls/{number}/comments/{id}/replies`, the thread's first
  /// comment), once: a lost answer is settled by listing the line comments.
  package func reply(
    _ reply: ThreadReply, onPullRequest number: Int, in repository: RepositoryName
  ) async throws(GitHubError) -> ReviewComment {
    try await writeJSON(
      "POST",
      "/repos/\(repository.owner)/\(repository.name)/pulls/\(number)/comments/"
        + "\(reply.commentID)/replies", ["body": reply.body], as: ReviewComment.self)
  }

  /// The pages of a pull request's reviews, in the order they were submitted, 100 a page.
  ///
  /// GitHub documents the order as chronological. An item that cannot be read fails its page.
  package func reviewPages(of repository: RepositoryName, pullRequest number: Int)
    -> PageSequence<PullRequestReview>
  {
    pages(
      from: host.url(
        "/repos/\(repository.owner)/\(repository.name)/pulls/\(number)/reviews",
        query: [URLQueryItem(name: "per_page", value: "100")]),
      of: PullRequestReview.self, conditional: false)
  }

  /// The pages of the line comments one review made, 100 a page.
  package func reviewCommentPages(
    of repository: RepositoryName, pullRequest number: Int, review id: Int64
  ) -> PageSequence<ReviewComment> {
    pages(
      from: host.url(
        "/repos/\(repository.owner)/\(repository.name)/pulls/\(number)/reviews/\(id)/comments",
        query: [URLQueryItem(name: "per_page", value: "100")]),
      of: ReviewComment.self, conditional: false)
  }
}
