import Foundation

extension GitHubClient {
  /// Makes one change to an issue on GitHub, and returns the issue as GitHub has it afterwards.
  ///
  /// Every change but a label's is one request that answers with the issue; labels are added
  /// and removed through their own endpoints (so that a label someone else added meanwhile is
  /// kept), and the issue is read afterwards. Each request is sent once: a failure that may
  /// have reached the server is not retried, and reading the issue tells what happened.
  ///
  /// - Throws: ``GitHubError``: for a 4xx nothing changed; for anything else the change may
  ///   have landed, and reading the issue tells.
  public func apply(
    _ change: IssueChange, toIssue number: Int, of repository: RepositoryName
  ) async throws(GitHubError) -> GitHubIssue {
    let path = "/repos/\(repository.owner)/\(repository.name)/issues/\(number)"
    switch change {
    case .close(let reason):
      return try await write(
        "PATCH", path, ["state": "closed", "state_reason": reason.rawValue], as: GitHubIssue.self)
    case .reopen:
      return try await write(
        "PATCH", path, ["state": "open", "state_reason": "reopened"], as: GitHubIssue.self)
    case .setMilestone(let milestone):
      return try await write("PATCH", path, ["milestone": milestone], as: GitHubIssue.self)
    case .removeMilestone:
      return try await write("PATCH", path, ["milestone": NSNull()], as: GitHubIssue.self)
    case .addAssignees(let logins):
      return try await write(
        "POST", path + "/assignees", ["assignees": logins], as: GitHubIssue.self)
    case .removeAssignees(let logins):
      return try await write(
        "DELETE", path + "/assignees", ["assignees": logins], as: GitHubIssue.self)
    case .addLabels(let labels):
      _ = try await write("POST", path + "/labels", ["labels": labels], as: [GitHubLabel].self)
      return try await issue(number, of: repository)
    case .removeLabel(let label):
      let escaped =
        label.addingPercentEncoding(withAllowedCharacters: Self.pathSegmentCharacters) ?? label
      // The name is one segment, escaped here: URLComponents would let a `/` through.
      var components = URLComponents(
        url: host.url(path + "/labels"), resolvingAgainstBaseURL: false)
      components?.percentEncodedPath += "/" + escaped
      guard let url = components?.url else {
        throw GitHubError(.unexpectedStatus, method: "DELETE", url: path, detail: "label \(label)")
      }
      _ = try await write("DELETE", url, nil, as: [GitHubLabel].self)
      return try await issue(number, of: repository)
    }
  }

  /// Posts a comment on an issue and returns it as GitHub stored it.
  ///
  /// It is sent once: a comment posted twice shows twice, so a failure that may have reached
  /// the server is not retried. Whoever calls this keeps the text until it returns (the outbox,
  /// ``ActionReplayer``, does).
  package func postComment(
    _ body: String, onIssue number: Int, of repository: RepositoryName
  ) async throws(GitHubError) -> GitHubComment {
    try await write(
      "POST", "/repos/\(repository.owner)/\(repository.name)/issues/\(number)/comments",
      ["body": body], as: GitHubComment.self)
  }

  /// Files a new issue (`POST /repos/{owner}/{repo}/issues`) and returns it as GitHub filed it.
  ///
  /// It is sent once: an issue filed twice is two issues, so a failure that may have reached
  /// the server is not retried. The outbox (``ActionReplayer``) settles a lost answer by
  /// reading the viewer's newest issues before anything is sent again.
  package func createIssue(_ issue: NewIssue, in repository: RepositoryName)
    async throws(GitHubError) -> GitHubIssue
  {
    var body: [String: Any] = ["title": issue.title, "body": issue.body]
    if !issue.labels.isEmpty { body["labels"] = issue.labels }
    if !issue.assignees.isEmpty { body["assignees"] = issue.assignees }
    if let milestone = issue.milestone { body["milestone"] = milestone }
    if let type = issue.type { body["type"] = type }
    return try await write(
      "POST", "/repos/\(repository.owner)/\(repository.name)/issues", body, as: GitHubIssue.self)
  }

  /// Makes the issue with GitHub id `id` (not its number) a sub-issue of `parent`
  /// (`POST …/issues/{parent}/sub_issues`), and returns the parent as GitHub now holds it.
  ///
  /// Sent once; GitHub refuses a second parent, so a repeat cannot make a second link, but the
  /// outbox reads the issue's parent before sending again all the same.
  package func addSubIssue(id: Int64, toParent parent: Int, in repository: RepositoryName)
    async throws(GitHubError) -> GitHubIssue
  {
    try await write(
      "POST", "/repos/\(repository.owner)/\(repository.name)/issues/\(parent)/sub_issues",
      ["sub_issue_id": id], as: GitHubIssue.self)
  }

  /// The issue `number` is a sub-issue of (`GET …/issues/{number}/parent`), or `nil` when
  /// GitHub answers that it has none (404).
  package func parentIssue(of number: Int, in repository: RepositoryName)
    async throws(GitHubError) -> GitHubIssue?
  {
    do {
      return try await issuePath(
        "/repos/\(repository.owner)/\(repository.name)/issues/\(number)/parent")
    } catch  where error.code == .notFound {
      return nil
    }
  }

  /// A label's name as one path segment: `/` and `%` and anything else outside a segment are
  /// escaped, so that a name can never reach another path.
  static let pathSegmentCharacters: CharacterSet = {
    var allowed = CharacterSet.urlPathAllowed
    allowed.remove(charactersIn: "/%?#")
    return allowed
  }()

  private func write<T: Decodable>(
    _ method: String, _ path: String, _ body: [String: Any]?, as type: T.Type
  ) async throws(GitHubError) -> T {
    try await write(method, host.url(path), body, as: type)
  }

  /// A write of a JSON body to a path of the API, its answer decoded.
  func writeJSON<T: Decodable>(
    _ method: String, _ path: String, _ body: [String: Any]?, as type: T.Type
  ) async throws(GitHubError) -> T {
    try await write(method, host.url(path), body, as: type)
  }

  private func write<T: Decodable>(
    _ method: String, _ url: URL, _ body: [String: Any]?, as type: T.Type
  ) async throws(GitHubError) -> T {
    let data: Data?
    do {
      data = try body.map { try JSONSerialization.data(withJSONObject: $0, options: [.sortedKeys]) }
    } catch {
      throw GitHubError(.decoding, method: method, url: url.absoluteString, detail: "\(error)")
    }
    let (response, answered) = try await fetch(
      url, write: Write(method: method, body: data), conditional: false)
    guard (200..<300).contains(response.status) else {
      throw GitHubError(
        .unexpectedStatus, method: method, url: answered.absoluteString, status: response.status,
        sentToken: isAuthenticated)
    }
    do {
      return try decode(T.self, from: response, url: answered)
    } catch {
      var error = error
      error.method = method
      throw error
    }
  }
}
