import GitHubIssues

extension IssueEditFailure {
  /// The sentence for a failed edit: what failed, why, what landed before it, and what the cache
  /// shows now.
  ///
  /// - Parameters:
  ///   - milestoneTitles: Milestone titles by number, to name them rather than give numbers.
  ///   - reason: How to say GitHub's refusal: in full for a command, briefly for a status line.
  /// - Returns: "Could not close #12: …. Nothing changed."
  public func sentence(
    milestoneTitles: [Int: String], reason: (GitHubError) -> String
  ) -> String {
    let why: String
    switch self.reason {
    case .github(let error): why = reason(error)
    case .local(let text): why = text
    }
    var sentence =
      "Could not \(change.describe(issue: number, milestoneTitles: milestoneTitles)): \(why)"
    if !sentence.hasSuffix(".") { sentence += "." }
    if !landed.isEmpty {
      sentence +=
        " Done before it: "
        + landed.map { $0.describe(issue: number, milestoneTitles: milestoneTitles) }
        .joined(separator: "; ") + "."
    }
    switch resolution {
    case .takenBack: sentence += " Nothing changed."
    case .githubVersion: sentence += " The cache now shows the issue as GitHub has it."
    case .keptNewer: sentence += " The issue changed meanwhile; the cache keeps that version."
    case .nothingShown: break
    case .landedNotCached: sentence += " It landed on GitHub; the next sync caches it."
    case .unknown: sentence += " Whether it landed is unknown; the next sync settles it."
    }
    return sentence
  }
}

extension IssueCache {
  /// The cached milestones' titles by number, to name them in messages; none when the cache
  /// cannot be read (a message then gives numbers).
  public func milestoneTitles() -> [Int: String] {
    do {
      return Dictionary(try milestones().map { ($0.number, $0.title) }) { first, _ in first }
    } catch {
      return [:]
    }
  }
}
