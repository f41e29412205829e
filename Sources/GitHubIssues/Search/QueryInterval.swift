import Foundation

/// The range a number or date qualifier allows, as GitHub writes it: `10`, `>10`, `>=10`,
/// `<10`, `<=10`, `5..20` (both ends included), `5..*`, `*..20`.
public enum QueryInterval<Bound: Hashable & Sendable>: Hashable, Sendable {
  /// Exactly this (a day, for a date).
  case equal(Bound)
  /// Strictly after.
  case greater(than: Bound)
  /// This or after (`>=`, `N..*`).
  case atLeast(Bound)
  /// Strictly before.
  case less(than: Bound)
  /// This or before (`<=`, `*..N`).
  case atMost(Bound)
  /// From the first through the second, both included.
  case between(Bound, Bound)
}

extension QueryInterval where Bound: QueryBound {
  /// The interval as written in a query.
  package var text: String {
    switch self {
    case .equal(let value): value.queryText
    case .greater(let value): ">" + value.queryText
    case .atLeast(let value): ">=" + value.queryText
    case .less(let value): "<" + value.queryText
    case .atMost(let value): "<=" + value.queryText
    case .between(let low, let high): low.queryText + ".." + high.queryText
    }
  }

  /// Reads `10`, `>10`, `>=10`, `<10`, `<=10`, `5..20`, `5..*` or `*..20`; `nil` when the text is
  /// none of them or a bound is not a ``QueryBound``.
  static func parse(_ text: Substring) -> QueryInterval? {
    for (prefix, make) in [
      (">=", Self.atLeast), ("<=", Self.atMost), (">", Self.greater), ("<", Self.less),
    ] as [(String, (Bound) -> Self)] where text.hasPrefix(prefix) {
      return Bound(queryText: text.dropFirst(prefix.count)).map(make)
    }
    if let dots = text.firstRange(of: "..") {
      let low = text[..<dots.lowerBound]
      let high = text[dots.upperBound...]
      switch (low == "*", high == "*") {
      case (true, true): return nil
      case (true, false): return Bound(queryText: high).map(Self.atMost)
      case (false, true): return Bound(queryText: low).map(Self.atLeast)
      case (false, false):
        guard let low = Bound(queryText: low), let high = Bound(queryText: high) else {
          return nil
        }
        return .between(low, high)
      }
    }
    return Bound(queryText: text).map(Self.equal)
  }
}

/// A value a range qualifier compares: a count or an instant.
package protocol QueryBound: Hashable, Sendable {
  /// Reads a value as a query writes it; `nil` when it is not one.
  init?(queryText: Substring)
  /// The value as a query writes it.
  var queryText: String { get }
}

extension Int: QueryBound {
  public init?(queryText: Substring) {
    guard !queryText.isEmpty, queryText.count <= 9, queryText.allSatisfy(\.isASCIIDigit) else {
      return nil
    }
    self.init(queryText)
  }

  package var queryText: String { String(self) }
}

/// A day (`2026-11-25`) or a moment (`2026-11-25T10:00:00Z`) in a date qualifier, with the span
/// of time it covers: a day its 24 hours (UTC, as GitHub compares dates), a moment its second.
public struct QueryInstant: QueryBound {
  /// As written.
  package let queryText: String
  /// Where the span starts and where it ends (excluded), as the cache stores dates.
  let start: String
  let end: String

  public init?(queryText: Substring) {
    let text = String(queryText)
    if text.count == 10, let day = Self.day(text) {
      self.queryText = text
      start = GitHubDate.databaseText(Date(timeIntervalSince1970: Double(day) * 86_400))
      end = GitHubDate.databaseText(Date(timeIntervalSince1970: Double(day + 1) * 86_400))
    } else if let date = GitHubDate.parse(text) {
      self.queryText = text
      let second = date.timeIntervalSince1970.rounded(.down)
      start = GitHubDate.databaseText(Date(timeIntervalSince1970: second))
      end = GitHubDate.databaseText(Date(timeIntervalSince1970: second + 1))
    } else {
      return nil
    }
  }

  /// Days since 1970 of `YYYY-MM-DD`, when it is a real calendar day.
  private static func day(_ text: String) -> Int? {
    let parts = text.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
      let year = Int(queryText: parts[0]), let month = Int(queryText: parts[1]),
      let day = Int(queryText: parts[2]), (1...12).contains(month), day >= 1
    else { return nil }
    let days = GitHubDate.daysFromCivil(year: year, month: month, day: day)
    // 2026-02-30 comes back as March: not a day.
    guard GitHubDate.civilFromDays(days) == (year, month, day) else { return nil }
    return days
  }
}

extension Character {
  fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
