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
  /// The reason shown, or all (`f` cycles).
  public private(set) var reasonFilter: String?
  /// The repository shown, or all (`F` cycles).
  public private(set) var repositoryFilter: RepositoryName?
  /// The threads as last read, by row.
  public private(set) var threads: [InboxRow: InboxThread] = [:]
  private(set) var message: StatusMessage?
  /// The `?` overlay, while it is open.
  public private(set) var help: HelpOverlay?
  /// The keys: the standard ones, or the person's.
  public var keys = InboxKeys.standard
  let now: () -> Date
  /// The threads.
  let list: CollectionView<Int, InboxRow>
  private let cells = CellSource<InboxRow>()
  /// Every thread read (before the filters), to offer the filters' values.
  private var all: [(InboxRow, InboxThread)] = []
  /// The subject of a thread as its repository's cache holds it now (closed since, merged),
  /// when that repository is cached; set by the host.
  public var subject: (GitHubHost, RepositoryName, Int) -> CachedIssue? = { _, _, _ in nil }
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
        now: self.now(), placeWidth: self.placeWidth)
    }
    list.dataSource.supplementaryProvider = { [unowned self] _, _, _ in
      SectionHeaderCell(title: self.headerTitle, detail: "unread first")
    }
    place()
    reload()
  }

  /// The width of the rows' `owner/name#N` column.
  private var placeWidth = 10
  /// What the list's header says: how many threads, and the filters.
  private var headerTitle = ""

  /// Says the count and the filters in the header, and the placeholder when nothing shows.
  private func showHeader() {
    let filters = [
      reasonFilter.map(GitHubNotification.describe(reason:)), repositoryFilter?.description,
    ]
    .compactMap { $0 }
    headerTitle =
      "\(threads.count) thread\(threads.count == 1 ? "" : "s")"
      + (filters.isEmpty ? "" : " · " + filters.joined(separator: " · "))
    list.placeholder =
      threads.isEmpty ? .empty(all.isEmpty ? "Inbox zero." : "No thread matches.") : nil
  }

  /// The focused thread.
  public var focused: (InboxRow, InboxThread)? {
    list.focusedItem.flatMap { row in threads[row].map { (row, $0) } }
  }

  /// How many threads are unread.
  public var unreadCount: Int { all.count { $0.1.notification.unread } }

  // MARK: Data

  /// Reads every inbox again and shows it: a staged update that keeps the focused thread in
  /// place (or its neighbour, when it left).
  public func reload() {
    var rows: [(InboxRow, InboxThread)] = []
    for (index, inbox) in inboxes.enumerated() {
      do {
        rows += try inbox.store.threads().map { (InboxRow(host: index, thread: $0.id), $0) }
      } catch {
        show(message: "Could not read the inbox of \(inbox.host.name): \(error)")
      }
    }
    all = rows
    subjects = [:]
    showThreads()
    // The subjects may have changed in their caches: every row is drawn again.
    list.setNeedsDisplay()
  }

  /// Shows the threads read, unread first, through the filters; `sorting` false when their
  /// order holds already (a thread left).
  private func showThreads(sorting: Bool = true) {
    if sorting {
      all.sort {
        ($0.1.notification.unread ? 0 : 1, $1.1.notification.updatedAt, $0.0.thread)
          < ($1.1.notification.unread ? 0 : 1, $0.1.notification.updatedAt, $1.0.thread)
      }
    }
    let rows = all
    let shown = rows.filter { _, thread in
      (reasonFilter.map { $0 == thread.notification.reason } ?? true)
        && (repositoryFilter.map { $0 == thread.notification.repository } ?? true)
    }
    let before = threads
    threads = Dictionary(shown.map { ($0.0, $0.1) }) { first, _ in first }
    // `owner/name#N`, measured without building the strings.
    placeWidth = min(
      40,
      shown.reduce(10) { widest, row in
        let n = row.1.notification
        var digits = 1
        var number = n.number ?? 0
        while number >= 10 {
          number /= 10
          digits += 1
        }
        return max(widest, n.repository.owner.count + n.repository.name.count + 2 + digits)
      })
    showHeader()
    list.setNeedsDisplay(supplementariesOf: 0)
    let snapshot = Snapshot<Int, InboxRow>(sections: [(0, shown.map(\.0))])
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
      self.help = help.handle(event, on: size) ? help : nil
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
    case .showHelp: help = HelpOverlay(lines: InboxKeys.helpLines(keys))
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
    if let index = all.firstIndex(where: { $0.0 == row }) {
      switch kind {
      case .read:
        all[index].1.notification.unread = false
        all[index].1.pendingTriage = .read
        showThreads()
      case .done, .unsubscribe:
        // The row leaves: one deletion, the order and the other rows as they were.
        all.remove(at: index)
        threads[row] = nil
        var snapshot = list.dataSource.snapshot()
        snapshot.deleteItems([row])
        showHeader()
        list.dataSource.apply(snapshot)
        list.setNeedsDisplay(supplementariesOf: 0)
      }
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
    let reasons = Array(Set(all.map(\.1.notification.reason))).sorted()
    reasonFilter = Self.next(after: reasonFilter, in: reasons)
    showThreads()
    show(message: "Reason: " + (reasonFilter.map(GitHubNotification.describe(reason:)) ?? "all"))
  }

  private func cycleRepository() {
    let repositories = Array(Set(all.map(\.1.notification.repository))).sorted {
      $0.description < $1.description
    }
    repositoryFilter = Self.next(after: repositoryFilter, in: repositories)
    showThreads()
    show(message: "Repository: " + (repositoryFilter?.description ?? "all"))
  }

  /// The value after `current` in `values`, then none (all), then the first again.
  static func next<T: Equatable>(after current: T?, in values: [T]) -> T? {
    guard let current, let index = values.firstIndex(of: current) else { return values.first }
    return index + 1 < values.count ? values[index + 1] : nil
  }

  static func url(of thread: GitHubNotification, host: GitHubHost) -> String {
    let base = "https://\(host.name)/\(thread.repository)"
    guard let number = thread.number else { return base }
    return base + (thread.subjectType == "PullRequest" ? "/pull/" : "/issues/") + "\(number)"
  }

  /// Moves time on: expires the message.
  @discardableResult
  public func tick() -> [InboxEffect] {
    if let message, message.hasExpired(at: now()) { self.message = nil }
    list.tick()
    return []
  }

  /// Shows a message on the status line for a few seconds.
  public func show(message text: String) {
    message = StatusMessage(text, now: now())
  }

  /// Adapts to a new terminal size.
  public func resize(_ size: TerminalSize) {
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
    ScreenBars.statusLine(
      &screen,
      message?.text ?? ScreenBars.hintLine(keys.hints, columns: size.columns - 2))
    help?.draw(into: &screen)
  }

  /// Where the accessible mode puts the terminal's cursor: the focused thread.
  public var cursorPosition: CellPoint? {
    if help != nil { return CellPoint(x: 2, y: 1) }
    return list.focusedCell
  }

  /// The focus in words: the thread's title, where it is, why it came, read or not.
  public var focusDescription: String? {
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
