/// The supplementary kinds the built-in layouts use.
public enum SupplementaryKind {
  /// A section header.
  public static let header = "header"
  /// A section footer.
  public static let footer = "footer"
}
