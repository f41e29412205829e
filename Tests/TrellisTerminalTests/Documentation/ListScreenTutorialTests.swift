import Foundation
import TerminalTestSupport
import Testing
import Trellis
import TrellisTerminal

// The code of the tutorial "Building a list screen" (TrellisTerminal.docc), compiled and run
// here. Each region between `// tutorial:` markers is one of the article's code blocks, in
// order; `theArticleShowsThisCode` fails when the two differ.

// tutorial: models
/// The shelves a book can be on: the sections of the list.
enum Shelf: Hashable, CaseIterable {
  case reading, finished
}

/// A book: its content lives here, not in the snapshot.
struct Book: Identifiable {
  let id: Int
  var title: String
  var isFinished: Bool
}
// tutorial: end

// tutorial: snapshot
/// The books as a snapshot: each identifier named with its section.
func snapshot(of books: [Book]) -> Snapshot<Shelf, Book.ID> {
  Snapshot(sections: [
    (.reading, books.filter { !$0.isFinished }.map(\.id)),
    (.finished, books.filter(\.isFinished).map(\.id)),
  ])
}
// tutorial: end

// tutorial: cells
/// A row: the book's title, reversed when the focus is on it.
struct BookCell: CollectionCell {
  var title: String

  func draw(in canvas: inout Canvas, state: CellState) {
    let style = state.contains(.focused) ? Style(attributes: .reverse) : .plain
    canvas.fill(style: style)
    canvas.text(title, x: 2, y: 0, style: style)
  }
}

/// A shelf's header, which stays on top while its books scroll under it.
struct ShelfHeader: CollectionCell {
  var shelf: Shelf

  func draw(in canvas: inout Canvas, state: CellState) {
    canvas.text(
      shelf == .reading ? "Reading" : "Finished", x: 0, y: 0, style: Style(attributes: .bold))
  }
}
// tutorial: end

// tutorial: layout
/// One-line rows under a one-line header pinned to the top.
func shelfLayout() -> CompositionalLayout {
  var section = LayoutSection.rows(height: 1)
  section.boundarySupplementaryItems = [.header(height: 1, pinned: true)]
  return CompositionalLayout(section: section)
}
// tutorial: end

// tutorial: view
/// The list: the layout, a cell per book, a header per shelf.
@MainActor
func shelfView(books: [Book.ID: Book], frame: CellRect) -> CollectionView<Shelf, Book.ID> {
  let view = CollectionView<Shelf, Book.ID>(layout: shelfLayout(), frame: frame) { _, id in
    BookCell(title: books[id]?.title ?? "")
  }
  view.dataSource.supplementaryProvider = { _, _, shelf in ShelfHeader(shelf: shelf) }
  return view
}
// tutorial: end

@MainActor
@Suite struct ListScreenTutorialTests {
  static let article = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Sources/TrellisTerminal/TrellisTerminal.docc/BuildingAListScreen.md")

  /// The regions of this file between `// tutorial:` markers, each without its indentation.
  static func regions() throws -> [String] {
    let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
    var regions: [[Substring]] = []
    var current: [Substring]?
    for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
      let trimmed = line.drop { $0 == " " }
      if trimmed == "// tutorial: end" {
        if let region = current { regions.append(region) }
        current = nil
      } else if trimmed.hasPrefix("// tutorial: ") {
        current = []
      } else {
        current?.append(line)
      }
    }
    return regions.map { lines in
      let indent = lines.filter { !$0.isEmpty }.map { $0.prefix { $0 == " " }.count }.min() ?? 0
      return lines.map { $0.dropFirst(min(indent, $0.count)) }.joined(separator: "\n")
    }
  }

  /// The article's Swift code blocks.
  static func articleBlocks() throws -> [String] {
    let text = try String(contentsOf: article, encoding: .utf8)
    var blocks: [String] = []
    var current: [Substring]?
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if current == nil, line == "```swift" {
        current = []
      } else if let block = current, line == "```" {
        blocks.append(block.joined(separator: "\n"))
        current = nil
      } else {
        current?.append(line)
      }
    }
    return blocks
  }

  @Test func theArticleShowsThisCode() throws {
    let regions = try Self.regions()
    let blocks = try Self.articleBlocks()
    #expect(regions.count == 6, "a region per step")
    #expect(blocks.count == regions.count, "the article has \(blocks.count) Swift blocks")
    for (index, (block, region)) in zip(blocks, regions).enumerated() {
      #expect(
        block == region,
        "block \(index + 1) of the article differs from the tested code:\n\(region)")
    }
  }

  @Test func theScreenShowsTheShelvesAndMovesOneBook() throws {
    // tutorial: frame
    let books = [
      Book(id: 1, title: "Dune", isFinished: false),
      Book(id: 2, title: "Emma", isFinished: true),
      Book(id: 3, title: "Ulysses", isFinished: false),
    ]
    let byID = Dictionary(uniqueKeysWithValues: books.map { ($0.id, $0) })
    let view = shelfView(books: byID, frame: CellRect(x: 0, y: 0, width: 20, height: 6))
    view.dataSource.apply(snapshot(of: books))

    var screen = CellBuffer(width: 20, height: 6)
    var renderer = FrameRenderer()
    view.render(into: &screen)
    let bytes = renderer.render(screen)  // what to write to the terminal

    // Finishing a book is one move, from one shelf to the other; only what changed is drawn.
    var finished = books
    finished[0].isFinished = true
    view.dataSource.apply(snapshot(of: finished))
    view.render(into: &screen)
    let update = renderer.render(screen)
    // tutorial: end

    var terminal = VirtualTerminal(width: 20, height: 6)
    terminal.write(bytes)
    #expect(
      terminal.lines.map { String($0.reversed().drop { $0 == " " }.reversed()) } == [
        "Reading", "  Dune", "  Ulysses", "Finished", "  Emma", "",
      ])
    terminal.write(update)
    #expect(
      terminal.lines.map { String($0.reversed().drop { $0 == " " }.reversed()) } == [
        "Reading", "  Ulysses", "Finished", "  Dune", "  Emma", "",
      ])
    #expect(update.count < bytes.count, "the update rewrites less than the first frame")
  }
}
