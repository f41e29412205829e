/// A label on an issue.
///
/// Labels are identified by name within a repository; old recordings have no `id`.
public struct GitHubLabel: Codable, Hashable, Sendable {
  /// The label's numeric identifier, when the API sent one.
  public var id: Int64?
  /// The name, unique in the repository.
  public var name: String
  /// The colour as six hex digits, without `#`.
  package var color: String?
  /// What the label means.
  public var description: String?
  /// The label's GraphQL node identifier (`node_id`), what gh prints as its `id`.
  package var nodeID: String?

  enum CodingKeys: String, CodingKey {
    case id, name, color, description
    case nodeID = "node_id"
  }

  /// Creates a label.
  public init(
    id: Int64? = nil, name: String, color: String? = nil, description: String? = nil,
    nodeID: String? = nil
  ) {
    self.id = id
    self.name = name
    self.color = color
    self.description = description
    self.nodeID = nodeID
  }

  /// A label object whose every field may be missing or `null`, as in an issue's `labels`.
  struct Lenient: Decodable {
    var id: Int64?
    var name: String?
    var color: String?
    var description: String?
    var nodeID: String?

    enum CodingKeys: String, CodingKey {
      case id, name, color, description
      case nodeID = "node_id"
    }
  }
}
