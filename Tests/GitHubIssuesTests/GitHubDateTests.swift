import Foundation
import Testing
import TrellisTestSupport

@testable import GitHubIssues

/// Dates read and written by hand agree with Foundation's formatters, over random dates.
@Suite struct GitHubDateTests {
  /// GRDB's own format for a date: what the cache held before dates were written by hand.
  static let databaseFormatter: DateFormatter = {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.dateFormat = "yyyy-MM-dd HH:mm:ss.SSS"
    formatter.timeZone = TimeZone(secondsFromGMT: 0)
    return formatter
  }()

  @Test(arguments: [1 as UInt64, 2, 3])
  func agreesWithFoundationOnRandomDates(seed: UInt64) throws {
    print("GitHubDateTests seed \(seed)")
    var random = SplitMix64(seed: seed)
    let iso = ISO8601DateFormatter()
    for _ in 0..<2_000 {
      // From 1900 to 2200, to the second, then with milliseconds.
      let seconds = -2_208_988_800 + Double(random.next() % 9_467_280_000)
      let date = Date(timeIntervalSince1970: seconds)
      let text = iso.string(from: date)
      #expect(GitHubDate.iso8601(date) == text)
      #expect(GitHubDate.parse(text) == date, "\(text)")
      let precise = Date(timeIntervalSince1970: seconds + Double(random.next() % 1000) / 1000)
      #expect(GitHubDate.databaseText(precise) == Self.databaseFormatter.string(from: precise))
    }
  }

  @Test func offsetsFractionsAndGarbage() {
    let utc = GitHubDate.parse("2024-01-09T12:00:00Z")
    #expect(utc == Date(timeIntervalSince1970: 1_704_801_600))
    #expect(GitHubDate.parse("2024-01-09T14:30:00+02:30") == utc)
    #expect(GitHubDate.parse("2024-01-09T07:00:00-0500") == utc)
    #expect(GitHubDate.parse("2024-01-09T12:00:00.250Z") == utc?.addingTimeInterval(0.25))
    for bad in [
      "", "2024-01-09", "2024-01-09T12:00:00", "2024-13-09T12:00:00Z", "2024-01-09T25:00:00Z",
      "2024-01-09T12:00:00Zjunk", "2024-01-09T12:00:00.Z", "x024-01-09T12:00:00Z",
      "2024-01-09T12:00:00+2", "٢٠٢٤-01-09T12:00:00Z",
    ] {
      #expect(GitHubDate.parse(bad) == nil, "\(bad)")
    }
  }
}
