import Foundation

/// The `link` header of a paginated response: `<url>; rel="next", <url>; rel="last"`.
package struct LinkHeader: Hashable, Sendable {
  /// The URL for each relation, exactly as given.
  package var relations: [String: URL]

  /// Parses a `link` header; malformed parts are ignored.
  package init(_ header: String?) {
    var relations: [String: URL] = [:]
    for part in (header ?? "").split(separator: ",") {
      let pieces = part.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
      guard let target = pieces.first, target.hasPrefix("<"), target.hasSuffix(">"),
        let url = URL(string: String(target.dropFirst().dropLast()))
      else { continue }
      for parameter in pieces.dropFirst() {
        let pair = parameter.split(separator: "=", maxSplits: 1).map {
          $0.trimmingCharacters(in: .whitespaces)
        }
        guard pair.count == 2, pair[0] == "rel" else { continue }
        for rel in pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"")).split(
          separator: " ")
        {
          relations[String(rel)] = url
        }
      }
    }
    self.relations = relations
  }

  /// The next page, if any.
  package var next: URL? { relations["next"] }
}
