/// What a listing's pages prove about its completeness: it reached the last page the first one
/// announced, and every page before the last was as full as the first.
struct ListingProof {
  private var pages = 0
  private var pageSize = 0
  private var announcedLast: Int?
  private var ended = false
  private var shortPage: Int?

  /// Takes the next page into account.
  mutating func record<Item>(_ page: Page<Item>) {
    pages += 1
    let count = page.receivedCount
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

  /// Why the listing is not proved complete, or `nil` when it is.
  var gap: String? {
    guard pages > 0 else { return "no page was listed" }
    guard ended else { return "it stopped before the last page" }
    guard let announcedLast else { return "the first page announced no last page" }
    guard pages == announcedLast else {
      return "it ended after \(pages) pages where the first page announced \(announcedLast)"
    }
    if let shortPage {
      return "page \(shortPage) held a different number of items than the first (\(pageSize))"
    }
    return nil
  }
}
