/// Deterministic sample data for the gallery, in several scripts.
enum SampleData {
  struct Issue: Hashable {
    var number: Int
    var title: String
    var milestone: String?
    var isOpen: Bool
    var author: String
    var comments: Int
  }

  struct Milestone: Hashable {
    var title: String
    var isOpen: Bool
  }

  static let milestones: [Milestone] = [
    Milestone(title: "v1.0 출시", isOpen: true),
    Milestone(title: "🚀 Launch", isOpen: true),
    Milestone(title: "2026 Q4", isOpen: true),
    Milestone(title: "디자인 개편", isOpen: true),
    Milestone(title: "Performance", isOpen: true),
    Milestone(title: "新版本", isOpen: true),
    Milestone(title: "Accessibility ♿", isOpen: true),
    Milestone(title: "v0.9", isOpen: false),
    Milestone(title: "v0.8", isOpen: false),
  ]

  static let words = [
    "crash", "when", "scrolling", "the", "chip", "bar", "diff", "snapshot", "layout", "header",
    "sticky", "milestone", "필터", "선택", "버그", "화면", "sideways", "emoji 😃", "width", "resize",
    "terminal", "cache", "sync", "offline", "search", "label", "title", "truncated", "wide", "렌더링",
  ]
  static let authors = ["octocat", "hubot", "monalisa", "김민지", "defunkt", "mojombo", "이준호"]

  /// A small linear congruential generator: the same data every run.
  struct Generator {
    var state: UInt64
    mutating func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
  }

  static func sentence(_ generator: inout Generator, words count: Int) -> String {
    var parts: [String] = []
    for _ in 0..<count { parts.append(words[generator.next(words.count)]) }
    var text = parts.joined(separator: " ")
    if let first = text.first { text = first.uppercased() + text.dropFirst() }
    return text
  }

  static let issues: [Issue] = {
    var generator = Generator(state: 42)
    return (1...480).map { number in
      let pick = generator.next(milestones.count + 3)
      let milestone = pick < milestones.count ? milestones[pick].title : nil
      return Issue(
        number: number, title: sentence(&generator, words: 3 + generator.next(8)),
        milestone: milestone, isOpen: generator.next(3) != 0,
        author: authors[generator.next(authors.count)], comments: generator.next(30))
    }
  }()
}
