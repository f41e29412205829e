/// `OWNER/REPO`, checked: both parts non-empty, only the characters GitHub allows.
public struct RepositoryName: Hashable, Sendable, CustomStringConvertible {
  /// The account or organization.
  public var owner: String
  /// The repository.
  public var name: String

  /// Creates a name from its parts.
  public init(owner: String, name: String) {
    self.owner = owner
    self.name = name
  }

  /// Parses `OWNER/REPO`, or returns `nil` when the text is not of that form.
  public init?(_ text: String) {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, let owner = parts.first, let name = parts.last else { return nil }
    let allowed = { (character: Character) in
      character.isASCII && (character.isLetter || character.isNumber || "-_.".contains(character))
    }
    guard !owner.isEmpty, !name.isEmpty, owner.allSatisfy(allowed), name.allSatisfy(allowed),
      name != ".", name != ".."
    else { return nil }
    self.init(owner: String(owner), name: String(name))
  }

  public var description: String { "\(owner)/\(name)" }
}
