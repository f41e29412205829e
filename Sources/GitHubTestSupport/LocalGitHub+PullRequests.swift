import Foundation
import GitHubIssues

// A pull request's REST conversation, made up from its number like its GraphQL details
// (``LocalGitHub/pullRequestDetails(_:)``) so the two agree: the pull request itself, reviews
// in its timeline, line comments with a reply, and its head commit's checks and statuses.

extension LocalGitHub {
  /// The answer for a pull request's REST paths (`pulls/N`, `pulls/N/comments`,
  /// `pulls/N/reviews`, the PR's `issues/N/timeline`, `commits/SHA/check-runs`,
  /// `commits/SHA/status`, `actions/runs`) when nothing was recorded there; `nil` for any
  /// other path.
  func pullRequestRoute(at path: String) throws -> Route? {
    guard routes[path] == nil else { return nil }
    let parts = path.split(separator: "/").map(String.init)
    guard parts.count >= 5, parts[0] == "repos" else { return nil }
    let listing = "/repos/\(parts[1])/\(parts[2])/issues"
    let rest = Array(parts[3...])
    func pull(_ number: Int) -> [String: Any]? {
      guard
        let json = listings[listing]?.items.first(where: { $0.number == number })?.json,
        let object = try? JSONSerialization.jsonObject(with: json) as? [String: Any],
        object["pull_request"] != nil
      else { return nil }
      return object
    }
    let body: Any
    switch rest {
    case let r where r.count == 2 && r[0] == "pulls":
      guard let number = Int(r[1]), let object = pull(number) else { return nil }
      var pull = Self.restPullRequest(object)
      let pullPath = "/repos/\(parts[1])/\(parts[2])/pulls/\(number)"
      var head = pull["head"] as? [String: Any] ?? [:]
      head["repo"] = ["full_name": pullHeadRepositories[pullPath] ?? "\(parts[1])/\(parts[2])"]
      if let branch = pullHeadBranches[pullPath] { head["ref"] = branch }
      if let pushed = servedPullFiles[pullPath]?.head { head["sha"] = pushed }
      pull["head"] = head
      // The line comments of the reviews submitted here count too.
      let posted = postedReviews["/repos/\(parts[1])/\(parts[2])/pulls/\(number)"] ?? []
      pull["review_comments"] =
        (pull["review_comments"] as? Int ?? 0) + posted.reduce(0) { $0 + $1.comments.count }
      body = pull
    case let r where r.count == 3 && r[0] == "pulls" && r[2] == "comments":
      guard let number = Int(r[1]), pull(number) != nil else { return nil }
      body = Self.reviewComments(of: number)
    case let r where r.count == 3 && r[0] == "pulls" && r[2] == "reviews":
      guard let number = Int(r[1]), pull(number) != nil else { return nil }
      // The same reviews as the timeline's, as the reviews list shapes them.
      body = Self.reviews(of: number).map { event in
        var review = event
        review["event"] = nil
        review["state"] = (event["state"] as? String)?.uppercased()
        return review
      }
    case let r where r.count == 3 && r[0] == "issues" && r[2] == "timeline":
      guard let number = Int(r[1]), pull(number) != nil else { return nil }
      body = Self.reviews(of: number)
    case let r where r.count == 3 && r[0] == "commits" && r[2] == "check-runs":
      guard let number = Self.number(ofCommit: r[1]), pull(number) != nil else { return nil }
      body = Self.checkRuns(of: number)
    case let r where r.count == 3 && r[0] == "commits" && r[2] == "status":
      guard let number = Self.number(ofCommit: r[1]), pull(number) != nil else { return nil }
      body = [
        "state": "success", "total_count": 1,
        "statuses": [
          [
            "context": "ci/lint", "state": "success", "target_url": NSNull(),
            "created_at": Self.checkTime(of: number, 5),
          ]
        ],
      ]
    case ["actions", "runs"]:
      // Every head commit has one workflow run, `CI`, in the build's check suite.
      body = [
        "total_count": 1,
        "workflow_runs": [["id": 1, "name": "CI", "check_suite_id": 7_000, "head_sha": ""]],
      ]
    default: return nil
    }
    return Route(
      status: 200, headers: ["content-type": "application/json; charset=utf-8"],
      body: try JSONSerialization.data(withJSONObject: body))
  }

  /// The head commit of pull request `number`: its number in hexadecimal, 40 digits.
  package static func headSHA(of number: Int) -> String {
    let digits = String(number, radix: 16)
    return String(repeating: "0", count: max(0, 40 - digits.count)) + digits
  }

  static func number(ofCommit sha: String) -> Int? {
    guard sha.utf8.count == 40 else { return nil }
    return Int(sha, radix: 16)
  }

  /// `GET pulls/N`, agreeing with the GraphQL details.
  static func restPullRequest(_ object: [String: Any]) -> [String: Any] {
    let details = pullRequestDetails(object)
    let number = object["number"] as? Int ?? 0
    let requested = (details["reviewRequests"] as? [String: Any])?["nodes"] as? [[String: Any]]
    var users: [[String: Any]] = []
    var teams: [[String: Any]] = []
    for request in requested ?? [] {
      guard let reviewer = request["requestedReviewer"] as? [String: Any] else { continue }
      if let login = reviewer["login"] as? String {
        users.append(["login": login, "id": 9_000 + login.count])
      } else if let slug = (reviewer["combinedSlug"] as? String)?.split(separator: "/").last {
        teams.append(["slug": String(slug), "name": reviewer["name"] ?? String(slug)])
      }
    }
    return [
      "number": number, "state": object["state"] ?? "open",
      "updated_at": object["updated_at"] ?? NSNull(), "draft": object["draft"] ?? false,
      "merged_at": details["mergedAt"] ?? NSNull(),
      "head": ["ref": details["headRefName"] ?? "", "sha": headSHA(of: number)],
      "base": ["ref": details["baseRefName"] ?? "main"],
      "additions": details["additions"] ?? 0, "deletions": details["deletions"] ?? 0,
      "mergeable": (details["mergeable"] as? String) == "CONFLICTING" ? false : true,
      "review_comments": reviewComments(of: number).count,
      "requested_reviewers": users, "requested_teams": teams,
    ]
  }

  /// The reviews in a pull request's timeline: the latest review of the GraphQL details, with a
  /// body, and for those with changes requested an answer by the author.
  static func reviews(of number: Int) -> [[String: Any]] {
    let time = { (offset: Int) in
      timestamp(Date(timeIntervalSince1970: 1_650_000_000 + Double(number * 1_000 + offset)))
    }
    func review(_ id: Int, _ login: String, _ state: String, _ body: String, _ offset: Int)
      -> [String: Any]
    {
      [
        "event": "reviewed", "id": id, "node_id": "PRR_kwDO\(id)",
        "user": ["login": login, "id": 9_000 + login.count], "state": state, "body": body,
        "submitted_at": time(offset), "author_association": "MEMBER",
        "commit_id": headSHA(of: number),
      ]
    }
    switch number % 4 {
    case 0: return [review(number * 10 + 1, "hubot", "approved", "Looks good to me.", 10)]
    case 1:
      return [
        review(number * 10 + 1, "mona", "changes_requested", "Please cover the empty case.", 10),
        review(number * 10 + 2, "octocat", "commented", "", 20),
      ]
    default: return []
    }
  }

  /// Line comments: for a pull request with changes requested, one by the reviewer and a reply.
  static func reviewComments(of number: Int) -> [[String: Any]] {
    guard number % 4 == 1 else { return [] }
    let time = { (offset: Int) in
      timestamp(Date(timeIntervalSince1970: 1_650_000_000 + Double(number * 1_000 + offset)))
    }
    let hunk = "@@ -10,3 +10,4 @@ struct Parser {\n   let input: String\n+  var index = 0"
    return [
      [
        "id": number * 100 + 1, "pull_request_review_id": number * 10 + 1,
        "user": ["login": "mona", "id": 9_004], "body": "What if `input` is empty?",
        "path": "Sources/Parser.swift", "line": 12, "diff_hunk": hunk,
        "created_at": time(9), "author_association": "MEMBER",
      ],
      [
        "id": number * 100 + 2, "pull_request_review_id": number * 10 + 2,
        "in_reply_to_id": number * 100 + 1, "user": ["login": "octocat", "id": 9_007],
        "body": "Covered in the next commit.", "path": "Sources/Parser.swift", "line": 12,
        "diff_hunk": hunk, "created_at": time(19), "author_association": "OWNER",
      ],
    ]
  }

  /// Check runs agreeing with the GraphQL rollup: passing, failing, pending in turn.
  static func checkRuns(of number: Int) -> [String: Any] {
    func run(_ name: String, _ status: String, _ conclusion: Any) -> [String: Any] {
      [
        "name": name, "status": status, "conclusion": conclusion,
        "html_url": "https://github.com/checks/\(number)/\(name)",
        "details_url": "https://github.com/acme/widgets/actions/runs/\(number)/job/\(name)",
        "started_at": checkTime(of: number, 1),
        "completed_at": status == "completed" ? checkTime(of: number, 3) : NSNull(),
        // The build is GitHub Actions', named by its workflow run; the test is another app's.
        "app": ["slug": name == "build" ? "github-actions" : "ci-service"],
        "check_suite": ["id": name == "build" ? 7_000 : 7_001],
      ]
    }
    let runs: [[String: Any]] =
      switch number % 3 {
      case 0: [run("build", "completed", "success"), run("test", "completed", "success")]
      case 1: [run("build", "completed", "success"), run("test", "completed", "failure")]
      default: [run("build", "completed", "success"), run("test", "in_progress", NSNull())]
      }
    return ["total_count": runs.count, "check_runs": runs]
  }

  /// A time of pull request `number`'s checks, `offset` seconds into them.
  static func checkTime(of number: Int, _ offset: Int) -> String {
    timestamp(Date(timeIntervalSince1970: 1_660_000_000 + Double(number * 100 + offset)))
  }
}
