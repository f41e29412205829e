/// A value of a GraphQL variable: what a query's `$name` stands for.
package enum GraphQLValue: Encodable, Hashable, Sendable {
  case string(String)
  case int(Int)
  case bool(Bool)
  case list([GraphQLValue])
  case null

  package func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .string(let value): try container.encode(value)
    case .int(let value): try container.encode(value)
    case .bool(let value): try container.encode(value)
    case .list(let values): try container.encode(values)
    case .null: try container.encodeNil()
    }
  }
}
