import Foundation

/// A notification thread as `GET /notifications` lists it: what it is about, why it reached
/// the person, and whether it was read.
///
/// The thread's identifier goes into request paths, so only a decimal one is taken; the
/// subject's number comes from its API URL (`…/issues/12`, `…/pulls/12`) when it has one.
public struct GitHubNotification: Decodable, Hashable, Sendable, Identifiable {
  /// The thread's identifier, decimal digits.
  public var id: String
  /// Whether it is unread.
  public var unread: Bool
  /// Why it reached the person: `review_requested`, `mention`, `assign`, `subscribed`, and so on.
  public var reason: String
  /// When it last changed.
  public var updatedAt: Date
  /// What it is about: its title.
  public var title: String
  /// What it is about: `Issue`, `PullRequest`, `Release`, `Discussion`, `Commit`, and so on.
  public var subjectType: String
  /// The or pull request's number, when it is about one.
  public var number: Int?
  /// The repository it is in.
  public var repository: RepositoryName

  /// Creates one.
  public init(
    id: String, unread: Bool, reason: String, updatedAt: Date, title: String,
    subjectType: String, number: Int?, repository: RepositoryName
  ) {
    self.id = id
    self.unread = unread
    self.reason = reason
    self.updatedAt = updatedAt
    self.title = title
    self.subjectType = subjectType
    self.number = number
    self.repository = repository
  }

  enum CodingKeys: String, CodingKey {
    case id, unread, reason, subject, repository
    case updatedAt = "updated_at"
  }

  struct Subject: Decodable {
    var title: String?
    var url: String?
    var type: String?
  }

  struct Repository: Decodable {
    var full_name: String
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    id = try container.decode(String.self, forKey: .id)
    guard !id.isEmpty, id.utf8.count <= 30, id.utf8.allSatisfy({ (0x30...0x39).contains($0) })
    else {
      throw DecodingError.dataCorruptedError(
        forKey: .id, in: container, debugDescription: "a thread id must be decimal digits")
    }
    unread = (try? container.decodeIfPresent(Bool.self, forKey: .unread)) ?? true
    reason = (try? container.decodeIfPresent(String.self, forKey: .reason)) ?? "subscribed"
    updatedAt = try container.decode(Date.self, forKey: .updatedAt)
    let subject = try? container.decodeIfPresent(Subject.self, forKey: .subject)
    title = subject?.title ?? ""
    subjectType = subject?.type ?? "Unknown"
    number = subject?.url.flatMap { url in
      let parts = url.split(separator: "/")
      guard parts.count >= 2, ["issues", "pulls"].contains(parts[parts.count - 2]) else {
        return nil
      }
      return Int(parts[parts.count - 1])
    }
    let fullName = try container.decode(Repository.self, forKey: .repository).full_name
    guard let name = RepositoryName(fullName) else {
      throw DecodingError.dataCorruptedError(
        forKey: .repository, in: container, debugDescription: "not OWNER/REPO: \(fullName)")
    }
    repository = name
  }

  /// "review requested", "mentioned": why it reached the person, in words.
  package static func describe(reason: String) -> String {
    switch reason {
    case "review_requested": "review requested"
    case "mention": "mentioned"
    case "team_mention": "team mentioned"
    case "assign": "assigned"
    case "author": "author"
    case "comment": "commented"
    case "state_change": "state changed"
    case "ci_activity": "CI activity"
    case "approval_requested": "approval requested"
    case "security_alert": "security alert"
    case "invitation": "invitation"
    case "manual": "subscribed by hand"
    default: reason.replacingOccurrences(of: "_", with: " ")
    }
  }
}
