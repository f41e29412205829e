import Foundation
import GitHubIssues

/// The browser's state as a value: what the list is filtered by, what the keyboard is talking to,
/// what is being typed, and the message in the status line.
///
/// Every change is a method that returns what of the list it invalidates (``ListReload``), so the
/// rules (what a key does to the filter, when a typed search applies, what Esc clears) are tested
/// without a terminal, a cache or a view.
public struct BrowserState: Hashable, Sendable {
  /// A message shown in the status bar until it expires.
  package typealias Flash = StatusMessage

  /// The two focuses of the browsing screen.
  public enum FocusArea: Hashable, Sendable {
    /// The focused issue in the list.
    case list
    /// The focused milestone chip.
    case chips
  }

  /// What the list shows.
  public var filter = IssueFilter()
  /// What the keyboard is talking to.
  public var mode = BrowserMode.browsing
  /// Which of the two focuses while browsing was moved last: the list's row or the milestone
  /// chip — where the accessible mode's cursor goes.
  package var focusArea = FocusArea.list
  /// The search being typed; applied to ``filter`` after a pause.
  package var searchDraft = ""
  /// When the search draft is applied, if typing stays paused until then.
  package var searchDeadline: Date?
  /// What was typed in the label picker to narrow it.
  package var labelQuery = ""
  /// The status line's message, if any.
  package var flash: Flash?
  /// How far the side preview is scrolled; back to the top on another issue.
  package var previewOffset = 0
  /// Actions sent to GitHub and not answered yet, by request id.
  package var pendingActions: [Int: PendingAction] = [:]
  /// The id the next action gets.
  package var nextActionID = 1
  /// How long typing pauses before the search applies.
  package var searchDelay: TimeInterval = 0.02

  /// A state showing every open issue, browsing.
  public init() {}

  // MARK: Filters

  /// Steps the state filter.
  package mutating func cycleState() -> ListReload {
    filter.state = filter.state.next
    return .countsAndList
  }

  /// Steps the sort order; the counts stay.
  package mutating func cycleSort() -> ListReload {
    filter.sort = filter.sort.next
    return .list
  }

  /// Shows or hides pull requests.
  package mutating func togglePullRequests() -> ListReload {
    filter.kind = filter.kind == .issues ? .both : .issues
    return .countsAndList
  }

  /// Narrows the list to a chip's milestone; the counts stay.
  public mutating func select(_ chip: MilestoneFilter) -> ListReload {
    guard chip != filter.milestone else { return .nothing }
    filter.milestone = chip
    return .chip
  }

  /// Filters by one label (`nil`: any label) and goes back to browsing.
  package mutating func pick(label: String?) -> ListReload {
    mode = .browsing
    let labels = label.map { [$0] } ?? []
    guard labels != filter.labels else { return .nothing }
    filter.labels = labels
    return .countsAndList
  }

  /// Clears the search and the label.
  package mutating func clearFilters() -> ListReload {
    searchDraft = ""
    searchDeadline = nil
    guard filter.text != nil || !filter.labels.isEmpty else { return .nothing }
    filter.text = nil
    filter.labels = []
    return .countsAndList
  }

  // MARK: Search

  /// Opens the search field on the current search.
  package mutating func beginSearch() {
    mode = .searching
    searchDraft = filter.text ?? ""
  }

  /// The longest search, in characters: no frame's work grows with what was pasted.
  package static let maximumSearchLength = 256

  /// Adds typed or pasted text to the search (line breaks dropped) and restarts the pause.
  ///
  /// A paste while browsing opens the field with it. The search holds at most
  /// ``maximumSearchLength`` characters: the rest of a longer paste is left out, and the status
  /// line says so.
  package mutating func type(_ text: String, now: Date) {
    if mode == .browsing { beginSearch() }
    let (kept, cut) = Self.bounded(text, after: searchDraft.count)
    searchDraft += kept
    if cut { show(message: Self.cutMessage, now: now) }
    searchDeadline = now.addingTimeInterval(searchDelay)
  }

  /// Adds typed or pasted text to the label picker's query, bounded as the search is.
  package mutating func typeLabelQuery(_ text: String, now: Date) {
    let (kept, cut) = Self.bounded(text, after: labelQuery.count)
    labelQuery += kept
    if cut { show(message: Self.cutMessage, now: now) }
  }

  static let cutMessage =
    "A search holds \(maximumSearchLength) characters: the rest of what was typed was left out."

  /// The part of `text` (line breaks dropped) that fits after `count` characters, and whether
  /// some was left out; never walks more of `text` than fits.
  static func bounded(_ text: String, after count: Int) -> (kept: String, cut: Bool) {
    let room = max(0, maximumSearchLength - count)
    var kept = ""
    var keptCount = 0
    for character in text where !character.isNewline {
      guard keptCount < room else { return (kept, true) }
      kept.append(character)
      keptCount += 1
    }
    return (kept, false)
  }

  /// Erases the last character of the search (`all`: every character) and restarts the pause.
  package mutating func eraseSearch(all: Bool = false, now: Date) {
    if all { searchDraft = "" } else if !searchDraft.isEmpty { searchDraft.removeLast() }
    searchDeadline = now.addingTimeInterval(searchDelay)
  }

  /// Applies the draft now and leaves the field.
  package mutating func commitSearch() -> ListReload {
    mode = .browsing
    return applySearchDraft()
  }

  /// Clears the draft, applies that and leaves the field.
  package mutating func cancelSearch() -> ListReload {
    mode = .browsing
    searchDraft = ""
    return applySearchDraft()
  }

  /// Applies the search draft (trimmed; empty clears the search), keeping the field open.
  package mutating func applySearchDraft() -> ListReload {
    searchDeadline = nil
    let trimmed = searchDraft.trimmingCharacters(in: .whitespaces)
    let text: String? = trimmed.isEmpty ? nil : trimmed
    guard text != filter.text else { return .nothing }
    filter.text = text
    return .countsAndList
  }

  // MARK: Time

  /// Advances to `now`: applies a search once typing has paused, expires the message.
  public mutating func tick(now: Date) -> ListReload {
    if let flash, flash.hasExpired(at: now) { self.flash = nil }
    if let deadline = searchDeadline, now >= deadline { return applySearchDraft() }
    return .nothing
  }

  /// Records an action on its way to GitHub and returns its id.
  public mutating func begin(_ action: PendingAction) -> Int {
    let id = nextActionID
    nextActionID += 1
    pendingActions[id] = action
    return id
  }

  /// Forgets an answered action; `nil` when it was not pending (answered twice).
  public mutating func finish(_ id: Int) -> PendingAction? {
    pendingActions.removeValue(forKey: id)
  }

  /// "closing #12…" while actions are on their way, for the status line.
  package var pendingSummary: String? {
    guard !pendingActions.isEmpty else { return nil }
    let summaries = pendingActions.keys.sorted().compactMap { pendingActions[$0]?.summary }
    return summaries.joined(separator: ", ") + "…"
  }

  /// Shows a message in the status line for four seconds.
  package mutating func show(message: String, now: Date) {
    flash = StatusMessage(message, now: now)
  }

  // MARK: Scrolling

  /// Scrolls the side preview by `lines`, kept within its `lineCount` lines.
  package mutating func scrollPreview(by lines: Int, lineCount: Int, height: Int) {
    previewOffset = Self.clamp(previewOffset + lines, lineCount: lineCount, height: height)
  }

  /// An offset kept between the top and the last screen.
  static func clamp(_ offset: Int, lineCount: Int, height: Int) -> Int {
    max(0, min(offset, lineCount - max(1, height)))
  }
}

/// What of the list a change of ``BrowserState`` invalidates.
public enum ListReload: Hashable, Sendable {
  /// Nothing: the list stays as it is.
  case nothing
  /// The chip narrowing the list: the entries already read are narrowed anew, with no query.
  case chip
  /// The list: its order changed.
  case list
  /// The chip counts and the list: what the chips count changed (state, kind, label, search).
  case countsAndList
}
