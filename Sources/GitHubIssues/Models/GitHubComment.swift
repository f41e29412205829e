import Foundation

/// A comment on an issue, as `GET /repos/{owner}/{repo}/issues/{number}/comments` returns it.
///
/// Only `id`, `created_at` and `updated_at` are required; a `null` user (a deleted account) is
/// ``GitHubUser/ghost``, a missing body is empty, and reactions default to none.
public struct GitHubComment: Codable, Hashable, Sendable, Identifiable {
  /// The numeric identifier.
  public var id: Int64
  /// The GraphQL node identifier (`node_id`), what gh prints as its `id`.
  package var nodeID: String?
  /// Who wrote it.
  public var user: GitHubUser
  /// The text, in Markdown.
  public var body: String
  /// When it was written.
  public var createdAt: Date
  /// When it last changed; later than ``createdAt`` once edited.
  public var updatedAt: Date
  /// Its page on GitHub.
  package var htmlURL: String?
  /// The writer's relation to the repository (`OWNER`, `MEMBER`, `CONTRIBUTOR`, `NONE`…).
  public var authorAssociation: String?
  /// Reactions, by content (`+1`, `heart`, `rocket`…), without the zero counts.
  public var reactions: [String: Int]
  /// The API URL of the issue it is on (`…/issues/12`): how a repository-wide listing says which
  /// issue each comment belongs to.
  package var issueURL: String?

  /// The number of the issue it is on, from ``issueURL``.
  package var issueNumber: Int? {
    guard let issueURL, let last = issueURL.split(separator: "/").last, let number = Int(last),
      number > 0
    else { return nil }
    return number
  }

  /// The reaction contents GitHub counts, in the order it shows them.
  package static let reactionContents = [
    "+1", "-1", "laugh", "hooray", "confused", "heart", "rocket", "eyes",
  ]

  /// How a reaction's content is drawn: its emoji.
  package static let reactionSymbols: [String: String] = [
    "+1": "👍", "-1": "👎", "laugh": "😄", "hooray": "🎉", "confused": "😕", "heart": "❤️",
    "rocket": "🚀", "eyes": "👀",
  ]

  enum CodingKeys: String, CodingKey {
    case id, user, body, reactions
    case nodeID = "node_id"
    case createdAt = "created_at"
    case updatedAt = "updated_at"
    case htmlURL = "html_url"
    case authorAssociation = "author_association"
    case issueURL = "issue_url"
  }

  /// Creates a comment.
  public init(
    id: Int64, user: GitHubUser, body: String, createdAt: Date, updatedAt: Date,
    htmlURL: String? = nil, authorAssociation: String? = nil, reactions: [String: Int] = [:],
    issueURL: String? = nil, nodeID: String? = nil
  ) {
    self.issueURL = issueURL
    self.nodeID = nodeID
    self.id = id
    self.user = user
    self.body = body
    self.createdAt = createdAt
    self.updatedAt = updatedAt
    self.htmlURL = htmlURL
    self.authorAssociation = authorAssociation
    self.reactions = reactions
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    id = try container.decode(Int64.self, forKey: .id)
    nodeID = try? container.decodeIfPresent(String.self, forKey: .nodeID)
    user = (try? container.decodeIfPresent(GitHubUser.self, forKey: .user)) ?? .ghost
    body = (try? container.decodeIfPresent(String.self, forKey: .body)) ?? ""
    createdAt = try container.decode(Date.self, forKey: .createdAt)
    updatedAt = try container.decode(Date.self, forKey: .updatedAt)
    htmlURL = try? container.decodeIfPresent(String.self, forKey: .htmlURL)
    authorAssociation = try? container.decodeIfPresent(String.self, forKey: .authorAssociation)
    issueURL = try? container.decodeIfPresent(String.self, forKey: .issueURL)
    // Counts are read for the contents GitHub has; anything else in the object is ignored, and
    // a negative count from a broken server is none.
    var counts: [String: Int] = [:]
    if let raw = try? container.decodeIfPresent([String: Lenient].self, forKey: .reactions) {
      for content in Self.reactionContents {
        if case .int(let count)? = raw[content], count > 0 { counts[content] = count }
      }
    }
    reactions = counts
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encode(user, forKey: .user)
    try container.encode(body, forKey: .body)
    try container.encode(createdAt, forKey: .createdAt)
    try container.encode(updatedAt, forKey: .updatedAt)
    try container.encodeIfPresent(htmlURL, forKey: .htmlURL)
    try container.encodeIfPresent(authorAssociation, forKey: .authorAssociation)
    try container.encode(reactions, forKey: .reactions)
    try container.encodeIfPresent(issueURL, forKey: .issueURL)
    try container.encodeIfPresent(nodeID, forKey: .nodeID)
  }

  /// Whether it was changed after it was written.
  package var isEdited: Bool { updatedAt > createdAt }

  /// A value of the reactions object: a count, or anything else (its `url`), ignored.
  enum Lenient: Decodable {
    case int(Int)
    case other

    init(from decoder: any Decoder) throws {
      let container = try decoder.singleValueContainer()
      self = (try? container.decode(Int.self)).map(Lenient.int) ?? .other
    }
  }
}
