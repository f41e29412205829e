import Foundation

// The REST endpoints of a pull request's conversation beyond its issue: the pull request
// itself, its line comments, and its head commit's checks.

extension GitHubClient {
  /// One pull request by number: branches, head commit, size, mergeability, reviewers.
  package func pullRequest(_ number: Int, of repository: RepositoryName)
    async throws(GitHubError) -> GitHubPullRequest
  {
    let url = host.url("/repos/\(repository.owner)/\(repository.name)/pulls/\(number)")
    let (response, _) = try await fetch(url, conditional: false)
    return try decode(GitHubPullRequest.self, from: response, url: url)
  }

  /// Merges a pull request (`PUT …/pulls/N/merge`) at the head commit it names: GitHub
  /// refuses it (409) if the branch moved since, and (405) when it cannot be merged, saying why.
  ///
  /// Sent once: the outbox reads the pull request before sending again.
  package func mergePullRequest(
    _ number: Int, _ merge: PullRequestMerge, in repository: RepositoryName
  ) async throws(GitHubError) {
    var body: [String: Any] = ["merge_method": merge.method.rawValue, "sha": merge.headSHA]
    if let subject = merge.subject { body["commit_title"] = subject }
    if let message = merge.body { body["commit_message"] = message }
    struct Answer: Decodable { var merged: Bool? }
    _ = try await writeJSON(
      "PUT", "/repos/\(repository.owner)/\(repository.name)/pulls/\(number)/merge", body,
      as: Answer.self)
  }

  /// Deletes a branch of the repository (`DELETE …/git/refs/heads/NAME`); one already gone
  /// (422) is deleted.
  package func deleteBranch(_ name: String, in repository: RepositoryName)
    async throws(GitHubError)
  {
    let url = host.url(try branchPath(name, in: repository, under: "refs"))
    let response: HTTPResponse
    do {
      response = try await fetch(url, write: Write(method: "DELETE", body: nil), conditional: false)
        .response
    } catch  where error.code == .validation {
      return
    }
    guard (200..<300).contains(response.status) else {
      throw GitHubError(
        .unexpectedStatus, method: "DELETE", url: url.absoluteString, status: response.status,
        sentToken: isAuthenticated)
    }
  }

  /// Whether the repository has a branch of this name (`GET …/git/ref/heads/NAME`: 404 when
  /// it has none).
  package func hasBranch(_ name: String, in repository: RepositoryName)
    async throws(GitHubError) -> Bool
  {
    do {
      _ = try await send(
        host.url(try branchPath(name, in: repository, under: "ref")), conditional: false)
      return true
    } catch  where error.code == .notFound {
      return false
    }
  }

  /// The commit a branch of the repository points at (`GET …/git/ref/heads/NAME`), or `nil`
  /// when it has no such branch.
  package func branchHead(_ name: String, in repository: RepositoryName)
    async throws(GitHubError) -> String?
  {
    struct Reference: Decodable {
      struct Object: Decodable { var sha: String? }
      var object: Object?
    }
    do {
      let url = host.url(try branchPath(name, in: repository, under: "ref"))
      let response = try await send(url, conditional: false)
      return try decode(Reference.self, from: response, url: url).object?.sha?.lowercased()
    } catch  where error.code == .notFound {
      return nil
    }
  }

  /// The path of a branch under `…/git/ref` or `…/git/refs`, its segments escaped.
  ///
  /// A name can never reach another path. A name git would refuse (`..`, an empty or `.` segment, a control
  /// character) is refused here, before any request: it comes from GitHub, and a `..` could
  /// make a `DELETE` reach another resource.
  private func branchPath(_ name: String, in repository: RepositoryName, under kind: String)
    throws(GitHubError) -> String
  {
    let parts = name.split(separator: "/", omittingEmptySubsequences: false)
    guard !name.isEmpty, name.utf8.count <= 255, !name.contains(".."),
      !parts.contains(where: { $0.isEmpty || $0.hasPrefix(".") || $0.hasSuffix(".lock") }),
      !name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
    else {
      throw GitHubError(
        .decoding, url: "branch \(name)", detail: "not a branch name git would accept")
    }
    let segments = name.split(separator: "/", omittingEmptySubsequences: false).map {
      $0.addingPercentEncoding(withAllowedCharacters: Self.pathSegmentCharacters) ?? String($0)
    }
    return "/repos/\(repository.owner)/\(repository.name)/git/\(kind)/heads/"
      + segments.joined(separator: "/")
  }

  /// The pages of a pull request's files, 100 a page, in GitHub's order (3,000 files at most).
  package func pullRequestFilePages(
    of repository: RepositoryName, pullRequest number: Int
  ) -> PageSequence<PullRequestFile> {
    pages(
      from: host.url(
        "/repos/\(repository.owner)/\(repository.name)/pulls/\(number)/files",
        query: [URLQueryItem(name: "per_page", value: "100")]),
      of: PullRequestFile.self, conditional: false)
  }

  /// How a pull request's whole change is written: one diff, or a patch per commit.
  package enum WholeChangeFormat: Sendable {
    /// The diff media type: the change as one `git diff`.
    case diff
    /// The patch media type: each commit as `git format-patch` writes it (mbox).
    case patch

    var mediaType: String {
      switch self {
      case .diff: "application/vnd.github.diff"
      case .patch: "application/vnd.github.patch"
      }
    }
  }

  /// A pull request's whole change as git writes it (the diff media type, or with `.patch` one
  /// patch per commit), or `nil` when GitHub will not give it (too large: it answers 406 or
  /// 422).
  package func pullRequestDiff(
    of repository: RepositoryName, pullRequest number: Int, as format: WholeChangeFormat = .diff
  ) async throws(GitHubError) -> String? {
    let url = host.url("/repos/\(repository.owner)/\(repository.name)/pulls/\(number)")
    do {
      let (response, _) = try await fetch(
        url, write: nil, conditional: false, headers: ["Accept": format.mediaType])
      return String(decoding: response.body, as: UTF8.self)
    } catch  where [406, 422].contains(error.status ?? 0) {
      return nil
    }
  }

  /// The pages of a pull request's line comments, 100 a page, oldest first unless
  /// `newestFirst` (a walk that needs only the recent ones, where a comment deleted among the
  /// older ones cannot shift what it still has to read).
  package func reviewCommentPages(
    of repository: RepositoryName, pullRequest number: Int, newestFirst: Bool = false
  ) -> PageSequence<ReviewComment> {
    pages(
      from: host.url(
        "/repos/\(repository.owner)/\(repository.name)/pulls/\(number)/comments",
        query: [
          URLQueryItem(name: "sort", value: "created"),
          URLQueryItem(name: "direction", value: newestFirst ? "desc" : "asc"),
          URLQueryItem(name: "per_page", value: "100"),
        ]),
      of: ReviewComment.self, conditional: false)
  }

  /// A pull request's reviews, oldest first: the first 100 (enough to tell each reviewer's
  /// latest; a pending one is the token owner's own, not submitted).
  package func reviews(of repository: RepositoryName, pullRequest number: Int)
    async throws(GitHubError) -> [PullRequestReview]
  {
    let url = host.url(
      "/repos/\(repository.owner)/\(repository.name)/pulls/\(number)/reviews",
      query: [URLQueryItem(name: "per_page", value: "100")])
    let (response, _) = try await fetch(url, conditional: false)
    return try decode([LossyElement<PullRequestReview>].self, from: response, url: url)
      .compactMap(\.item)
  }

  /// The first 100 check runs of a commit (named by its hexadecimal SHA, as
  /// ``GitHubPullRequest/headSHA`` is), with how many it has.
  package func checkRuns(of repository: RepositoryName, commit sha: String)
    async throws(GitHubError) -> CheckRunList
  {
    let url = host.url(
      "/repos/\(repository.owner)/\(repository.name)/commits/\(sha)/check-runs",
      query: [URLQueryItem(name: "per_page", value: "100")])
    let (response, _) = try await fetch(url, conditional: false)
    return try decode(CheckRunList.self, from: response, url: url)
  }

  /// A commit's statuses (the latest of each context, the first 100), with how many it has.
  package func combinedStatus(of repository: RepositoryName, commit sha: String)
    async throws(GitHubError) -> CombinedStatus
  {
    let url = host.url(
      "/repos/\(repository.owner)/\(repository.name)/commits/\(sha)/status",
      query: [URLQueryItem(name: "per_page", value: "100")])
    let (response, _) = try await fetch(url, conditional: false)
    return try decode(CombinedStatus.self, from: response, url: url)
  }

  /// The names of the GitHub Actions workflows run on a commit, by each run's check suite.
  ///
  /// A check run of GitHub Actions names only its suite: this says its workflow. The first 100
  /// runs of the commit.
  package func workflowNames(of repository: RepositoryName, commit sha: String)
    async throws(GitHubError) -> [Int64: String]
  {
    let url = host.url(
      "/repos/\(repository.owner)/\(repository.name)/actions/runs",
      query: [
        URLQueryItem(name: "head_sha", value: sha), URLQueryItem(name: "per_page", value: "100"),
      ])
    let (response, _) = try await fetch(url, conditional: false)
    return try decode(WorkflowRunList.self, from: response, url: url).names
  }
}

/// `GET /repos/{owner}/{repo}/actions/runs`: each run's workflow name by its check suite.
struct WorkflowRunList: Decodable {
  struct Run: Decodable {
    var name: String?
    var check_suite_id: Int64?
  }
  var workflow_runs: [LossyElement<Run>]

  var names: [Int64: String] {
    Dictionary(
      workflow_runs.compactMap(\.item).compactMap { run in
        run.check_suite_id.map { ($0, run.name ?? "") }
      }, uniquingKeysWith: { first, _ in first })
  }
}
