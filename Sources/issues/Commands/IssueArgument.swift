import ArgumentParser
import Foundation
import TrellisTerminal

/// The issue a command acts on, as gh takes it: a number (`12` or `#12`), or its URL on GitHub
/// (`https://HOST/OWNER/REPO/issues/12`, or `/pull/12`), which also names the repository.
///
/// Every command takes it as `@OptionGroup var issue: IssueArgument`. It is checked in
/// ``validate()`` rather than by a transform, so that a refused value is quoted with its control
/// characters made visible (the parser's own message would echo them to the terminal raw).
struct IssueArgument: ParsableArguments {
  /// An issue as the argument names it.
  struct Reference: Hashable {
    /// The issue's number.
    var number: Int
    /// `HOST/OWNER/REPO` when the argument was a URL; the command's repository otherwise.
    var repositoryInURL: String?
  }

  @Argument(help: ArgumentHelp("The issue: its number, or its URL on GitHub.", valueName: "issue"))
  var text: String

  func validate() throws {
    guard Self.reference(text) != nil else {
      throw ValidationError(
        "“\(ControlCharacters.visible(text))” is not an issue: give its number (12 or #12), "
          + "or its URL on GitHub.")
    }
  }

  /// The issue named, once the argument was validated.
  var reference: Reference {
    guard let reference = Self.reference(text) else {
      preconditionFailure("IssueArgument read before validate() accepted it")
    }
    return reference
  }

  /// The issue's number.
  var number: Int { reference.number }

  /// The issue a text names, or `nil` when it names none.
  static func reference(_ text: String) -> Reference? {
    if let number = Int(text.hasPrefix("#") ? String(text.dropFirst()) : text), number > 0 {
      return Reference(number: number)
    }
    guard let url = URL(string: text), url.scheme == "https" || url.scheme == "http",
      let host = url.host
    else { return nil }
    let parts = url.path.split(separator: "/")
    guard parts.count == 4, parts[2] == "issues" || parts[2] == "pull",
      let number = Int(parts[3]), number > 0
    else { return nil }
    let port = url.port.map { ":\($0)" } ?? ""
    return Reference(number: number, repositoryInURL: "\(host)\(port)/\(parts[0])/\(parts[1])")
  }

  /// The repository options, with the URL's repository when the argument named one and the
  /// options did not.
  func applied(to options: RepositoryOptions) -> RepositoryOptions {
    var options = options
    if let url = reference.repositoryInURL, options.repository == nil, options.repo == nil {
      options.repo = url
    }
    return options
  }
}
