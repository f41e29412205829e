import Foundation

/// A comment as the cache returns it, for the reader and `issues view --comments`.
public struct CachedComment: Hashable, Sendable, Identifiable {
  /// The numeric identifier.
  public var id: Int64
  /// The number of the issue it is on.
  package var issueNumber: Int
  /// The writer's login.
  public var author: String
  /// The text, in Markdown.
  public var body: String
  /// When it was written.
  public var createdAt: Date
  /// When it last changed.
  public var updatedAt: Date
  /// Its page on GitHub.
  package var htmlURL: String?
  /// The writer's relation to the repository (`OWNER`, `MEMBER`…), when GitHub said.
  public var authorAssociation: String?
  /// Reactions by content (`+1`, `heart`…), in GitHub's order, without zero counts.
  public var reactions: [(content: String, count: Int)]
  /// The comment's GraphQL node id, when GitHub sent it.
  package var nodeID: String?
  /// The writer's GraphQL node id, when GitHub sent it.
  package var authorNodeID: String?
  /// Whether the writer is a bot.
  package var authorIsBot: Bool

  /// Whether it was changed after it was written.
  package var isEdited: Bool { updatedAt > createdAt }

  /// Creates a comment as the cache stores it.
  public init(
    id: Int64, issueNumber: Int, author: String, body: String, createdAt: Date, updatedAt: Date,
    htmlURL: String? = nil, authorAssociation: String? = nil,
    reactions: [(content: String, count: Int)] = [], nodeID: String? = nil,
    authorNodeID: String? = nil, authorIsBot: Bool = false
  ) {
    self.nodeID = nodeID
    self.authorNodeID = authorNodeID
    self.authorIsBot = authorIsBot
    self.id = id
    self.issueNumber = issueNumber
    self.author = author
    self.body = body
    self.createdAt = createdAt
    self.updatedAt = updatedAt
    self.htmlURL = htmlURL
    self.authorAssociation = authorAssociation
    self.reactions = reactions
  }

  /// A comment as GitHub returned it, as the cache would store it on an issue.
  public init(_ comment: GitHubComment, issue number: Int) {
    self.init(
      id: comment.id, issueNumber: number, author: comment.user.login, body: comment.body,
      createdAt: comment.createdAt, updatedAt: comment.updatedAt, htmlURL: comment.htmlURL,
      authorAssociation: comment.authorAssociation,
      reactions: GitHubComment.reactionContents.compactMap { content in
        comment.reactions[content].flatMap { $0 > 0 ? (content, $0) : nil }
      }, nodeID: comment.nodeID, authorNodeID: comment.user.nodeID,
      authorIsBot: comment.user.isBot)
  }

  public static func == (lhs: CachedComment, rhs: CachedComment) -> Bool {
    lhs.id == rhs.id && lhs.issueNumber == rhs.issueNumber && lhs.author == rhs.author
      && lhs.body == rhs.body && lhs.createdAt == rhs.createdAt && lhs.updatedAt == rhs.updatedAt
      && lhs.htmlURL == rhs.htmlURL && lhs.authorAssociation == rhs.authorAssociation
      && lhs.reactions.map(\.content) == rhs.reactions.map(\.content)
      && lhs.reactions.map(\.count) == rhs.reactions.map(\.count) && lhs.nodeID == rhs.nodeID
      && lhs.authorNodeID == rhs.authorNodeID && lhs.authorIsBot == rhs.authorIsBot
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(id)
    hasher.combine(updatedAt)
  }
}
