import Yams

/// The rules every YAML file the app reads is read by — the configuration file, a repository's
/// issue forms and templates: mappings take only the keys they know (a near miss is suggested),
/// a key is given once, and every mistake is a ``ConfigFileError`` at its line and column.
public protocol YAMLReading {
  /// The file's path, as errors name it.
  var path: String { get }
}

extension YAMLReading {
  /// A mistake at a node (the file's start without one).
  public func error(at node: ConfigNode?, _ message: String) -> ConfigFileError {
    ConfigFileError(
      file: path, line: node?.line ?? 1, column: node?.column ?? 1, message: message)
  }

  /// The pairs of a mapping, checking that every key is one of `allowed` (any key, when
  /// `allowed` is `nil`) and none is given twice.
  package func mapping(_ node: ConfigNode, what: String, allowed: [String]?) throws(ConfigFileError)
    -> [ConfigPair]
  {
    guard case .mapping(let pairs) = node.value else {
      throw error(
        at: node,
        "\(what) should be a mapping" + (allowed.map { " of \(Self.list($0))" } ?? "") + ".")
    }
    var seen: Set<String> = []
    for pair in pairs {
      guard pair.keyNode.scalar != nil else {
        throw error(at: pair.keyNode, "a key of \(what) should be a name.")
      }
      if let allowed, !allowed.contains(pair.key) {
        var message = "\(what) has no “\(pair.key)”: it takes \(Self.list(allowed))."
        if let close = Self.nearest(pair.key, in: allowed) {
          message = "\(what) has no “\(pair.key)”: did you mean “\(close)”?"
        }
        throw error(at: pair.keyNode, message)
      }
      guard seen.insert(pair.key).inserted else {
        throw error(at: pair.keyNode, "“\(pair.key)” is given twice in \(what).")
      }
    }
    return pairs
  }

  /// The closest of `names` to `word`, when it is a near miss (two edits at most).
  package static func nearest(_ word: String, in names: [String]) -> String? {
    guard
      let close = names.min(by: {
        QuerySyntax.editDistance(word, $0) < QuerySyntax.editDistance(word, $1)
      }), QuerySyntax.editDistance(word, close) <= 2
    else { return nil }
    return close
  }

  /// A scalar's text.
  package func string(_ node: ConfigNode, what: String) throws(ConfigFileError) -> String {
    guard let text = node.scalar else { throw error(at: node, "\(what) should be text.") }
    return text
  }

  /// A yes-or-no value (`true`, `false`, `yes`, `no`, `on`, `off`).
  package func bool(_ node: ConfigNode, what: String) throws(ConfigFileError) -> Bool {
    switch try string(node, what: what).lowercased() {
    case "true", "yes", "on": return true
    case "false", "no", "off": return false
    case let other: throw error(at: node, "\(what) takes true or false, not “\(other)”.")
    }
  }

  /// A list's items.
  package func sequence(_ node: ConfigNode, what: String) throws(ConfigFileError) -> [ConfigNode] {
    guard case .sequence(let items) = node.value else {
      throw error(at: node, "\(what) should be a list (lines starting with “- ”).")
    }
    return items
  }

  package static func list(_ names: [String]) -> String {
    names.map { "\($0):" }.joined(separator: ", ")
  }

  /// The document a YAML text holds (`nil` when it holds none), its nodes placed at their line
  /// and column; `file` names it in errors.
  package static func compose(yaml: String, file: String) throws(ConfigFileError) -> ConfigNode? {
    let node: Node?
    do {
      node = try Yams.compose(yaml: yaml)
    } catch let error as YamlError {
      throw Self.error(error, file: file)
    } catch {
      throw ConfigFileError(file: file, line: 1, column: 1, message: "\(error)")
    }
    return node.map(Self.convert)
  }

  private static func convert(_ node: Node) -> ConfigNode {
    let line = node.mark?.line ?? 1
    let column = node.mark?.column ?? 1
    switch node {
    case .scalar(let scalar):
      let style: ConfigNode.ScalarStyle =
        switch scalar.style {
        case .singleQuoted, .doubleQuoted: .quoted
        case .literal, .folded: .block
        default: .plain
        }
      return ConfigNode(.scalar(scalar.string, style), line: line, column: column)
    case .sequence(let sequence):
      return ConfigNode(.sequence(sequence.map(convert)), line: line, column: column)
    case .mapping(let mapping):
      let pairs = mapping.map { key, value in
        ConfigPair(key: key.scalar?.string ?? "", keyNode: convert(key), value: convert(value))
      }
      return ConfigNode(.mapping(pairs), line: line, column: column)
    case .alias:
      return ConfigNode(.scalar("", .plain), line: line, column: column)
    }
  }

  private static func error(_ yaml: YamlError, file: String) -> ConfigFileError {
    switch yaml {
    case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _),
      .composer(_, let problem, let mark, _):
      return ConfigFileError(
        file: file, line: mark.line, column: mark.column, message: "not valid YAML: \(problem).")
    case .duplicatedKeysInMapping(let duplicates, let context):
      return ConfigFileError(
        file: file, line: context.mark.line, column: context.mark.column,
        message: "\(duplicates.joined(separator: ", ")) is given twice.")
    default:
      return ConfigFileError(file: file, line: 1, column: 1, message: "not valid YAML: \(yaml).")
    }
  }
}
