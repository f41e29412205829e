import Foundation

/// What a dashboard shows: its sections and the repositories they read, from a YAML file in the
/// XDG config folder, as gh and gh-dash keep theirs.
///
/// ```yaml
/// repositories:             # what the sections read (default: those their queries name)
///   - acme/tracker
///   - ghe.example.com/platform/api
/// hosts:                    # optional: another API root for a host (a proxy, a test server)
///   ghe.example.com:
///     api-url: https://ghe.example.com/api/v3
/// sections:
///   - title: My pull requests
///     query: is:open is:pr author:@me
///   - title: Bugs
///     query: is:open is:issue label:bug sort:created-desc
///     group-by: repository
/// ```
///
/// Every mistake is reported with its file, line and column, and nothing of a file with a
/// mistake is used: a dashboard never starts half-configured.
public struct DashboardConfig: Hashable, Sendable {
  /// The repositories the sections read, in the order given.
  public var repositories: [DashboardSource]
  /// The sections, in order.
  public var sections: [DashboardSection]

  /// A configuration.
  public init(repositories: [DashboardSource], sections: [DashboardSection]) {
    self.repositories = repositories
    self.sections = sections
  }

  /// Where the configuration is read from: ``ConfigFile/defaultURL(environment:)``.
  public static func defaultURL(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> URL {
    ConfigFile.defaultURL(environment: environment)
  }

  /// Reads a configuration file.
  ///
  /// - Throws: ``ConfigFileError`` for a file that cannot be read, is not YAML, or says
  ///   something this version does not take, with where.
  public init(contentsOf url: URL) throws(ConfigFileError) {
    try self.init(file: ConfigFile(contentsOf: url))
  }

  /// Reads a configuration from its text; `file` names it in errors.
  public init(yaml: String, file: String) throws(ConfigFileError) {
    try self.init(file: ConfigFile(yaml: yaml, file: file))
  }

  /// Reads the dashboard of a configuration file; one without `sections:` is a mistake.
  public init(file: ConfigFile) throws(ConfigFileError) {
    guard let root = file.root else {
      throw ConfigFileError(
        file: file.path, line: 1, column: 1,
        message: "the file is empty: it needs sections:, each with a title: and a query:.")
    }
    self = try Reader(file: file).config(root)
  }

  /// The dashboard a configuration file sets up, or `nil` when it sets up none (it names
  /// neither `sections:` nor `repositories:`, only keys or a theme): the standard one is used.
  package static func configured(in file: ConfigFile) throws(ConfigFileError) -> DashboardConfig? {
    guard
      file.topLevel("sections") != nil || file.topLevel("repositories") != nil
        || file.topLevel("hosts") != nil
    else { return nil }
    return try DashboardConfig(file: file)
  }

  /// The dashboard when there is no configuration file: the current repository's open issues
  /// (when there is one), then your pull requests, the pull requests asking for your review
  /// and what is assigned to you, across the current repository and every one already cached.
  package static func standard(current: DashboardSource?, cached: [DashboardSource])
    -> DashboardConfig
  {
    var sections: [DashboardSection] = []
    if let current {
      sections.append(
        DashboardSection(
          title: "\(current.repository)",
          query: SearchQuery(terms: [
            QueryTerm(.repository(current.repository, host: current.host.name)),
            QueryTerm(.state(.open)), QueryTerm(.kind(.issue)),
          ])))
    }
    sections.append(
      DashboardSection(
        title: "My pull requests",
        query: SearchQuery(terms: [
          QueryTerm(.state(.open)), QueryTerm(.kind(.pullRequest)), QueryTerm(.author(.me)),
        ]), grouping: .repository))
    sections.append(
      DashboardSection(
        title: "Review requests",
        query: SearchQuery(terms: [
          QueryTerm(.state(.open)), QueryTerm(.kind(.pullRequest)),
          QueryTerm(.reviewRequested(SearchQuery.me)),
        ]), grouping: .repository))
    sections.append(
      DashboardSection(
        title: "Assigned to me",
        query: SearchQuery(terms: [QueryTerm(.state(.open)), QueryTerm(.assignee(.me))]),
        grouping: .repository))
    var repositories = current.map { [$0] } ?? []
    for source in cached where !repositories.contains(source) { repositories.append(source) }
    return DashboardConfig(repositories: repositories, sections: sections)
  }
}

// MARK: Reading the YAML

extension DashboardConfig {
  /// Turns the file's nodes into a configuration, or into an error at a node.
  private struct Reader {
    let file: ConfigFile

    func error(at node: ConfigNode?, _ message: String) -> ConfigFileError {
      file.error(at: node, message)
    }

    func mapping(_ node: ConfigNode, what: String, allowed: [String]?) throws(ConfigFileError)
      -> [(key: String, keyNode: ConfigNode, value: ConfigNode)]
    {
      try file.mapping(node, what: what, allowed: allowed).map { ($0.key, $0.keyNode, $0.value) }
    }

    func string(_ node: ConfigNode, what: String) throws(ConfigFileError) -> String {
      try file.string(node, what: what)
    }

    func sequence(_ node: ConfigNode, what: String) throws(ConfigFileError) -> [ConfigNode] {
      try file.sequence(node, what: what)
    }

    func config(_ root: ConfigNode) throws(ConfigFileError) -> DashboardConfig {
      let top = try mapping(root, what: "the file", allowed: ConfigFile.topLevelKeys)
      var hosts: [String: GitHubHost] = [:]
      if let node = top.first(where: { $0.key == "hosts" })?.value {
        for (name, nameNode, value) in try mapping(node, what: "hosts:", allowed: nil) {
          guard var host = GitHubHost.named(name) else {
            throw error(at: nameNode, "“\(name)” is not a host name.")
          }
          for (_, _, urlNode) in try mapping(value, what: "\(name):", allowed: ["api-url"]) {
            let text = try string(urlNode, what: "api-url:")
            guard let url = URL(string: text), url.scheme == "http" || url.scheme == "https",
              url.host != nil
            else {
              throw error(at: urlNode, "api-url: should be an http(s) URL, not “\(text)”.")
            }
            host = GitHubHost(name: host.name, apiBaseURL: url, isEnterprise: host.isEnterprise)
          }
          hosts[name.lowercased()] = host
        }
      }
      func host(_ name: String?) -> GitHubHost {
        let name = name ?? GitHubHost.github.name
        return hosts[name.lowercased()] ?? GitHubHost.named(name) ?? .github
      }

      var repositories: [DashboardSource] = []
      var repositoryNodes: [ConfigNode] = []
      if let node = top.first(where: { $0.key == "repositories" })?.value {
        for item in try sequence(node, what: "repositories:") {
          let text = try string(item, what: "a repository")
          let parts = text.split(separator: "/", omittingEmptySubsequences: false)
          let source: DashboardSource
          if parts.count == 3, GitHubHost.named(String(parts[0])) != nil,
            let name = RepositoryName(parts[1...].joined(separator: "/"))
          {
            source = DashboardSource(host: host(String(parts[0])), repository: name)
          } else if let name = RepositoryName(text) {
            source = DashboardSource(host: host(nil), repository: name)
          } else {
            throw error(
              at: item, "“\(text)” is not a repository: write OWNER/REPO or HOST/OWNER/REPO.")
          }
          if repositories.contains(source) {
            throw error(at: item, "\(source) is listed twice.")
          }
          repositories.append(source)
          repositoryNodes.append(item)
        }
      }

      guard let sectionsNode = top.first(where: { $0.key == "sections" })?.value else {
        throw error(
          at: root, "the file has no sections:: list them, each with a title: and a query:.")
      }
      let sectionNodes = try sequence(sectionsNode, what: "sections:")
      guard !sectionNodes.isEmpty else {
        throw error(at: sectionsNode, "sections: is empty: list at least one.")
      }
      var sections: [DashboardSection] = []
      var queryNodes: [ConfigNode] = []
      for node in sectionNodes {
        let pairs = try mapping(node, what: "a section", allowed: ["title", "query", "group-by"])
        guard let titleNode = pairs.first(where: { $0.key == "title" })?.value else {
          throw error(at: node, "this section has no title:.")
        }
        let title = try string(titleNode, what: "title:")
        guard !title.trimmingCharacters(in: .whitespaces).isEmpty else {
          throw error(at: titleNode, "title: is empty.")
        }
        if sections.contains(where: { $0.title == title }) {
          throw error(at: titleNode, "two sections are called “\(title)”.")
        }
        guard let queryNode = pairs.first(where: { $0.key == "query" })?.value else {
          throw error(at: node, "the section “\(title)” has no query:.")
        }
        let query = try self.query(queryNode)
        var grouping = DashboardSection.Grouping.none
        if let groupNode = pairs.first(where: { $0.key == "group-by" })?.value {
          let text = try string(groupNode, what: "group-by:")
          guard let chosen = DashboardSection.Grouping(rawValue: text) else {
            throw error(at: groupNode, "group-by: takes repository or none, not “\(text)”.")
          }
          grouping = chosen
        }
        sections.append(DashboardSection(title: title, query: query, grouping: grouping))
        queryNodes.append(queryNode)
      }

      // Without a list, the repositories are those the queries name.
      if repositoryNodes.isEmpty {
        for section in sections {
          for term in section.query.scopeTerms where term.polarity == .include {
            guard case .repository(let name, let hostName) = term.condition else { continue }
            let source = DashboardSource(host: host(hostName), repository: name)
            if !repositories.contains(source) { repositories.append(source) }
          }
        }
        guard !repositories.isEmpty else {
          throw error(
            at: root,
            "no repositories: list them under repositories:, or name them with repo: in a query.")
        }
      }
      // A scope that reaches nothing is a typo, not an empty section.
      for (section, queryNode) in zip(sections, queryNodes) {
        for term in section.query.scopeTerms where term.polarity == .include {
          let reaches = repositories.contains {
            SearchQuery.scope(term.condition, matches: $0.repository, host: $0.host.name)
          }
          if !reaches {
            throw error(
              at: queryNode,
              "\(term.text) in “\(section.title)” names none of the repositories: add it to "
                + "repositories:.")
          }
        }
      }
      return DashboardConfig(repositories: repositories, sections: sections)
    }

    /// A section's query, with a syntax error placed in the file.
    func query(_ node: ConfigNode) throws(ConfigFileError) -> SearchQuery {
      guard case .scalar(let text, let style) = node.value else {
        throw error(at: node, "query: should be text, such as is:open is:pr author:@me.")
      }
      do {
        return try SearchQuery(parsing: text)
      } catch {
        // On one line the query's characters sit after the scalar's start (and its quote);
        // a folded or block scalar is reported at its start, with the column within the query.
        let line = node.line
        let column = node.column
        switch style {
        case .plain where !text.contains("\n"):
          throw ConfigFileError(
            file: file.path, line: line, column: column + error.offset, message: error.message)
        case .quoted where !text.contains("\n"):
          throw ConfigFileError(
            file: file.path, line: line, column: column + 1 + error.offset, message: error.message)
        default:
          throw ConfigFileError(
            file: file.path, line: line, column: column,
            message: "in the query, at character \(error.offset + 1): \(error.message)")
        }
      }
    }
  }
}
