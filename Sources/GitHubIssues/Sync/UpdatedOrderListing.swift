import Foundation

/// Something a listing orders by `updated_at`: an issue, a comment.
protocol UpdateOrdered: Sendable {
  var id: Int64 { get }
  var updatedAt: Date { get }
}

extension GitHubIssue: UpdateOrdered {}
extension GitHubComment: UpdateOrdered {}

/// A listing in `updated_at` order that may see an item twice but never misses one, however the
/// items change while it runs.
///
/// GitHub pages a listing by page number. When an item on a page already fetched is updated, it
/// moves to the end of the order and every later item shifts one place earlier, so the first item
/// of the next page is never served. This listing pages by key instead: after each page it asks
/// again from the latest `updated_at` it saw (one second before it, as `since` is counted in
/// whole seconds), de-duplicating by identifier. The argument:
///
/// - Each request answers, at one moment, a prefix of the items updated at or after its `since`,
///   in `updated_at` order. So after a page whose latest item was updated at *M*, every item then
///   updated before *M* was on that page or an earlier one.
/// - An item updated after a request was answered carries an `updated_at` no earlier than that
///   answer's latest, so it is at or after the next `since` and some later request lists it.
/// - The listing ends only with a page that has no next page: every item at or after its `since`
///   was on it. Hence every item that exists at the end was served, in its latest version.
///
/// When a page's items mostly share its last second (many items updated at once), asking again
/// from there would bring mostly what was seen, and when a whole page shares one second the
/// `since` cannot move at all; the listing then follows the query's own `next` pages until a
/// page lets it move on. An item updated during such a walk could shift another
/// out of it, so when an item first seen in a walk is seen again, updated, the walk is listed
/// again once the listing ends (at most ``maximumPasses`` passes, then ``unproven`` says so).
///
/// A server that does not keep the order it was asked for (a page out of order, or an item from
/// before `since`) is followed page by page through its `next` links instead, as a plain listing.
///
/// The pages come from a ``ListingPages`` source: REST pages and their `link` headers, or
/// GraphQL pages and their cursors (where `since` is exact, so the margin is none).
struct UpdatedOrderListing<Item: UpdateOrdered> {
  /// A page of items not seen before in this version; the rest of the page was.
  struct Fresh {
    var items: [Item]
    var skipped: [SkippedItem]
    /// Whether the latest `updated_at` so far is a point to resume from.
    ///
    /// It is while every page kept `updated_at` order and none was reached by a walk. After a
    /// walk the marks move only once the listing ended proved (a walk may be listed again).
    var inOrder: Bool
  }

  /// How many times a listing starts again from a page-number walk that may have missed an item.
  static var maximumPasses: Int { 3 }

  /// The pages of the query from a `since`.
  let open: @Sendable (Date?) -> any ListingPages<Item>
  /// How far before the latest `updated_at` seen the next query starts: one second where
  /// `since` is counted in whole seconds.
  let overlap: TimeInterval
  /// Pages a listing may take when its first page announces none.
  let defaultPageBudget: Int
  /// Whether the query takes a `since`; without one, the listing walks its pages.
  var isKeyed = true
  private var since: Date?
  private var iterator: (any ListingPages<Item>)?
  /// Each identifier served and the latest `updated_at` it was served with.
  private(set) var seen: [Int64: Date] = [:]
  /// Identifiers served on a page of a walk, and the `since` of that walk.
  private var walked: [Int64: Date] = [:]
  private var redoFrom: Date?
  /// Whether any page was followed by its `next` link in keyset order (a walk).
  private var hasWalked = false
  private var passes = 1
  private var pagesInPass = 0
  private var pageBudget: Int?
  /// Whether every page kept the order asked for; a plain page walk otherwise.
  private(set) var inOrder = true
  private var ended = false
  /// Pages requested, in every pass.
  private(set) var pages = 0
  /// Why the listing cannot vouch for having seen everything, or `nil`.
  private(set) var unproven: String?

  /// A listing of a REST query, whose `since` is sent in whole seconds.
  init(client: GitHubClient, since: Date?, firstPage: @escaping @Sendable (Date?) -> URL)
  where Item: Decodable {
    // `since` is sent in whole seconds: a fraction would make the first items look out of order.
    self.since = since.map { Date(timeIntervalSince1970: $0.timeIntervalSince1970.rounded(.down)) }
    self.open = { since in
      RESTListingPages(
        iterator: client.pages(from: firstPage(since), of: Item.self, conditional: false)
          .makeAsyncIterator())
    }
    self.overlap = 1
    self.defaultPageBudget = client.maximumPages / 2
  }

  /// A listing of any source of pages.
  init(
    since: Date?, overlap: TimeInterval, defaultPageBudget: Int, isKeyed: Bool = true,
    open: @escaping @Sendable (Date?) -> any ListingPages<Item>
  ) {
    self.isKeyed = isKeyed
    self.since = since
    self.open = open
    self.overlap = overlap
    self.defaultPageBudget = defaultPageBudget
  }

  /// The next page of fresh items, or `nil` when the listing has ended.
  mutating func next() async throws(GitHubError) -> Fresh? {
    while !ended {
      if iterator == nil { iterator = open(since) }
      guard let page = try await iterator?.next() else {
        iterator = nil
        if let redo = redoFrom {
          redoFrom = nil
          guard passes < Self.maximumPasses else {
            unproven = "items kept changing while it listed them again \(passes) times"
            ended = true
            return nil
          }
          passes += 1
          pagesInPass = 0
          walked = [:]
          since = redo == .distantPast ? nil : redo
          continue
        }
        ended = true
        return nil
      }
      pages += 1
      pagesInPass += 1
      if pageBudget == nil {
        // What the first page announced, twice over for the overlap of the queries, plus room
        // for the items updated during the listing.
        let announced = page.announcedPages ?? (page.hasNext ? defaultPageBudget : 1)
        pageBudget = announced * 2 + 20
      }
      if let pageBudget, pagesInPass > pageBudget {
        throw GitHubError(
          .pagination, url: page.source,
          detail: "more than the \(pageBudget) pages its first page allowed")
      }
      if inOrder, !Self.isOrdered(page.items, since: since) { inOrder = false }
      var fresh: [Item] = []
      fresh.reserveCapacity(page.items.count)
      for item in page.items {
        if let earlier = seen[item.id] {
          guard item.updatedAt > earlier else { continue }
          if let walkSince = walked[item.id] { redoFrom = min(redoFrom ?? walkSince, walkSince) }
        }
        seen[item.id] = item.updatedAt
        fresh.append(item)
      }
      if inOrder, page.hasNext, let latest = page.items.last?.updatedAt {
        let next = latest.addingTimeInterval(-overlap)
        // Asked again from its latest second, a page whose items mostly share that second
        // would bring mostly what was seen: walk on through the query's own pages instead.
        let repeated = page.items.count - fresh.count
        if isKeyed, next > (since ?? .distantPast), repeated * 2 <= page.items.count {
          since = next
          iterator = nil
        } else {
          let walkSince = since ?? .distantPast
          hasWalked = true
          for item in page.items where walked[item.id] == nil { walked[item.id] = walkSince }
        }
      }
      return Fresh(items: fresh, skipped: page.skipped, inOrder: inOrder && !hasWalked)
    }
    return nil
  }

  /// Whether a page is in `updated_at` order and nothing in it is older than `since`.
  static func isOrdered(_ items: [Item], since: Date?) -> Bool {
    var previous = since ?? .distantPast
    for item in items {
      guard item.updatedAt >= previous else { return false }
      previous = item.updatedAt
    }
    return true
  }
}

/// One page as a listing sees it, whichever API it came from.
struct ListingPage<Item> {
  var items: [Item]
  var skipped: [SkippedItem]
  /// Whether the query has a page after this one.
  var hasNext: Bool
  /// How many pages the query announced (REST's `rel="last"`, GraphQL's `totalCount` over the
  /// page size), if it did.
  var announcedPages: Int?
  /// Where it came from, for errors.
  var source: String
}

/// The pages of one query, fetched as they are consumed.
protocol ListingPages<Item> {
  associatedtype Item
  mutating func next() async throws(GitHubError) -> ListingPage<Item>?
}

/// The pages of a REST query, following its `link` headers.
struct RESTListingPages<Item: Decodable & Sendable>: ListingPages {
  var iterator: PageSequence<Item>.Iterator

  mutating func next() async throws(GitHubError) -> ListingPage<Item>? {
    guard let page = try await iterator.next() else { return nil }
    return ListingPage(
      items: page.items, skipped: page.skipped, hasNext: page.next != nil,
      announcedPages: page.lastPageNumber, source: page.url.absoluteString)
  }
}
