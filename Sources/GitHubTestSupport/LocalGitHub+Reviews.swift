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
      let all = madeUp + posted.map(\.json)
      let perPage = max(
        1, min(100, Int(request.query.first { $0.name == "per_page" }?.value ?? "") ?? 30))
      let page = max(1, Int(request.query.first { $0.name == "page" }?.value ?? "") ?? 1)
      let pageCount = max(1, (all.count + perPage - 1) / perPage)
      body = Array(all.dropFirst((page - 1) * perPage).prefix(perPage))
      if page < pageCount {
        let base = "\(baseURL.absoluteString)\(request.path)?per_page=\(perPage)"
        headers["link"] =
          "<\(base)&page=\(page + 1)>; rel=\"next\", <\(base)&page=\(pageCount)>; rel=\"last\""
      }
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
      body = Self.reviewComments(of: number) + posted.flatMap(\.comments)
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
}
