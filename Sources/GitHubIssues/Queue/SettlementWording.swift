import Foundation

// How actions taken now came out, in the one wording every command and screen says it with:
// what was asked, GitHub's reason, what did not happen, what landed before it, and where the
// person's words are kept.

extension QueuedAction.Operation {
  /// What did not happen when GitHub refused it: "Nothing was merged".
  package var nothingDone: String {
    switch self {
    case .change: "Nothing changed"
    case .comment: "Nothing was posted"
    case .create: "Nothing was filed"
    case .setParent: "Nothing was linked"
    case .merge: "Nothing was merged"
    case .enableAutoMerge: "Auto-merge was not turned on"
    case .enqueue: "Nothing was added to the merge queue"
    case .review: "Nothing was submitted"
    case .reply: "Nothing was posted"
    case .resolveThread: "The thread was left as it was"
    }
  }
}

extension ActionReplayer {
  /// Who reads a settlement's sentence: a command's person, pointed at `issues queue`, or a
  /// screen's, which shows what waits.
  package enum Audience: Sendable {
    /// A command in a terminal or a script.
    case command
    /// A screen, on a status line narrow enough to cut the end: what matters comes first.
    /// `opening` says how the screen opens a draft given back ("n opens it filled").
    case screen(opening: String? = nil)
  }
}

extension ActionReplayer.Refusal {
  /// The refusal as one sentence, the same for every write.
  ///
  /// "Could not merge #7 (squash): GitHub's reason. Nothing was merged, and nothing waits in the
  /// queue." — then what landed before it, and where the words are kept; on a screen, shorter,
  /// a draft given back said first.
  ///
  /// - Parameters:
  ///   - why: The reason to say, when the caller words GitHub's error its own way (with a
  ///     hint for a refused token, say); else GitHub's words, or the conflict's.
  ///   - milestoneTitles: Milestones' titles, to name them in what was asked.
  ///   - audience: Where the words are said: a command's, in full; a screen's, what matters
  ///     first (its drafts are opened by a key).
  /// - Returns: The sentence, as GitHub's words are: to be shown, never acted on.
  package func sentence(
    why: String? = nil, milestoneTitles: [Int: String] = [:], audience: ActionReplayer.Audience
  ) -> String {
    let number = action.issueNumber
    var reason = why ?? error?.summary() ?? self.reason
    if !reason.hasSuffix(".") { reason += "." }
    let asked = action.operation.describe(issue: number, milestoneTitles: milestoneTitles)
    if case .screen(let opening) = audience {
      // A narrow status line cuts the end: that the words are kept comes before GitHub's
      // reason, which can be long.
      guard kept.isEmpty else {
        return "Not sent, kept as a draft" + (opening.map { " (\($0))" } ?? "")
          + ": could not \(asked): \(reason)"
      }
      return "Could not \(asked): \(reason) \(action.operation.nothingDone)."
        + (landed.isEmpty ? "" : " \(landed.count) before it landed.")
    }
    var sentence =
      "Could not \(asked): " + reason
      + " \(action.operation.nothingDone), and nothing waits in the queue."
    if !landed.isEmpty {
      sentence +=
        " What landed before it stays: "
        + landed.map { $0.operation.describe(issue: number, milestoneTitles: milestoneTitles) }
        .joined(separator: ", ") + "."
    }
    return sentence + keptSentence
  }
}

extension ActionReplayer.Settlement {
  /// Actions that wait in the queue, as one sentence, the same for every write.
  ///
  /// "Queued: merge #7 (squash) — GitHub could not be reached. It is shown now and sent, once,
  /// when GitHub can be reached …"; one sent without an answer says that GitHub is read before
  /// it is sent again.
  ///
  /// - Parameters:
  ///   - waiting: The actions that wait.
  ///   - because: Why they wait, when a failure said.
  ///   - milestoneTitles: Milestones' titles, to name them in what waits.
  ///   - audience: A command's person is pointed at `issues queue`; a screen shows what waits.
  /// - Returns: The sentence, as GitHub's words are: to be shown, never acted on.
  package static func queuedSentence(
    _ waiting: [QueuedAction], because: GitHubError?, milestoneTitles: [Int: String] = [:],
    audience: ActionReplayer.Audience
  ) -> String {
    let what = waiting.map {
      $0.operation.describe(issue: $0.issueNumber, milestoneTitles: milestoneTitles)
    }
    var why = because.map { $0.summary() } ?? "GitHub could not be reached"
    if !why.hasSuffix(".") { why += "." }
    let unanswered = waiting.contains {
      if case .sending = $0.status { return true }
      return false
    }
    let when =
      unanswered
      ? "It was sent without an answer: GitHub is read to see whether it landed before it is "
        + "sent again, never twice."
      : "It is shown now and sent, once, when GitHub can be reached."
    let next =
      switch audience {
      case .command: " (`issues queue` lists what waits, `issues queue send` sends it)"
      case .screen: ""
      }
    return "Queued: \(what.joined(separator: ", ")) — \(why) " + String(when.dropLast()) + next
      + "."
  }
}
