/// How many sub-issues an issue has, and how many are done: GitHub's `sub_issues_summary`.
public struct SubIssueSummary: Codable, Hashable, Sendable {
  /// Sub-issues in all.
  public var total: Int
  /// Sub-issues closed as completed.
  public var completed: Int

  enum CodingKeys: String, CodingKey {
    case total, completed
  }

  /// Creates a summary; negative counts become zero, and `completed` is at most `total`.
  public init(total: Int, completed: Int) {
    self.total = max(0, total)
    self.completed = min(max(0, completed), self.total)
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      total: try container.decodeIfPresent(Int.self, forKey: .total) ?? 0,
      completed: try container.decodeIfPresent(Int.self, forKey: .completed) ?? 0)
  }
}
