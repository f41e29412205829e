/// What changed between two elements of an observed list query.
public enum IssueListChange: Hashable, Sendable {
  /// The first element, or too much changed to say: read everything again.
  case everything
  /// These items (by their rows' keys) were added, removed, moved or edited, so their rows must
  /// be drawn again; `metadata` says whether milestones or labels were written too.
  case items(Set<IssueKey>, metadata: MetadataChange)
}

/// Whether the milestones or labels changed in a transaction.
public enum MetadataChange: Hashable, Sendable {
  /// They did not.
  case unchanged
  /// Milestones or labels were written: titles, order or colours may differ.
  case changed
}
