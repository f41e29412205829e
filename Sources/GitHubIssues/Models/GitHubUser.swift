/// A GitHub account: the author of an issue, an assignee.
public struct GitHubUser: Codable, Hashable, Sendable {
  /// The account name, as in `@login`.
  public var login: String
  /// The account's numeric identifier.
  public var id: Int64
  /// The account's GraphQL node identifier (`node_id`), what gh prints as its `id`.
  package var nodeID: String?
  /// `User`, `Bot` or `Organization`, when the API said.
  package var type: String?

  /// Whether the account is an app's bot (`dependabot[bot]`).
  package var isBot: Bool { type == "Bot" || login.hasSuffix("[bot]") }

  enum CodingKeys: String, CodingKey {
    case login, id, type
    case nodeID = "node_id"
  }

  /// Creates a user.
  public init(login: String, id: Int64, nodeID: String? = nil, type: String? = nil) {
    self.login = login
    self.id = id
    self.nodeID = nodeID
    self.type = type
  }

  /// The account GitHub shows in place of a deleted one.
  package static let ghost = GitHubUser(login: "ghost", id: 10137)
}
