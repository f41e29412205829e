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
    /// 403 for a reason other than rate limits (no permission, SSO required).
    case forbidden
    /// Any other unexpected status.
    case unexpectedStatus
  }

  /// What kind of failure.
  public var code: Code
  /// The request's method.
  public var method: String
  /// The request's URL (it never carries the token).
  public var url: String
  /// The HTTP status, when there was a response.
  public var status: Int?
  /// For ``Code/rateLimited``: when requests may resume.
  public var resetAt: Date?
  /// More: GitHub's message, or the field that failed to decode.
  public var detail: String?

  /// Creates an error.
  public init(
    _ code: Code, method: String = "GET", url: String, status: Int? = nil, resetAt: Date? = nil,
    detail: String? = nil
  ) {
    self.code = code
    self.method = method
    self.url = url
    self.status = status
    self.resetAt = resetAt
    self.detail = detail
  }

  public var description: String {
    let request = "\(method) \(url)"
    let extra = detail.map { " (\($0))" } ?? ""
    switch code {
    case .unauthorized:
      return
        "\(request): unauthorized\(extra); check GH_TOKEN or GITHUB_TOKEN, or run `gh auth login`."
    case .notFound:
      return
        "\(request): not found\(extra); check the repository name, and for a private repository "
        + "set GH_TOKEN or GITHUB_TOKEN."
    case .rateLimited:
      let until = resetAt.map { " until \(Self.timeFormatter.string(from: $0)) UTC" } ?? ""
      return
        "\(request): rate limited\(until)\(extra); wait, or set GITHUB_TOKEN to raise the limit."
    case .offline:
      return
        "\(request): offline\(extra); showing cached data, check the connection and press r to retry."
    case .serverError:
      return
        "\(request): GitHub failed with status \(status.map(String.init) ?? "none")\(extra) after "
        + "retries; try again later."
    case .decoding:
      return "\(request): unexpected response\(extra); the cache keeps the previous data."
    case .validation:
      return "\(request): request rejected (422)\(extra); check the filters."
    case .forbidden:
      return "\(request): forbidden\(extra); the token may lack access to this repository."
    case .unexpectedStatus:
      return "\(request): unexpected status \(status.map(String.init) ?? "none")\(extra)."
    }
  }

  static let timeFormatter: DateFormatter = {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
    return formatter
  }()
}
