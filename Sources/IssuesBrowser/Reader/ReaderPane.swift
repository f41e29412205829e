import Foundation
import GitHubIssues
import Trellis
import TrellisTerminal

/// The reader: an issue and its conversation, full screen, as a list of posts (the issue, then
/// each comment) whose author headers stay pinned while a long post scrolls under them.
///
/// The pane reads the cache into its ``ReaderModel`` and the model's snapshot into the view.
/// Markdown is rendered progressively: what fills the first screens now, the rest a batch per
/// tick or at once when a key scrolls toward it, so that opening a long thread costs its first
/// screen.
@MainActor
final class ReaderPane {
  let view: CollectionView<Int64, ReaderLine>
  /// The conversation shown, while the reader is open.
  private(set) var model: ReaderModel?
  private let cells = CellSource<ReaderLine>()
  private let read: CacheReader
  private let now: () -> Date

  init(read: CacheReader, now: @escaping () -> Date) {
    self.read = read
    self.now = now
    let cells = cells
    view = CollectionView(layout: IssueListPane.listLayout(), selection: .none) {
      cells.make($0, $1)
    }
  }

  /// The issue read, while the reader is open.
  var number: Int? { model?.number }
  /// The cache row of the issue read, while the reader is open: what a change of the list is
  /// matched against.
  private(set) var key: IssueKey?

  /// Opens an issue with the comments the cache holds.
  ///
  /// - Returns: Whether its conversation should be fetched (it has comments the cache does not
  ///   hold as current); the reader then says they are being fetched.
  func open(_ issue: CachedIssue, lines: [StyledLine], width: Int) -> Bool {
    let number = issue.number
    key = issue.key
    var model = ReaderModel(number: number)
    let current = read("the comments of #\(number)") { try $0.commentsAreCurrent(of: number) }
    // A pull request's reviews and checks change without a comment: it is always asked.
    let fetch = (issue.comments > 0 && current == false) || issue.isPullRequest
    if fetch { model.fetch = .fetching }
    self.model = model
    rebuild(issue, lines: lines, width: width, scrollingToTop: true)
    return fetch
  }

  /// Closes the reader.
  func close() {
    model = nil
    key = nil
  }

  /// Takes the outcome of fetching the conversation.
  func fetched(_ result: Result<Void, HostFailure>) {
    switch result {
    case .success: model?.fetch = .done
    case .failure(let failure): model?.fetch = .failed(failure.message)
    }
  }

  /// Reads the issue and its comments from the cache into the view: the first screens now
  /// (or, when the reader was open, as many posts as it had built).
  func rebuild(_ issue: CachedIssue, lines: [StyledLine], width: Int, scrollingToTop: Bool) {
    guard var model else { return }
    let number = issue.number
    let built = scrollingToTop ? 0 : model.postCount - 1
    let count = read("the comments of #\(number)") { try $0.commentCount(of: number) } ?? 0
    let events = read("the events of #\(number)") { try $0.timeline(of: number) } ?? []
    let reviews =
      issue.isPullRequest ? read("the reviews of #\(number)") { try $0.reviews(of: number) } : nil
    let checks =
      issue.isPullRequest ? read("the checks of #\(number)") { try $0.checks(of: number) } : nil
    let queued = (read("the queue") { try $0.queuedActions() } ?? []).filter {
      $0.issueNumber == number
    }
    var snapshot = model.restart(
      issue: issue, lines: lines, commentCount: count, events: events, reviews: reviews ?? [],
      checks: checks ?? nil, queued: queued,
      milestoneTitles: queued.isEmpty ? [:] : read.cache.milestoneTitles(), now: now())
    // One screen now (Markdown costs a few hundred microseconds a comment); the rest later.
    let screens = max(1, view.frame.height) + 1
    while model.hasBacklog, snapshot.numberOfItems < screens || model.postCount <= built {
      let offset = model.nextComment
      let batch =
        read("the comments of #\(number)") {
          try $0.comments(of: number, offset: offset, limit: max(8, built - model.postCount + 1))
        } ?? []
      model.append(batch, to: &snapshot, width: width, now: now())
      if batch.isEmpty { break }
    }
    model.finish(issue: issue, to: &snapshot, width: width, now: now())
    self.model = model
    installProviders()
    if scrollingToTop {
      view.dataSource.applySnapshotUsingReloadData(snapshot)
      view.setContentOffset(.zero)
    } else {
      // Lines whose text changed (an edited comment) are redrawn; the rest move or stay.
      let old = view.dataSource.snapshot()
      view.dataSource.apply(snapshot) { line in old.contains(item: line) ? .reconfigure : nil }
      view.setNeedsDisplay()
    }
  }

  /// Renders up to `limit` more comments of the backlog (all when `nil`) and appends them.
  func renderBacklog(limit: Int?, width: Int) {
    guard var model, model.hasBacklog else { return }
    let number = model.number
    var snapshot = view.dataSource.snapshot()
    let offset = model.nextComment
    let batch =
      read("the comments of #\(number)") {
        try $0.comments(of: number, offset: offset, limit: limit)
      } ?? []
    model.append(batch, to: &snapshot, width: width, now: now())
    if !model.hasBacklog, let issue = read.issue(number) {
      model.finish(issue: issue, to: &snapshot, width: width, now: now())
    }
    self.model = model
    installProviders()
    view.dataSource.apply(snapshot)
  }

  /// Renders the backlog as far as a scroll of `distance` lines needs (all of it for the end).
  func prepareScroll(by distance: Int, width: Int) {
    guard model?.hasBacklog == true else { return }
    let bottom = view.viewport.maxY + Double(max(0, distance))
    let content = Double(view.dataSource.snapshot().numberOfItems)
    if distance >= Int.max / 4 {
      renderBacklog(limit: nil, width: width)
    } else if bottom + Double(view.frame.height) >= content {
      renderBacklog(limit: max(10, distance / 2), width: width)
    }
  }

  /// Scrolls by lines, rendering what the scroll reaches first.
  func scroll(by lines: Int, width: Int) {
    prepareScroll(by: lines, width: width)
    view.scroll(by: Double(lines))
  }

  /// Scrolls to an offset from the top (a huge one: the end).
  func scroll(to offset: Int, width: Int) {
    prepareScroll(by: offset, width: width)
    view.setContentOffset(.zero)
    if offset > 0 { view.scroll(by: Double(offset)) }
  }

  private func installProviders() {
    let posts = model?.posts ?? [:]
    cells.make = { _, line in
      TextLineCell(line: posts[line.post]?.lines[line.line] ?? [], indent: 2)
    }
    view.dataSource.supplementaryProvider = { _, _, post in
      posts[post]?.header ?? SectionHeaderCell(title: "", detail: "")
    }
  }
}
