import ArgumentParser
import Foundation
import GitHubIssues
import TrellisTerminal

/// Small helpers for the command line: widths, standard error, errors people can act on.
enum Terminal {
  /// The width of the terminal on a descriptor, or `COLUMNS`, or 80.
  static func width(_ descriptor: Int32) -> Int {
    var size = winsize()
    if ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
    return ProcessInfo.processInfo.environment["COLUMNS"].flatMap(Int.init) ?? 80
  }

  /// Takes the terminal for a screen (the mouse on), or says why it cannot.
  static func takeSession() throws -> TerminalSession {
    do {
      return try TerminalSession(options: TerminalOptions(mouse: true))
    } catch {
      throw CommandFailure("Cannot use the terminal: \(error)")
    }
  }

  static func standardError(_ text: String) {
    FileHandle.standardError.write(Data(text.utf8))
  }

  /// Opens (creating) the cache file.
  ///
  /// A damaged one, or one from a newer version, is moved aside (kept) and a new one started, with
  /// a warning; a folder that cannot hold it is an error that says which path and why.
  static func openCache(at url: URL) throws -> IssueCache {
    do {
      let (cache, recovered) = try IssueCache.openRecovering(at: url)
      if let recovered {
        standardError(
          "warning: \(recovered.problem) It was moved to \(recovered.keptAt) and a new cache "
            + "started; it fills again with the next sync.\n")
      }
      return cache
    } catch {
      throw CommandFailure(error.description)
    }
  }

  /// The one sentence for a listing that could not prove it saw everything, whichever listing
  /// it was (issues, the repository's comments, an issue's comments).
  static func incompleteSentence(_ error: GitHubError, repository: RepositoryName) -> String {
    let what =
      error.url.hasPrefix("sync of")
      ? "The listing of \(repository)" : "The listing of the \(error.url)"
    return "\(what) was incomplete (\(error.detail ?? "no proof")): nothing was deleted, and "
      + "what was fetched was saved. Run it again to finish."
  }

  /// A sync failure, said so that the user knows what to do.
  static func failure(_ error: any Error, repository: RepositoryName) -> any Error {
    guard let error = error as? GitHubError else { return error }
    let advice: String =
      switch error.code {
      case .unauthorized where error.sentToken:
        "The token was refused; to use another, \(error.host.tokenAdvice)."
      case .unauthorized:
        "GitHub asks for a token: \(error.host.tokenAdvice)."
      case .notFound where error.sentToken:
        "\(repository) was not found, or the token cannot see it."
      case .notFound:
        "\(repository) was not found. If it is private, \(error.host.tokenAdvice)."
      case .rateLimited:
        error.rateLimitSentence(now: Date(), timeZone: .current) + "."
      case .offline:
        "GitHub could not be reached (\(error.detail ?? "no answer")): check the network."
      case .invalidToken: (error.detail ?? "The token cannot be sent.") + "."
      case .incompleteListing:
        Self.incompleteSentence(error, repository: repository)
      case .syncInProgress:
        "Another sync of \(repository) is running (\(error.detail ?? "")). Try again when it ends."
      default: error.description
      }
    return CommandFailure(ControlCharacters.visible(advice))
  }
}
