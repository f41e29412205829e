import Foundation
import GitHubIssues
import TrellisTerminal

/// `list --json FIELDS`: the fields gh prints, with gh's names and shapes, so that a script
/// written for `gh issue list --json` reads ours unchanged.
enum IssueJSON {
  /// A field gh's `--json` knows, and that the cache can fill truthfully.
  enum Field: String, CaseIterable, Sendable {
    case assignees, author, body, closed, closedAt, createdAt, id, labels, milestone, number
    case state, title, updatedAt, url
    /// The conversation: `issues view` only (a list would fetch every issue's comments).
    case comments

    /// The fields `list` prints.
    static let listed = allCases.filter { $0 != .comments }

    /// The gh fields the cache cannot fill yet, and why: asked for, they are an error rather
    /// than a made-up value.
    static let unavailable: [String: String] = [
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

  /// What gh's fields say about an issue: the metadata the cache holds besides the issue.
  struct Context {
    var milestones: [Int: GitHubMilestone]
    var labels: [String: GitHubLabel]
  }

  /// An issue as gh's `--json` shapes it, with only `fields`, in the order of their names (gh
  /// writes a map).
  static func object(_ issue: CachedIssue, fields: [Field], context: Context) -> Value {
    .object(
      Object(
        fields.sorted { $0.rawValue < $1.rawValue }.map {
          (key: $0.rawValue, value: value(of: $0, issue, context: context))
        }))
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
    case .id: return .string(issue.nodeID ?? "")
    case .updatedAt: return .string(timestamp(issue.updatedAt))
    case .labels:
      return .array(
        issue.labels.map { name in
          let label = context.labels[name]
          return .object([
            "id": .string(label?.nodeID ?? ""), "name": .string(name),
            "description": .string(label?.description ?? ""), "color": .string(label?.color ?? ""),
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
    // An issue not filed yet has no number.
    case .number: return issue.isProvisional ? .null : .int(issue.number)
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

  /// A comment as gh's `--json comments` shapes it, its keys in gh's order.
  ///
  /// REST says nothing of minimized comments: `isMinimized` is `false` and `minimizedReason`
  /// empty.
  static func comment(_ comment: CachedComment, viewer: String?) -> Value {
    var object: Object = [
      "id": .string(comment.nodeID ?? ""),
      "author": .object(["login": .string(comment.author)]),
      "authorAssociation": .string(comment.authorAssociation ?? "NONE"),
      "body": .string(comment.body),
      "createdAt": .string(timestamp(comment.createdAt)),
      "includesCreatedEdit": .bool(comment.isEdited),
      "isMinimized": .bool(false), "minimizedReason": .string(""),
      "reactionGroups": .array(
        comment.reactions.map { reaction in
          .object([
            "content": .string(reactionNames[reaction.content] ?? reaction.content.uppercased()),
            "users": .object(["totalCount": .int(reaction.count)]),
          ])
        }),
    ]
    // gh leaves out an empty URL.
    if let url = comment.htmlURL, !url.isEmpty { object["url"] = .string(url) }
    object["viewerDidAuthor"] = .bool(
      viewer.map { $0.caseInsensitiveCompare(comment.author) == .orderedSame } ?? false)
    return .object(object)
  }

  /// One JSON value with its line feed: indented for a terminal, one line for a pipe.
  static func single(_ value: Value, pretty: Bool) -> String { value.text(pretty: pretty) + "\n" }

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

    init(pretty: Bool) { self.pretty = pretty }

    /// The text of one more element, with what separates it from the previous one.
    mutating func element(_ value: Value) -> String {
      var body = value.text(pretty: pretty)
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
  }
}
