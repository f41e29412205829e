/// A pull request merge, as queued in the outbox: how, and the head commit it merges — GitHub
/// refuses it if the branch moved since, so what was read is what is merged.
public struct PullRequestMerge: Hashable, Sendable, Codable {
  /// How the commits reach the base branch.
  public enum Method: String, Hashable, Sendable, Codable, CaseIterable {
    /// A merge commit.
    case merge
    /// One commit of all of them.
    case squash
    /// Each commit replayed on the base.
    case rebase

    /// "merge commits", "squash merges", "rebase merges": what a repository allows or not.
    package var plural: String {
      switch self {
      case .merge: "merge commits"
      case .squash: "squash merges"
      case .rebase: "rebase merges"
      }
    }
  }

  /// How.
  public var method: Method
  /// The head commit read before merging.
  public var headSHA: String
  /// The merge commit's subject, if not GitHub's.
  public var subject: String?
  /// The merge commit's body, if not GitHub's.
  public var body: String?
  /// The head branch to delete once merged (a branch of the repository itself), if asked.
  public var deletingBranch: String?

  /// A merge.
  public init(
    method: Method, headSHA: String, subject: String? = nil, body: String? = nil,
    deletingBranch: String? = nil
  ) {
    self.method = method
    self.headSHA = headSHA
    self.subject = subject
    self.body = body
    self.deletingBranch = deletingBranch
  }
}
