import Foundation
import GitHubIssues

// The search field's qualifiers (`assignee:`, `author:`, `mentions:`, `label:`) and `@me`, whose
// login only the host can ask GitHub for.

extension IssueBrowser {
  /// What the cache is asked for: the state's filter narrowed by the qualifiers of its search.
  ///
  /// While a qualifier says `@me` and the host has not said who that is, nothing is listed (the
  /// placeholder says why) rather than a list that ignores it.
  var queryFilter: IssueFilter {
    let query = SearchQuery(parsing: state.filter.text ?? "")
    if let filter = query.applied(to: state.filter, me: viewer.login) { return filter }
    var waiting = query.applied(to: state.filter, me: SearchQuery.me) ?? state.filter
    waiting.limit = 0
    return waiting
  }

  /// Whether the search says `@me` and the login is not known.
  var isWaitingForViewer: Bool {
    SearchQuery(parsing: state.filter.text ?? "").mentionsMe && viewer.login == nil
  }

  /// Asks the host (through ``BrowserEffect/lookUpViewer``) who `@me` is, once, when the
  /// search needs it.
  func requestViewerIfNeeded() {
    guard isWaitingForViewer, viewer != .lookingUp else { return }
    viewer = .lookingUp
    pendingEffects.append(.lookUpViewer)
  }

  /// Takes the host's answer to ``BrowserEffect/lookUpViewer``: the login `@me` stands for, or
  /// why it could not be found (shown, and asked again when the search changes).
  public func setViewer(_ result: Result<String, HostFailure>) {
    switch result {
    case .success(let login): viewer = .known(login)
    case .failure(let failure): viewer = .failed(failure.message)
    }
    guard SearchQuery(parsing: state.filter.text ?? "").mentionsMe else { return }
    reload(.countsAndList, askingForViewer: false)
  }

  /// The effects the browser has queued for the host, taken.
  func takePendingEffects() -> [BrowserEffect] {
    defer { pendingEffects.removeAll() }
    return pendingEffects
  }
}

/// Who `@me` is, as far as the browser knows.
enum ViewerLogin: Hashable {
  case unknown
  case lookingUp
  case known(String)
  case failed(String)

  var login: String? {
    if case .known(let login) = self { return login }
    return nil
  }
}

/// Why the host could not do what the browser asked (tell who `@me` is, fetch a conversation),
/// said to the person.
public struct HostFailure: Error, Hashable, Sendable {
  /// The reason, as the status line shows it.
  public var message: String

  /// A failure with its reason.
  public init(_ message: String) { self.message = message }
}
