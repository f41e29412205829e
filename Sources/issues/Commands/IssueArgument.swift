import ArgumentParser
import Foundation

/// The issue a command acts on, as gh takes it: a number (`12` or `#12`), or its URL on GitHub
/// (`https://HOST/OWNER/REPO/issues/12`, or `/pull/12`), which also names the repository.
struct IssueArgument: Hashable, ExpressibleByArgument {
  /// The issue's number.
  var number: Int
  /// `HOST/OWNER/REPO` when the argument was a URL; the command's repository otherwise.
  var repositoryInURL: String?

  /// The help every command gives for its issue argument.
  static let help = ArgumentHelp("The issue: its number, or its URL on GitHub.")

  init(number: Int, repositoryInURL: String? = nil) {
    self.number = number
    self.repositoryInURL = repositoryInURL
  }

  init?(argument: String) {
    guard let parsed = try? Self(parsing: argument) else { return nil }
    self = parsed
  }

  /// Parses the argument, or says why it is not an issue.
  init(parsing text: String) throws {
    if let number = Int(text.hasPrefix("#") ? String(text.dropFirst()) : text), number > 0 {
      self.init(number: number)
      return
    }
    guard let url = URL(string: text), url.scheme == "https" || url.scheme == "http",
      let host = url.host
    else { throw Self.notAnIssue }
    let parts = url.path.split(separator: "/")
    guard parts.count == 4, parts[2] == "issues" || parts[2] == "pull",
      let number = Int(parts[3]), number > 0
    else { throw Self.notAnIssue }
    let port = url.port.map { ":\($0)" } ?? ""
    self.init(number: number, repositoryInURL: "\(host)\(port)/\(parts[0])/\(parts[1])")
  }

  /// Argument parser says which value was refused; this says what would be taken.
  private static var notAnIssue: ValidationError {
    ValidationError("not an issue: give its number (12 or #12), or its URL on GitHub.")
  }

  /// The repository options, with the URL's repository when the argument named one and the
  /// options did not.
  func applied(to options: RepositoryOptions) -> RepositoryOptions {
    var options = options
    if let repositoryInURL, options.repository == nil, options.repo == nil {
      options.repo = repositoryInURL
    }
    return options
  }
}
