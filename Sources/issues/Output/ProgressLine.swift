import GitHubIssues
import TrellisTerminal

/// A progress line for `issues sync`: a bar while pages arrive, with what has arrived.
enum ProgressLine {
  /// The line for a progress report, `width` columns wide at most.
  ///
  /// The bar fills towards
  /// `expected` items when the count is known, and cycles otherwise.
  static func line(_ progress: SyncProgress, expected: Int?, width: Int) -> String {
    let phase: String =
      switch progress.phase {
      case .milestones: "milestones"
      case .labels: "labels"
      case .issues: "issues"
      case .pullRequests: "pull requests"
      case .conversations: "conversations"
      case .subIssues: "sub-issues"
      case .saving: "saving"
      }
    var text = " \(phase) · \(progress.pages) pages · \(progress.items) items"
    if let (spent, left) = progress.points {
      text += " · \(spent) points" + (left.map { ", \($0) left" } ?? "")
    }
    let barWidth = max(10, min(40, width - DisplayWidth.of(text) - 3))
    let filled: Int
    if let expected, expected > 0 {
      filled = min(barWidth, barWidth * progress.items / expected)
    } else {
      filled = progress.phase == .saving ? barWidth : (progress.pages * 3) % (barWidth + 1)
    }
    return "[" + String(repeating: "█", count: filled)
      + String(repeating: "░", count: barWidth - filled) + "]" + text
  }
}
