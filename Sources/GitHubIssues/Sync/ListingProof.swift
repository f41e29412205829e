/// What a listing's pages prove about its completeness — the one proof every fetcher and every
/// landed check judges a REST listing by.
///
/// A listing is complete when it reached the last page the first one announced, every page
/// before the last was as full as the first, every item could be read, and it holds at least
/// as many items as its owner announced (an issue's comment count). Anything less is a gap, said
/// in a sentence: nothing is deleted, replaced or judged landed on part of a listing.
struct ListingProof {
  private var pages = 0
  private var pageSize = 0
  private var announcedLast: Int?
  private var ended = false
  private var shortPage: Int?
  /// Items read, and items that could not be read, over every page recorded.
  private(set) var read = 0
  private(set) var unreadable = 0
  /// How many items the listing's owner announced, when it did.
  var announced: Int?
  /// Why the walk stopped before the listing's end, when it was stopped (a bound met).
  private(set) var cutShort: String?

  /// A proof of no page yet, for a listing whose owner announced `announced` items.
  init(announced: Int? = nil) {
    self.announced = announced
  }

  /// Takes the next page into account.
  mutating func record<Item>(_ page: Page<Item>) {
    pages += 1
    let count = page.receivedCount
    read += page.items.count
    unreadable += page.skipped.count
    if pages == 1 {
      pageSize = count
      // No `last` and no `next` on the first page: it is the only one.
      announcedLast = page.lastPageNumber ?? (page.next == nil ? 1 : nil)
    }
    let regular =
      page.next != nil
      ? count == pageSize && count > 0 : count <= pageSize && (pages == 1 || count > 0)
    if !regular, shortPage == nil { shortPage = pages }
    ended = page.next == nil
  }

  /// Why the listing's pages do not prove it whole, unreadable items aside, or `nil` when they
  /// do: what a listing that keeps what it could read is judged by.
  var pagesGap: String? {
    if let cutShort { return cutShort }
    guard pages > 0 else { return "no page was listed" }
    guard ended else { return "it stopped before the last page" }
    guard let announcedLast else { return "the first page announced no last page" }
    guard pages == announcedLast else {
      return "it ended after \(pages) pages where the first page announced \(announcedLast)"
    }
    if let shortPage {
      return "page \(shortPage) held a different number of items than the first (\(pageSize))"
    }
    if let announced, read + unreadable < announced {
      return "it listed \(read + unreadable) of the \(announced) announced"
    }
    return nil
  }

  /// Why the listing is not proved complete, or `nil` when it is.
  var gap: String? {
    if let gap = pagesGap { return gap }
    if unreadable > 0 {
      return "\(unreadable) item\(unreadable == 1 ? "" : "s") could not be read"
    }
    return nil
  }

  /// Every item of a listing, following its pages to the end or to a bound, with what its
  /// pages prove.
  ///
  /// - Parameters:
  ///   - pages: The listing.
  ///   - announced: How many items its owner announced, when it did.
  ///   - itemLimit: The most items (read or not) followed: past it, the walk stops, cut short.
  ///   - pageLimit: The most pages followed: past it, the walk stops, cut short.
  /// - Returns: The items read, and the proof (``gap`` says what is missing).
  /// - Throws: The listing's failure to be read.
  static func collect<Item: Decodable & Sendable>(
    _ pages: PageSequence<Item>, announced: Int? = nil, itemLimit: Int = .max,
    pageLimit: Int = .max
  ) async throws(GitHubError) -> (items: [Item], proof: ListingProof) {
    var items: [Item] = []
    var proof = ListingProof(announced: announced)
    for try await page in pages {
      guard proof.pages < pageLimit else {
        proof.cutShort = "more than \(pageLimit) pages: not all were read"
        break
      }
      proof.record(page)
      items += page.items
      guard proof.read + proof.unreadable <= itemLimit else {
        proof.cutShort = "more than \(itemLimit) items: not all were read"
        break
      }
    }
    return (items, proof)
  }
}
