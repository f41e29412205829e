import Foundation
import GitHubIssues
import Trellis
import TrellisTerminal

/// The inbox screen: the notification threads of every host, unread first, with triage keys —
/// everything but the terminal and the network, so tests and benchmarks drive it directly.
///
/// Triage (`m` read, `d` done, `u` unsubscribe) goes to the host's inbox queue and shows at
/// once — a thread done leaves the list in the same key press — and the host is asked to send
/// it. Enter reads the thread's issue or pull request (and marks it read).
@MainActor
public final class InboxBrowser: Screen {
  /// Each host's inbox.
  public let inboxes: [(host: GitHubHost, store: InboxStore)]
  /// The screen size.
  public private(set) var size: TerminalSize
  /// What the title bar says beside the name: polling, or where the inbox stands.
  public var status = ""
  /// The threads, the filters, the message: the screen's state as a value.
  package private(set) var model = InboxModel()
  /// The reason shown, or all (`f` cycles).
  package var reasonFilter: String? { model.reasonFilter }
  /// The repository shown, or all (`F` cycles).
  package var repositoryFilter: RepositoryName? { model.repositoryFilter }
  /// The threads shown, by row.
  public var threads: [InboxRow: InboxThread] { model.threads }
  /// The `?` overlay, while it is open.
  package var help: HelpOverlay? { model.help }
  /// The keys: the standard ones, or the person's.
  public var keys = InboxKeys.standard
  let now: () -> Date
  /// The threads.
  let list: CollectionView<Int, InboxRow>
  private let cells = CellSource<InboxRow>()
  /// The subject of a thread as its repository's cache holds it now (closed since, merged),
  /// when that repository is cached; set by the host.
  package var subject: (GitHubHost, RepositoryName, Int) -> CachedIssue? = { _, _, _ in nil }
  /// Subjects read since the last reload, by row.
  private var subjects: [InboxRow: CachedIssue?] = [:]

  /// An inbox screen over the hosts' inboxes.
  public init(
    inboxes: [(host: GitHubHost, store: InboxStore)], size: TerminalSize,
    now: @escaping () -> Date = Date.init
  ) {
    self.inboxes = inboxes
    self.size = size
    self.now = now
    let cells = cells
    list = CollectionView(layout: DashboardBrowser.listLayout(), selection: .none) {
      cells.make($0, $1)
    }
    list.navigationKeys = .standardAndVim
    cells.make = { [unowned self] _, row in
      InboxRowCell(
        subject: self.subjectOf(row),
        thread: self.threads[row]
          ?? InboxThread(
            notification: GitHubNotification(
              id: row.thread, unread: false, reason: "", updatedAt: self.now(), title: "",
              subjectType: "", number: nil, repository: RepositoryName(owner: "?", name: "?"))),
        now: self.now(), placeWidth: self.model.placeWidth)
    }
    list.dataSource.supplementaryProvider = { [unowned self] _, _, _ in
      SectionHeaderCell(title: self.model.headerTitle, detail: "unread first")
    }
    place()
    reload()
  }

  /// Says the count and the filters in the header, and the placeholder when nothing shows.
  private func showHeader() {
    list.placeholder = model.emptyText.map { .empty($0) }
    list.setNeedsDisplay(supplementariesOf: 0)
  }

  /// The focused thread.
  public var focused: (InboxRow, InboxThread)? {
    list.focusedItem.flatMap { row in threads[row].map { (row, $0) } }
  }

  /// How many threads are unread.
  package var unreadCount: Int { model.unreadCount }

  // MARK: Data

  /// Reads every inbox again and shows it: a staged update that keeps the focused thread in
  /// place (or its neighbour, when it left).
  package func reload() {
    var entries: [InboxModel.Entry] = []
    for (index, inbox) in inboxes.enumerated() {
      do {
        entries += try inbox.store.threads().map {
          InboxModel.Entry(row: InboxRow(host: index, thread: $0.id), thread: $0)
        }
      } catch {
        show(message: "Could not read the inbox of \(inbox.host.name): \(error)")
      }
    }
    let before = threads
    model.load(entries)
    subjects = [:]
    showThreads(before: before)
    // The subjects may have changed in their caches: every row is drawn again.
    list.setNeedsDisplay()
  }

  /// Shows what the model shows: a staged update in which only rows whose thread changed
  /// (`before` is what they were) are made again, the focus kept in its place.
  private func showThreads(before: [InboxRow: InboxThread]) {
    showHeader()
    let snapshot = Snapshot<Int, InboxRow>(sections: [(0, model.shown.map(\.row))])
    let old = list.dataSource.snapshot()
    let focusedIndex = list.focusedItem.flatMap { old.itemIdentifiers.firstIndex(of: $0) }
    // Only rows whose thread changed (read now, retitled) are made again; the others move.
    let threads = threads
    list.dataSource.apply(snapshot) { row in
      old.contains(item: row) && before[row] != threads[row] ? .reconfigure : nil
    }
    if !(list.focusedItem.map { snapshot.contains(item: $0) } ?? false) {
      let items = snapshot.itemIdentifiers
      list.focus(items.isEmpty ? nil : items[min(focusedIndex ?? 0, items.count - 1)])
    }
  }

  /// A row's subject from its repository's cache, read once a reload.
  private func subjectOf(_ row: InboxRow) -> CachedIssue? {
    if let known = subjects[row] { return known }
    guard let thread = threads[row], let number = thread.notification.number else { return nil }
    let found = subject(inboxes[row.host].host, thread.notification.repository, number)
    subjects[row] = .some(found)
    return found
  }

  // MARK: Events

  /// Handles a key or the mouse, and returns what the host should do.
  public func handle(_ event: InputEvent) -> [InboxEffect] {
    if var help {
      // The overlay takes every event but Ctrl-C; any other key closes it.
      if case .key(let key) = event, keys.command(for: key) == .interrupt {
        return [.interrupted]
      }
      model.help = help.handle(event, on: size) ? help : nil
      return []
    }
    guard case .key(let key) = event else {
      _ = list.handle(event)
      return []
    }
    return keys.command(for: key).map(perform) ?? []
  }

  /// Performs a command, whatever key sent it, and returns what the host should do.
  public func perform(_ command: InboxCommand) -> [InboxEffect] {
    switch command {
    case .quit: return [.quit]
    case .interrupt: return [.interrupted]
    case .refresh: return [.refresh]
    case .moveInList(let move): list.moveFocus(move)
    case .triage(let kind): return triage(kind)
    case .cycleReason: cycleReason()
    case .cycleRepository: cycleRepository()
    case .openInBrowser:
      guard let (row, thread) = focused else { return [] }
      return [.open(Self.url(of: thread.notification, host: inboxes[row.host].host))]
    case .read:
      guard let (row, thread) = focused, let number = thread.notification.number else {
        return []
      }
      var effects = triage(.read)
      effects.append(
        .read(host: row.host, repository: thread.notification.repository, number: number))
      return effects
    case .showHelp: model.help = HelpOverlay(lines: InboxKeys.helpLines(keys))
    case .run(let command):
      guard let (row, thread) = focused, let number = thread.notification.number else {
        show(message: "“\(command.title)” runs on an issue or pull request: none is focused.")
        return []
      }
      let n = thread.notification
      let host = inboxes[row.host].host
      return [
        .run(
          CommandRun(
            command, host: host, repository: n.repository, number: number, title: n.title,
            url: Self.url(of: n, host: host), isPullRequest: n.subjectType == "PullRequest",
            branch: nil))
      ]
    }
    return []
  }

  /// Triages the focused thread: queued, shown at once (the row leaves for done), sent by the
  /// host.
  func triage(_ kind: GitHubClient.Triage) -> [InboxEffect] {
    guard let (row, thread) = focused else { return [] }
    if kind == .read, !thread.notification.unread { return [] }
    do {
      try inboxes[row.host].store.triage(kind, thread: row.thread, now: now())
    } catch {
      show(message: "Could not triage the thread: \(error)")
      return []
    }
    let place = list.dataSource.snapshot().itemIdentifiers.firstIndex(of: row)
    // Shown from what the screen holds: the row leaves (or reads) without reading the inbox.
    switch kind {
    case .read:
      let before = threads
      model.markRead(row)
      showThreads(before: before)
    case .done, .unsubscribe:
      // The row leaves: one deletion, the order and the other rows as they were.
      model.remove(row)
      var snapshot = list.dataSource.snapshot()
      snapshot.deleteItems([row])
      showHeader()
      list.dataSource.apply(snapshot)
    }
    // The focus stays in its place (the next thread), not on one that moved away.
    let items = list.dataSource.snapshot().itemIdentifiers
    if let place, !items.isEmpty {
      let next = items[min(place, items.count - 1)]
      list.focus(next == row && place + 1 < items.count ? items[place + 1] : next)
    }
    return [.sendTriage(host: row.host)]
  }

  private func cycleReason() {
    let before = threads
    let said = model.cycleReason()
    showThreads(before: before)
    show(message: said)
  }

  private func cycleRepository() {
    let before = threads
    let said = model.cycleRepository()
    showThreads(before: before)
    show(message: said)
  }

  static func url(of thread: GitHubNotification, host: GitHubHost) -> String {
    let base = "https://\(host.name)/\(thread.repository)"
    guard let number = thread.number else { return base }
    return base + (thread.subjectType == "PullRequest" ? "/pull/" : "/issues/") + "\(number)"
  }

  /// Moves time on: expires the message.
  @discardableResult
  public func tick() -> [InboxEffect] {
    model.tick(now: now())
    list.tick()
    return []
  }

  /// Shows a message on the status line for a few seconds.
  package func show(message text: String) {
    model.message = StatusMessage(text, now: now())
  }

  /// Adapts to a new terminal size.
  package func resize(_ size: TerminalSize) {
    self.size = size
    place()
  }

  private func place() {
    list.frame = CellRect(x: 0, y: 1, width: size.columns, height: max(0, size.rows - 2))
  }

  // MARK: Drawing

  /// Draws the whole screen into a buffer of the screen's size.
  public func render(into screen: inout CellBuffer) {
    if screen.width != size.columns || screen.height != size.rows {
      screen = CellBuffer(width: size.columns, height: size.rows)
    }
    guard !ScreenBars.tooSmall(&screen, size: size, rows: 4, columns: 20) else { return }
    ScreenBars.title(&screen, name: "inbox · \(unreadCount) unread", status: status)
    list.render(into: &screen)
    ScreenBars.statusLine(&screen, message: model.message, hints: keys.hints)
    help?.draw(into: &screen)
  }

  /// Where the accessible mode puts the terminal's cursor: the focused thread.
  package var cursorPosition: CellPoint? {
    if help != nil { return HelpOverlay.cursor }
    return list.focusedCell
  }

  /// The focus in words: the thread's title, where it is, why it came, read or not.
  package var focusDescription: String? {
    if help != nil { return "the list of keys" }
    guard let (_, thread) = focused else { return threads.isEmpty ? "no thread" : nil }
    let n = thread.notification
    return ControlCharacters.visible(n.title) + ", \(n.repository)"
      + (n.number.map { "#\($0)" } ?? "") + ", "
      + GitHubNotification.describe(reason: n.reason) + (n.unread ? ", unread" : "")
  }

  /// A new frame of the screen.
  public func render() -> CellBuffer {
    var screen = CellBuffer(width: size.columns, height: size.rows)
    render(into: &screen)
    return screen
  }
}
