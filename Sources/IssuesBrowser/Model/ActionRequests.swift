import GitHubIssues

/// Changes the browser asks its host to make to an issue: shown in the cache at once, then sent.
public struct EditRequest: Hashable, Sendable {
  /// Tells this action's answer apart (``IssueBrowser/actionFinished(_:_:)``).
  public var id: Int
  /// The issue.
  public var number: Int
  /// The changes, in order.
  public var changes: [IssueChange]

  /// Creates a request.
  public init(id: Int, number: Int, changes: [IssueChange]) {
    self.id = id
    self.number = number
    self.changes = changes
  }
}

/// A comment the browser asks its host to have written and posted.
public struct CommentRequest: Hashable, Sendable {
  /// Tells this action's answer apart.
  public var id: Int
  /// The issue commented on.
  public var number: Int

  /// Creates a request.
  public init(id: Int, number: Int) {
    self.id = id
    self.number = number
  }
}

/// Whether the browser may change issues on GitHub, as its host found out at start.
public enum WriteAccess: Hashable, Sendable {
  /// A token was found: changes are sent (GitHub may still refuse, and says why).
  case allowed
  /// No token: a change would be refused, so the keys say so, with this advice.
  case needsToken(advice: String)
  /// No network at all (the demo): the keys say why.
  case unavailable(reason: String)
  /// A token, but GitHub is not asked (offline mode): changes wait in the queue, shown at once.
  case queued(reason: String)
  /// The token is still being looked for (the first moments of a session): a change is
  /// refused, saying so, rather than queued without one.
  case lookingForToken

  /// Why no change can be made, said to the person; `nil` when one can (sent, or queued).
  var refusal: String? {
    switch self {
    case .allowed, .queued: nil
    case .needsToken(let advice): "Changing issues needs a token: \(advice)."
    case .unavailable(let reason): "Issues cannot be changed here: \(reason)."
    case .lookingForToken: "Still looking for a token to write with: try again in a moment."
    }
  }

  /// Whether a change may be queued: `.allowed` when a token will send it, now or later.
  var queueing: WriteAccess {
    switch self {
    case .allowed, .queued: .allowed
    case .needsToken, .unavailable, .lookingForToken: self
    }
  }
}

/// An action sent to GitHub and not answered yet.
public struct PendingAction: Hashable, Sendable {
  /// The issue.
  public var number: Int
  /// "closing #12", for the status line.
  package var summary: String

  /// Creates one.
  public init(number: Int, summary: String) {
    self.number = number
    self.summary = summary
  }
}
