// Internal consistency checks of a prepared layout, compiled only with -DTRELLIS_INTERNAL_CHECKS.

extension LayoutStore {
  /// Checks that the indexes agree with the frames they index: sections in order, every item
  /// summarized in the block that holds it (or in its orthogonal run), every supplementary
  /// findable by kind and index path.
  ///
  /// With `TRELLIS_INTERNAL_CHECKS` defined this is O(*n*) and runs after every layout pass, so
  /// the documented complexities do not hold; otherwise it compiles to nothing.
  @inline(__always)
  func checkInvariants() {
    #if TRELLIS_INTERNAL_CHECKS
    if let problem = invariantViolation() {
      preconditionFailure("Layout store invariant broken: \(problem)")
    }
    #endif
  }
}
