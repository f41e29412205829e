/// One entry of a GraphQL answer's `errors`: GitHub's message, its type (`NOT_FOUND`,
/// `RATE_LIMITED`, `MAX_NODE_LIMIT_EXCEEDED`…) and the path of the field it concerns.
///
/// An answer may carry errors beside partial `data`: the fields on a path are `null` and the
/// rest is good.
package struct GraphQLError: Decodable, Hashable, Sendable {
  /// A step of a path: a field name or a list index.
  package enum PathElement: Decodable, Hashable, Sendable {
    case field(String)
    case index(Int)

    package init(from decoder: any Decoder) throws {
      let container = try decoder.singleValueContainer()
      if let index = try? container.decode(Int.self) {
        self = .index(index)
      } else {
        self = .field(try container.decode(String.self))
      }
    }
  }

  /// What went wrong, in GitHub's words.
  package var message: String
  /// GitHub's classification, when it gives one.
  package var type: String?
  /// The field the error concerns, from the root of `data`; empty for the whole query.
  package var path: [PathElement]

  /// Creates an error.
  package init(message: String, type: String? = nil, path: [PathElement] = []) {
    self.message = message
    self.type = type
    self.path = path
  }

  enum CodingKeys: String, CodingKey { case message, type, path }

  package init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    message = (try? container.decodeIfPresent(String.self, forKey: .message)) ?? "unknown error"
    type = try? container.decodeIfPresent(String.self, forKey: .type)
    path = (try? container.decodeIfPresent([PathElement].self, forKey: .path)) ?? []
  }

  /// The list indexes of the path, in order: `repository.issues.nodes[3].timelineItems` → `[3]`.
  package var indexes: [Int] {
    path.compactMap { if case .index(let index) = $0 { index } else { nil } }
  }
}
