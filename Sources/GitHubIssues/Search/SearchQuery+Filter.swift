// A search narrowing one repository's list: `issues list -S` and the browser's `/`.

extension SearchQuery {
  /// `filter` narrowed by this query's item terms, with `@me` as `me`, and ordered by its
  /// `sort:` when it writes one; `nil` when the query says `@me` and `me` is not known yet.
  ///
  /// Scope terms (`repo:`, `org:`, `user:`, `host:`) are left out: the list is of one
  /// repository already. The filter's own ``IssueFilter/text`` is cleared; the query's words
  /// are among its terms.
  public func applied(to filter: IssueFilter, me: String?) -> IssueFilter? {
    var query = self
    if mentionsMe {
      guard let me else { return nil }
      query = resolvingMe(as: me)
    }
    var narrowed = filter
    narrowed.terms += query.itemTerms
    narrowed.text = nil
    if let writtenSort {
      narrowed.sort = IssueSort(writtenSort.key)
      narrowed.direction = writtenSort.direction
    }
    return narrowed
  }

  /// Whether the query asks for items that are not open: `is:closed`, `state:closed`,
  /// `closed:…`, `is:merged` or `merged:…`, kept rather than excluded.
  ///
  /// gh drops its default `--state open` for such a query (`issue list -S 'is:closed'` lists
  /// closed issues), and so do `list` and `pr list`: the flag's default would otherwise leave
  /// nothing to print.
  public var asksForItemsNotOpen: Bool {
    terms.contains { term in
      guard term.polarity == .include else { return false }
      switch term.condition {
      case .state(.closed), .merged(true), .closed, .mergedAt: return true
      default: return false
      }
    }
  }
}

extension IssueSort {
  /// The list order of a query's sort key.
  init(_ key: QuerySort.Key) {
    switch key {
    case .updated: self = .updated
    case .created: self = .created
    case .comments: self = .comments
    }
  }
}
