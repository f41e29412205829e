import Foundation

/// One check of a pull request's head commit: a check run (GitHub Actions and apps) or a
/// commit status (older integrations), folded into one shape for the reader.
///
/// Decoded from `GET /repos/{owner}/{repo}/commits/{ref}/check-runs` (``CheckRunList``) and
/// `…/commits/{ref}/status` (``CombinedStatus``).
package struct PullRequestCheck: Hashable, Sendable {
  /// Where a check stands.
  package enum State: String, Hashable, Sendable, CaseIterable {
    /// It passed.
    case passing
    /// It failed, errored, timed out, was cancelled or needs an action.
    case failing
    /// It is queued or running.
    case pending
    /// It finished without a verdict (neutral or skipped).
    case neutral
  }

  /// What kind of check it is, as GitHub's GraphQL names it.
  package enum Kind: String, Hashable, Sendable {
    /// A check run (`CheckRun`).
    case checkRun = "CheckRun"
    /// A commit status (`StatusContext`).
    case status = "StatusContext"
  }

  /// The check's name (a check run's name, a status's context).
  package var name: String
  /// Where it stands.
  package var state: State
  /// Its page, when it has one.
  package var url: String?
  /// A check run or a status.
  package var kind: Kind
  /// GitHub's own word for where it stands, lowercase: a finished run's conclusion
  /// (`success`, `timed_out`…), an unfinished run's status (`queued`, `in_progress`), a
  /// status's state (`success`, `error`, `pending`…).
  package var conclusion: String
  /// When a check run started, or a status was posted.
  package var startedAt: Date?
  /// When a check run completed.
  package var completedAt: Date?
  /// Where the check's own app points for its details: gh's `detailsUrl`.
  ///
  /// A GitHub Actions job's page, a CI service's build; a status's is its ``url``.
  package var detailsURL: String?
  /// The name of the GitHub Actions workflow a check run belongs to; empty for other checks.
  package var workflowName: String

  /// Creates one.
  package init(
    name: String, state: State, url: String? = nil, kind: Kind = .checkRun,
    conclusion: String? = nil, startedAt: Date? = nil, completedAt: Date? = nil,
    detailsURL: String? = nil, workflowName: String = ""
  ) {
    self.name = name
    self.state = state
    self.url = url
    self.kind = kind
    self.startedAt = startedAt
    self.completedAt = completedAt
    self.detailsURL = detailsURL
    self.workflowName = workflowName
    let word: String =
      switch state {
      case .passing: "success"
      case .failing: "failure"
      case .pending: "in_progress"
      case .neutral: "neutral"
      }
    self.conclusion = conclusion ?? word
  }

  /// The checks rolled up as GitHub does: failing when one fails, pending when one is not done,
  /// passing otherwise; `nil` when there are none.
  package static func rollup(_ checks: [PullRequestCheck]) -> PullRequestDetails.Checks? {
    guard !checks.isEmpty else { return nil }
    if checks.contains(where: { $0.state == .failing }) { return .failing }
    if checks.contains(where: { $0.state == .pending }) { return .pending }
    return .passing
  }
}

/// A page of a commit's check runs, with the total GitHub announces.
package struct CheckRunList: Decodable, Hashable, Sendable {
  /// How many check runs the commit has (more than a page holds, at times).
  package var totalCount: Int
  /// The check runs of this page, those that could be read.
  package var checks: [PullRequestCheck]
  /// The check suite of each GitHub Actions run among ``checks``, by position: the suites
  /// whose workflow names ``named(by:)`` fills in.
  package var actionsSuites: [Int: Int64]

  enum CodingKeys: String, CodingKey {
    case totalCount = "total_count"
    case checkRuns = "check_runs"
  }

  struct Run: Decodable {
    struct App: Decodable { var slug: String? }
    struct Suite: Decodable { var id: Int64? }
    var name: String?
    var status: String?
    var conclusion: String?
    var html_url: String?
    var details_url: String?
    var started_at: Date?
    var completed_at: Date?
    var app: App?
    var check_suite: Suite?

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      // What says the run is one must read; what only describes it may be missing or odd.
      name = try container.decodeIfPresent(String.self, forKey: .name)
      status = try container.decodeIfPresent(String.self, forKey: .status)
      conclusion = try container.decodeIfPresent(String.self, forKey: .conclusion)
      html_url = (try? container.decodeIfPresent(String.self, forKey: .html_url)) ?? nil
      details_url = (try? container.decodeIfPresent(String.self, forKey: .details_url)) ?? nil
      started_at = (try? container.decodeIfPresent(Date.self, forKey: .started_at)) ?? nil
      completed_at = (try? container.decodeIfPresent(Date.self, forKey: .completed_at)) ?? nil
      app = (try? container.decodeIfPresent(App.self, forKey: .app)) ?? nil
      check_suite = (try? container.decodeIfPresent(Suite.self, forKey: .check_suite)) ?? nil
    }

    enum CodingKeys: String, CodingKey {
      case name, status, conclusion, html_url, details_url, started_at, completed_at, app
      case check_suite
    }
  }

  /// The checks with their workflows' names, given the names of the workflow runs by check
  /// suite (``GitHubClient/workflowNames(of:commit:)``).
  package func named(by workflows: [Int64: String]) -> [PullRequestCheck] {
    checks.enumerated().map { position, check in
      var check = check
      if let suite = actionsSuites[position], let name = workflows[suite] {
        check.workflowName = name
      }
      return check
    }
  }

  package init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    totalCount = max(0, (try? container.decodeIfPresent(Int.self, forKey: .totalCount)) ?? 0)
    let runs = try container.decode([LossyElement<Run>].self, forKey: .checkRuns)
      .compactMap(\.item)
    var suites: [Int: Int64] = [:]
    for (position, run) in runs.enumerated() where run.app?.slug == "github-actions" {
      suites[position] = run.check_suite?.id
    }
    actionsSuites = suites
    checks = runs.map { run in
      let state: PullRequestCheck.State =
        switch (run.status, run.conclusion) {
        case ("completed", "success"): .passing
        case ("completed", "neutral"), ("completed", "skipped"), ("completed", "stale"): .neutral
        case ("completed", _): .failing
        default: .pending
        }
      return PullRequestCheck(
        name: run.name ?? "check", state: state, url: run.html_url ?? run.details_url,
        kind: .checkRun,
        conclusion: (run.status == "completed" ? run.conclusion : run.status) ?? "queued",
        startedAt: run.started_at, completedAt: run.completed_at, detailsURL: run.details_url)
    }
  }
}

/// A commit's statuses, the latest of each context, with the total GitHub announces.
package struct CombinedStatus: Decodable, Hashable, Sendable {
  /// How many contexts the commit has.
  package var totalCount: Int
  /// The statuses that could be read.
  package var checks: [PullRequestCheck]

  enum CodingKeys: String, CodingKey {
    case totalCount = "total_count"
    case statuses
  }

  struct Status: Decodable {
    var context: String?
    var state: String?
    var target_url: String?
    var created_at: Date?

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      context = (try? container.decodeIfPresent(String.self, forKey: .context)) ?? nil
      state = (try? container.decodeIfPresent(String.self, forKey: .state)) ?? nil
      target_url = (try? container.decodeIfPresent(String.self, forKey: .target_url)) ?? nil
      created_at = (try? container.decodeIfPresent(Date.self, forKey: .created_at)) ?? nil
    }

    enum CodingKeys: String, CodingKey { case context, state, target_url, created_at }
  }

  package init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let statuses =
      (try? container.decodeIfPresent([LossyElement<Status>].self, forKey: .statuses)) ?? []
    checks = statuses.compactMap(\.item).map { status in
      let state: PullRequestCheck.State =
        switch status.state {
        case "success": .passing
        case "failure", "error": .failing
        default: .pending
        }
      return PullRequestCheck(
        name: status.context ?? "status", state: state, url: status.target_url, kind: .status,
        conclusion: status.state ?? "pending", startedAt: status.created_at,
        detailsURL: status.target_url)
    }
    totalCount = max(
      checks.count, (try? container.decodeIfPresent(Int.self, forKey: .totalCount)) ?? 0)
  }
}
