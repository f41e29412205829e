/// A GitHub account: the author of an issue, an assignee.
public struct GitHubUser: Codable, Hashable, Sendable {
  /// The account name, as in `@login`.
  public var login: String
  /// The account's numeric identifier.
  public var id: Int64

  /// Creates a user.
  public init(login: String, id: Int64) {
    self.login = login
    self.id = id
  }

  /// The account GitHub shows in place of a deleted one.
  public static let ghost = GitHubUser(login: "ghost", id: 10137)
}
