import Foundation
import Testing

@testable import IssuesBrowser

@Suite struct LocalTimeTests {
  @Test func timesAreTwentyFourHourInTheGivenZone() throws {
    // 2026-01-02 03:04:05 UTC.
    let date = Date(timeIntervalSince1970: 1_767_323_045)
    let utc = try #require(TimeZone(identifier: "UTC"))
    let seoul = try #require(TimeZone(identifier: "Asia/Seoul"))
    let honolulu = try #require(TimeZone(identifier: "Pacific/Honolulu"))
    #expect(LocalTime.time(date, in: utc) == "03:04")
    #expect(LocalTime.day(date, in: utc) == "2026-01-02")
    #expect(LocalTime.dateTime(date, in: seoul) == "2026-01-02 12:04")
    // Ten hours behind: the day before, in the afternoon.
    #expect(LocalTime.dateTime(date, in: honolulu) == "2026-01-01 17:04")
  }
}
