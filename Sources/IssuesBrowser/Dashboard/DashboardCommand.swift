import TrellisTerminal

/// What a key asks of the dashboard.
public enum DashboardCommand: Hashable, Sendable {
  /// Leave (`q`).
  case quit
  /// Leave as interrupted (Ctrl-C).
  case interrupt
  /// Sync every repository (`r`).
  case refresh
  /// The next section (Tab, →, `l`).
  case nextSection
  /// The previous section (Shift-Tab, ←, `h`).
  case previousSection
  /// A section by its place, from 0 (`1`…`9`).
  case section(Int)
  /// The previous milestone chip of a section over one repository (`[`).
  case previousMilestone
  /// The next one (`]`).
  case nextMilestone
  /// Group the section by repository, or not (`v`).
  case toggleGrouping
  /// Read the focused item (Enter).
  case read
  /// Open it on GitHub (`o`).
  case openInBrowser
  /// Copy `OWNER/REPO#N` (`y`).
  case copyNumber
  /// Copy its URL (`Y`).
  case copyURL
}

/// The dashboard's keys.
public enum DashboardKeys {
  /// The command of a key; `nil` for keys the list moves with.
  public static func command(for key: KeyEvent) -> DashboardCommand? {
    if key.modifiers == .control, key.key == .character("c") { return .interrupt }
    switch (key.key, key.modifiers) {
    case (.tab, []), (.right, []), (.character("l"), []): return .nextSection
    case (.tab, .shift), (.left, []), (.character("h"), []): return .previousSection
    case (.enter, []): return .read
    case (.character("q"), []): return .quit
    case (.character("r"), []): return .refresh
    case (.character("v"), []): return .toggleGrouping
    case (.character("["), []): return .previousMilestone
    case (.character("]"), []): return .nextMilestone
    case (.character("o"), []): return .openInBrowser
    case (.character("y"), []): return .copyNumber
    case (.character("Y"), []), (.character("Y"), .shift): return .copyURL
    case (.character(let digit), []) where ("1"..."9").contains(digit):
      return digit.wholeNumberValue.map { .section($0 - 1) }
    default: return nil
    }
  }
}
