import Foundation

/// A milestone: a named group of issues with an optional due date.
public struct GitHubMilestone: Codable, Hashable, Sendable, Identifiable {
  /// Whether a milestone is open or closed.
  public enum State: String, Codable, Hashable, Sendable {
    /// Still being worked towards.
    case open
    /// Done or abandoned.
    case closed
  }

  /// The numeric identifier.
  public var id: Int64
  /// The number within the repository, used in URLs and filters.
  public var number: Int
  /// The title.
  public var title: String
  /// Open or closed.
  public var state: State
  /// The description, if any.
  public var description: String?
  /// When it is due, if set.
  package var dueOn: Date?
  /// Open issues in it, as GitHub counts them (issues and pull requests).
  package var openIssues: Int?
  /// Closed issues in it.
  package var closedIssues: Int?
  /// When it was created.
  public var createdAt: Date?
  /// When it last changed.
  public var updatedAt: Date?
  /// When it was closed.
  package var closedAt: Date?
  /// Its page on GitHub.
  package var htmlURL: String?

  enum CodingKeys: String, CodingKey {
    case id, number, title, state, description
    case dueOn = "due_on"
    case openIssues = "open_issues"
    case closedIssues = "closed_issues"
    case createdAt = "created_at"
    case updatedAt = "updated_at"
    case closedAt = "closed_at"
    case htmlURL = "html_url"
  }

  /// Creates a milestone.
  public init(
    id: Int64, number: Int, title: String, state: State, description: String? = nil,
    dueOn: Date? = nil,
    openIssues: Int? = nil, closedIssues: Int? = nil, createdAt: Date? = nil,
    updatedAt: Date? = nil,
    closedAt: Date? = nil, htmlURL: String? = nil
  ) {
    self.id = id
    self.number = number
    self.title = title
    self.state = state
    self.description = description
    self.dueOn = dueOn
    self.openIssues = openIssues
    self.closedIssues = closedIssues
    self.createdAt = createdAt
    self.updatedAt = updatedAt
    self.closedAt = closedAt
    self.htmlURL = htmlURL
  }
}
