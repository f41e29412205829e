/// One condition of a ``SearchQuery``, kept or excluded (`-label:bug`, `NOT crash`).
public struct QueryTerm: Hashable, Sendable {
  /// Whether an item must meet the condition or must not.
  public enum Polarity: Hashable, Sendable {
    /// The item meets the condition.
    case include
    /// The item does not (a leading `-`, or `NOT` before the term).
    case exclude
  }

  /// What is tested.
  package var condition: QueryCondition
  /// Whether it must hold or must not.
  package var polarity: Polarity

  /// A term.
  public init(_ condition: QueryCondition, _ polarity: Polarity = .include) {
    self.condition = condition
    self.polarity = polarity
  }

  /// The term as it is written in a query: reading it gives this term again.
  public var text: String {
    (polarity == .exclude ? "-" : "") + condition.text
  }
}

/// An account a qualifier names: the token's own (`@me`, which each host answers for itself) or
/// a login.
public enum QueryActor: Hashable, Sendable {
  /// The account of the token used for the item's host.
  case me
  /// A login as GitHub writes it on items (a bot as `NAME[bot]`).
  case login(String)

  /// `@me` or the login.
  public var text: String {
    switch self {
    case .me: SearchQuery.me
    case .login(let login): login
    }
  }
}

/// Which of an item's fields `no:` asks to be empty.
public enum QueryField: String, Hashable, Sendable, CaseIterable {
  /// No label.
  case label
  /// No milestone.
  case milestone
  /// Nobody assigned.
  case assignee
}

/// Issues or pull requests (`is:issue`, `is:pr`, `type:pr`).
public enum QueryItemKind: String, Hashable, Sendable {
  /// Issues.
  case issue
  /// Pull requests.
  case pullRequest = "pr"
}
