import Foundation

/// One page of a list endpoint.
public struct Page<Item: Sendable>: Sendable {
  /// The URL the page came from.
  package var url: URL
  /// What the page holds; empty when ``isNotModified``.
  ///
  /// Items that could not be decoded are not here but in ``skipped``.
  public var items: [Item]
  /// The items of the page that could not be decoded, with the reason.
  public var skipped: [SkippedItem] = []
  /// The next page, from the `link` header.
  public var next: URL?
  /// The number of the last page, as this page's `link rel="last"` announces it.
  package var lastPageNumber: Int?
  /// The page's entity tag.
  package var etag: String?
  /// The rate-limit state after this request.
  package var rateLimit: RateLimit?
  /// Whether the server answered `304 Not Modified` to a conditional request.
  package var isNotModified: Bool

  /// How many elements the server sent, decoded or not.
  package var receivedCount: Int { items.count + skipped.count }
}

/// An element of a page that could not be decoded: skipped, with a warning, instead of failing the
/// page.
public struct SkippedItem: Hashable, Sendable, CustomStringConvertible {
  /// Its identifier, when that much could be read.
  public var id: Int64?
  /// Its number (`#96`), when that much could be read.
  public var number: Int?
  /// Which field failed and how, as in "field `user.login`: missing".
  public var reason: String

  /// Creates a report of a skipped element.
  public init(id: Int64?, number: Int?, reason: String) {
    self.id = id
    self.number = number
    self.reason = reason
  }

  /// "skipped #12: …" for an item; the reason alone for a note about no one item (pull
  /// request details not fetched, say), which skipped nothing.
  public var description: String {
    if let number { return "skipped #\(number): \(reason)" }
    if let id { return "skipped the item with id \(id): \(reason)" }
    return reason
  }
}

/// One element of a page, decoded on its own so that one bad element does not fail the others.
enum LossyElement<Item: Decodable>: Decodable {
  case decoded(Item)
  case failed(SkippedItem)

  private struct Identity: Decodable {
    var id: Int64?
    var number: Int?
  }

  /// The element, when it could be read.
  var item: Item? {
    if case .decoded(let item) = self { return item }
    return nil
  }

  init(from decoder: any Decoder) throws {
    do {
      self = .decoded(try Item(from: decoder))
    } catch let error as DecodingError {
      let identity = try? Identity(from: decoder)
      self = .failed(
        SkippedItem(
          id: identity?.id, number: identity?.number,
          reason: GitHubJSON.describe(error, relativeTo: decoder.codingPath.count)))
    }
  }
}
