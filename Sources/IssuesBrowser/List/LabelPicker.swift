import Foundation
import Trellis
import TrellisTerminal

/// The label picker: "Any label", then the labels, narrowed by what is typed.
@MainActor
final class LabelPicker {
  let view: CollectionView<Int, String>
  private let cells = CellSource<String>()
  /// The labels it offers, and their colors by name.
  private var names: [String] = []

  init() {
    let cells = cells
    view = CollectionView(layout: IssueListPane.listLayout(headers: false), selection: .single()) {
      cells.make($0, $1)
    }
    // Letters narrow the labels, so only the standard keys move in the picker.
    view.navigationKeys = .standard
  }

  /// Offers every label, with the focus on the one selected ("" for any).
  func open(names: [String], colors: [String: Color], selected: String) {
    self.names = names
    cells.make = { _, name in
      OptionCell(text: name.isEmpty ? "Any label" : name, color: name.isEmpty ? nil : colors[name])
    }
    view.dataSource.applySnapshotUsingReloadData(Snapshot(sections: [(0, [""] + names)]))
    view.selection = .single(selected: selected)
    view.focus(selected)
  }

  /// Offers "Any label" and the labels containing `query`; the focus on the first match, or on
  /// the selected label when nothing is typed.
  func narrow(to query: String, selected: String) {
    let matches = names.filter {
      query.isEmpty || $0.range(of: query, options: .caseInsensitive) != nil
    }
    view.dataSource.apply(Snapshot(sections: [(0, [""] + matches)]))
    view.focus(query.isEmpty ? selected : (matches.first ?? ""))
  }
}
