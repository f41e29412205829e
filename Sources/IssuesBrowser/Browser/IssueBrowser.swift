import Foundation
import GitHubIssues
import Trellis
import TrellisTerminal

/// The issues browser: the milestone chip bar, the issue list in sections, the preview, the
/// reader and the status bar — everything but the terminal and the network, so tests drive it
/// directly.
///
/// It is a thin shell over values and panes. ``BrowserState`` is what the person chose (filter,
/// mode, what is typed); ``ScreenGeometry`` is where things go; ``KeyBindings`` turn keys into
/// ``BrowserCommand``s. The list pane and the reader pane each keep a model value (the list's
/// sections and trees, the conversation's posts) and the view that shows it; the screen draws
/// from all of them without changing any. Data flows one way: a command changes the state, the
/// state and the cache make the snapshots, and the collection views diff them in.
///
/// The host feeds events, calls ``tick()`` about ten times a second (debounced search, spinner),
/// performs the ``BrowserEffect``s it returns, sets ``syncStatus`` as syncs progress, and hands
/// it the lists it observes in the cache (``apply(_:)``).
@MainActor
public final class IssueBrowser {
  /// The repository shown.
  public let repository: RepositoryName
  /// The host the repository is on; issue links without a URL in the cache point there.
  public let host: GitHubHost
  /// The filter, the mode, what is being typed and the status message.
  public internal(set) var state = BrowserState()
  /// Where the cache stands against GitHub; the status bar shows it.
  package var syncStatus: SyncStatus {
    didSet { updatePlaceholder() }
  }
  /// Where everything on the screen goes.
  package private(set) var geometry: ScreenGeometry
  /// What the host said of itself: whether it can write, saved drafts, who `@me` is.
  var context = HostContext()
  /// The clock; tests set a fixed one.
  let now: () -> Date
  let read: CacheReader
  /// The chips and the issue list.
  let listPane: IssueListPane
  /// An issue and its conversation, full screen.
  let readerPane: ReaderPane
  let labelPicker = LabelPicker()
  /// Whether leaving the reader leaves the browser (it was opened on one issue, from the
  /// dashboard).
  package var returnsAfterReading = false
  /// The keys: the standard ones, or the person's.
  public var keys = BrowserKeys.standard
  /// Effects for the host that did not come from an event (a lookup the search needs).
  var pendingEffects: [BrowserEffect] = []

  /// Opens the browser on a repository's cache, drawing into a screen of `size`.
  ///
  /// - Parameters:
  ///   - cache: The repository's cache, read and observed.
  ///   - repository: The repository shown.
  ///   - host: Where the repository is, for the links of issues the cache has no URL for.
  ///   - size: The screen size, in cells.
  ///   - syncStatus: Where the cache stands against GitHub at first.
  ///   - now: The clock; tests pass a fixed one.
  public init(
    cache: IssueCache, repository: RepositoryName, host: GitHubHost = .github,
    size: TerminalSize, syncStatus: SyncStatus = .cached(lastSynced: nil),
    now: @escaping () -> Date = Date.init
  ) {
    self.repository = repository
    self.host = host
    self.geometry = ScreenGeometry(size: size)
    self.syncStatus = syncStatus
    self.now = now
    // Failures are said on the status line; the browser is made before any read.
    let messages = MessageSink()
    read = CacheReader(cache: cache) { messages.say?($0) }
    listPane = IssueListPane(read: read, now: now)
    readerPane = ReaderPane(read: read, now: now)
    messages.say = { [weak self] in self?.show(message: $0) }
    listPane.chips.onSelect = { [weak self] chip in
      guard let self else { return }
      reload(state.select(chip))
    }
    listPane.list.onFocusChange = { [weak self] _ in self?.state.previewOffset = 0 }
    listPane.list.onSupplementaryClick = { [weak self] _, section in
      self?.setSection(section, collapsed: nil)
    }
    labelPicker.view.onSelect = { [weak self] label in
      guard let self else { return }
      reload(state.pick(label: label.isEmpty ? nil : label))
    }
    place()
    let query = queryFilter
    withFilter { listPane.reloadAll(query: query, filter: &$0) }
    updatePlaceholder()
  }

  /// Whether issues can be changed on GitHub from here; the host says at start.
  public var writeAccess: WriteAccess {
    get { context.writeAccess }
    set { context.writeAccess = newValue }
  }

  /// Issues with a comment draft saved and not confirmed by GitHub; the host keeps it current.
  package var savedDrafts: Set<Int> {
    get { context.savedDrafts }
    set { context.savedDrafts = newValue }
  }

  /// The screen size, in cells.
  public var size: TerminalSize { geometry.size }

  /// Lays the views out for the screen size.
  func place() {
    listPane.chips.frame = geometry.chipsFrame
    listPane.list.frame = geometry.listFrame
    labelPicker.view.frame = geometry.labelPickerFrame(options: listPane.model.labelNames.count + 1)
    readerPane.view.frame = geometry.readerArea
  }

  /// Draws the whole screen into a buffer of the browser's size.
  ///
  /// A buffer of another size is replaced. Drawing changes no state: two renders without an event
  /// in between draw the same.
  public func render(into screen: inout CellBuffer) {
    let preview =
      geometry.hasPreviewPane ? listPane.focusedPreview(width: geometry.previewTextWidth) : nil
    BrowserScreen(
      state: state, geometry: geometry, repository: repository, syncStatus: syncStatus,
      now: now(), totalShown: listPane.model.totalShown, pendingSummary: state.pendingSummary,
      queuedCount: listPane.queued.count, preview: preview, keys: keys, chips: listPane.chips,
      list: listPane.list, reader: readerPane.view,
      labelPicker: labelPicker.view
    ).render(into: &screen)
  }

  /// Renders the previews of the rows above and below the focus, so that moving to one, or
  /// acting on the focused one, draws its preview without reading the cache; with a chip
  /// focused, the preview of the first row Enter would show.
  public func prepareNextFrame() {
    guard geometry.hasPreviewPane else { return }
    if state.focusArea == .chips, let chip = listPane.chips.focusedItem,
      chip != state.filter.milestone
    {
      listPane.preparePreview(firstUnder: chip, width: geometry.previewTextWidth)
    } else {
      listPane.preparePreviews(width: geometry.previewTextWidth)
    }
  }

  /// A new frame of the screen.
  public func render() -> CellBuffer {
    var screen = CellBuffer(width: size.columns, height: size.rows)
    render(into: &screen)
    return screen
  }

  /// Adapts to a new terminal size; the focused issue stays in view.
  package func resize(_ size: TerminalSize) {
    geometry.size = size
    place()
  }

  /// Shows a message in the status bar for a few seconds.
  package func show(message: String) {
    state.show(message: message, now: now())
  }

  /// The web page of an issue: its URL from GitHub, or one on the repository's host.
  func url(of issue: CachedIssue) -> String {
    issue.htmlURL ?? "https://\(host.name)/\(repository)/issues/\(issue.number)"
  }
}
