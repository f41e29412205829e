import TrellisTerminal

/// Where everything on the browser's screen goes, for a terminal size: a value, so that layout
/// rules are tested without a view.
///
/// Rows from the top: the title, the milestone chips, a rule with the filter, the list (with
/// the preview beside it when the screen is wide), and the status line at the bottom.
package struct ScreenGeometry: Hashable, Sendable {
  /// The screen size, in cells.
  package var size: TerminalSize

  /// The geometry of a screen of `size`.
  package init(size: TerminalSize) { self.size = size }

  /// Whether the screen is too small to draw anything but a note saying so.
  package var isTooSmall: Bool { size.columns < 20 || size.rows < 6 }

  /// Where the milestone chips are.
  package var chipsFrame: CellRect {
    CellRect(x: 0, y: 1, width: size.columns, height: min(1, max(0, size.rows - 1)))
  }

  /// Where the issue list is.
  package var listFrame: CellRect {
    CellRect(x: 0, y: 3, width: listWidth, height: max(0, size.rows - 4))
  }

  /// The list's width: all of it, or what the preview leaves when the screen is wide.
  package var listWidth: Int { hasPreviewPane ? size.columns * 3 / 5 : size.columns }

  /// Whether the preview shows beside the list.
  package var hasPreviewPane: Bool { size.columns >= 110 && size.rows >= 12 }

  /// Where the preview beside the list is, border included.
  package var previewArea: CellRect {
    CellRect(x: listWidth, y: 3, width: size.columns - listWidth, height: max(0, size.rows - 4))
  }

  /// The width the preview's text is wrapped to.
  package var previewTextWidth: Int { max(8, size.columns - listWidth - 3) }

  /// Where an issue read full screen is.
  package var readerArea: CellRect {
    CellRect(x: 0, y: 1, width: size.columns, height: max(0, size.rows - 2))
  }

  /// The width the reader's text is wrapped to: the screen's, up to a comfortable 100 columns.
  package var readerTextWidth: Int { max(8, min(100, size.columns - 4)) }

  /// Where the help overlay is: below the title, as tall as the screen allows for its lines.
  package func helpArea(lineCount: Int) -> CellRect {
    let height = max(0, min(lineCount + 4, size.rows - 2))
    return CellRect(x: 1, y: 1, width: max(0, size.columns - 2), height: height)
  }

  /// Where the label picker's list is (inside its border) for that many options.
  ///
  /// The picker and its border stay inside the screen, down to nothing on a tiny one: its list
  /// never draws where its border is.
  package func labelPickerFrame(options: Int) -> CellRect {
    let width = min(48, max(0, size.columns - 4))
    let height = min(max(0, size.rows - 6), max(1, options))
    return CellRect(x: (size.columns - width) / 2, y: 4, width: width, height: height)
  }

  /// The row of the status line.
  package var statusRow: Int { size.rows - 1 }
}
