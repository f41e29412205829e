import Foundation

/// A new issue filed through the outbox.
///
/// A send whose answer was lost is found, before anything is sent again, among the viewer's
/// issues newest first: the one with the same title and body, numbered above the highest
/// number GitHub had given right before the first send (numbers only grow), not already
/// claimed by another create. No clock is trusted. The issue's later actions, queued on its
/// provisional row, go to the number GitHub gives it.
struct CreateOperation: OutboxOperation {
  let outbox: ActionReplayer
  /// What is filed.
  var issue: NewIssue

  var needsViewer: Bool { true }
  var readsIssue: Bool { false }

  /// The most issue numbers a landed check reads one by one.
  static let mostProbes = 500

  func send(_ action: QueuedAction, on _: GitHubIssue?, _ pass: ActionReplayer.Pass) async
    -> ActionReplayer.Outcome
  {
    guard let key = action.issueKey else { return .stop(cacheFailure()) }
    let marks = marks(of: action)
    if wasSent(action) {
      switch await findFiled(viewer: marks.viewer ?? pass.viewer, known: marks.knownIssueNumber)
      {
      case .failure(let error): return .stop(error)
      case .success(let found?):
        do {
          try cache.markFiled(action.id, as: found, key: key, now: now())
        } catch {
          return .stop(cacheFailure())
        }
        return .foundLanded(found)
      case .success(nil): break  // It did not land: sent again below.
      }
    }
    guard case .sendAndSettle = pass.sending else { return .held }
    guard let viewer = pass.viewer else {
      return .stop(unknownViewer("issues of \(repository)", "a lost answer could not be checked"))
    }
    var known = marks.knownIssueNumber
    if known == nil {
      switch await newestNumber() {
      case .success(let newest):
        known = max(newest, (try? cache.highestCachedNumber()) ?? 0)
      case .failure(let error): return .stop(error)
      }
    }
    do {
      guard
        try cache.markSending(
          action.id, viewer: viewer, knownCommentID: nil, knownEventID: nil,
          knownIssueNumber: known, sending: .create(issue), now: now())
      else { return .cancelledMeanwhile }
    } catch {
      return .stop(cacheFailure())
    }
    do {
      let filed = try await client.createIssue(issue, in: repository)
      do {
        try cache.markFiled(action.id, as: filed, key: key, now: now())
      } catch {
        return .stop(cacheFailure())
      }
      return .sent(filed)
    } catch {
      return failed(action, error, refusal: OutboxLedger.refusal(error))
    }
  }

  /// The highest number GitHub has given in the repository, issue or pull request (0 for
  /// none): among the items created in the newest second.
  ///
  /// GitHub's order of items created in the same second is not documented, so the first item
  /// is not enough: the newest second's items are read whole — a page of ten, and more only
  /// while a page is all of that second (at most fifty pages; more leaves it unknown).
  private func newestNumber() async -> Result<Int, GitHubError> {
    let query = IssueQuery(state: .all, sort: .created, ascending: false, perPage: 10)
    var newest = 0
    var second: Date?
    var pages = 0
    do {
      for try await page in client.issuePages(of: repository, query: query) {
        pages += 1
        second = second ?? page.items.first?.createdAt
        for item in page.items where item.createdAt == second {
          newest = max(newest, item.number)
        }
        // The newest second ended on this page: nothing after it is newer.
        if page.items.contains(where: { $0.createdAt != second }) || page.next == nil {
          return .success(newest)
        }
        if pages == 50 { break }
      }
      if pages < 50 { return .success(newest) }
      return .failure(
        GitHubError(
          .incompleteListing, url: "issues of \(repository)",
          detail: "over 500 items created in one second: the newest number is not known"))
    } catch {
      return .failure(error)
    }
  }

  /// Looks for the issue an unanswered create may have filed: by `viewer`, with the title and
  /// body, numbered above `known`, not claimed by another action.
  ///
  /// The viewer's issues are read newest first. An issue filed after the first send was
  /// created no earlier than any issue numbered at or below `known`, so the walk ends at the
  /// first page that reaches a creation time older than the newest of those. GitHub's order of
  /// issues created in the same second is not documented and may change between two page
  /// requests: when such a group of ties is split across pages, an issue of it could be on
  /// neither, so every number above `known` the walk did not see is read one by one (at most
  /// ``mostProbes``; more leaves it unknown). A page with an item that could not be read
  /// leaves it unknown.
  private func findFiled(viewer: String?, known: Int?) async -> Result<GitHubIssue?, GitHubError> {
    let place = "issues of \(repository)"
    guard let viewer else {
      return .failure(unknownViewer(place, "whether the issue was filed is not known"))
    }
    guard let known else {
      return .failure(
        GitHubError(
          .incompleteListing, url: place,
          detail: "the highest number before the first send is not known: nothing is sent again"))
    }
    let claimed: Set<Int>
    do {
      claimed = try cache.claimedIssueNumbers()
    } catch {
      return .failure(cacheFailure())
    }
    let body = Self.normalized(issue.body)
    let title = issue.title
    func isOurs(_ candidate: GitHubIssue) -> Bool {
      !candidate.isPullRequest && candidate.number > known && !claimed.contains(candidate.number)
        && candidate.title == title && Self.normalized(candidate.body ?? "") == body
        && candidate.user.login.lowercased() == viewer.lowercased()
    }
    let query = IssueQuery(state: .all, creator: viewer, sort: .created, ascending: false)
    var seen: Set<Int> = []
    // The newest creation time of an issue numbered at or below `known`: ours is no older.
    var oldest: Date?
    // Creation times of groups of ties split across two pages.
    var splitTies: [Date] = []
    var previousLast: Date?
    do {
      for try await page in client.issuePages(of: repository, query: query) {
        if !page.skipped.isEmpty {
          return .failure(
            GitHubError(
              .incompleteListing, url: place,
              detail: "an issue of the listing could not be read: whether it was filed is not known"
            ))
        }
        if let found = page.items.first(where: isOurs) { return .success(found) }
        if let previousLast, page.items.first?.createdAt == previousLast {
          splitTies.append(previousLast)
        }
        previousLast = page.items.last?.createdAt
        seen.formUnion(page.items.map(\.number))
        for item in page.items where item.number <= known {
          oldest = max(oldest ?? item.createdAt, item.createdAt)
        }
        if let oldest, let last = page.items.last?.createdAt, last < oldest { break }
      }
    } catch {
      return .failure(error)
    }
    // Groups older than `oldest` cannot hold ours; a split one that may, leaves it to the probe.
    guard splitTies.contains(where: { tie in oldest.map { tie >= $0 } ?? true }) else {
      return .success(nil)
    }
    return await probe(above: known, skipping: seen, matching: isOurs)
  }

  /// Reads the numbers above `known` one by one, newest first, for an issue `matching`: what
  /// the created-order walk could not prove it saw.
  private func probe(
    above known: Int, skipping seen: Set<Int>, matching isOurs: (GitHubIssue) -> Bool
  ) async -> Result<GitHubIssue?, GitHubError> {
    let newest: Int
    switch await newestNumber() {
    case .success(let number): newest = number
    case .failure(let error): return .failure(error)
    }
    let numbers = (known + 1..<max(known + 1, newest + 1)).reversed().filter { !seen.contains($0) }
    guard numbers.count <= Self.mostProbes else {
      return .failure(
        GitHubError(
          .incompleteListing, url: "issues of \(repository)",
          detail: "\(numbers.count) issues were filed since; whether ours is one is not known"))
    }
    for number in numbers {
      do {
        if let candidate = try await client.issueIfPresent(number, of: repository),
          isOurs(candidate)
        {
          return .success(candidate)
        }
      } catch {
        return .failure(error)
      }
    }
    return .success(nil)
  }
}
