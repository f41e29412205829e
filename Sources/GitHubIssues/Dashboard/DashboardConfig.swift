import Foundation
import Yams

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

  /// Where the configuration is read from: `$XDG_CONFIG_HOME/trellis-issues/dashboard.yml`,
  /// with `~/.config` when `XDG_CONFIG_HOME` is unset.
  public static func defaultURL(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> URL {
    let base: URL
    if let xdg = environment["XDG_CONFIG_HOME"], !xdg.isEmpty, xdg.hasPrefix("/") {
      base = URL(fileURLWithPath: xdg)
    } else {
      let home = environment["HOME"] ?? FileManager.default.homeDirectoryForCurrentUser.path
      base = URL(fileURLWithPath: home).appendingPathComponent(".config")
    }
    return base.appendingPathComponent("trellis-issues").appendingPathComponent("dashboard.yml")
  }

  /// Reads a configuration file.
  ///
  /// - Throws: ``DashboardConfigError`` for a file that cannot be read, is not YAML, or says
  ///   something this version does not take, with where.
  public init(contentsOf url: URL) throws(DashboardConfigError) {
    let text: String
    do {
      text = try String(contentsOf: url, encoding: .utf8)
    } catch {
      throw DashboardConfigError(
        file: url.path, line: 1, column: 1,
        message: "cannot read the file (\((error as NSError).localizedDescription)).")
    }
    try self.init(yaml: text, file: url.path)
  }

  /// Reads a configuration from its text; `file` names it in errors.
  public init(yaml: String, file: String) throws(DashboardConfigError) {
    let reader = Reader(file: file)
    let root: Node?
    do {
      root = try Yams.compose(yaml: yaml)
    } catch let error as YamlError {
      throw reader.error(error)
    } catch {
      throw DashboardConfigError(file: file, line: 1, column: 1, message: "\(error)")
    }
    guard let root else {
      throw DashboardConfigError(
        file: file, line: 1, column: 1,
        message: "the file is empty: it needs sections:, each with a title: and a query:.")
    }
    self = try reader.config(root)
  }

  /// The dashboard when there is no configuration file: the current repository's open issues
  /// (when there is one), then your pull requests, the pull requests asking for your review
  /// and what is assigned to you, across the current repository and every one already cached.
  public static func standard(current: DashboardSource?, cached: [DashboardSource])
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
  /// Turns YAML nodes into a configuration, or into an error at a node.
  private struct Reader {
    let file: String

    func error(at node: Node?, _ message: String) -> DashboardConfigError {
      DashboardConfigError(
        file: file, line: node?.mark?.line ?? 1, column: node?.mark?.column ?? 1, message: message)
    }

    func error(_ yaml: YamlError) -> DashboardConfigError {
      switch yaml {
      case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _),
        .composer(_, let problem, let mark, _):
        return DashboardConfigError(
          file: file, line: mark.line, column: mark.column, message: "not valid YAML: \(problem).")
      case .duplicatedKeysInMapping(let duplicates, let context):
        return DashboardConfigError(
          file: file, line: context.mark.line, column: context.mark.column,
          message: "\(duplicates.joined(separator: ", ")) is given twice.")
      default:
        return DashboardConfigError(
          file: file, line: 1, column: 1, message: "not valid YAML: \(yaml).")
      }
    }

    /// The pairs of a mapping, checking that every key is one of `allowed`.
    func mapping(_ node: Node, what: String, allowed: [String]) throws(DashboardConfigError)
      -> [(key: String, keyNode: Node, value: Node)]
    {
      guard let mapping = node.mapping else {
        throw error(at: node, "\(what) should be a mapping of \(list(allowed)).")
      }
      var pairs: [(key: String, keyNode: Node, value: Node)] = []
      for (keyNode, value) in mapping {
        guard let key = keyNode.scalar?.string else {
          throw error(at: keyNode, "a key of \(what) should be a name.")
        }
        guard allowed.contains(key) else {
          var message = "\(what) has no “\(key)”: it takes \(list(allowed))."
          if let close = allowed.min(by: {
            QuerySyntax.editDistance(key, $0) < QuerySyntax.editDistance(key, $1)
          }), QuerySyntax.editDistance(key, close) <= 2 {
            message = "\(what) has no “\(key)”: did you mean “\(close)”?"
          }
          throw error(at: keyNode, message)
        }
        if pairs.contains(where: { $0.key == key }) {
          throw error(at: keyNode, "“\(key)” is given twice in \(what).")
        }
        pairs.append((key, keyNode, value))
      }
      return pairs
    }

    func list(_ names: [String]) -> String {
      names.map { "\($0):" }.joined(separator: ", ")
    }

    func string(_ node: Node, what: String) throws(DashboardConfigError) -> String {
      guard let scalar = node.scalar else {
        throw error(at: node, "\(what) should be text.")
      }
      return scalar.string
    }

    func sequence(_ node: Node, what: String) throws(DashboardConfigError) -> [Node] {
      guard let sequence = node.sequence else {
        throw error(at: node, "\(what) should be a list (lines starting with “- ”).")
      }
      return Array(sequence)
    }

    func config(_ root: Node) throws(DashboardConfigError) -> DashboardConfig {
      let top = try mapping(root, what: "the file", allowed: ["repositories", "hosts", "sections"])
      var hosts: [String: GitHubHost] = [:]
      if let node = top.first(where: { $0.key == "hosts" })?.value {
        for (name, nameNode, value) in try mapping(
          node, what: "hosts:", allowed: mappingKeys(node))
        {
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
      var repositoryNodes: [Node] = []
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
      var queryNodes: [Node] = []
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

    /// The keys of a mapping node as they are (any host name may be a key of `hosts:`).
    func mappingKeys(_ node: Node) -> [String] {
      node.mapping.map { $0.keys.compactMap { $0.scalar?.string } } ?? []
    }

    /// A section's query, with a syntax error placed in the file.
    func query(_ node: Node) throws(DashboardConfigError) -> SearchQuery {
      guard let scalar = node.scalar else {
        throw error(at: node, "query: should be text, such as is:open is:pr author:@me.")
      }
      do {
        return try SearchQuery(parsing: scalar.string)
      } catch {
        // On one line the query's characters sit after the scalar's start (and its quote);
        // a folded or block scalar is reported at its start, with the column within the query.
        let line = node.mark?.line ?? 1
        let column = node.mark?.column ?? 1
        switch scalar.style {
        case .plain where !scalar.string.contains("\n"):
          throw DashboardConfigError(
            file: file, line: line, column: column + error.offset, message: error.message)
        case .singleQuoted where !scalar.string.contains("\n"),
          .doubleQuoted where !scalar.string.contains("\n"):
          throw DashboardConfigError(
            file: file, line: line, column: column + 1 + error.offset, message: error.message)
        default:
          throw DashboardConfigError(
            file: file, line: line, column: column,
            message: "in the query, at character \(error.offset + 1): \(error.message)")
        }
      }
    }
  }
}
