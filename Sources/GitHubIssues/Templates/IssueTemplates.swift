/// A repository's issue templates and forms, read from the files of its
/// `.github/ISSUE_TEMPLATE/` folder: what the chooser offers, in GitHub's order (by file name),
/// with each file GitHub would refuse reported at its line and left out, never fatal.
public struct IssueTemplates: Hashable, Sendable {
  /// The folder the files are read from, as errors name it.
  public static let folder = ".github/ISSUE_TEMPLATE"

  /// The templates and forms, by file name.
  public var templates: [IssueTemplate]
  /// The chooser's configuration (`config.yml`); GitHub's defaults when there is none, or when
  /// it is malformed (reported in ``problems``).
  public var config: IssueTemplateConfig
  /// The files left out, each with where and why.
  public var problems: [ConfigFileError]

  /// No templates: a repository without the folder.
  public init() {
    templates = []
    config = IssueTemplateConfig()
    problems = []
  }

  /// Reads the folder's files, given by name with their text.
  ///
  /// Files in subfolders, and files that are neither Markdown nor YAML, are not templates
  /// (GitHub ignores them too).
  public init(files: [(name: String, text: String)]) {
    self.init()
    for (name, text) in files.sorted(by: { $0.name < $1.name }) {
      guard !name.contains("/"), let kind = IssueTemplateFile.kind(of: name) else { continue }
      let file = IssueTemplateFile(folder: Self.folder, name: name)
      do throws(ConfigFileError) {
        switch kind {
        case .config: config = try file.config(text)
        case .form: templates.append(try file.form(text))
        case .markdown: templates.append(try file.markdown(text))
        }
      } catch {
        problems.append(error)
      }
    }
  }

  /// The template `--template` names: by its name or its file name (with or without its
  /// extension), ignoring case and the emoji or punctuation around a name (`Feature Request`
  /// finds `💡 Feature Request`).
  public func template(named wanted: String) -> IssueTemplate? {
    let exact = wanted.lowercased()
    let bare = Self.bare(wanted)
    return templates.first { $0.name.lowercased() == exact }
      ?? templates.first { $0.file.lowercased() == exact }
      ?? templates.first { Self.bare($0.name) == bare }
      ?? templates.first { Self.bare(String($0.file.prefix { $0 != "." })) == bare }
  }

  /// A name without case and without what is not a letter or a digit at its ends.
  private static func bare(_ name: String) -> String {
    let isWord = { (c: Character) in c.isLetter || c.isNumber }
    return String(name.drop { !isWord($0) }.reversed().drop { !isWord($0) }.reversed())
      .lowercased()
  }
}
