import Foundation

/// Makes changes to an issue optimistically: they show in the cache at once, are sent to GitHub
/// one request each, and afterwards the cache holds what GitHub holds, whether they landed or
/// not.
///
///     let editor = IssueEditor(client: client, cache: cache, repository: repo)
///     let pending = try editor.showLocally([.close(.completed)], onIssue: 12)  // the list moves
///     let issue = try await editor.send([.close(.completed)], onIssue: 12, shown: pending)
///
/// On failure (``IssueEditFailure``): when GitHub refused the first change (a 4xx), nothing
/// landed and the local change is taken back. When it may have landed (a 5xx, a dropped
/// connection), or some changes landed before one failed, the issue is read from GitHub and
/// written as it is there; if even that fails, the changes GitHub confirmed stay and the rest
/// is taken back.
public struct IssueEditor: Sendable {
  /// The client changes go through.
  public var client: GitHubClient
  /// The cache that shows them.
  public var cache: IssueCache
  /// The issue's repository.
  public var repository: RepositoryName

  /// An editor for a repository's issues.
  public init(client: GitHubClient, cache: IssueCache, repository: RepositoryName) {
    self.client = client
    self.cache = cache
    self.repository = repository
  }

  /// Shows changes in the cache before they are sent; `nil` when the issue is not cached.
  public func showLocally(
    _ changes: [IssueChange], onIssue number: Int, now: Date = Date()
  ) throws -> PendingEdit? {
    try cache.showLocally(changes, onIssue: number, now: now)
  }

  /// Shows and sends changes: ``showLocally(_:onIssue:now:)`` then ``send(_:onIssue:shown:)``.
  public func perform(
    _ changes: [IssueChange], onIssue number: Int
  ) async throws(IssueEditFailure) -> GitHubIssue {
    precondition(!changes.isEmpty, "IssueEditor.perform: no change to make")
    let shown: PendingEdit?
    do {
      shown = try showLocally(changes, onIssue: number)
    } catch {
      throw IssueEditFailure(
        number: number, change: changes[0], landed: [],
        reason: .local("\(error)"), resolution: .nothingShown)
    }
    return try await send(changes, onIssue: number, shown: shown)
  }

  /// Sends changes shown with ``showLocally(_:onIssue:now:)`` (or not shown, when `shown` is
  /// `nil`), in order, and writes GitHub's answer; on failure the cache is settled as the type's
  /// documentation says.
  public func send(
    _ changes: [IssueChange], onIssue number: Int, shown: PendingEdit?
  ) async throws(IssueEditFailure) -> GitHubIssue {
    precondition(!changes.isEmpty, "IssueEditor.send: no change to send")
    var latest: GitHubIssue?
    for (index, change) in changes.enumerated() {
      do {
        latest = try await client.apply(change, toIssue: number, of: repository)
      } catch {
        let landed = Array(changes[..<index])
        let resolution = await settle(
          number: number, shown: shown, latest: latest,
          refused: (400..<500).contains(error.status ?? 0))
        throw IssueEditFailure(
          number: number, change: change, landed: landed, reason: .github(error),
          resolution: resolution)
      }
    }
    guard let latest else { preconditionFailure("a change was sent and none answered") }
    do {
      try cache.confirm(latest)
    } catch {
      throw IssueEditFailure(
        number: number, change: changes[changes.count - 1], landed: changes,
        reason: .local("\(error)"),
        resolution: .landedNotCached)
    }
    return latest
  }

  /// Makes the cache hold what GitHub holds after a failure.
  private func settle(
    number: Int, shown: PendingEdit?, latest: GitHubIssue?, refused: Bool
  ) async -> IssueEditFailure.Resolution {
    if refused, latest == nil {
      // Nothing landed: GitHub said no to the first change.
      guard let shown else { return .nothingShown }
      return (try? cache.takeBack(shown)) == true ? .takenBack : .keptNewer
    }
    if refused, let latest {
      return (try? cache.confirm(latest)) != nil ? .githubVersion : .unknown
    }
    // It may have landed: ask.
    if let current = try? await client.issue(number, of: repository),
      (try? cache.confirm(current)) != nil
    {
      return .githubVersion
    }
    if let latest, (try? cache.confirm(latest)) != nil { return .githubVersion }
    guard let shown else { return .nothingShown }
    return (try? cache.takeBack(shown)) == true ? .takenBack : .keptNewer
  }
}

/// Changes to an issue that did not all land, and what the cache shows now.
public struct IssueEditFailure: Error, Sendable, CustomStringConvertible {
  /// The issue's number.
  public var number: Int
  /// The change that failed.
  public var change: IssueChange
  /// The changes GitHub confirmed before it, in order.
  public var landed: [IssueChange]
  /// Why it failed.
  public var reason: Reason
  /// What the cache shows afterwards.
  public var resolution: Resolution

  /// Why a change failed.
  public enum Reason: Sendable {
    /// GitHub (or the way to it) failed; the error says how, and what to do.
    case github(GitHubError)
    /// The cache could not show or keep it.
    case local(String)
  }

  /// What the cache shows after a failure.
  public enum Resolution: Hashable, Sendable {
    /// The local change was taken back: the issue shows as before.
    case takenBack
    /// The issue shows as GitHub has it (read again after the failure).
    case githubVersion
    /// The issue changed meanwhile (a sync wrote it): that newer version stays.
    case keptNewer
    /// Nothing had been shown (the issue is not cached).
    case nothingShown
    /// Every change landed on GitHub but could not be written to the cache.
    case landedNotCached
    /// Neither taking back nor reading GitHub worked; the next sync settles it.
    case unknown
  }

  /// Creates a failure.
  public init(
    number: Int, change: IssueChange, landed: [IssueChange], reason: Reason,
    resolution: Resolution
  ) {
    self.number = number
    self.change = change
    self.landed = landed
    self.reason = reason
    self.resolution = resolution
  }

  /// The GitHub error, when GitHub failed.
  public var githubError: GitHubError? {
    if case .github(let error) = reason { return error }
    return nil
  }

  public var description: String {
    let why: String
    switch reason {
    case .github(let error): why = error.description
    case .local(let text): why = text
    }
    return why
  }
}
