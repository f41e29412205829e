/// A review of a pull request as the outbox sends it: one write holding the verdict, the
/// summary and every line comment drafted for it, so that GitHub gets all of it or none.
public struct ReviewSubmission: Hashable, Sendable, Codable {
  /// What the review says of the pull request as a whole.
  public enum Verdict: String, Hashable, Sendable, Codable, CaseIterable {
    /// Comments only.
    case comment
    /// Approves the changes.
    case approve
    /// Asks for changes before it is merged.
    case requestChanges

    /// The `event` GitHub's API takes for it.
    package var event: String {
      switch self {
      case .comment: "COMMENT"
      case .approve: "APPROVE"
      case .requestChanges: "REQUEST_CHANGES"
      }
    }

    /// The states a review submitted with this verdict can be read in: as submitted, or
    /// dismissed since (an approval or a request for changes can be dismissed).
    package var landedStates: Set<String> {
      switch self {
      case .comment: ["COMMENTED"]
      case .approve: ["APPROVED", "DISMISSED"]
      case .requestChanges: ["CHANGES_REQUESTED", "DISMISSED"]
      }
    }

    /// "approve", "request changes", "comment": for the queue and messages.
    package var words: String {
      switch self {
      case .comment: "comment"
      case .approve: "approve"
      case .requestChanges: "request changes"
      }
    }

    /// Whether GitHub requires a summary with it (its API refuses these two without one).
    package var needsBody: Bool { self != .approve }
  }

  /// The verdict.
  public var verdict: Verdict
  /// The summary, in Markdown (may be empty for an approval).
  public var body: String
  /// The head commit the review was written on (its line comments point into that diff);
  /// `nil` lets GitHub take the pull request's newest.
  public var commitID: String?
  /// The line comments, in the order they were drafted.
  public var comments: [DraftLineComment]

  /// A review.
  public init(
    verdict: Verdict, body: String, commitID: String?, comments: [DraftLineComment] = []
  ) {
    self.verdict = verdict
    self.body = body
    self.commitID = commitID
    self.comments = comments
  }
}
