import Foundation

/// Times and dates as the status bar and the preview show them: 24-hour, in the local time zone,
/// the same in every locale.
///
/// Built from calendar components rather than a `DateFormatter`, which would cost an allocation
/// and a locale lookup on every redraw of the status bar.
enum LocalTime {
  /// `HH:mm`.
  static func time(_ date: Date, in zone: TimeZone = .current) -> String {
    let parts = components(date, zone)
    return "\(twoDigits(parts.hour)):\(twoDigits(parts.minute))"
  }

  /// `yyyy-MM-dd HH:mm`.
  static func dateTime(_ date: Date, in zone: TimeZone = .current) -> String {
    "\(day(date, in: zone)) \(time(date, in: zone))"
  }

  /// `yyyy-MM-dd`.
  static func day(_ date: Date, in zone: TimeZone = .current) -> String {
    let parts = components(date, zone)
    return "\(parts.year ?? 0)-\(twoDigits(parts.month))-\(twoDigits(parts.day))"
  }

  private static func components(_ date: Date, _ zone: TimeZone) -> DateComponents {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = zone
    return calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
  }

  private static func twoDigits(_ value: Int?) -> String {
    let value = value ?? 0
    return value < 10 ? "0\(value)" : String(value)
  }
}
