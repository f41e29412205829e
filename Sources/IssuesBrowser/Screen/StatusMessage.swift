import Foundation

/// A message on a screen's status line, shown until it expires.
///
/// What an action did, why a key did nothing: every screen's status line shows one the same way.
package struct StatusMessage: Hashable, Sendable {
  /// What the message says.
  package var text: String
  /// When it leaves the status line.
  package var until: Date

  /// How long a message stays.
  package static let duration: TimeInterval = 4

  /// A message shown from `now` for ``duration`` seconds.
  package init(_ text: String, now: Date) {
    self.text = text
    until = now.addingTimeInterval(Self.duration)
  }

  /// Whether the message has left the status line at `now`.
  package func hasExpired(at now: Date) -> Bool { now >= until }
}
