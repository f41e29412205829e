/// A shell command with placeholders for the focused item — `{repository}`, `{number}`,
/// `{url}`, `{branch}`, `{title}` — that are never pasted into the command's text.
///
/// Each placeholder becomes a reference to an environment variable the command is run with
/// (`{title}` → `TRELLIS_TITLE`), quoted for where it stands: bare, between double quotes or
/// between single quotes. The shell expands it as one word and never reads it as code, so a
/// title holding quotes, `$(…)`, backticks or newlines reaches the command as one argument.
public struct CommandTemplate: Hashable, Sendable {
  /// A value the focused item gives a command.
  public enum Placeholder: String, Hashable, Sendable, CaseIterable {
    /// The host: `github.com`.
    case host
    /// `owner/name`.
    case repository
    /// The owner.
    case owner
    /// The repository's name.
    case name
    /// The or pull request's number.
    case number
    /// Its web page.
    case url
    /// Its title.
    case title
    /// A pull request's head branch (empty for an issue, or when its details are not cached).
    case branch
    /// `issue` or `pull-request`.
    case kind

    /// The environment variable the command reads it from.
    package var variable: String { "TRELLIS_" + rawValue.uppercased() }
  }

  /// The command as written.
  public let text: String
  /// The shell script run: the text with each placeholder replaced by its quoted variable.
  package let script: String
  /// The placeholders it uses.
  package let placeholders: Set<Placeholder>

  /// Reads a command.
  ///
  /// - Throws: ``TemplateError`` for an unknown placeholder (`{numbr}`), with where it is.
  public init(_ text: String) throws(TemplateError) {
    self.text = text
    var script = ""
    var used: Set<Placeholder> = []
    enum Quoting { case none, single, double }
    var quoting = Quoting.none
    let characters = Array(text)
    var index = 0
    while index < characters.count {
      let character = characters[index]
      switch (quoting, character) {
      case (.none, "\\"), (.double, "\\"):
        script.append(character)
        if index + 1 < characters.count { script.append(characters[index + 1]) }
        index += 2
        continue
      case (.none, "'"): quoting = .single
      case (.single, "'"): quoting = .none
      case (.none, "\""): quoting = .double
      case (.double, "\""): quoting = .none
      case (_, "{") where index == 0 || characters[index - 1] != "$":
        if let close = characters[index...].firstIndex(of: "}") {
          let word = String(characters[(index + 1)..<close])
          if let placeholder = Placeholder(rawValue: word) {
            used.insert(placeholder)
            let reference = "${\(placeholder.variable)}"
            switch quoting {
            case .none: script += "\"\(reference)\""
            case .double: script += reference
            case .single: script += "'\"\(reference)\"'"
            }
            index = close + 1
            continue
          }
          if !word.isEmpty, word.allSatisfy({ $0.isLetter || $0 == "-" || $0 == "_" }) {
            throw TemplateError(word: word, offset: index)
          }
        }
      default: break
      }
      script.append(character)
      index += 1
    }
    self.script = script
    placeholders = used
  }

  /// A placeholder the template does not know.
  public struct TemplateError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The word between the braces.
    public var word: String
    /// Where its `{` is, in characters from the start.
    public var offset: Int

    public var description: String {
      "{\(word)} is not a placeholder: they are "
        + Placeholder.allCases.map { "{\($0.rawValue)}" }.joined(separator: ", ") + "."
    }
  }
}
