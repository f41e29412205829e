import Foundation

/// The JSON conventions of the GitHub API.
package enum GitHubJSON {
  /// The decoder for GitHub's answers, dates in ISO 8601 (see ``GitHubJSONDecoder``).
  package static var decoder: GitHubJSONDecoder { GitHubJSONDecoder() }

  /// An encoder writing the same dates.
  package static var encoder: JSONEncoder {
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .custom { date, encoder in
      var container = encoder.singleValueContainer()
      try container.encode(GitHubDate.iso8601(date))
    }
    encoder.outputFormatting = [.sortedKeys]
    return encoder
  }

  /// "field `[3].user.login`: missing", from a decoding error.
  static func describe(_ error: DecodingError, relativeTo depth: Int = 0) -> String {
    func path(_ codingPath: [any CodingKey]) -> String {
      let joined = codingPath.dropFirst(depth).map { key in
        key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)"
      }
      .joined()
      return joined.hasPrefix(".") ? String(joined.dropFirst()) : joined
    }
    switch error {
    case .keyNotFound(let key, let context):
      return "field `\(path(context.codingPath + [key]))`: missing"
    case .typeMismatch(_, let context), .valueNotFound(_, let context):
      return "field `\(path(context.codingPath))`: \(context.debugDescription)"
    case .dataCorrupted(let context):
      return context.codingPath.isEmpty
        ? "invalid JSON" : "field `\(path(context.codingPath))`: \(context.debugDescription)"
    @unknown default:
      return "\(error)"
    }
  }
}
