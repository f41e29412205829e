/// The person's answer to one field of an issue form.
public enum FormAnswer: Hashable, Sendable {
  /// What was typed in an `input` or a `textarea`.
  case text(String)
  /// The options chosen in a `dropdown`, or the boxes ticked in a `checkboxes`, by index.
  case chosen(Set<Int>)
}

/// Why a form cannot be submitted yet, as the web says it before anything is sent.
public struct FormProblem: Hashable, Sendable, CustomStringConvertible {
  /// Where the problem is.
  public enum Place: Hashable, Sendable {
    /// The title.
    case title
    /// The form's element at this index of its `body:`.
    case element(Int)
  }

  /// Where the problem is, so that a screen can move there.
  public var place: Place
  /// What is wrong, for the person.
  public var message: String

  /// A problem at a place.
  public init(_ place: Place, _ message: String) {
    self.place = place
    self.message = message
  }

  public var description: String { message }
}
