import Foundation
import GitHubIssues
import Trellis
import TrellisTerminal

/// The issues browser: the milestone chip bar, the issue list in sections, the preview, and the
/// status bar — everything but the terminal and the network, so tests drive it directly.
///
/// It is a thin shell over three parts. ``BrowserState`` is the value model (filter, mode, what
/// is typed); ``KeyBindings`` turn keys into ``BrowserCommand``s; the screen draws the state and
/// the views without changing either. Data flows one way: a command changes the state, the state
/// and the cache make the chip and list snapshots, and the collection views diff them in.
///
/// The host feeds events, calls ``tick()`` about ten times a second (debounced search, spinner),
/// performs the ``BrowserEffect``s it returns, sets ``syncStatus`` as syncs progress, and hands
/// it the lists it observes in the cache (``apply(_:)``).
@MainActor
public final class IssueBrowser {
  /// The repository shown.
  public let repository: RepositoryName
  let cache: IssueCache

  /// The host the repository is on; issue links without a URL in the cache point there.
  public let host: GitHubHost

  /// The filter, the mode, what is being typed and the status message.
  public internal(set) var state = BrowserState()

  /// Where the cache stands against GitHub; the status bar shows it.
  public var syncStatus: SyncStatus {
    didSet { updatePlaceholder() }
  }

  /// The screen size, in cells.
  public private(set) var size: TerminalSize

  /// The clock; tests set a fixed one.
  var now: () -> Date

  let chips: CollectionView<Int, MilestoneFilter>
  // The providers, replaced when the data they draw from changes.
  let chipCells = CellSource<MilestoneFilter>()
  let rowCells = CellSource<Int>()
  let labelCells = CellSource<String>()
  let list: CollectionView<ListSection, Int>
  /// Rows loaded from the cache, by number; filled around what the list draws.
  var rows: [Int: CachedIssue] = [:]
  var milestones: [Int: GitHubMilestone] = [:]
  /// The milestones in chip order: open ones by due date, then closed ones.
  var milestoneOrder: [GitHubMilestone] = []
  var labelColors: [String: Color] = [:]
  var labelNames: [String] = []
  /// The labels as last read, to tell whether an observed list changed them.
  var labelList: [GitHubLabel] = []
  var chipCounts: [MilestoneFilter: Int] = [:]
  var chipOrder: [MilestoneFilter] = []
  /// The position of each chip in `chipOrder`.
  var chipIndex: [MilestoneFilter: Int] = [:]
  /// The list the observed filter selects in every milestone, as last read or observed: chip
  /// counts come from it, and the list is it filtered by the selected chip.
  var allEntries: [IssueListEntry] = []
  /// Sections a person collapsed, shown as their header alone; kept in the cache.
  var collapsedSections: Set<ListSection> = []
  /// The sub-issues of every issue that has some, by parent number.
  var subIssues: [Int: [Int]] = [:]
  /// Parents whose sub-issues a person opened.
  var expandedParents: Set<Int> = []
  /// The sections in which sub-issues nest under their parents, as trees.
  var sectionTrees: [ListSection: SectionSnapshot<Int>] = [:]
  var numberWidth = 4
  /// The item count of each list section, for the headers.
  var sectionCounts: [ListSection: Int] = [:]
  var totalShown = 0

  let labelPicker: CollectionView<Int, String>
  /// The reader: the issue and its comments, a section (with a pinned header) per post.
  let reader: CollectionView<Int64, ReaderLine>
  let readerCells = CellSource<ReaderLine>()
  /// What the reader shows, by post.
  var readerPosts: [Int64: ReaderPost] = [:]
  /// The conversation in the reader, and where fetching it stands.
  var conversation: ConversationState?
  /// The position of the first cached comment not in the reader yet (see
  /// ``rebuildReader(issue:scrollingToTop:)``).
  var readerNextComment = 0
  /// How many comments the cache held when the reader was built.
  var cachedCommentCount = 0
  /// The timeline events not placed in the reader yet, oldest first: each goes under the post
  /// written before it.
  var readerEvents: ArraySlice<CachedTimelineEvent> = []
  var loadError: String?
  /// Who `@me` is, as the host said.
  var viewer = ViewerLogin.unknown
  /// Effects for the host that did not come from an event (a lookup the search needs).
  var pendingEffects: [BrowserEffect] = []
  /// Whether issues can be changed on GitHub from here; the host says at start.
  public var writeAccess = WriteAccess.allowed
  /// Issues with a comment draft saved and not confirmed by GitHub; the host keeps it current.
  public var savedDrafts: Set<Int> = []
  /// The issue the person last acted on from the list, until they move the focus: the focus
  /// follows it through the optimistic change, the re-sort, GitHub's answer and a rollback.
  var actedOn: Int?
  /// The focused issue's preview lines at a width, kept until the focus, the width or the data
  /// change (Markdown is rendered once per issue, not once per frame).
  let previews = PreviewMemo()

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
    self.cache = cache
    self.repository = repository
    self.host = host
    self.size = size
    self.syncStatus = syncStatus
    self.now = now
    let chipCells = chipCells
    let rowCells = rowCells
    let labelCells = labelCells
    let readerCells = readerCells
    chips = CollectionView(layout: Self.chipLayout(), selection: .single()) {
      chipCells.make($0, $1)
    }
    list = CollectionView(layout: Self.listLayout(), selection: .none) { rowCells.make($0, $1) }
    labelPicker = CollectionView(layout: Self.listLayout(headers: false), selection: .single()) {
      labelCells.make($0, $1)
    }
    reader = CollectionView(layout: Self.listLayout(), selection: .none) {
      readerCells.make($0, $1)
    }
    configureViews()
    place()
    loadCollapsedSections()
    reload()
  }

  // MARK: Layouts

  static func chipLayout() -> CompositionalLayout {
    var section = LayoutSection.chips(height: 1, estimatedWidth: 10, spacing: 1)
    section.contentInsets = EdgeInsets(leading: 1, trailing: 1)
    return CompositionalLayout(section: section)
  }

  static func listLayout(headers: Bool = true) -> CompositionalLayout {
    var section = LayoutSection.rows(height: 1)
    if headers {
      section.boundarySupplementaryItems = [
        .header(height: 1, pinned: true)
      ]
    }
    return CompositionalLayout(section: section)
  }

  // MARK: Views

  private func configureViews() {
    chips.navigationKeys = .standard
    list.navigationKeys = .standardAndVim
    // Letters narrow the labels, so only the standard keys move in the picker.
    labelPicker.navigationKeys = .standard
    chips.onSelect = { [weak self] chip in
      guard let self else { return }
      reload(state.select(chip))
    }
    list.onFocusChange = { [weak self] _ in self?.state.previewOffset = 0 }
    // A click on a row focuses it (the preview follows); Enter, handled by the browser, reads it.
    labelPicker.onSelect = { [weak self] label in
      guard let self else { return }
      reload(state.pick(label: label.isEmpty ? nil : label))
    }
    list.onSupplementaryClick = { [weak self] _, section in self?.toggleSection(section) }
  }

  /// The chip and list views' data sources, rebuilt with fresh providers over current data.
  func installProviders() {
    let counts = chipCounts
    let milestones = self.milestones
    let order = chipOrder
    chipCells.make = { _, chip in
      ChipCell(
        title: Self.title(of: chip, milestones: milestones), count: counts[chip] ?? 0,
        isClosed: {
          if case .number(let number) = chip {
            milestones[number]?.state == .closed
          } else {
            false
          }
        }())
    }
    chips.measure = { indexPath, proposed in
      guard indexPath.item < order.count else { return proposed }
      let chip = order[indexPath.item]
      return Size(
        width: Double(
          ChipCell.width(
            title: Self.title(of: chip, milestones: milestones), count: counts[chip] ?? 0)),
        height: 1)
    }
  }

  static func title(of chip: MilestoneFilter, milestones: [Int: GitHubMilestone]) -> String {
    switch chip {
    case .all: "All"
    case .withMilestone: "Any milestone"
    case .withoutMilestone: "No milestone"
    case .number(let number): milestones[number]?.title ?? "Milestone \(number)"
    }
  }

  /// Lays the views out for the screen size: title, chips, a rule, the list (and the preview
  /// beside it when there is room), the status bar.
  func place() {
    let width = size.columns
    chips.frame = CellRect(x: 0, y: 1, width: width, height: 1)
    let listHeight = max(0, size.rows - 4)
    list.frame = CellRect(x: 0, y: 3, width: listWidth, height: listHeight)
    // The picker and its border stay inside the screen, down to nothing on a tiny one: its list
    // never draws where its border is.
    let pickerWidth = min(48, max(0, width - 4))
    let pickerHeight = min(max(0, size.rows - 6), max(1, labelNames.count + 1))
    labelPicker.frame = CellRect(
      x: (width - pickerWidth) / 2, y: 4, width: pickerWidth, height: pickerHeight)
    reader.frame = readerArea
  }

  /// Where the label picker's list is, inside its border.
  var labelPickerFrame: CellRect { labelPicker.frame }

  /// The list's width: all of it, or what the preview leaves when the screen is wide.
  var listWidth: Int { hasPreviewPane ? size.columns * 3 / 5 : size.columns }

  /// Whether the preview shows beside the list.
  var hasPreviewPane: Bool { size.columns >= 110 && size.rows >= 12 }

  /// Where the preview beside the list is, border included.
  var previewArea: CellRect {
    CellRect(x: listWidth, y: 3, width: size.columns - listWidth, height: max(0, size.rows - 4))
  }

  /// The width the preview's text is wrapped to.
  var previewTextWidth: Int { max(8, size.columns - listWidth - 3) }

  /// Where an issue read full screen is.
  var readerArea: CellRect {
    CellRect(x: 0, y: 1, width: size.columns, height: max(0, size.rows - 2))
  }

  /// The width the reader's text is wrapped to: the screen's, up to a comfortable 100 columns.
  var readerTextWidth: Int { max(8, min(100, size.columns - 4)) }

  /// Where the help overlay is: below the title, as tall as the screen allows.
  var helpArea: CellRect {
    let height = max(0, min(BrowserScreen.helpLines.count + 4, size.rows - 2))
    return CellRect(x: 1, y: 1, width: max(0, size.columns - 2), height: height)
  }

  /// The focused issue's preview lines at a width, rendered once per issue and width.
  func focusedPreview(width: Int) -> [StyledLine]? {
    guard let number = list.focusedItem else { return nil }
    return previews.lines(of: number, width: width) {
      guard let issue = cacheRead("#\(number)", { try cache.issue(number: number) }) else {
        return nil
      }
      return IssuePreview.lines(
        of: issue, width: width, milestones: milestones, labelColors: labelColors, now: now())
    }
  }

  // MARK: Drawing

  /// Draws the whole screen into a buffer of the browser's size.
  ///
  /// A buffer of another size is replaced. Drawing changes no state: two renders without an event
  /// in between draw the same.
  public func render(into screen: inout CellBuffer) {
    BrowserScreen(browser: self).render(into: &screen)
  }

  /// A new frame of the screen.
  public func render() -> CellBuffer {
    var screen = CellBuffer(width: size.columns, height: size.rows)
    render(into: &screen)
    return screen
  }

  /// Adapts to a new terminal size; the focused issue stays in view.
  public func resize(_ size: TerminalSize) {
    self.size = size
    place()
  }
}
