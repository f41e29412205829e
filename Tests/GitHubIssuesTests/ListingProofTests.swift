import Foundation
@testable import GitHubIssues
import Testing
import TrellisTestSupport

/// The one proof every fetcher and landed check judges a REST listing by: random listings, each
/// whole or with one thing wrong, and the proof says complete exactly for the whole ones.
@Suite struct ListingProofTests {
  /// What is wrong with a generated listing.
  enum Fault: CaseIterable {
    case none, unreadableItem, missingPage, shortPage, noLastPage, moreAnnounced, stoppedEarly
  }

  static func url(page: Int) -> URL {
    URL(fileURLWithPath: "/x").appending(queryItems: [URLQueryItem(name: "page", value: "\(page)")])
  }

  /// A listing of `total` items in pages of `size`, with `fault` applied.
  static func pages(total: Int, size: Int, fault: Fault, _ rng: inout SplitMix64) -> (
    pages: [Page<Int>], announced: Int
  ) {
    let count = max(1, (total + size - 1) / size)
    var pages: [Page<Int>] = (0..<count).map { index in
      let items = Array((index * size)..<min(total, (index + 1) * size))
      return Page(
        url: Self.url(page: index + 1), items: items,
        next: index + 1 < count ? Self.url(page: index + 2) : nil,
        lastPageNumber: index == 0 && count > 1 ? count : nil, isNotModified: false)
    }
    var announced = total
    switch fault {
    case .none: break
    case .unreadableItem:
      let page = Int.random(in: 0..<count, using: &rng)
      if pages[page].items.isEmpty {
        pages[page].skipped = [SkippedItem(id: 1, number: nil, reason: "field `user`: missing")]
        announced += 1
      } else {
        let item = pages[page].items.remove(
          at: Int.random(in: pages[page].items.indices, using: &rng))
        pages[page].skipped = [SkippedItem(id: Int64(item), number: nil, reason: "bad")]
      }
    case .missingPage:
      pages.remove(at: Int.random(in: 1..<count, using: &rng))
    case .shortPage:
      pages[Int.random(in: 0..<(count - 1), using: &rng)].items.removeLast()
    case .noLastPage:
      pages[0].lastPageNumber = nil
    case .moreAnnounced:
      announced += Int.random(in: 1...3, using: &rng)
    case .stoppedEarly:
      pages.removeLast()
    }
    return (pages, announced)
  }

  @Test func aListingIsProvedCompleteExactlyWhenNothingIsWrongWithIt() {
    let seed: UInt64 = 0x1157_1A6F
    print("ListingProofTests seed \(seed)")
    var rng = SplitMix64(seed: seed)
    for _ in 0..<3_000 {
      let size = Int.random(in: 1...6, using: &rng)
      let total = Int.random(in: 0...40, using: &rng)
      let count = max(1, (total + size - 1) / size)
      var faults: [Fault] = [.none, .unreadableItem, .moreAnnounced]
      if count > 1 { faults += [.shortPage, .noLastPage, .stoppedEarly] }
      if count > 2 { faults.append(.missingPage) }
      let fault = faults[Int.random(in: faults.indices, using: &rng)]
      let (pages, announced) = Self.pages(total: total, size: size, fault: fault, &rng)
      var proof = ListingProof(announced: announced)
      for page in pages { proof.record(page) }
      let context = "size \(size), \(total) items, \(fault): \(proof.gap ?? "complete")"
      #expect((proof.gap == nil) == (fault == .none), "\(context)")
      // What could be read is kept by a timeline; only the unreadable item is missing.
      #expect((proof.pagesGap == nil) == [.none, .unreadableItem].contains(fault), "\(context)")
    }
  }
}
