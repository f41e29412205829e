import Foundation
import GitHubIssues
import TrellisTerminal

/// `list --json FIELDS`: the fields gh prints, with gh's names and shapes, so that a script
/// written for `gh issue list --json` reads ours unchanged.
enum IssueJSON {
  /// A field gh's `--json` knows, and that the cache can fill truthfully.
  enum Field: String, CaseIterable, Sendable {
    case assignees, author, body, closed, closedAt, createdAt, labels, milestone, number, state
    case title, updatedAt, url
    /// The conversation: `issues view` only (a list would fetch every issue's comments).
    case comments

    /// The fields `list` prints.
    static let listed = allCases.filter { $0 != .comments }

    /// The gh fields the cache cannot fill yet, and why: asked for, they are an error rather
    /// than a made-up value.
    static let unavailable: [String: String] = [
      "id": "the cache keeps REST ids, not gh's GraphQL node ids",
      "isPinned": "the REST API does not say",
      "projectCards": "projects are not cached",
      "projectItems": "projects are not cached",
      "reactionGroups": "reactions are not cached",
      "stateReason": "not read into list rows yet",
    ]
  }

  /// The fields of `--json a,b,c`, in the order given, each once; an unknown or unavailable one
  /// is an error that lists what is available, as gh does.
  static func fields(_ text: String, allowingComments: Bool = false) throws -> [Field] {
    let available = allowingComments ? Field.allCases : Field.listed
    let list = available.map(\.rawValue).joined(separator: "\n  ")
    var fields: [Field] = []
    for name in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) })
    where !name.isEmpty {
      guard let field = Field(rawValue: name), available.contains(field) else {
        let reason =
          name == Field.comments.rawValue
          ? " (`issues view N --json comments` prints an issue's conversation)"
          : Field.unavailable[name].map { " (\($0))" } ?? ""
        throw CommandFailure(
          "Unknown JSON field “\(ControlCharacters.visible(name))”\(reason). Available fields:\n  "
            + list)
      }
      if !fields.contains(field) { fields.append(field) }
    }
    guard !fields.isEmpty else {
      throw CommandFailure("Specify one or more comma-separated fields for --json:\n  " + list)
    }
    return fields
  }

  /// A JSON value, written with sorted keys as gh (Go's encoder) writes its objects.
  indirect enum Value: Encodable, Equatable {
    case null
    case bool(Bool)
    case int(Int)
    case string(String)
    case array([Value])
    case object([String: Value])

    func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      switch self {
      case .null: try container.encodeNil()
      case .bool(let value): try container.encode(value)
      case .int(let value): try container.encode(value)
      case .string(let value): try container.encode(value)
      case .array(let values): try container.encode(values)
      case .object(let members): try container.encode(members)
      }
    }
  }

  /// What gh's fields say about an issue: the metadata the cache holds besides the issue.
  struct Context {
    var milestones: [Int: GitHubMilestone]
    var labels: [String: GitHubLabel]
  }

  /// An issue as gh's `--json` shapes it, with only `fields`.
  static func object(_ issue: CachedIssue, fields: [Field], context: Context) -> Value {
    var members: [String: Value] = [:]
    for field in fields { members[field.rawValue] = value(of: field, issue, context: context) }
    return .object(members)
  }

  static func value(of field: Field, _ issue: CachedIssue, context: Context) -> Value {
    switch field {
    case .assignees:
      return .array(
        issue.assignees.map { login in
          .object([
            "id": .string(issue.assigneeNodeIDs[login] ?? ""), "login": .string(login),
            "name": .string(""),
          ])
        })
    case .author: return author(issue.author, nodeID: issue.authorNodeID, isBot: issue.authorIsBot)
    case .body: return .string(issue.body ?? "")
    case .closed: return .bool(issue.state == .closed)
    case .closedAt: return issue.closedAt.map { .string(timestamp($0)) } ?? .null
    case .createdAt: return .string(timestamp(issue.createdAt))
    case .updatedAt: return .string(timestamp(issue.updatedAt))
    case .labels:
      return .array(
        issue.labels.map { name in
          let label = context.labels[name]
          return .object([
            "id": .string(label?.nodeID ?? ""), "name": .string(name),
            "color": .string(label?.color ?? ""), "description": .string(label?.description ?? ""),
          ])
        })
    case .milestone:
      guard let number = issue.milestoneNumber else { return .null }
      let milestone = context.milestones[number]
      return .object([
        "number": .int(number), "title": .string(milestone?.title ?? ""),
        "description": .string(milestone?.description ?? ""),
        "dueOn": milestone?.dueOn.map { .string(timestamp($0)) } ?? .null,
      ])
    case .number: return .int(issue.number)
    case .state: return .string(issue.state == .open ? "OPEN" : "CLOSED")
    case .title: return .string(issue.title)
    case .url: return .string(issue.htmlURL ?? "")
    case .comments: return .array([])
    }
  }

  /// gh's names for reaction contents.
  static let reactionNames: [String: String] = [
    "+1": "THUMBS_UP", "-1": "THUMBS_DOWN", "laugh": "LAUGH", "hooray": "HOORAY",
    "confused": "CONFUSED", "heart": "HEART", "rocket": "ROCKET", "eyes": "EYES",
  ]

  /// An account as gh's `author` shapes it: `id` (the GraphQL node id), `is_bot`, `login` and
  /// `name` (which REST does not send: empty); a bot as `app/NAME`, as gh names apps.
  static func author(_ login: String, nodeID: String?, isBot: Bool) -> Value {
    guard !isBot else {
      let name = login.hasSuffix("[bot]") ? String(login.dropLast("[bot]".count)) : login
      return .object(["is_bot": .bool(true), "login": .string("app/" + name)])
    }
    return .object([
      "id": .string(nodeID ?? ""), "is_bot": .bool(false), "login": .string(login),
      "name": .string(""),
    ])
  }

  /// A comment as gh's `--json comments` shapes it.
  ///
  /// REST says nothing of minimized comments: `isMinimized` is `false` and `minimizedReason`
  /// empty.
  static func comment(_ comment: CachedComment, viewer: String?) -> Value {
    .object([
      "id": .string(comment.nodeID ?? ""),
      "author": .object(["login": .string(comment.author)]),
      "isMinimized": .bool(false), "minimizedReason": .string(""),
      "viewerDidAuthor": .bool(
        viewer.map { $0.caseInsensitiveCompare(comment.author) == .orderedSame } ?? false),
      "authorAssociation": .string(comment.authorAssociation ?? "NONE"),
      "body": .string(comment.body),
      "createdAt": .string(timestamp(comment.createdAt)),
      "includesCreatedEdit": .bool(comment.isEdited),
      "reactionGroups": .array(
        comment.reactions.map { reaction in
          .object([
            "content": .string(reactionNames[reaction.content] ?? reaction.content.uppercased()),
            "users": .object(["totalCount": .int(reaction.count)]),
          ])
        }),
      "url": .string(comment.htmlURL ?? ""),
    ])
  }

  /// One JSON value with its line feed: indented for a terminal, one line for a pipe.
  static func single(_ value: Value, pretty: Bool) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting =
      pretty
      ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
      : [.sortedKeys, .withoutEscapingSlashes]
    let text = String(decoding: try encoder.encode(value), as: UTF8.self)
    return ArrayWriter.escapingControls(text) + "\n"
  }

  /// A time as gh writes it: RFC 3339 in UTC, to the second.
  static func timestamp(_ date: Date) -> String {
    date.formatted(
      Date.ISO8601FormatStyle(timeZone: TimeZone(secondsFromGMT: 0) ?? .current))
  }

  /// Writes a JSON array one element at a time, so that a list of any length is printed in
  /// constant memory: indented for a terminal, one line for a pipe (as gh prints them).
  struct ArrayWriter {
    private var count = 0
    private let pretty: Bool
    private let encoder: JSONEncoder

    init(pretty: Bool) {
      self.pretty = pretty
      encoder = JSONEncoder()
      encoder.outputFormatting =
        pretty
        ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        : [.sortedKeys, .withoutEscapingSlashes]
    }

    /// The text of one more element, with what separates it from the previous one.
    mutating func element(_ value: Value) throws -> String {
      var body = Self.escapingControls(String(decoding: try encoder.encode(value), as: UTF8.self))
      if pretty {
        body = body.split(separator: "\n", omittingEmptySubsequences: false)
          .map { "  " + $0 }.joined(separator: "\n")
      }
      defer { count += 1 }
      if pretty { return (count == 0 ? "[\n" : ",\n") + body }
      return (count == 0 ? "[" : ",") + body
    }

    /// The text that closes the array.
    func end() -> String {
      if pretty { return count == 0 ? "[]\n" : "\n]\n" }
      return count == 0 ? "[]\n" : "]\n"
    }

    /// JSON with C1 controls and bidirectional overrides written as `\uXXXX` too (the encoder
    /// escapes only C0), so that no byte of it drives a terminal it is printed to.
    static func escapingControls(_ json: String) -> String {
      // The encoder already wrote C0 controls as escapes, and no line feed is inside a string.
      let unescaped = { (scalar: Unicode.Scalar) in
        scalar.value >= 0x20 && ControlCharacters.isInterpreted(scalar)
      }
      guard json.unicodeScalars.contains(where: unescaped) else { return json }
      var result = ""
      for scalar in json.unicodeScalars {
        if unescaped(scalar) {
          let hex = String(scalar.value, radix: 16)
          result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        } else {
          result.unicodeScalars.append(scalar)
        }
      }
      return result
    }
  }
}
