import FlyingFox
import Foundation
import GitHubIssues

// Reviews written here: `POST …/pulls/N/reviews` with its line comments, refused as GitHub
// refuses them, and read back through the reviews list (paged, in the order submitted), one
// review's comments, the pull request's comments and its timeline.

extension LocalGitHub {
  /// A review submitted here.
  struct PostedReview {
    var id: Int
    var login: String
    var state: String
    var body: String
    var commitID: String
    var submittedAt: String
    var comments: [[String: Any]]

    var json: [String: Any] {
      [
        "id": id, "node_id": "PRR_kwDO\(id)", "user": ["login": login, "id": 77],
        "state": state, "body": body, "commit_id": commitID, "submitted_at": submittedAt,
        "author_association": "MEMBER",
      ]
    }
  }

  /// The reviews submitted here on pull request `number`, in order.
  package func submittedReviews(
    ofPullRequest number: Int, in repository: RepositoryName
  ) -> [(state: String, body: String, comments: [(path: String, line: Int, body: String)])] {
    // Replies are filed as reviews of their own, as GitHub files them.
    (postedReviews["/repos/\(repository.owner)/\(repository.name)/pulls/\(number)"] ?? []).map {
      review in
      (
        review.state, review.body,
        review.comments.map {
          ($0["path"] as? String ?? "", $0["line"] as? Int ?? 0, $0["body"] as? String ?? "")
        }
      )
    }
  }

  /// Makes a page of a pull request's line comments hold at most `size` (`nil`: as asked).
  package func setLineCommentPageSize(_ size: Int?) { lineCommentPageSize = size }

  /// Deletes the first comment of each of the next `pages` pages of line comments served
  /// (when it is one written here and more pages follow), right after serving it.
  package func deleteLineCommentsWhileListing(pages: Int) {
    lineCommentDeletionsWhileListing = pages
  }

  /// Has `login` write `count` line comments on pull request `number` in one review, all at
  /// `time` (so they tie on `created_at`), as a busy reviewer would.
  package func addLineComments(
    _ count: Int, by login: String, onPullRequest number: Int, in repository: RepositoryName,
    path: String, line: Int, at time: Date = Date()
  ) {
    let pull = "/repos/\(repository.owner)/\(repository.name)/pulls/\(number)"
    let now = Self.timestamp(time)
    lastReviewID += 1
    let comments: [[String: Any]] = (0..<count).map { index in
      nextCommentID += 1
      return [
        "id": nextCommentID, "pull_request_review_id": lastReviewID,
        "user": ["login": login, "id": 78], "body": "Note \(index)", "path": path,
        "line": line, "diff_hunk": "", "commit_id": Self.headSHA(of: number),
        "created_at": now, "updated_at": now, "author_association": "MEMBER",
      ]
    }
    postedReviews[pull, default: []].append(
      PostedReview(
        id: lastReviewID, login: login, state: "COMMENTED", body: "",
        commitID: Self.headSHA(of: number), submittedAt: now, comments: comments))
  }

  /// `POST …/pulls/N/comments/ID/replies`: a reply filed under a review of its own, as GitHub
  /// files replies; 404 for a comment the pull request does not have.
  func replyWrite(method: String, path: String, body: Data) throws -> Route? {
    let parts = path.split(separator: "/").map(String.init)
    guard method == "POST", parts.count == 8, parts[0] == "repos", parts[3] == "pulls",
      parts[5] == "comments", parts[7] == "replies", let number = Int(parts[4]),
      let parent = Int(parts[6])
    else { return nil }
    let pull = "/repos/\(parts[1])/\(parts[2])/pulls/\(number)"
    let known =
      Self.reviewComments(of: number) + (postedReviews[pull] ?? []).flatMap(\.comments)
    guard let root = known.first(where: { $0["id"] as? Int == parent }),
      let input = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any],
      let text = input["body"] as? String, !text.isEmpty
    else {
      return Route(
        status: 404, headers: ["content-type": "application/json"],
        body: Data(#"{"message": "Not Found"}"#.utf8))
    }
    let now = Self.timestamp(Date())
    lastReviewID += 1
    nextCommentID += 1
    var comment = root
    comment["id"] = nextCommentID
    comment["pull_request_review_id"] = lastReviewID
    comment["in_reply_to_id"] = parent
    comment["body"] = text
    comment["user"] = ["login": viewerLogin, "id": 77]
    comment["created_at"] = now
    comment["updated_at"] = now
    postedReviews[pull, default: []].append(
      PostedReview(
        id: lastReviewID, login: viewerLogin, state: "COMMENTED", body: "",
        commitID: root["commit_id"] as? String ?? Self.headSHA(of: number), submittedAt: now,
        comments: [comment]))
    if let target = IssuePath("/repos/\(parts[1])/\(parts[2])/issues/\(number)") {
      _ = try editIssue(target) { _ in nil }
    }
    return Route(
      status: 201, headers: ["content-type": "application/json"],
      body: try JSONSerialization.data(withJSONObject: comment))
  }

  /// `POST …/pulls/N/reviews`, as GitHub answers it; `nil` for other writes.
  func reviewWrite(method: String, path: String, body: Data) throws -> Route? {
    let parts = path.split(separator: "/").map(String.init)
    guard method == "POST", parts.count == 6, parts[0] == "repos", parts[3] == "pulls",
      parts[5] == "reviews", let number = Int(parts[4])
    else { return nil }
    let pull = "/repos/\(parts[1])/\(parts[2])/pulls/\(number)"
    func refuse(_ status: Int, _ message: String, _ errors: [String] = []) -> Route {
      var object: [String: Any] = ["message": message]
      if !errors.isEmpty { object["errors"] = errors }
      return Route(
        status: status, headers: ["content-type": "application/json"],
        body: (try? JSONSerialization.data(withJSONObject: object)) ?? Data())
    }
    guard
      let json = listings["/repos/\(parts[1])/\(parts[2])/issues"]?.items.first(where: {
        $0.number == number
      })?.json,
      let object = try JSONSerialization.jsonObject(with: json) as? [String: Any],
      object["pull_request"] != nil
    else { return refuse(404, "Not Found") }
    guard let input = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] else {
      return refuse(400, "Problems parsing JSON")
    }
    let states = [
      "COMMENT": "COMMENTED", "APPROVE": "APPROVED", "REQUEST_CHANGES": "CHANGES_REQUESTED",
    ]
    guard let event = input["event"] as? String, let state = states[event] else {
      return refuse(422, "Unprocessable Entity", ["event is not a submitted verdict"])
    }
    let text = input["body"] as? String ?? ""
    if event != "APPROVE", text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
      return refuse(422, "Unprocessable Entity", ["Body is required for \(event)"])
    }
    let author = (object["user"] as? [String: Any])?["login"] as? String
    if event != "COMMENT", author == viewerLogin {
      return refuse(
        422, "Unprocessable Entity",
        [
          event == "APPROVE"
            ? "Can not approve your own pull request"
            : "Can not request changes on your own pull request"
        ])
    }
    let served = servedPullFiles[pull]
    let commit = input["commit_id"] as? String ?? served?.head ?? Self.headSHA(of: number)
    guard commit.count == 40 else {
      return refuse(422, "Unprocessable Entity", ["commit_id is not part of the pull request"])
    }
    let now = Self.timestamp(Date())
    lastReviewID += 1
    let id = lastReviewID
    var comments: [[String: Any]] = []
    for item in input["comments"] as? [[String: Any]] ?? [] {
      guard let path = item["path"] as? String, let line = item["line"] as? Int,
        let commentBody = item["body"] as? String
      else { return refuse(422, "Unprocessable Entity", ["comments need a path, line and body"]) }
      let side = item["side"] as? String ?? "RIGHT"
      if let served {
        // A line GitHub can place: in the file's diff, on that side.
        guard let file = served.files.first(where: { $0.path == path }),
          let text = file.patch, let patch = try? Patch(parsing: text),
          patch.hunks.contains(where: { hunk in
            hunk.lines.contains { (side == "LEFT" ? $0.oldNumber : $0.newNumber) == line }
          })
        else {
          return refuse(422, "Unprocessable Entity", ["Line could not be resolved"])
        }
      }
      nextCommentID += 1
      var comment: [String: Any] = [
        "id": nextCommentID, "pull_request_review_id": id, "path": path, "line": line,
        "side": side, "body": commentBody, "created_at": now, "updated_at": now,
        "user": ["login": viewerLogin, "id": 77], "author_association": "MEMBER",
        "commit_id": commit, "diff_hunk": "@@ -\(line),1 +\(line),1 @@",
      ]
      if let start = item["start_line"] as? Int {
        comment["start_line"] = start
        comment["start_side"] = item["start_side"] ?? side
      }
      comments.append(comment)
    }
    let review = PostedReview(
      id: id, login: viewerLogin, state: state, body: text, commitID: commit, submittedAt: now,
      comments: comments)
    postedReviews[pull, default: []].append(review)
    // A review moves the pull request's update time, as any activity on it does.
    if let target = IssuePath("/repos/\(parts[1])/\(parts[2])/issues/\(number)") {
      _ = try editIssue(target) { _ in nil }
    }
    return Route(
      status: 200, headers: ["content-type": "application/json"],
      body: try JSONSerialization.data(withJSONObject: review.json))
  }

  /// `…/pulls/N/reviews` (paged by `per_page`), `…/pulls/N/reviews/ID/comments`,
  /// `…/pulls/N/comments` and the pull request's timeline, with the reviews submitted here;
  /// `nil` for a pull request with none (its made-up conversation answers) or another path.
  func reviewsRoute(_ request: FlyingFox.HTTPRequest) throws -> Route? {
    let parts = request.path.split(separator: "/").map(String.init)
    guard parts.count >= 6, parts[0] == "repos", ["pulls", "issues"].contains(parts[3]),
      let number = Int(parts[4])
    else { return nil }
    let pull = "/repos/\(parts[1])/\(parts[2])/pulls/\(number)"
    guard let posted = postedReviews[pull], routes[request.path] == nil else { return nil }
    let madeUp = Self.reviews(of: number).map { event in
      var review = event
      review["event"] = nil
      review["state"] = (event["state"] as? String)?.uppercased()
      return review
    }
    var headers = ["content-type": "application/json; charset=utf-8"]
    let body: Any
    switch (parts[3], Array(parts[5...])) {
    case ("pulls", ["reviews"]):
      body = self.page(madeUp + posted.map(\.json), of: request, headers: &headers).items
    case ("pulls", let rest) where rest.count == 3 && rest[0] == "reviews" && rest[2] == "comments":
      guard let id = Int(rest[1]) else { return nil }
      guard let review = posted.first(where: { $0.id == id }) else {
        body = Self.reviewComments(of: number).filter {
          $0["pull_request_review_id"] as? Int == id
        }
        break
      }
      body = review.comments
    case ("pulls", ["comments"]):
      let newestFirst = request.query.first { $0.name == "direction" }?.value == "desc"
      let all = (Self.reviewComments(of: number) + posted.flatMap(\.comments)).sorted {
        let (first, second) = ($0["created_at"] as? String ?? "", $1["created_at"] as? String ?? "")
        guard first == second else { return newestFirst ? first > second : first < second }
        // Comments of one second in the order least convenient for a reader that trusts ids.
        let (one, other) = ($0["id"] as? Int ?? 0, $1["id"] as? Int ?? 0)
        return newestFirst ? one < other : one > other
      }
      let served = self.page(all, of: request, limit: lineCommentPageSize, headers: &headers)
      body = served.items
      if served.more, lineCommentDeletionsWhileListing > 0,
        let first = served.items.first?["id"] as? Int,
        let index = postedReviews[pull]?.firstIndex(where: {
          $0.comments.contains { $0["id"] as? Int == first }
        })
      {
        lineCommentDeletionsWhileListing -= 1
        postedReviews[pull]?[index].comments.removeAll { $0["id"] as? Int == first }
      }
    case ("issues", ["timeline"]):
      body =
        Self.reviews(of: number)
        + posted.map { review in
          var event = review.json
          event["event"] = "reviewed"
          event["state"] = review.state.lowercased()
          return event
        }
    default: return nil
    }
    return Route(
      status: 200, headers: headers, body: try JSONSerialization.data(withJSONObject: body))
  }

  /// One page of `items` as `request` asks for it (`per_page`, default 30, at most 100 or
  /// `limit`; `page`), with a `Link` header to the next and last pages that keeps the
  /// request's other parameters; `more` when pages follow.
  func page(
    _ items: [[String: Any]], of request: FlyingFox.HTTPRequest, limit: Int? = nil,
    headers: inout [String: String]
  ) -> (items: [[String: Any]], more: Bool) {
    let asked = Int(request.query.first { $0.name == "per_page" }?.value ?? "") ?? 30
    let perPage = max(1, min(100, limit ?? 100, asked))
    let page = max(1, Int(request.query.first { $0.name == "page" }?.value ?? "") ?? 1)
    let pageCount = max(1, (items.count + perPage - 1) / perPage)
    guard page < pageCount else {
      return (Array(items.dropFirst((page - 1) * perPage).prefix(perPage)), false)
    }
    let kept = request.query.filter { !["page", "per_page"].contains($0.name) }
      .map { "\($0.name)=\($0.value)" }
    let base =
      "\(baseURL.absoluteString)\(request.path)?"
      + (kept + ["per_page=\(perPage)"]).joined(separator: "&")
    headers["link"] =
      "<\(base)&page=\(page + 1)>; rel=\"next\", <\(base)&page=\(pageCount)>; rel=\"last\""
    return (Array(items.dropFirst((page - 1) * perPage).prefix(perPage)), true)
  }
}
