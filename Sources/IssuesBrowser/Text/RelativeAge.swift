import Foundation

/// Short relative ages, as lists show them: "now", "5m", "3h", "2d", "4mo", "1y".
package enum RelativeAge {
  /// The age as a sentence says it: "just now", "5m ago".
  package static func ago(_ date: Date, now: Date) -> String {
    let age = describe(date, now: now)
    return age == "now" ? "just now" : age + " ago"
  }

  /// The age of a date at a given time.
  package static func describe(_ date: Date, now: Date) -> String {
    let seconds = max(0, Int(now.timeIntervalSince(date)))
    switch seconds {
    case ..<60: return "now"
    case ..<3600: return "\(seconds / 60)m"
    case ..<86_400: return "\(seconds / 3600)h"
    case ..<(86_400 * 30): return "\(seconds / 86_400)d"
    case ..<(86_400 * 365): return "\(seconds / (86_400 * 30))mo"
    default: return "\(seconds / (86_400 * 365))y"
    }
  }
}
