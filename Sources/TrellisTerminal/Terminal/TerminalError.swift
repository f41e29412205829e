/// Why a terminal session could not start or failed, with what to do about it.
public struct TerminalError: Error, CustomStringConvertible, Equatable {
  /// What went wrong, to match on.
  public enum Code: Equatable, Sendable {
    /// Standard input is not a terminal (it is a file or a pipe).
    case inputNotATerminal
    /// Standard output is not a terminal (it is a file or a pipe).
    case outputNotATerminal
    /// A terminal session is already active in this process.
    case sessionAlreadyActive
    /// A system call failed with an `errno`.
    case systemCall(String, errno: Int32)
  }

  /// What went wrong.
  public var code: Code

  /// Creates an error.
  public init(_ code: Code) { self.code = code }

  public var description: String {
    switch code {
    case .inputNotATerminal:
      "Standard input is not a terminal (it is redirected from a file or a pipe); "
        + "run this in a terminal, or use a non-interactive command."
    case .outputNotATerminal:
      "Standard output is not a terminal (it is redirected to a file or a pipe); "
        + "run this in a terminal, or use a non-interactive command."
    case .sessionAlreadyActive:
      "A terminal session is already active; end it before starting another."
    case .systemCall(let call, let errno):
      "\(call) failed with errno \(errno); the terminal was left as it was."
    }
  }
}
