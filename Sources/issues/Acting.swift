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
    let options = issue.applied(to: options)
    (host, repository) = try options.resolve()
    number = issue.number
    let token: String?
    do {
      token = try TokenDiscovery.token(for: host)
    } catch {
      throw Terminal.failure(error, repository: repository)
    }
    guard let token else {
      throw CommandFailure(
        "Changing an issue needs a token with write access to \(repository): "
          + "\(host.tokenAdvice).")
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

  /// Shows the changes in the cache and sends them; on failure, says what failed and what the
  /// cache shows now.
  func perform(_ changes: [IssueChange]) async throws -> GitHubIssue {
    _ = try await cachedIssue()
    let editor = IssueEditor(client: client, cache: cache, repository: repository)
    do {
      return try await editor.perform(changes, onIssue: number)
    } catch {
      throw CommandFailure(
        ControlCharacters.visible(
          Self.explain(
            error, repository: repository, milestoneTitles: cache.milestoneTitles())))
    }
  }

  /// The sentence for a failed edit: what failed, why (in full, or `brief`ly for the status
  /// line), and what the cache shows now.
  static func explain(
    _ failure: IssueEditFailure, repository: RepositoryName, brief: Bool = false,
    milestoneTitles: [Int: String] = [:]
  ) -> String {
    failure.sentence(milestoneTitles: milestoneTitles) { error in
      brief ? error.summary() : "\(Terminal.failure(error, repository: repository))"
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
