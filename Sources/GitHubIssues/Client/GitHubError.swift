import Foundation

/// A failed GitHub request: what went wrong, on which request, and what to do next.
///
/// Match on ``code``; the description is for people and may change. The token is never part of
/// it.
///
///     catch let error as GitHubError where error.code == .rateLimited {
///       showBanner("Rate limited until \(error.resetAt!)")
///     }
public struct GitHubError: Error, CustomStringConvertible, Equatable, Sendable {
  /// What kind of failure, to match on.
  public enum Code: Hashable, Sendable {
    /// 401: the token is missing, wrong or expired.
    case unauthorized
    /// 404: no such repository, or a private one the token cannot see.
    case notFound
    /// 403 or 429 with no quota left; ``GitHubError/resetAt`` says until when.
    case rateLimited
    /// No connection to the host.
    case offline
    /// The server failed (5xx) or kept timing out, after retries.
    case serverError
    /// The response could not be decoded; ``GitHubError/detail`` names the field.
    case decoding
    /// 422: the request was understood but is not valid.
    case validation
    /// 403 for a reason other than rate limits (no permission, SSO required);
    /// ``GitHubError/missingAccess`` says what the token lacks, when GitHub said.
    case forbidden
    /// 410: the issue was deleted or transferred, or the repository has issues turned off.
    case gone
    /// Any other unexpected status.
    case unexpectedStatus
    /// The server pointed outside the configured API root (a `link` or a redirect to another
    /// host, scheme, port or path); nothing was sent there. ``GitHubError/detail`` names the URL.
    case untrustedURL
    /// Pagination that cannot be right: a `next` link back to a page already fetched, more pages
    /// than `rel="last"` announced (plus a margin).
    case pagination
    /// A listing that did not prove it was complete, so nothing was deleted from the cache.
    case incompleteListing
    /// The token cannot be sent: it holds characters a header cannot carry.
    case invalidToken
    /// Another sync of the same cache is running; ``GitHubError/detail`` names its process.
    case syncInProgress
  }

  /// Which of GitHub's rate limits a ``Code/rateLimited`` error hit.
  public enum RateLimitKind: Hashable, Sendable {
    /// The hourly quota of a resource (`core`, `search`…) is used up; `limit` is its size.
    case primary(resource: String?, limit: Int?)
    /// A secondary limit (too many requests at once, or too fast); a token does not lift it.
    case secondary
    /// Not GitHub's answer: the sync stopped itself before a query would spend more than it may
    /// (its `--points`, or the points it keeps for other work); ``GitHubError/detail`` says which.
    case budget
  }

  /// What kind of failure.
  public var code: Code
  /// The request's method.
  public var method: String
  /// The request's URL (it never carries the token).
  package var url: String
  /// The HTTP status, when there was a response.
  public var status: Int?
  /// For ``Code/rateLimited``: when requests may resume.
  package var resetAt: Date?
  /// More: GitHub's message, or the field that failed to decode.
  package var detail: String?
  /// For ``Code/rateLimited``: which limit.
  package var rateLimit: RateLimitKind?
  /// Whether the request carried a token (it changes the advice for 401, 404 and rate limits).
  package var sentToken: Bool
  /// The host the request went to: its token variables and `gh` login are the advice.
  public var host: GitHubHost = .github
  /// What the token lacks for this request, from GitHub's headers: a classic token's missing
  /// scope (`x-accepted-oauth-scopes` against `x-oauth-scopes`) or a fine-grained token's
  /// missing permission (`x-accepted-github-permissions`).
  package var missingAccess: MissingAccess?
  /// Whether the request is known never to have left this machine — no connection to the host
  /// was made (its name did not resolve, nothing listened, no network): a write that failed so
  /// did not land, and may go again at once.
  package var neverLeft = false

  /// What a token lacks for a request, as GitHub's response headers say.
  package enum MissingAccess: Hashable, Sendable {
    /// A classic token without any of the scopes the request accepts; `has` lists its scopes.
    case scope(accepted: [String], has: [String])
    /// A fine-grained token (or an app) without a permission, such as `issues=write`.
    case permission(String)

    /// "the `repo` scope (the token has: read:org)", for a sentence.
    package var phrase: String {
      switch self {
      case .scope(let accepted, let has):
        let scopes = accepted.map { "`\($0)`" }.joined(separator: " or ")
        let held = has.isEmpty ? "none" : has.joined(separator: ", ")
        return "the \(scopes) scope (the token has: \(held))"
      case .permission(let permission):
        return "the `\(permission)` permission"
      }
    }
  }

  /// Creates an error.
  public init(
    _ code: Code, method: String = "GET", url: String, status: Int? = nil, resetAt: Date? = nil,
    detail: String? = nil, rateLimit: RateLimitKind? = nil, sentToken: Bool = false
  ) {
    self.code = code
    self.method = method
    self.url = url
    self.status = status
    self.resetAt = resetAt
    self.detail = detail
    self.rateLimit = rateLimit
    self.sentToken = sentToken
  }

  public var description: String { describe(now: Date(), timeZone: .current) }

  /// The description with times relative to `now`, in `timeZone`.
  package func describe(now: Date, timeZone: TimeZone) -> String {
    let request = "\(method) \(url)"
    let extra = detail.map { " (\($0))" } ?? ""
    switch code {
    case .unauthorized:
      return sentToken
        ? "\(request): unauthorized\(extra); the token was refused: \(host.tokenAdvice)."
        : "\(request): unauthorized\(extra); \(host.tokenAdvice)."
    case .notFound:
      if let missingAccess {
        return "\(request): not found\(extra); the token lacks \(missingAccess.phrase)"
          + refreshAdvice + "."
      }
      return sentToken
        ? "\(request): not found\(extra); check the repository name, and that the token can see it."
        : "\(request): not found\(extra); check the repository name, and for a private repository "
          + "\(host.tokenAdvice)."
    case .rateLimited where rateLimit == .budget:
      return "\(request): stopped within its budget\(extra)."
    case .rateLimited:
      return "\(request): \(rateLimitSentence(now: now, timeZone: timeZone))\(extra)."
    case .offline:
      return
        "\(request): offline\(extra); showing cached data, check the connection and press r to retry."
    case .serverError:
      // Reads are retried; a write never is (it may have landed).
      let retried = method == "GET"
      guard let status else {
        return "\(request): the connection failed\(extra)\(retried ? ", also on retries" : ""); "
          + "try again later."
      }
      return
        "\(request): GitHub failed with status \(status)\(extra)\(retried ? " after retries" : ""); "
        + "try again later."
    case .decoding:
      return "\(request): unexpected response\(extra); the cache keeps the previous data."
    case .validation:
      if method == "POST", url.hasSuffix("/graphql") {
        // A GraphQL query answered `data: null`: a refusal of the query, not of a change.
        return "\(request): GitHub did not answer the query\(extra); nothing was written from it."
      }
      return method == "GET"
        ? "\(request): request rejected (422)\(extra); check the filters."
        : "\(request): GitHub refused the change (422)\(extra)."
    case .forbidden:
      if let missingAccess {
        return "\(request): forbidden\(extra); the token lacks \(missingAccess.phrase)"
          + refreshAdvice + "."
      }
      return sentToken
        ? "\(request): forbidden\(extra); the token may lack access to this repository."
        : "\(request): forbidden\(extra); \(host.tokenAdvice)."
    case .gone:
      return
        "\(request): gone (410)\(extra); the issue was deleted or transferred, or the repository "
        + "has issues turned off."
    case .unexpectedStatus:
      return "\(request): unexpected status \(status.map(String.init) ?? "none")\(extra)."
    case .untrustedURL:
      return
        "\(request): the server pointed outside the API root\(extra); not followed, and nothing was "
        + "sent there."
    case .pagination:
      return "\(request): broken pagination\(extra); stopped."
    case .incompleteListing:
      return
        "\(request): the listing was incomplete\(extra); nothing was deleted. Sync again to finish."
    case .invalidToken:
      // Found before any request: the detail names the variable that holds it.
      return (detail ?? "invalid token") + "."
    case .syncInProgress:
      return "\(request): another sync of this repository is running\(extra)."
    }
  }

  /// What went wrong in a few words, without the request: for a status line, where the URL
  /// would push the reason out of sight.
  package func summary(now: Date = Date(), timeZone: TimeZone = .current) -> String {
    let extra = detail.map { ": \($0)" } ?? ""
    switch code {
    case .forbidden where missingAccess != nil, .notFound where missingAccess != nil:
      return "the token lacks \(missingAccess?.phrase ?? "access")" + refreshAdvice
    case .forbidden: return "forbidden\(extra)"
    case .unauthorized:
      return sentToken ? "the token was refused; \(host.tokenAdvice)" : host.tokenAdvice
    case .notFound: return "not found (deleted, or the token cannot see it)"
    case .gone: return "gone (deleted or transferred, or the repository has issues off)"
    case .validation: return "GitHub refused it\(extra)"
    case .rateLimited where rateLimit == .budget: return "stopped within its budget\(extra)"
    case .rateLimited: return rateLimitSentence(now: now, timeZone: timeZone)
    case .offline: return "offline" + (detail.map { " (\($0))" } ?? "")
    case .serverError:
      return "GitHub failed" + (status.map { " (\($0))" } ?? "") + (detail.map { ": \($0)" } ?? "")
    case .untrustedURL: return "the server pointed outside the API root; not followed"
    case .unexpectedStatus:
      return "unexpected status \(status.map(String.init) ?? "none")\(extra)"
    case .decoding, .pagination, .incompleteListing, .invalidToken, .syncInProgress:
      return describe(now: now, timeZone: timeZone)
    }
  }

  /// How to give a classic token a missing scope with `gh`, when that is what is missing.
  private var refreshAdvice: String {
    guard case .scope(let accepted, _)? = missingAccess, let scope = accepted.first else {
      return ""
    }
    let hostname = host.isEnterprise ? " --hostname \(host.name)" : ""
    return ": `gh auth refresh\(hostname) -s \(scope)` adds it"
  }

  /// "primary rate limit (core, 60 an hour) used up until 14:05 CET (2026-11-22, in 12 min); a
  /// token raises it": which limit, when it lifts, and whether a token would help.
  package func rateLimitSentence(now: Date, timeZone: TimeZone) -> String {
    var sentence: String
    switch rateLimit {
    case .secondary:
      sentence = "GitHub's secondary rate limit (too many requests at once)"
    case .budget:
      sentence = "the sync's point budget is spent"
    case .primary(let resource, let limit):
      let size = limit.map { ", \($0) requests an hour" } ?? ""
      sentence = "GitHub's rate limit (\(resource ?? "core")\(size)) is used up"
    case nil:
      sentence = "GitHub's rate limit is used up"
    }
    if let resetAt {
      sentence += ", " + Self.until(resetAt, now: now, timeZone: timeZone)
    }
    switch (rateLimit, sentToken) {
    case (.secondary, _):
      sentence += "; a token would not lift it: wait and try again"
    case (.budget, _):
      break
    case (_, false):
      sentence += "; a token (\(host.tokenVariables.joined(separator: " or "))) raises the limit"
    case (_, true):
      sentence += "; the token's own quota is used up: wait"
    }
    return sentence
  }

  /// "until 14:05 CET (2026-11-22, in 12 min)".
  static func until(_ date: Date, now: Date, timeZone: TimeZone) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = timeZone
    formatter.dateFormat = "yyyy-MM-dd"
    let day = formatter.string(from: date)
    formatter.dateFormat = "HH:mm:ss zzz"
    let time = formatter.string(from: date)
    let seconds = max(0, date.timeIntervalSince(now))
    let relative =
      seconds < 60
      ? "in \(Int(seconds.rounded(.up))) s"
      : seconds < 5400
        ? "in \(Int((seconds / 60).rounded(.up))) min"
        : "in \(Int((seconds / 3600).rounded())) h"
    return "until \(time) (\(day), \(relative))"
  }
}
