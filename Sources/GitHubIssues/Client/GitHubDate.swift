import Foundation

/// Dates as GitHub writes them (ISO 8601, `2024-01-09T12:00:00Z`) and as the cache stores them
/// (`2024-01-09 12:00:00.000`, UTC), read and written without a `DateFormatter`.
///
/// A sync reads and writes a handful of dates per item; on Linux a formatter costs microseconds
/// each, more than the rest of the item's decoding. These are plain arithmetic on the digits.
enum GitHubDate {
  /// A date from ISO 8601 text: `YYYY-MM-DDTHH:MM:SS`, an optional fraction, then `Z` or an
  /// offset `±HH:MM` (or `±HHMM`); `nil` for anything else.
  static func parse(_ text: String) -> Date? {
    var text = text
    return text.withUTF8 { parse(UnsafeRawBufferPointer($0)) }
  }

  static func parse(_ bytes: UnsafeRawBufferPointer) -> Date? {
    guard bytes.count >= 20 else { return nil }
    func number(_ start: Int, _ count: Int) -> Int? {
      guard start >= 0, start + count <= bytes.count else { return nil }
      var value = 0
      for index in start..<(start + count) {
        let digit = Int(bytes[index]) &- 48
        guard digit >= 0 && digit <= 9 else { return nil }
        value = value * 10 + digit
      }
      return value
    }
    guard let year = number(0, 4), bytes[4] == UInt8(ascii: "-"), let month = number(5, 2),
      bytes[7] == UInt8(ascii: "-"), let day = number(8, 2),
      bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: "t") || bytes[10] == 32,
      let hour = number(11, 2), bytes[13] == UInt8(ascii: ":"), let minute = number(14, 2),
      bytes[16] == UInt8(ascii: ":"), let second = number(17, 2),
      (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second <= 60
    else { return nil }
    var index = 19
    var fraction = 0.0
    if bytes[index] == UInt8(ascii: ".") {
      index += 1
      var scale = 0.1
      let start = index
      while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
        fraction += Double(bytes[index] - 48) * scale
        scale /= 10
        index += 1
      }
      guard index > start else { return nil }
    }
    guard index < bytes.count else { return nil }
    var offset = 0
    switch bytes[index] {
    case UInt8(ascii: "Z"), UInt8(ascii: "z"):
      guard index + 1 == bytes.count else { return nil }
    case UInt8(ascii: "+"), UInt8(ascii: "-"):
      let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
      let rest = bytes.count - index - 1
      guard let hours = number(index + 1, 2) else { return nil }
      let minutes: Int?
      if rest == 5, bytes[index + 3] == UInt8(ascii: ":") {
        minutes = number(index + 4, 2)
      } else if rest == 4 {
        minutes = number(index + 3, 2)
      } else {
        minutes = rest == 2 ? 0 : nil
      }
      guard let minutes, hours < 24, minutes < 60 else { return nil }
      offset = sign * (hours * 3600 + minutes * 60)
    default:
      return nil
    }
    let days = daysFromCivil(year: year, month: month, day: day)
    let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset
    return Date(timeIntervalSince1970: Double(seconds) + fraction)
  }

  /// `2024-01-09T12:00:00Z`: whole seconds, as GitHub writes them.
  static func iso8601(_ date: Date) -> String {
    let (days, secondOfDay) = split(date.timeIntervalSince1970.rounded(.down))
    return civil(days) + "T" + clock(secondOfDay, milliseconds: nil) + "Z"
  }

  /// `2024-01-09 12:00:00.000` in UTC: GRDB's text for a date, to the millisecond.
  static func databaseText(_ date: Date) -> String {
    let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
    let (days, secondOfDay) = split((milliseconds / 1000).rounded(.down))
    let remainder = Int(milliseconds - (milliseconds / 1000).rounded(.down) * 1000)
    let (year, month, day) = civilFromDays(days)
    guard (0...9999).contains(year) else {
      return civil(days) + " " + clock(secondOfDay, milliseconds: remainder)
    }
    // Every sync writes three of these per item: the 23 bytes at once, not a dozen strings.
    return String(unsafeUninitializedCapacity: 23) { text in
      func put(_ value: Int, width: Int, at offset: Int) {
        var rest = value
        for index in stride(from: offset + width - 1, through: offset, by: -1) {
          text[index] = UInt8(truncatingIfNeeded: 0x30 + rest % 10)
          rest /= 10
        }
      }
      put(year, width: 4, at: 0)
      text[4] = 0x2D
      put(month, width: 2, at: 5)
      text[7] = 0x2D
      put(day, width: 2, at: 8)
      text[10] = 0x20
      put(secondOfDay / 3600, width: 2, at: 11)
      text[13] = 0x3A
      put(secondOfDay / 60 % 60, width: 2, at: 14)
      text[16] = 0x3A
      put(secondOfDay % 60, width: 2, at: 17)
      text[19] = 0x2E
      put(remainder, width: 3, at: 20)
      return 23
    }
  }

  private static func split(_ seconds: Double) -> (days: Int, secondOfDay: Int) {
    let whole = Int(seconds.isFinite ? max(-1e15, min(1e15, seconds)) : 0)
    let days = whole >= 0 ? whole / 86_400 : -((-whole + 86_399) / 86_400)
    return (days, whole - days * 86_400)
  }

  private static func civil(_ days: Int) -> String {
    let (year, month, day) = civilFromDays(days)
    return padded(year, 4) + "-" + padded(month, 2) + "-" + padded(day, 2)
  }

  private static func clock(_ secondOfDay: Int, milliseconds: Int?) -> String {
    var text =
      padded(secondOfDay / 3600, 2) + ":" + padded(secondOfDay / 60 % 60, 2) + ":"
      + padded(secondOfDay % 60, 2)
    if let milliseconds { text += "." + padded(milliseconds, 3) }
    return text
  }

  private static func padded(_ value: Int, _ width: Int) -> String {
    let digits = String(value)
    return digits.count >= width
      ? digits : String(repeating: "0", count: width - digits.count) + digits
  }

  /// Days since 1970-01-01 of a date in the proleptic Gregorian calendar.
  static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
    let year = month <= 2 ? year - 1 : year
    let era = (year >= 0 ? year : year - 399) / 400
    let yearOfEra = year - era * 400
    let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The year, month and day of a count of days since 1970-01-01.
  static func civilFromDays(_ days: Int) -> (year: Int, month: Int, day: Int) {
    let shifted = days + 719_468
    let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
    let dayOfEra = shifted - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthIndex = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
    let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }
}
