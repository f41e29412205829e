import Foundation

/// Large, realistic repositories made up deterministically, for benchmarks and load tests.
///
/// Titles are in English, Korean and emoji, with labels, milestones with due dates, pull requests,
/// and a spread of states and update times. The same seed gives the same repository everywhere.
public struct SyntheticRepository: Sendable {
  /// How many issues and pull requests.
  public var itemCount: Int
  /// How many milestones.
  public var milestoneCount: Int
  /// The seed.
  public var seed: UInt64
  /// One issue in this many is a parent of sub-issues (see ``subIssues(of:spacing:)``).
  package var parentSpacing: Int

  /// Describes a repository; 100,000 items in 60 milestones by default.
  public init(
    itemCount: Int = 100_000, milestoneCount: Int = 60, seed: UInt64 = 42,
    parentSpacing: Int = 100
  ) {
    precondition(parentSpacing > 5, "a parent has up to five sub-issues after it")
    self.itemCount = itemCount
    self.milestoneCount = milestoneCount
    self.seed = seed
    self.parentSpacing = parentSpacing
  }

  static let subjects = [
    "crash", "memory leak", "dark mode", "login", "sync", "search", "settings", "keyboard",
    "export", "import",
    "notifications", "offline mode", "pagination", "milestone filter", "chip bar", "scrolling",
    "layout",
  ]
  static let englishTemplates = [
    "%@ fails on startup", "Improve %@ performance", "Add %@ support", "%@ is slow with many items",
    "Document %@", "Refactor %@", "%@ shows stale data after refresh", "Wrong colours in %@",
  ]
  static let koreanTitles = [
    "전체선택 버튼이 동작하지 않음", "마일스톤 없는 이슈 필터", "검색 결과가 비어 있음", "다크 모드 지원",
    "스크롤이 끊김", "로그인 후 화면이 멈춤", "알림 설정 저장 안 됨", "새 버전의 문제",
  ]
  static let emoji = ["😃", "🚀", "🐛", "🔥", "✨", "👨‍👩‍👧", "🇰🇷", "⚠️"]
  static let labelNames = [
    "bug", "feature", "docs", "ui", "performance", "good first issue", "help wanted", "한글",
  ]
  static let authors = [
    "octocat", "forest-yun", "hubot", "mona", "lee-dev", "kim.s", "nakamura", "dependabot",
  ]

  /// The milestones and items, as one complete cache update.
  public func make() -> CacheUpdate {
    var rng = Generator(seed: seed)
    let start = Date(timeIntervalSince1970: 1_600_000_000)
    var milestones: [GitHubMilestone] = []
    for number in 1...max(1, milestoneCount) {
      let title = number % 7 == 0 ? "마일스톤 \(number)" : "v\(number / 10).\(number % 10)"
      let state: GitHubMilestone.State = number <= milestoneCount * 2 / 3 ? .closed : .open
      let due: Date? =
        number % 5 == 0 ? nil : start.addingTimeInterval(Double(number) * 86_400 * 14)
      milestones.append(
        GitHubMilestone(
          id: Int64(900_000 + number), number: number, title: title, state: state, dueOn: due))
    }
    let labels = Self.labelNames.enumerated().map {
      GitHubLabel(id: Int64(800_000 + $0), name: $1, color: "a2eeef")
    }
    var issues: [GitHubIssue] = []
    issues.reserveCapacity(itemCount)
    for index in 0..<itemCount {
      let number = index + 1
      let title: String
      switch rng.next() % 10 {
      case 0..<6:
        let template = Self.englishTemplates[Int(rng.next() % UInt64(Self.englishTemplates.count))]
        let subject = Self.subjects[Int(rng.next() % UInt64(Self.subjects.count))]
        title = template.replacingOccurrences(of: "%@", with: subject)
      case 6..<9:
        title =
          Self.koreanTitles[Int(rng.next() % UInt64(Self.koreanTitles.count))] + " #\(number % 97)"
      default:
        title =
          "\(Self.emoji[Int(rng.next() % UInt64(Self.emoji.count))]) \(Self.subjects[Int(rng.next() % UInt64(Self.subjects.count))])"
      }
      let created = start.addingTimeInterval(Double(index) * 600 + Double(rng.next() % 600))
      let updated = created.addingTimeInterval(Double(rng.next() % (86_400 * 90)))
      let closed = rng.next() % 3 != 0
      let milestone =
        rng.next() % 4 == 0 ? nil : milestones[Int(rng.next() % UInt64(milestones.count))]
      let labelCount = Int(rng.next() % 3)
      let itemLabels = (0..<labelCount).map { _ in labels[Int(rng.next() % UInt64(labels.count))] }
      issues.append(
        GitHubIssue(
          id: Int64(1_000_000 + number), number: number, title: title,
          state: closed ? .closed : .open,
          user: GitHubUser(
            login: Self.authors[Int(rng.next() % UInt64(Self.authors.count))], id: 1),
          labels: Array(Set(itemLabels)).sorted { $0.name < $1.name }, milestone: milestone,
          comments: Int(rng.next() % 40), createdAt: created, updatedAt: updated,
          closedAt: closed ? updated : nil,
          body:
            "Steps to reproduce \(number): open the app, \(Self.subjects[number % Self.subjects.count]), "
            + "then look at the result. 기대한 동작과 다릅니다.",
          htmlURL: "https://github.com/example/large/issues/\(number)",
          isPullRequest: rng.next() % 5 == 0))
      // Drafts and merges follow from the number (the generator's sequence stays as it was):
      // one open pull request in six is a draft, two closed ones in three were merged.
      if issues[index].isPullRequest {
        issues[index].isDraft = !closed && number % 6 == 0
        issues[index].mergedAt = closed && number % 3 != 0 ? updated : nil
      }
    }
    // Every issue numbered 1, 101, 201… (by default) has the issues after it (up to five, pull requests
    // skipped) as sub-issues; drawn from the numbers, not the generator, so the rest is unchanged.
    for (parent, children) in Self.subIssues(of: issues, spacing: parentSpacing) {
      let done = children.count { issues[$0 - 1].state == .closed }
      issues[parent - 1].subIssues = SubIssueSummary(total: children.count, completed: done)
    }
    return CacheUpdate(
      issues: issues, isComplete: true, milestones: milestones, labels: labels,
      syncedAt: start.addingTimeInterval(Double(itemCount) * 600))
  }

  /// The sub-issues of the generated items, by parent number: each issue numbered 1, 101,
  /// 201… (with the default spacing) parents the issues after it, up to five of them, pull
  /// requests skipped.
  ///
  /// - Parameters:
  ///   - issues: The items ``make()`` generated, in number order from 1.
  ///   - spacing: The repository's ``parentSpacing``.
  /// - Returns: The children of each parent, by parent number.
  package static func subIssues(of issues: [GitHubIssue], spacing: Int = 100) -> [Int: [Int]] {
    var tree: [Int: [Int]] = [:]
    for parent in stride(from: 1, through: issues.count, by: spacing)
    where !issues[parent - 1].isPullRequest {
      let children = ((parent + 1)...min(parent + 5, issues.count)).filter {
        $0 <= issues.count && !issues[$0 - 1].isPullRequest
      }
      if !children.isEmpty { tree[parent] = children }
    }
    return tree
  }

  /// SplitMix64.
  struct Generator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }
}
