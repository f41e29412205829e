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
/// whole seconds), de-duplicating by identifier. The argument, from GitHub's documented `since`
/// ("at or after the given time") and `sort=updated` (GraphQL: `orderBy: UPDATED_AT`):
///
/// - Each request answers, at one moment, a prefix of the items updated at or after its `since`,
///   in `updated_at` order. So after a page whose latest item was updated at *M*, every item then
///   updated before *M* was on that page or an earlier one.
/// - An item updated after a request was answered carries an `updated_at` no earlier than that
///   answer's latest, so it is at or after the next `since` and some later request lists it.
/// - The listing ends only with a page that has no next page: every item at or after its `since`
///   was on it. Hence every item that exists at the end was served, in its latest version.
///
/// **Same-second blocks.** When a page's items mostly share its last second (a bulk edit puts
/// hundreds of items in one), asking again from there would bring mostly what was seen, and when
/// a whole page shares one second `since` cannot move at all. Order among equal `updated_at`s is
/// not documented, so the block is walked by position within the query, and a walk by position
/// shifts when an item before the position leaves (deleted, transferred, or updated out of the
/// block). Where the source can serve a window of any size at any page (REST's `per_page` and
/// `page`), the walk proves each step instead of trusting it: every window overlaps the positions
/// already covered, and counts only if it holds an item this walk served, unchanged (a
/// *witness*). Items leave a block but never enter it before that witness (an update moves an
/// item to the end of the order), so every item not yet served sits after the witness, in this
/// window or a later one. A window without a witness steps back and overlaps further; the first
/// window of a query needs none. This rests on one assumption, stated where it is used: ties keep
/// one order between two requests while nothing in them changes. It is checked: a window with a
/// served item after an unserved one, or a served item at a later place than before, shows
/// another order; the walk starts again once, and then a source with filters proves the block
/// in parts instead (``ListingCells``, which needs no order among ties), as it does where a
/// window would ask past page 100, which GitHub refuses.
///
/// A source of cursors (GraphQL, whose edges give each node's cursor) chooses its windows the
/// same way: the next page is asked for after the cursor of an item proved a few places before
/// the last, so the same witness rule holds whether the server's cursors are keys or positions.
/// Either way a cut-off listing stores where its walk stands (``Fresh/resumePoint``: the
/// position or cursor, and the last items proved as witnesses) and the next one goes on from
/// there (``resume(at:)``) instead of walking the block again from its start; the stored
/// witnesses prove that step as they prove any other. A source with neither follows its `next` pages, and
/// when an item first seen in such a walk is seen again, updated, the walk is listed again once
/// the listing ends (at most ``maximumPasses`` passes, then ``unproven`` says so).
///
/// **A page out of order** (an item edited while its page was being served shows its new
/// `updated_at` at its old place) moves no mark: the listing asks again from the earliest
/// `updated_at` after the break, which every item not yet served follows. A server that ignores
/// `since` altogether (an item from before it) is followed page by page through its `next` links,
/// as a plain listing that moves no mark.
///
/// The pages come from a ``ListingPages`` source: REST pages and their `link` headers, or
/// GraphQL pages and their cursors (where `since` is exact, so the margin is none).
struct UpdatedOrderListing<Item: UpdateOrdered> {
  /// A page of items not seen before in this version; the rest of the page was.
  struct Fresh {
    var items: [Item]
    var skipped: [SkippedItem]
    /// Whether the latest `updated_at` of these items is a point to resume from: every item
    /// updated before it was served by now.
    var inOrder: Bool
    /// Inside a walk through cursors, where a later listing may go on from once this page is
    /// stored (the `updated_at` mark alone would list the whole block again).
    var resumePoint: ListingResumePoint? = nil
  }

  /// A walk by position through one query's same-second block, window by window.
  struct Walk {
    /// The query's `since`.
    var since: Date?
    /// The most items a window may hold: the size of the query's first page.
    var pageSize: Int
    /// Where the next window is aimed: the first position not yet covered.
    var covered: Int
    /// How many covered positions the next window overlaps: doubled after each window without
    /// a witness, since items leave faster than the overlap covered.
    var overlap = 2
    /// Each item this walk served, with the `updated_at` it was served with: the witnesses.
    var served: [Int64: Date]
    /// For a source of cursors: each item the walk proved, with its cursor, in the walk's
    /// order; the next page is asked for after the one ``overlap`` places before the last.
    var anchors: [(cursor: String, id: Int64, updatedAt: Date)] = []
    /// Cursors the source refused (expired) during this walk, and pages it answered: the
    /// refusals allowed grow with the pages (``CursorRefusals/allowsRefusal(_:afterPages:)``).
    var refusedCursors = 0
    var pagesAnswered = 0
    /// How many anchors before the usual one the next page is asked after: one more for each
    /// cursor the source kept refusing, none again once a page is answered.
    var retreat = 0
    /// Walks started again from the block's start after the source refused every cursor
    /// stepped back to.
    var restarts = 0
    /// For a walk in windows: the items of the last window that counted, which end at
    /// ``covered``: the witnesses a later listing's first window looks for.
    var lastWindow: [Int64: Date] = [:]
    /// Whether ``served`` holds every item before the positions covered, so that a window's
    /// order can be checked against it: not in the first window of a walk an earlier listing
    /// stored, which knows only its witnesses.
    var knowsPrefix = true
    /// Windows whose order showed that the server's order among the block's ties changed.
    var reorders = 0
    /// Where in the query each served item was last seen, from windows without undecodable
    /// items (whose places are unknown): under one order an item only moves earlier, as items
    /// before it leave, so one seen later than before shows another order.
    var positions: [Int64: Int] = [:]
    /// The latest `updated_at` of the block: what the first page of the walk ended with.
    var blockEnd: Date?

    /// Makes this a walk of its own from the block's start, whose first window needs no
    /// witness: what it served and proved is forgotten (the listing still knows what it saw).
    mutating func startAgain() {
      covered = 0
      overlap = 2
      retreat = 0
      served = [:]
      anchors = []
      lastWindow = [:]
      positions = [:]
      knowsPrefix = true
    }

    /// Where a later listing goes on from: for a walk in windows, the positions covered with
    /// the last window's items as witnesses; for a source of cursors, after the anchor the next
    /// page would be asked after, with the items after it as witnesses.
    var resumePoint: ListingResumePoint? {
      if !lastWindow.isEmpty {
        return ListingResumePoint(
          since: since, position: .covered(covered, pageSize: pageSize), witnesses: lastWindow)
      }
      let index = anchors.count - 1 - max(overlap, 2)
      guard index >= 0 else { return nil }
      var witnesses: [Int64: Date] = [:]
      for anchor in anchors[(index + 1)...] { witnesses[anchor.id] = anchor.updatedAt }
      return ListingResumePoint(
        since: since, position: .after(cursor: anchors[index].cursor), witnesses: witnesses)
    }
  }

  /// How many times a listing starts again from a cursor walk that may have missed an item.
  static var maximumPasses: Int { 3 }

  /// How many anchors a walk through cursors steps back after refused ones before it starts
  /// again from its block's start: well under a page, so that the page after still brings
  /// items not seen.
  static var maximumRetreat: Int { 8 }

  /// The smallest page walked in windows: a shorter one with a `next` link (which GitHub does
  /// not send) is followed through that link.
  static var smallestWalkedPage: Int { 10 }

  /// The pages of the query from a `since`.
  let open: @Sendable (Date?) -> any ListingPages<Item>
  /// One window of the query from a `since`, `perPage` items from page `page`.
  ///
  /// Sources that cannot choose their windows have none, and walk through their `next` pages.
  var openWindow: (@Sendable (Date?, _ perPage: Int, _ page: Int) -> any ListingPages<Item>)?
  /// The pages of the query from a `since` after a cursor (`nil`: from its start), for a source
  /// that gives each item's cursor (GraphQL's edges): its walks are windows after a cursor.
  var openAfter: (@Sendable (Date?, _ after: String?) -> any ListingPages<Item>)?
  /// The first page of the query from a `since`, narrowed by GitHub's own `filters`.
  ///
  /// 100 items: one part of a block GitHub orders differently from one request to the next
  /// (``ListingCells``). Sources whose query takes no such filters have none.
  var openCell: (@Sendable (Date?, _ filters: [String: String]) -> any ListingPages<Item>)?
  /// The filters that cut the query into parts whose union is all of it, coarsest first.
  var cellDimensions: [ListingCells.Dimension] = []
  /// How far before the latest `updated_at` seen the next query starts: one second where
  /// `since` is counted in whole seconds.
  let overlap: TimeInterval
  /// Pages a listing may take when its first page announces none.
  let defaultPageBudget: Int
  /// Whether the query takes a `since`; without one, the listing walks its pages.
  var isKeyed = true
  private var since: Date?
  private var iterator: (any ListingPages<Item>)?
  private var walk: Walk?
  /// A block whose ties came in another order on every walk, proved in parts instead.
  private var cells: ListingCells?
  /// Parts of ``cells`` to cut before the next is asked.
  private var cellsToCut: [ListingCells.Part] = []
  /// A walk in windows an earlier listing stored, gone on with once this listing reaches its
  /// block (``resume(at:)``).
  private var storedWalk: ListingResumePoint?
  /// Each identifier served and the latest `updated_at` it was served with.
  private(set) var seen: [Int64: Date] = [:]
  /// Identifiers served on a page of a cursor walk, and the `since` of that walk.
  private var walked: [Int64: Date] = [:]
  private var redoFrom: Date?
  /// Whether any page was followed by its `next` cursor in keyset order (a cursor walk).
  private var hasWalked = false
  private var passes = 1
  private var pagesInPass = 0
  private var pageBudget: Int?
  /// Whether the server kept `since`; a plain page walk otherwise.
  private(set) var inOrder = true
  private var ended = false
  /// Pages requested, in every pass.
  private(set) var pages = 0
  /// Windows of a walk that held no witness and were asked again further back.
  private(set) var stepsBack = 0
  /// Once a walk could not be proved, no later page moves a mark or stores a point to resume
  /// from: what it missed stays ahead of the marks for the next listing.
  private var marksHeld = false
  /// Why the listing cannot vouch for having seen everything, or `nil`.
  private(set) var unproven: String?

  /// A listing of a REST query, whose `since` is sent in whole seconds; a same-second block is
  /// walked in windows of its own `per_page` and `page`.
  ///
  /// `cellDimensions` are the query's filters that together cover it (an issue listing's
  /// `state`, `milestone`, `assignee`): a block whose order changes between requests is proved
  /// part by part through them.
  init(
    client: GitHubClient, since: Date?, cellDimensions: [ListingCells.Dimension] = [],
    firstPage: @escaping @Sendable (Date?) -> URL
  )
  where Item: Decodable {
    // `since` is sent in whole seconds: a fraction would make the first items look out of order.
    self.since = since.map { Date(timeIntervalSince1970: $0.timeIntervalSince1970.rounded(.down)) }
    self.open = { since in
      RESTListingPages(
        iterator: client.pages(from: firstPage(since), of: Item.self, conditional: false)
          .makeAsyncIterator())
    }
    self.openWindow = { since, perPage, page in
      RESTListingPages(
        iterator: client.pages(
          from: firstPage(since).settingQuery(["per_page": "\(perPage)", "page": "\(page)"]),
          of: Item.self, conditional: false
        ).makeAsyncIterator())
    }
    if !cellDimensions.isEmpty {
      self.cellDimensions = cellDimensions
      self.openCell = { since, filters in
        var query = filters
        query["per_page"] = "\(ListingCells.pageSize)"
        query["page"] = "1"
        return RESTListingPages(
          iterator: client.pages(
            from: firstPage(since).settingQuery(query), of: Item.self, conditional: false
          ).makeAsyncIterator())
      }
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

  /// A listing that goes on inside the walk through one second an earlier listing stored
  /// (``Fresh/resumePoint``), rather than walking that second again from its start.
  ///
  /// - A source of cursors asks for its first page after the stored cursor; the page counts
  ///   only with one of the stored witnesses in it, and without one the walk starts again from
  ///   the query's start.
  /// - A source of windows first lists from its own `since` as usual, which brings what was
  ///   updated before the block (the margin a later sync re-reads), until a page reaches the
  ///   block: everything updated before the block's witnesses was served by then. The walk
  ///   then goes on at the stored position, its first window overlapping the positions covered
  ///   and counting only with a stored witness in it, so that items that left the block since
  ///   shift nothing out; without one it steps back, down to the block's start.
  ///
  /// A point of the other kind, or one whose block comes before this listing's `since`, is
  /// not this listing's to follow, and is ignored: the listing then walks from its `since`.
  mutating func resume(at point: ListingResumePoint) {
    switch point.position {
    case .after(let cursor):
      guard openAfter != nil else { return }
      since = point.since
      var walk = Walk(since: point.since, pageSize: 0, covered: 0, served: point.witnesses)
      walk.anchors = [(cursor, 0, .distantPast)]
      walk.overlap = 0
      walk.knowsPrefix = false
      self.walk = walk
    case .covered(let covered, let pageSize):
      // Read from the cache file: a position no walk could have stored is not followed.
      guard openWindow != nil, covered > 0, (1...100).contains(pageSize),
        let block = point.witnesses.values.min(), block >= since ?? .distantPast
      else { return }
      storedWalk = point
    }
  }

  /// Goes on with the stored walk once `page`, listed from this listing's `since`, reaches its
  /// block; whether it did.
  private mutating func enterStoredWalk(after page: ListingPage<Item>) -> Bool {
    guard inOrder, let point = storedWalk,
      case .covered(let covered, let pageSize) = point.position,
      let block = point.witnesses.values.min(),
      page.items.contains(where: { $0.updatedAt >= block })
    else { return false }
    storedWalk = nil
    // A query that ends on this page has no block left to walk.
    guard page.hasNext else { return false }
    var walk = Walk(
      since: point.since, pageSize: pageSize, covered: covered, served: point.witnesses)
    walk.lastWindow = point.witnesses
    walk.knowsPrefix = false
    self.walk = walk
    // The walk's query is the listing's from here: a later key moves on from it.
    since = point.since
    iterator = nil
    return true
  }

  /// The next page of fresh items, or `nil` when the listing has ended.
  mutating func next() async throws(GitHubError) -> Fresh? {
    guard var page = try await nextPage() else { return nil }
    if marksHeld {
      page.inOrder = false
      page.resumePoint = nil
    }
    return page
  }

  private mutating func nextPage() async throws(GitHubError) -> Fresh? {
    while !ended {
      if cells != nil { if let fresh = try await nextCell() { return fresh } else { continue } }
      let page: ListingPage<Item>
      var window: (start: Int, size: Int)?
      if let walk, openWindow == nil, let openAfter {
        let usual = walk.anchors.count - 1 - walk.overlap
        // Stepped back after refusals, never past the walk's first anchor.
        let index = walk.retreat > 0 ? max(0, usual - walk.retreat) : usual
        let anchor = index >= 0 ? walk.anchors[index].cursor : nil
        var source = openAfter(walk.since, anchor)
        do throws(GitHubError) {
          page =
            try await source.next()
            ?? ListingPage(items: [], skipped: [], hasNext: false, source: "after a cursor")
          self.walk?.pagesAnswered += 1
          self.walk?.retreat = 0
        } catch  where error.isRefusedCursor && anchor != nil {
          // A cursor the source kept refusing (the page source asked with it a few times):
          // every anchor is a proved point, so the next page is asked after the one before it,
          // which the witness rule proves as it proves any window; when the first was refused
          // too, the walk starts again from the block's start, as a walk of its own.
          var current = walk
          current.refusedCursors += 1
          guard
            CursorRefusals.allowsRefusal(current.refusedCursors, afterPages: current.pagesAnswered)
          else { throw error }
          if index > 0, current.retreat < Self.maximumRetreat {
            current.retreat += 1
          } else {
            guard current.restarts < CursorRefusals.maximumRestarts else { throw error }
            current.restarts += 1
            current.startAgain()
          }
          self.walk = current
          continue
        }
        // No size: a page of cursors ends its query only by saying so.
        window = (anchor == nil ? 0 : 1, 0)
      } else if let walk, let openWindow {
        let (perPage, number, proved) = Self.window(
          covering: walk.covered, overlapping: walk.overlap, pageSize: walk.pageSize)
        if number > Self.lastPageNumber {
          // GitHub refuses page numbers past 100 on large listings: the rest of the block is
          // proved in parts, or said unproven.
          enterCells(after: walk, because: "holds more items than 100 pages reach")
          continue
        }
        // A walk started again from its block's start needs no overlap for its first window.
        if !proved, walk.covered > 0, unproven == nil {
          unproven =
            "pages of \(walk.pageSize) are too small to prove a walk through items of one second"
        }
        var source = openWindow(walk.since, perPage, number)
        let start = perPage * (number - 1)
        page =
          try await source.next()
          ?? ListingPage(items: [], skipped: [], hasNext: false, source: "window \(start)")
        window = (start, perPage)
      } else {
        if iterator == nil { iterator = open(since) }
        guard let next = try await iterator?.next() else {
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
        page = next
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
      let asked = window != nil ? walk?.since : since
      if inOrder,
        page.items.contains(where: { $0.updatedAt < asked ?? .distantPast })
          || Self.breaks(in: page.items) > Self.toleratedBreaks(in: page.items.count)
      {
        // The server ignores `since` or the order (more breaks than edits while a page is
        // served explain): a plain listing from here, through `next` links.
        inOrder = false
        if window != nil {
          walk = nil
          iterator = nil
          continue
        }
      }
      if let window, var current = walk {
        // A window counts only with a witness: see the type's discussion.
        let witnessed =
          window.start == 0 || openWindow != nil && window.start >= current.covered
          || page.items.contains { current.served[$0.id] == $0.updatedAt }
        if witnessed,
          current.knowsPrefix && Self.isReordered(page.items, served: current.served)
            || page.skipped.isEmpty && Self.isMovedLater(page.items, from: window.start, current)
        {
          return reordered(page, current)
        }
        if witnessed {
          current.knowsPrefix = true
          current.covered = window.start + page.items.count + page.skipped.count
          if openWindow == nil {
            guard page.cursors.count == page.items.count else {
              unproven = "a page of the walk came without its cursors"
              walk = nil
              iterator = NoListingPages()
              return Fresh(
                items: fresh(in: page.items, walkSince: nil), skipped: page.skipped, inOrder: false)
            }
            let before = current.anchors.count
            for (item, cursor) in zip(page.items, page.cursors)
            where current.served[item.id] != item.updatedAt {
              current.anchors.append((cursor, item.id, item.updatedAt))
            }
            // A resumed walk's first window overlapped nothing; the next ones do.
            if current.overlap == 0 { current.overlap = 2 }
            if current.anchors.count == before, page.hasNext {
              // Nothing past the overlap: a smaller one, then the server is not moving on.
              guard current.overlap > 1 else {
                throw GitHubError(
                  .pagination, url: page.source,
                  detail: "pages that bring nothing new, each saying another follows")
              }
              current.overlap /= 2
            }
          }
          // Every item not served yet is after these: they may witness a later window.
          for item in page.items { current.served[item.id] = item.updatedAt }
          if openWindow != nil {
            if page.skipped.isEmpty {
              current.positions.merge(
                Self.positions(of: page.items, from: window.start), uniquingKeysWith: { $1 })
            } else {
              current.positions = [:]
            }
          }
          if openWindow != nil, !page.items.isEmpty {
            current.lastWindow = Dictionary(
              page.items.map { ($0.id, $0.updatedAt) }, uniquingKeysWith: { max($0, $1) })
          }
        } else {
          // Something unserved may sit before this window, so its items witness nothing.
          stepsBack += 1
          current.covered = window.start
          current.overlap =
            openWindow == nil
            ? max(2, current.overlap * 2) : min(current.overlap * 2, max(2, current.pageSize / 2))
        }
        walk = current
        let fresh = fresh(in: page.items, walkSince: nil)
        if witnessed, storedWalk != nil, enterStoredWalk(after: page) {
          return Fresh(
            items: fresh, skipped: page.skipped,
            inOrder: inOrder && !hasWalked && Self.isSorted(page.items),
            resumePoint: walk?.resumePoint)
        }
        if witnessed {
          if !page.hasNext || page.items.count + page.skipped.count < window.size {
            // The query's end: what a cursor walk left to list again comes next.
            walk = nil
            iterator = NoListingPages()
          } else if let key = Self.resumeKey(of: page.items), rekey(at: key, page, fresh) {
            walk = nil
          }
        }
        // A window moves the marks only when witnessed and in order.
        return Fresh(
          items: fresh, skipped: page.skipped,
          inOrder: witnessed && inOrder && !hasWalked && Self.isSorted(page.items),
          resumePoint: witnessed ? walk?.resumePoint : nil)
      }
      let walkSince = since ?? .distantPast
      let fresh = fresh(in: page.items, walkSince: walkSince)
      var pageInOrder = inOrder && !hasWalked
      if storedWalk != nil, enterStoredWalk(after: page) {
        return Fresh(
          items: fresh, skipped: page.skipped, inOrder: pageInOrder && Self.isSorted(page.items),
          resumePoint: walk?.resumePoint)
      }
      if inOrder, page.hasNext {
        let sorted = Self.isSorted(page.items)
        if !sorted { pageInOrder = false }
        if let key = Self.resumeKey(of: page.items), rekey(at: key, page, fresh) {
          // Asked again from the key.
        } else if isKeyed,
          openWindow != nil && page.items.count + page.skipped.count >= Self.smallestWalkedPage
            || openAfter != nil && !page.items.isEmpty && page.cursors.count == page.items.count
        {
          // A same-second block: walked in windows, each proved by a witness.
          let served = Dictionary(
            page.items.map { ($0.id, $0.updatedAt) }, uniquingKeysWith: { max($0, $1) })
          walk = Walk(
            since: since, pageSize: page.items.count + page.skipped.count,
            covered: page.items.count + page.skipped.count, served: served,
            anchors: openWindow == nil
              ? zip(page.cursors, page.items).map { ($0, $1.id, $1.updatedAt) } : [],
            lastWindow: openWindow != nil ? served : [:])
          walk?.blockEnd = page.items.last?.updatedAt
          if page.skipped.isEmpty { walk?.positions = Self.positions(of: page.items, from: 0) }
          iterator = nil
          return Fresh(
            items: fresh, skipped: page.skipped, inOrder: pageInOrder,
            resumePoint: walk?.resumePoint)
        } else {
          // Through the query's own `next` cursor: listed again if it may have missed one.
          hasWalked = true
          for item in page.items where walked[item.id] == nil { walked[item.id] = walkSince }
        }
      }
      return Fresh(items: fresh, skipped: page.skipped, inOrder: pageInOrder)
    }
    return nil
  }

  /// Most walks of one block started again because the server's order among its ties changed
  /// between requests: once may be an item created in that very second (placed anywhere among
  /// them), twice is a server whose order cannot be walked by position.
  static var maximumReorders: Int { 1 }

  /// Whether a window of a walk shows the server's order among the block's ties changed since
  /// the walk began: under one order every item this walk served comes before every item it did
  /// not (items leave a block, or move past its end when updated, but never enter it ahead of
  /// what was served), so a served item after one not served means another order.
  static func isReordered(_ items: [Item], served: [Int64: Date]) -> Bool {
    guard let firstUnserved = items.firstIndex(where: { served[$0.id] != $0.updatedAt }) else {
      return false
    }
    return items[firstUnserved...].contains { served[$0.id] == $0.updatedAt }
  }

  /// Whether a window shows an item this walk served, unchanged, at a later place than it was
  /// seen before: under one order items only leave a block, so the others move earlier.
  static func isMovedLater(_ items: [Item], from start: Int, _ walk: Walk) -> Bool {
    items.indices.contains { index in
      let item = items[index]
      guard walk.served[item.id] == item.updatedAt, let before = walk.positions[item.id] else {
        return false
      }
      return start + index > before
    }
  }

  /// Each item's place in the query, for a page that starts at `start`.
  static func positions(of items: [Item], from start: Int) -> [Int64: Int] {
    Dictionary(
      items.enumerated().map { ($1.id, start + $0) }, uniquingKeysWith: { first, _ in first })
  }

  /// The highest page number GitHub takes on a large listing.
  static var lastPageNumber: Int { 100 }

  /// A window that showed another order: its items are kept, and the walk starts again from its
  /// block's start; past ``maximumReorders`` the listing cannot vouch for the block, says so
  /// (``unproven``), and goes on after it without moving a mark again.
  private mutating func reordered(_ page: ListingPage<Item>, _ current: Walk) -> Fresh {
    let items = fresh(in: page.items, walkSince: nil)
    var current = current
    current.reorders += 1
    if current.reorders <= Self.maximumReorders {
      current.startAgain()
      walk = current
    } else {
      enterCells(
        after: current,
        because:
          "came in a different order from one request to the next, so a walk through them"
          + " could not be proved")
    }
    return Fresh(items: items, skipped: page.skipped, inOrder: false)
  }

  /// Leaves a walk by position that cannot be proved: the block is proved in parts through
  /// the query's filters (``ListingCells``) where the source has them, or said unproven; either
  /// way the listing goes on past the block's second afterwards.
  private mutating func enterCells(after current: Walk, because reason: String) {
    walk = nil
    iterator = nil
    let blockEnd =
      current.blockEnd ?? current.served.values.max() ?? current.since ?? .distantPast
    if openCell != nil, !cellDimensions.isEmpty {
      cells = ListingCells(since: current.since, blockEnd: blockEnd, dimensions: cellDimensions)
      cellsToCut = [ListingCells.Part()]
      return
    }
    unproven = "the items updated in one second \(reason)"
    marksHeld = true
    passBlock(ending: blockEnd)
  }

  /// Goes on past the second `blockEnd` falls in (`since` counts whole seconds).
  private mutating func passBlock(ending blockEnd: Date) {
    since = Date(timeIntervalSince1970: blockEnd.timeIntervalSince1970.rounded(.down) + 1)
    iterator = nil
  }

  /// The next part of a block proved in parts, or `nil` once every part is asked (the listing
  /// then goes on past the block).
  private mutating func nextCell() async throws(GitHubError) -> Fresh? {
    guard var current = cells, let openCell else { return nil }
    // The whole query is cut first, as a part asked and found all block would be.
    for part in cellsToCut { await current.split(part) }
    cellsToCut = []
    guard let part = current.pending.popLast() else {
      cells = nil
      if !current.unprovable.isEmpty {
        unproven =
          "\(current.unprovable.count) parts of the items updated in one second each hold more"
          + " than one page, and GitHub served them in a different order from one request to"
          + " the next (\(current.unprovable.map(ListingCells.describe).joined(separator: "; ")))"
        marksHeld = true
      }
      passBlock(ending: current.blockEnd)
      return nil
    }
    var source = openCell(current.since, part.filters)
    let page =
      try await source.next()
      ?? ListingPage(items: [], skipped: [], hasNext: false, source: "a part of a block")
    pages += 1
    if !ListingCells.proves(page, blockEnd: current.blockEnd) {
      await current.split(part)
    }
    cells = current
    return Fresh(
      items: fresh(in: page.items, walkSince: nil), skipped: page.skipped, inOrder: false)
  }

  /// The items of a page not served before in this version, noting a cursor walk to list again
  /// when one of its items comes back updated.
  private mutating func fresh(in items: [Item], walkSince: Date?) -> [Item] {
    var fresh: [Item] = []
    fresh.reserveCapacity(items.count)
    for item in items {
      if let earlier = seen[item.id] {
        guard item.updatedAt > earlier else { continue }
        if let walkSince = walked[item.id] { redoFrom = min(redoFrom ?? walkSince, walkSince) }
      }
      seen[item.id] = item.updatedAt
      fresh.append(item)
    }
    return fresh
  }

  /// Asks again from `key` when that moves the query on and would bring mostly new items.
  private mutating func rekey(at key: Date, _ page: ListingPage<Item>, _ fresh: [Item]) -> Bool {
    guard isKeyed else { return false }
    let next = key.addingTimeInterval(-overlap)
    let repeated = page.items.count - fresh.count
    guard next > (since ?? .distantPast), repeated * 2 <= page.items.count else { return false }
    since = next
    iterator = nil
    return true
  }

  /// The `updated_at` a page lets the query go on from: its last item's, or, when the page
  /// breaks the order, the earliest one from the break on (an item edited while served shows
  /// its new time at its old place; what follows it is in order, and nothing unseen precedes
  /// the earliest of them).
  static func resumeKey(of items: [Item]) -> Date? {
    guard let last = items.last?.updatedAt else { return nil }
    guard
      let firstBreak = items.indices.dropFirst().first(where: {
        items[$0].updatedAt < items[$0 - 1].updatedAt
      })
    else { return last }
    return items[(firstBreak - 1)...].lazy.map(\.updatedAt).min()
  }

  /// How many times a page's `updated_at` goes back.
  static func breaks(in items: [Item]) -> Int {
    zip(items, items.dropFirst()).count { $0.updatedAt > $1.updatedAt }
  }

  /// The most breaks a page in order may show: items edited while it was served.
  static func toleratedBreaks(in count: Int) -> Int { max(3, count / 10) }

  /// Whether a page is in `updated_at` order.
  static func isSorted(_ items: [Item]) -> Bool {
    zip(items, items.dropFirst()).allSatisfy { $0.updatedAt <= $1.updatedAt }
  }

  /// The window (`per_page`, `page`) that reaches furthest while overlapping at least
  /// `overlap` of the positions covered (so that as many items leaving before it still leave a
  /// witness in it), or less when no window of at most `pageSize` reaches past `covered`
  /// otherwise; `proved` is false when none overlaps at all.
  static func window(
    covering covered: Int, overlapping overlap: Int, pageSize: Int
  ) -> (perPage: Int, page: Int, proved: Bool) {
    let size = max(1, pageSize)
    var overlap = overlap
    while overlap >= 1 {
      guard covered >= overlap else {
        overlap = covered
        continue
      }
      var best = (perPage: size, page: 1, end: 0)
      for perPage in 1...size {
        let page = (covered - overlap) / perPage + 1
        let end = perPage * page
        if end > best.end { best = (perPage, page, end) }
      }
      if best.end > covered { return (best.perPage, best.page, true) }
      overlap /= 2
    }
    return (size, covered / size + 1, false)
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
  /// Each item's cursor, in item order, from a source that has them (GraphQL's edges); empty
  /// otherwise.
  var cursors: [String] = []
}

/// The pages of one query, fetched as they are consumed.
protocol ListingPages<Item> {
  associatedtype Item
  mutating func next() async throws(GitHubError) -> ListingPage<Item>?
}

/// A query with no pages left.
struct NoListingPages<Item>: ListingPages {
  mutating func next() async throws(GitHubError) -> ListingPage<Item>? { nil }
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
