import Trellis
import TrellisTerminal

/// A cell provider that can be replaced after the view that calls it was made.
@MainActor
final class CellSource<ID> {
  var make: (Trellis.IndexPath, ID) -> any CollectionCell = { _, _ in TextCell("") }
}
