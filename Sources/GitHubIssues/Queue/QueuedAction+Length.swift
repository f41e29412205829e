// The longest text GitHub takes, checked when an action is written to the outbox: a text it
// would refuse is said at once, not after it waited offline for a conflict.

extension QueuedAction.Operation {
  /// The most characters GitHub takes in a comment, an issue's body, a review's summary or a
  /// line comment (its answer to more is "is too long (maximum is 65536 characters)").
  ///
  /// Counted as Unicode scalars, the way GitHub's Ruby counts a string's length; how it counts
  /// is not documented, and a scalar is never more than one of GitHub's characters.
  public static let maximumTextLength = 65_536

  /// The first text of the action longer than ``maximumTextLength``: what it is, and its length.
  package var overlongText: OverlongText? {
    switch self {
    case .change, .setParent, .merge, .enableAutoMerge, .enqueue, .resolveThread: nil
    case .comment(let body): OverlongText.check(body, as: "The comment")
    case .create(let issue): OverlongText.check(issue.body, as: "The issue's body")
    case .reply(let reply): OverlongText.check(reply.body, as: "The reply")
    case .review(let review):
      OverlongText.check(review.body, as: "The review's summary")
        ?? review.comments.lazy.compactMap {
          OverlongText.check($0.body, as: "The line comment on \($0.location)")
        }.first
    }
  }
}

/// A text longer than GitHub takes, named.
///
/// Said as "The comment is 70,000 characters long; GitHub takes at most 65,536."
package struct OverlongText: Error, Hashable, Sendable, CustomStringConvertible {
  /// What the text is, capitalised: "The comment".
  package var what: String
  /// Its length, in Unicode scalars.
  package var length: Int

  package var description: String {
    "\(what) is \(length.withCommas) characters long; GitHub takes at most "
      + "\(QueuedAction.Operation.maximumTextLength.withCommas)."
  }

  /// The text's length when it is too long; `nil` otherwise.
  package static func check(_ text: String, as what: String) -> OverlongText? {
    // Scalars are at least one byte: a text of few bytes is never counted.
    guard text.utf8.count > QueuedAction.Operation.maximumTextLength else { return nil }
    let length = text.unicodeScalars.count
    return length > QueuedAction.Operation.maximumTextLength
      ? OverlongText(what: what, length: length) : nil
  }
}

extension Int {
  /// 65536 as "65,536".
  fileprivate var withCommas: String {
    let digits = Array(String(self))
    var grouped = ""
    for (index, digit) in digits.enumerated() {
      if index > 0, (digits.count - index) % 3 == 0 { grouped += "," }
      grouped.append(digit)
    }
    return grouped
  }
}
