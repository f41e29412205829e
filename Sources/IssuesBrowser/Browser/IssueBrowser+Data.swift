import Foundation
import GitHubIssues
import Trellis
import TrellisTerminal

// Data in: the cache read for the state's filter, lists observed in it, and who `@me` is.

extension IssueBrowser {
  /// What the cache is asked for: the state's filter narrowed by the qualifiers of its search.
  ///
  /// While a qualifier says `@me` and the host has not said who that is, nothing is listed (the
  /// placeholder says why) rather than a list that ignores it.
  var queryFilter: IssueFilter {
    let query = SearchQuery(typing: state.filter.text ?? "")
    if let filter = query.applied(to: state.filter, me: context.viewer.login) { return filter }
    var waiting = query.applied(to: state.filter, me: SearchQuery.me) ?? state.filter
    waiting.limit = 0
    return waiting
  }

  /// The query the host observes for this browser: the filter across every milestone (the chips
  /// count them all; the selected chip only narrows the list).
  ///
  /// It changes with the state, kind, label, search and sort, not with the chip: when it does,
  /// the host stops observing the old query and observes the new one.
  public var observedFilter: IssueFilter {
    var observed = queryFilter
    observed.milestone = .all
    if observed.limit != 0 { observed.limit = nil }
    return observed
  }

  /// Shows a list the cache observation yielded for ``observedFilter``: the chip counts, the
  /// headers and the rows that changed, each change a staged update of the rows it touches.
  ///
  /// The focused issue stays where it is on screen when rows appear above it; an issue the
  /// person acted on keeps the focus wherever it moves, and when it leaves the list the status
  /// line says where the focus went.
  public func apply(_ observed: ObservedIssueList) {
    let (changed, message) = withFilter { listPane.apply(observed, filter: &$0) }
    guard changed else { return }
    updatePlaceholder()
    if let message { show(message: message) }
    // The issue read full screen changed (an edit shown, taken back, or synced): its header too.
    if let number = readerPane.number, let key = readerPane.key {
      if case .items(let keys, _) = observed.change, !keys.contains(key) { return }
      refreshReader(showing: number)
    }
  }

  /// Shows the list for the state's filter after a change: what the chips count first when it
  /// changed (state, kind, label, search), so that chips and list always agree, and the focus on
  /// the first issue.
  ///
  /// A search that says `@me` asks the host who that is, unless `askingForViewer` is false (the
  /// answer just came, and was a failure to show rather than a question to ask again).
  func reload(_ reload: ListReload, askingForViewer: Bool = true) {
    if reload != .nothing && askingForViewer { requestViewerIfNeeded() }
    do {
      switch reload {
      case .nothing: return
      case .chip: listPane.narrow(to: state.filter)
      case .list: try listPane.reloadList(query: queryFilter, filter: state.filter)
      case .countsAndList:
        let query = queryFilter
        try withFilter { try listPane.reload(query: query, filter: &$0, focusFirst: true) }
      }
      listPane.clearFailure()
    } catch {
      listPane.fail(error)
    }
    updatePlaceholder()
  }

  /// Runs a change of the list on a copy of the filter, then takes the chip it may have reset
  /// (its milestone went away): the views call back into the state while the change runs.
  func withFilter<Result>(_ change: (inout IssueFilter) throws -> Result) rethrows -> Result {
    var filter = state.filter
    defer { state.filter.milestone = filter.milestone }
    return try change(&filter)
  }

  /// Collapses, expands (or, for `nil`, toggles) a section; the choice is kept in the cache.
  func setSection(_ section: ListSection, collapsed: Bool?) {
    let collapse = collapsed ?? !listPane.model.collapsedSections.contains(section)
    if let failure = listPane.setSection(section, collapsed: collapse, filter: state.filter) {
      show(message: failure)
    }
  }

  /// The placeholder for the list: loading while the first sync runs, empty with what to change,
  /// or the error.
  func updatePlaceholder() {
    let isEmpty = listPane.list.dataSource.snapshot().numberOfItems == 0
    let cacheIsEmpty = isEmpty && read("the sync state") { try $0.syncState().itemCount } == 0
    listPane.list.placeholder = listPane.model.placeholder(
      isEmpty: isEmpty, cacheIsEmpty: cacheIsEmpty, syncStatus: syncStatus, filter: state.filter,
      viewer: context.viewer, repository: repository, now: now(), keys: keys.browsing)
  }

  // MARK: Who @me is

  /// Asks the host (through ``BrowserEffect/lookUpViewer``) who `@me` is, once, when the
  /// search needs it.
  func requestViewerIfNeeded() {
    guard SearchQuery(typing: state.filter.text ?? "").mentionsMe, context.viewer.login == nil,
      context.viewer != .lookingUp
    else { return }
    context.viewer = .lookingUp
    pendingEffects.append(.lookUpViewer)
  }

  /// Takes the host's answer to ``BrowserEffect/lookUpViewer``: the login `@me` stands for, or
  /// why it could not be found (shown, and asked again when the search changes).
  package func setViewer(_ result: Result<String, HostFailure>) {
    switch result {
    case .success(let login): context.viewer = .known(login)
    case .failure(let failure): context.viewer = .failed(failure.message)
    }
    guard SearchQuery(typing: state.filter.text ?? "").mentionsMe else { return }
    reload(.countsAndList, askingForViewer: false)
  }

  /// The effects the browser has queued for the host, taken.
  func takePendingEffects() -> [BrowserEffect] {
    defer { pendingEffects.removeAll() }
    return pendingEffects
  }
}
