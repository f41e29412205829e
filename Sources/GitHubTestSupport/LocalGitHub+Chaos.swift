import FlyingFox
import Foundation
import GitHubIssues

/// A write that changed something on the local GitHub: a copy that reached the server.
package struct AppliedWrite: Hashable, Sendable {
  /// `PATCH`, `POST`, `DELETE`.
  package var method: String
  /// The path written, unescaped.
  package var path: String
  /// The JSON body sent.
  package var body: String
}

/// How often connections drop, at random but replayably: before a read answers, before a write
/// arrives, after a write applied (the answer lost), or with a 502 after it applied.
package struct Chaos: Sendable {
  /// The chance that a read's connection drops before it answers.
  package var dropRead: Double
  /// The chance that a write's connection drops before it arrives (nothing applied).
  package var dropBeforeWrite: Double
  /// The chance that a write applies and its answer is lost mid-body.
  package var dropAfterWrite: Double
  /// The chance that a write applies and is answered 502.
  package var failAfterWrite: Double
  var state: UInt64

  /// Chaos with these chances, its rolls fixed by `seed`.
  package init(
    seed: UInt64, dropRead: Double = 0, dropBeforeWrite: Double = 0, dropAfterWrite: Double = 0,
    failAfterWrite: Double = 0
  ) {
    self.dropRead = dropRead
    self.dropBeforeWrite = dropBeforeWrite
    self.dropAfterWrite = dropAfterWrite
    self.failAfterWrite = failAfterWrite
    state = seed
  }

  mutating func roll() -> Double {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return Double((z ^ (z >> 31)) >> 11) / Double(1 << 53)
  }
}

extension LocalGitHub {
  /// Drops connections at random from now on (`nil`: never).
  package func setChaos(_ chaos: Chaos?) { self.chaos = chaos }

  /// Takes the network away (every request's connection drops before anything applies) or
  /// gives it back.
  package func setReachable(_ reachable: Bool) {
    chaos = reachable ? nil : Chaos(seed: 0, dropRead: 1, dropBeforeWrite: 1)
  }

  /// The writes that changed something, in order.
  package var appliedWrites: [AppliedWrite] { writeLog }

  /// Whether this request meets the chaos named by `chance`.
  func rollChaos(_ chance: KeyPath<Chaos, Double>) -> Bool {
    guard var current = chaos else { return false }
    let probability = current[keyPath: chance]
    guard probability > 0 else { return false }
    let hit = current.roll() < probability
    chaos = current
    return hit
  }

  /// A response whose connection drops before its body.
  func droppedResponse() -> FlyingFox.HTTPResponse {
    FlyingFox.HTTPResponse(
      statusCode: .ok, headers: [HTTPHeader("Content-Type"): "application/json"],
      body: HTTPBodySequence(from: DroppedBody(bytes: []), count: 64))
  }
}
