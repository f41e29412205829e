import ArgumentParser
import Foundation
import GitHubIssues
import IssuesBrowser
import TrellisTerminal

/// What the commands that write (close, reopen, comment, edit) share: the issue they act on,
/// a token they cannot do without, and the cache that shows the change before GitHub answers.
struct Acting {
  var host: GitHubHost
  var repository: RepositoryName
  var number: Int
  var cache: IssueCache
  var client: GitHubClient

  /// Resolves the issue (a number or its URL) and the repository, finds the token (a write
  /// needs one: without it, the command says how to set one before sending anything), and opens
  /// the cache.
  init(issue: IssueArgument, options: RepositoryOptions) throws {
    try self.init(
      number: issue.number, options: issue.applied(to: options), what: "Changing an issue")
  }

  /// The repository's side of a write, for an issue by number (a new issue's is provisional
  /// until it is filed); `what` names the write when no token is found.
  init(number: Int, options: RepositoryOptions, what: String) throws {
    (host, repository) = try options.resolve()
    self.number = number
    let token: String?
    do {
      token = try TokenDiscovery.token(for: host)
    } catch {
      throw Terminal.failure(error, repository: repository)
    }
    guard let token else {
      throw CommandFailure(
        "\(what) needs a token with write access to \(repository): \(host.tokenAdvice).")
    }
    client = Syncing.client(host: host, token: token, timeout: options.timeout)
    cache = try Terminal.openCache(at: IssueCache.defaultURL(for: repository, host: host))
  }

  /// The issue as cached, fetched first when the cache does not hold it (so that the change
  /// shows in the cache, and a milestone's title can be looked up).
  func cachedIssue() async throws -> CachedIssue {
    if let issue = try cache.issue(number: number) { return issue }
    do {
      try cache.confirm(try await client.issue(number, of: repository))
    } catch {
      throw Terminal.failure(error, repository: repository)
    }
    guard let issue = try cache.issue(number: number) else {
      throw CommandFailure("#\(number) of \(repository) could not be cached.")
    }
    return issue
  }

  /// Queues the changes (written to the cache and shown before anything is sent) and sends the
  /// issue's queue; returns GitHub's version of the issue once they landed, or `nil` when they
  /// wait in the queue because GitHub could not be reached (said on standard error).
  ///
  /// A refusal, or a conflict with what GitHub holds (closed by someone else meanwhile), takes
  /// the changes back and fails with the reason: nothing changed. An answer lost after the
  /// write may have landed: GitHub is read once more before anything is sent again.
  func perform(_ changes: [IssueChange]) async throws -> GitHubIssue? {
    _ = try await cachedIssue()
    var queued: [QueuedAction] = []
    do {
      for change in changes { queued.append(try cache.enqueue(.change(change), onIssue: number)) }
    } catch {
      for action in queued { _ = try? cache.cancelQueuedAction(action.id) }
      throw CommandFailure(ControlCharacters.visible("\(error). Nothing changed."))
    }
    // One retry at most: offline, the person hears "queued" at once rather than after backoff.
    var quick = client
    quick.maximumRetries = min(quick.maximumRetries, 1)
    let replayer = ActionReplayer(
      client: quick, cache: cache, repository: repository, viewer: nil)
    let titles = cache.milestoneTitles()
    switch await replayer.sendNow(queued) {
    case .landed:
      return try await landedIssue()
    case .refused(let refusal):
      throw CommandFailure(
        ControlCharacters.visible(
          refusal.sentence(
            why: refusal.error.map { "\(Terminal.failure($0, repository: repository))" },
            milestoneTitles: titles, audience: .command)))
    case .queued(let waiting, let because):
      Terminal.standardError(
        ControlCharacters.visible(
          ActionReplayer.Settlement.queuedSentence(
            waiting, because: because, milestoneTitles: titles, audience: .command)) + "\n")
      return nil
    }
  }

  /// GitHub's version of the issue after its changes landed (the cache holds it).
  private func landedIssue() async throws -> GitHubIssue {
    do {
      return try await client.issue(number, of: repository)
    } catch {
      // Landed: the cache has GitHub's answer; say it from there.
      guard let cached = try cache.issue(number: number) else {
        throw Terminal.failure(error, repository: repository)
      }
      return GitHubIssue(
        id: cached.id, number: cached.number, title: cached.title,
        state: cached.state, user: GitHubUser(login: cached.author, id: 0),
        createdAt: cached.createdAt,
        updatedAt: cached.updatedAt, closedAt: cached.closedAt, body: cached.body,
        htmlURL: cached.htmlURL)
    }
  }

  /// The repository's milestone named by its title (as gh takes it), its number, or `none`;
  /// the milestones are fetched once when the cache does not know the name.
  func milestone(_ name: String) async throws -> Int? {
    if ["none", ""].contains(name.lowercased()) { return nil }
    func find(_ milestones: [GitHubMilestone]) -> GitHubMilestone? {
      milestones.first { $0.title == name }
        ?? milestones.first { $0.title.lowercased() == name.lowercased() }
        ?? Int(name.hasPrefix("#") ? String(name.dropFirst()) : name).flatMap { number in
          milestones.first { $0.number == number }
        }
    }
    var milestones = try cache.milestones()
    if let found = find(milestones) { return found.number }
    do {
      var fetched: [GitHubMilestone] = []
      for try await page in client.milestonePages(of: repository, conditional: false) {
        fetched += page.items
      }
      try cache.writeMetadata(repository: nil, milestones: fetched, labels: nil, etags: [:])
      milestones = fetched
    } catch {
      throw Terminal.failure(error, repository: repository)
    }
    guard let found = find(milestones) else {
      let titles = milestones.map { "“\($0.title)”" }.prefix(10).joined(separator: ", ")
      throw CommandFailure(
        ControlCharacters.visible(
          "\(repository) has no milestone “\(name)”"
            + (titles.isEmpty ? " (it has none)." : "; it has \(titles).")))
    }
    return found.number
  }
}
