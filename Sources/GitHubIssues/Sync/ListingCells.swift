import Foundation

/// A same-second block proved in parts, for a server whose order among ties changes between
/// requests, so that no walk by position through the block can be proved.
///
/// The argument needs no order among ties, only what GitHub documents: `since` selects the
/// items updated at or after it, `sort=updated` orders items whose `updated_at` differ, and a
/// query's filters select what they say. The block is cut by filters whose values together
/// select every item (`state` open or closed, `milestone` none or any, `assignee` none or
/// any): each part is asked once, from the block's `since`, 100 items on one page. An answer
/// whose last two items are past the block (`updated_at` after ``blockEnd``), in order, or
/// that has no next page, holds every item of that part the block held at that moment,
/// whatever their order. Items only leave a block once its second has passed (an update moves
/// an item past it, where the listing, going on after the block, finds it). So once every
/// part is proved, every item still in the block was served. A part whose page is all block
/// is cut again by the next filter; one that the last filter cannot cut leaves the block
/// unproven, as before.
///
/// A block is proved this way whenever no combination of the filters' values (state,
/// milestone, whether assigned) holds more than 98 of its items, in at most
/// 2 + 4 + 2·(2 + 2m) requests for m milestones, plus one milestone listing.
struct ListingCells {
  /// A filter and the values that, between them, select every item of the query, or every
  /// item one value of the same filter selects (``refining``).
  struct Dimension: Sendable {
    var name: String
    var values: Values
    /// The value of the same filter this one cuts finer (`*`, any milestone, into each one).
    var refining: String?

    /// Where a dimension's values come from.
    enum Values: Sendable {
      case fixed([String])
      /// Read when a part is cut: every value there is then, or `nil` when the list could not
      /// be read whole (the part is then not cut).
      case read(@Sendable () async -> [String]?)
    }

    /// The filters of an issue listing GitHub documents, with values that cover it all:
    /// `state`; `milestone` none or any, then any cut into each milestone (read when needed,
    /// after the block's second, so that it holds every milestone an item of the block had
    /// then: one deleted since took itself off its items, moving them past the block);
    /// `assignee` none or any.
    static func issueListing(milestones: @escaping @Sendable () async -> [Int]?) -> [Dimension] {
      [
        Dimension(name: "state", values: .fixed(["open", "closed"])),
        Dimension(name: "milestone", values: .fixed(["none", "*"])),
        Dimension(
          name: "milestone", values: .read({ await milestones()?.map(String.init) }),
          refining: "*"),
        Dimension(name: "assignee", values: .fixed(["none", "*"])),
      ]
    }
  }

  /// The items each part is asked for: GitHub's largest page.
  static var pageSize: Int { 100 }

  /// The `since` of the query the block was found in.
  var since: Date?
  /// The latest `updated_at` of the block.
  var blockEnd: Date
  var dimensions: [Dimension]
  /// One part of the block: the filters that select it, and how many dimensions were gone
  /// through to cut it.
  struct Part: Sendable {
    var filters: [String: String] = [:]
    var depth = 0
  }

  /// The parts not asked yet.
  var pending: [Part]
  /// Parts that held a full page of the block and could not be cut again.
  var unprovable: [Part] = []

  init(since: Date?, blockEnd: Date, dimensions: [Dimension]) {
    self.since = since
    self.blockEnd = blockEnd
    self.dimensions = dimensions
    self.pending = []
  }

  /// Whether a part's page holds every item of the block that part selects.
  static func proves<Item: UpdateOrdered>(_ page: ListingPage<Item>, blockEnd: Date) -> Bool {
    guard page.hasNext else { return true }
    // An item edited while its page is served shows its new time at its old place: one item
    // past the block could be that, two in order at the page's end are the block's end.
    let tail = page.items.suffix(2)
    return tail.count == 2 && tail.allSatisfy { $0.updatedAt > blockEnd }
      && zip(tail, tail.dropFirst()).allSatisfy { $0.updatedAt <= $1.updatedAt }
  }

  /// Cuts a part by the next filter that applies to it, or notes it unprovable.
  ///
  /// The whole query is the part with no filters.
  mutating func split(_ part: Part) async {
    var depth = part.depth
    while depth < dimensions.count {
      let dimension = dimensions[depth]
      depth += 1
      guard part.filters[dimension.name] == dimension.refining else { continue }
      let values: [String]?
      switch dimension.values {
      case .fixed(let fixed): values = fixed
      case .read(let read): values = await read()
      }
      guard let values else { break }
      // Asked in the order listed: `pending` is taken from its end.
      for value in values.reversed() {
        var cut = Part(filters: part.filters, depth: depth)
        cut.filters[dimension.name] = value
        pending.append(cut)
      }
      return
    }
    unprovable.append(part)
  }

  /// A part as a person reads it: `state=open milestone=none`.
  static func describe(_ part: Part) -> String {
    part.filters.keys.sorted().map { "\($0)=\(part.filters[$0] ?? "")" }.joined(separator: " ")
  }
}
