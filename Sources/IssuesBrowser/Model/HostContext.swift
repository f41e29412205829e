/// What the host told the browser about itself: whether it can change issues, which comment
/// drafts it holds, and who `@me` is.
struct HostContext: Hashable {
  var writeAccess = WriteAccess.allowed
  var savedDrafts: Set<Int> = []
  var viewer = ViewerLogin.unknown
}

/// Who `@me` is, as far as the browser knows.
enum ViewerLogin: Hashable {
  case unknown
  case lookingUp
  case known(String)
  case failed(String)

  var login: String? {
    if case .known(let login) = self { return login }
    return nil
  }
}

/// Why the host could not do what the browser asked (tell who `@me` is, fetch a conversation),
/// said to the person.
public struct HostFailure: Error, Hashable, Sendable, CustomStringConvertible {
  /// The reason, as the status line shows it.
  public var message: String

  /// A failure with its reason.
  public init(_ message: String) { self.message = message }

  /// The reason, as printed when a command fails with it.
  public var description: String { message }
}
