/// What a GraphQL cursor walk does when GitHub refuses its cursor — the one rule every walk
/// follows (the mirror's pages, review threads).
///
/// GitHub refuses a cursor it no longer takes (`INVALID_CURSOR_ARGUMENTS`: it expired; a flaky
/// server refuses one now and then). Nothing was answered, and a cursor is a point every item
/// before it was served from, so the walk asks with it again (``triesPerCursor`` times), then
/// with the cursor of the page before (it keeps ``provedCursorsKept``), then from its start
/// (``maximumRestarts`` times). Each point lists again only what follows it; the walk
/// de-duplicates what it saw twice. The refusals allowed grow with the pages answered: a server
/// refusing one cursor in three is outlasted, one that takes none is not followed forever.
struct CursorRefusals: Sendable {
  /// How many times a walk starts again after GitHub refused its cursor.
  static let maximumRestarts = 2
  /// How many times one cursor is asked with before the walk steps back to the one before.
  static let triesPerCursor = 4
  /// How many proved cursors a walk keeps to step back to.
  static let provedCursorsKept = 4

  /// Where a walk goes on from after a refusal.
  enum Resume: Equatable, Sendable {
    /// Asks with the same cursor again.
    case sameCursor
    /// Asks with this earlier cursor, proved by the page it brought.
    case cursor(String?)
    /// Starts again from its first page: what it gathered is forgotten.
    case start
  }

  /// The cursors pages were asked with that GitHub answered, newest last.
  private var proved: [String?] = []
  private var restarts = 0
  private var refusals = 0
  private var tries = 0
  private var pagesAnswered = 0

  /// A walk that has asked for nothing yet.
  init() {}

  /// Whether GitHub may refuse one more cursor of a walk that answered `pages` pages.
  static func allowsRefusal(_ refusals: Int, afterPages pages: Int) -> Bool {
    refusals <= 20 + 3 * pages
  }

  /// Takes into account a page GitHub answered when asked with `cursor`; `moved` says whether
  /// it led on to another cursor (a page that ends the walk proves nothing to step back to).
  mutating func answered(askedWith cursor: String?, moved: Bool) {
    pagesAnswered += 1
    tries = 0
    guard moved else { return }
    proved.append(cursor)
    if proved.count > Self.provedCursorsKept { proved.removeFirst() }
  }

  /// Where the walk goes on from after GitHub refused `cursor`, asked for a walk that started
  /// at `start`.
  ///
  /// - Throws: `error` when the walk has met more refusals than it outlasts, or has nowhere
  ///   left to step back to.
  mutating func refused(
    _ error: GitHubError, cursor: String?, start: String? = nil
  ) throws(GitHubError) -> Resume {
    refusals += 1
    tries += 1
    guard Self.allowsRefusal(refusals, afterPages: pagesAnswered) else { throw error }
    if tries < Self.triesPerCursor { return .sameCursor }
    tries = 0
    if let previous = proved.popLast() { return .cursor(previous) }
    guard cursor != start, restarts < Self.maximumRestarts else { throw error }
    restarts += 1
    return .start
  }
}
