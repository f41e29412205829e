import Foundation
import GitHubIssues
import TrellisTerminal

// What the list says when it has nothing to show.

extension ListModel {
  /// The list's placeholder: the error that stopped it, loading while a first sync fills an
  /// empty cache, why that sync failed, or what to change when the filter selects nothing.
  ///
  /// - Parameters:
  ///   - isEmpty: Whether the list shows no item.
  ///   - cacheIsEmpty: Whether the cache holds no issue at all.
  ///   - syncStatus: Where the cache stands against GitHub.
  ///   - filter: The state's filter, for what to change.
  ///   - viewer: Who `@me` is, when the search says it.
  ///   - repository: The repository, for the loading message.
  ///   - now: The time, for the sync status.
  ///   - keys: The browsing keys, for the hints of what to change.
  /// - Returns: The placeholder, or `nil` when the list shows items.
  func placeholder(
    isEmpty: Bool, cacheIsEmpty: Bool, syncStatus: SyncStatus, filter: IssueFilter,
    viewer: ViewerLogin, repository: RepositoryName, now: Date,
    keys: BrowserKeys.Table = BrowserKeys.standard.browsing
  ) -> CollectionPlaceholder? {
    if let loadError { return .failure(loadError) }
    guard isEmpty else { return nil }
    switch syncStatus {
    case .syncing where cacheIsEmpty: return .loading("Fetching the issues of \(repository)…")
    case .missingToken where cacheIsEmpty, .notFound where cacheIsEmpty,
      .failed where cacheIsEmpty, .offline where cacheIsEmpty, .rateLimited where cacheIsEmpty:
      let retry = keys.rows.first { $0.actions.contains { $0.command == .refresh } }
      return .failure(
        syncStatus.text(now: now)
          + (retry.map { "\nPress \($0.compactKeyNames) to try again." } ?? ""))
    default: return .empty(emptyMessage(filter: filter, viewer: viewer, keys: keys))
    }
  }

  /// "No open issues in 1.0 matching “crash”." and the keys that change that.
  private func emptyMessage(filter: IssueFilter, viewer: ViewerLogin, keys: BrowserKeys.Table)
    -> String
  {
    if SearchQuery(typing: filter.text ?? "").mentionsMe, viewer.login == nil {
      if case .failed(let reason) = viewer {
        return "Could not tell who @me is: \(reason)"
          + (keys.hint(for: .search).map { "\nChange \($0)" } ?? "")
      }
      return "Asking GitHub who @me is…"
    }
    var parts: [String] = []
    if let text = filter.text { parts.append("matching “\(text)”") }
    if !filter.labels.isEmpty { parts.append("labelled \(filter.labels.joined(separator: ", "))") }
    let what = filter.kind == .issues ? "issues" : "issues or pull requests"
    var message = "No \(filter.state == .all ? "" : filter.state.name + " ")\(what)"
    message += filter.milestone == .all ? "" : " in \(title(of: filter.milestone))"
    if !parts.isEmpty { message += " " + parts.joined(separator: ", ") }
    message += "."
    var commands: [BrowserCommand] = []
    if filter.state != .all { commands.append(.cycleState) }
    if !filter.labels.isEmpty { commands.append(.pickLabel) }
    if filter.text != nil { commands.append(.search) }
    if filter.milestone != .all { commands.append(.moveAlongChips(.left)) }
    let hints = commands.compactMap { keys.hint(for: $0) }
    if !hints.isEmpty { message += "\nChange " + hints.joined(separator: " · ") }
    return message
  }
}
