import Foundation
import GitHubIssues

/// Where the cache stands against GitHub, as the status bar shows it.
public enum SyncStatus: Hashable, Sendable {
  /// No sync has been asked for (the data is the cache's).
  case cached(lastSynced: Date?)
  /// A sync is running.
  case syncing(SyncProgress?)
  /// The last sync finished at this time.
  case upToDate(Date)
  /// GitHub could not be reached; the data is from the last sync, if any.
  case offline(since: Date?)
  /// GitHub refuses requests until this time.
  case rateLimited(until: Date?)
  /// The repository is private or unknown and no token was found for its host.
  case missingToken(GitHubHost)
  /// The repository does not exist, or the token cannot see it.
  case notFound
  /// Any other failure, described.
  case failed(String)
  /// The bundled dataset, with no network.
  case demo

  /// The status a sync failure leaves, given whether a token was used and when data last arrived.
  public init(_ error: GitHubError, hadToken: Bool, lastSynced: Date?) {
    switch error.code {
    case .offline: self = .offline(since: lastSynced)
    case .rateLimited: self = .rateLimited(until: error.resetAt)
    case .unauthorized, .notFound, .forbidden:
      self =
        hadToken
        ? (error.code == .notFound ? .notFound : .failed(error.description))
        : .missingToken(error.host)
    default: self = .failed(error.description)
    }
  }

  /// The text of the status bar.
  func text(now: Date) -> String {
    switch self {
    case .cached(let date?): "cached \(RelativeAge.ago(date, now: now))"
    case .cached(nil): "not synced yet"
    case .syncing(let progress?):
      switch progress.phase {
      case .milestones: "syncing milestones…"
      case .labels: "syncing labels…"
      case .issues, .pullRequests: "syncing · \(progress.items) items, \(progress.pages) pages"
      case .conversations: "syncing conversations · \(progress.items)"
      case .subIssues: "syncing sub-issues…"
      case .saving: "saving \(progress.items) items…"
      }
    case .syncing(nil): "syncing…"
    case .upToDate(let date): "up to date · \(LocalTime.time(date))"
    case .offline(let date?): "offline · data from \(LocalTime.dateTime(date))"
    case .offline(nil): "offline · no data yet"
    case .rateLimited(let date?): "rate-limited until \(LocalTime.time(date))"
    case .rateLimited(nil): "rate-limited"
    case .missingToken(let host): "private or unknown repository: \(host.tokenAdvice)"
    case .notFound: "repository not found (or the token cannot see it)"
    case .failed(let message): "sync failed: \(message)"
    case .demo: "demo · bundled betamax data, no network"
    }
  }

  var isProblem: Bool {
    switch self {
    case .offline, .rateLimited, .missingToken, .notFound, .failed: true
    case .cached, .syncing, .upToDate, .demo: false
    }
  }
}
