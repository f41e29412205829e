import Foundation

/// The GraphQL shapes the mirror reads, as GitHub sends them, and what they become in the
/// models the REST side uses: one cache, whichever path filled it.
enum MirrorNode {
  /// An account (`Actor`): a user, a bot, a deleted account (`null`).
  struct Account: Decodable, Sendable {
    var login: String
    var databaseId: Int64?
    var id: String?
    var __typename: String?

    var user: GitHubUser {
      GitHubUser(login: login, id: databaseId ?? 0, nodeID: id, type: __typename)
    }
  }

  struct Repository: Decodable, Sendable { var nameWithOwner: String }

  struct PageInfo: Decodable, Sendable {
    var hasNextPage: Bool
    var endCursor: String?
  }

  /// A connection's page: how many there are, this page's nodes, and where the next starts.
  struct Connection<Node: Decodable & Sendable>: Decodable, Sendable {
    var totalCount: Int
    var pageInfo: PageInfo?
    var nodes: [Lossy<Node>]
    /// Each node's cursor, where the query asked for them (`edges { cursor }`), in node order.
    var edges: [Edge?]?
  }

  /// Where a connection's node sits: a cursor to ask for what follows it.
  struct Edge: Decodable, Sendable {
    var cursor: String?
  }

  /// A node of a list: decoded, `null` (an error names it), or one that could not be read.
  enum Lossy<Node: Decodable & Sendable>: Decodable, Sendable {
    case decoded(Node)
    case null
    case failed(SkippedItem)

    private struct Identity: Decodable {
      var databaseId: Int64?
      var number: Int?
    }

    init(from decoder: any Decoder) throws {
      if (try? decoder.singleValueContainer().decodeNil()) == true {
        self = .null
        return
      }
      do {
        self = .decoded(try Node(from: decoder))
      } catch let error as DecodingError {
        let identity = try? Identity(from: decoder)
        self = .failed(
          SkippedItem(
            id: identity?.databaseId, number: identity?.number,
            reason: GitHubJSON.describe(error, relativeTo: decoder.codingPath.count)))
      }
    }

    var node: Node? { if case .decoded(let node) = self { node } else { nil } }
  }

  struct Label: Decodable, Sendable {
    var id: String?
    var name: String
    var color: String?
    var description: String?
  }

  struct Milestone: Decodable, Sendable { var number: Int; var title: String? }

  struct IssueType: Decodable, Sendable { var name: String }

  struct Parent: Decodable, Sendable {
    var number: Int
    var repository: Repository?
  }

  struct SubIssuesSummary: Decodable, Sendable {
    var total: Int
    var completed: Int
  }

  /// A database id as GitHub gives it: an `Int` (`databaseId`), or a `BigInt` scalar, which
  /// GitHub serializes as a string (`fullDatabaseId`, read in its place where it is deprecated).
  struct DatabaseID: Decodable, Sendable {
    var value: Int64

    init(from decoder: any Decoder) throws {
      let container = try decoder.singleValueContainer()
      if let number = try? container.decode(Int64.self) {
        value = number
      } else if let text = try? container.decode(String.self), let number = Int64(text) {
        value = number
      } else {
        throw DecodingError.dataCorruptedError(
          in: container, debugDescription: "a database id is a number, or a string of one")
      }
    }
  }

  /// An issue, or a pull request listed as a row.
  struct Item: Decodable, Sendable {
    var id: String?
    var databaseId: DatabaseID?
    var number: Int
    var title: String
    var body: String?
    var state: String
    var stateReason: String?
    var locked: Bool?
    var createdAt: Date
    var updatedAt: Date
    var closedAt: Date?
    var url: String?
    var author: Account?
    var milestone: Milestone?
    var issueType: IssueType?
    var parent: Parent?
    var subIssuesSummary: SubIssuesSummary?
    var labels: Connection<Label>?
    var assignees: Connection<Account>?
    /// Only its count (a connection asked for `totalCount` alone costs nothing).
    var comments: Count?
    var timelineItems: Connection<TimelineItem>?
    /// A pull request's draft state and merge time (pull-request pages only).
    var isDraft: Bool?
    var mergedAt: Date?
  }

  struct Count: Decodable, Sendable { var totalCount: Int }

  /// A timeline entry: a comment, or an event a reader shows.
  struct TimelineItem: Decodable, Sendable {
    var __typename: String
    var id: String?
    var databaseId: Int64?
    var body: String?
    var createdAt: Date?
    var updatedAt: Date?
    var url: String?
    var authorAssociation: String?
    var author: Account?
    var actor: Account?
    /// A comment's reactions, by GraphQL's content name, those with a count only.
    var reactions: [String: Int] = [:]
    var stateReason: String?
    var milestoneTitle: String?
    var label: Label?
    var assignee: Account?
    var previousTitle: String?
    var currentTitle: String?
    var source: Source?

    struct Source: Decodable, Sendable {
      var number: Int?
      var title: String?
      var repository: Repository?
    }

    enum CodingKeys: String, CodingKey {
      case __typename, id, databaseId, body, createdAt, updatedAt, url, authorAssociation, author
      case actor, reactionGroups, stateReason, milestoneTitle, label, assignee, previousTitle
      case currentTitle, source
    }

    /// Decodes only the fields of the entry's own type: half a mirror's decoding is timeline
    /// entries, and a comment's eight reaction groups are most of that.
    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      __typename = try container.decode(String.self, forKey: .__typename)
      createdAt = try container.decodeIfPresent(Date.self, forKey: .createdAt)
      switch __typename {
      case "IssueComment":
        id = try container.decodeIfPresent(String.self, forKey: .id)
        databaseId = try container.decodeIfPresent(Int64.self, forKey: .databaseId)
        body = try container.decodeIfPresent(String.self, forKey: .body)
        updatedAt = try container.decodeIfPresent(Date.self, forKey: .updatedAt)
        url = try container.decodeIfPresent(String.self, forKey: .url)
        authorAssociation = try container.decodeIfPresent(String.self, forKey: .authorAssociation)
        author = try container.decodeIfPresent(Account.self, forKey: .author)
        // Read from the value as it came, not through a container per group (eight groups of
        // two objects each, on every comment). A group that cannot be read counts nothing;
        // the comment is kept.
        if case .array(let groups)? = try container.decodeIfPresent(
          JSONValue.self, forKey: .reactionGroups)
        {
          for group in groups {
            guard case .string(let content)? = group[member: "content"],
              case .number(let text)? = group[member: "reactors"]?[member: "totalCount"],
              let count = Int(text), count > 0
            else { continue }
            reactions[content] = count
          }
        }
        return
      case "ClosedEvent":
        stateReason = try container.decodeIfPresent(String.self, forKey: .stateReason)
      case "MilestonedEvent", "DemilestonedEvent":
        milestoneTitle = try container.decodeIfPresent(String.self, forKey: .milestoneTitle)
      case "LabeledEvent", "UnlabeledEvent":
        label = try container.decodeIfPresent(Label.self, forKey: .label)
      case "AssignedEvent", "UnassignedEvent":
        assignee = try container.decodeIfPresent(Account.self, forKey: .assignee)
      case "RenamedTitleEvent":
        previousTitle = try container.decodeIfPresent(String.self, forKey: .previousTitle)
        currentTitle = try container.decodeIfPresent(String.self, forKey: .currentTitle)
      case "CrossReferencedEvent":
        source = try container.decodeIfPresent(Source.self, forKey: .source)
      default:
        break
      }
      actor = try container.decodeIfPresent(Account.self, forKey: .actor)
    }
  }

  /// GraphQL's reaction names, as REST spells them.
  static let reactionNames: [String: String] = [
    "THUMBS_UP": "+1", "THUMBS_DOWN": "-1", "LAUGH": "laugh", "HOORAY": "hooray",
    "CONFUSED": "confused", "HEART": "heart", "ROCKET": "rocket", "EYES": "eyes",
  ]
}

extension MirrorNode.Item {
  /// The issue as the REST side describes it: labels and assignees as far as this page lists
  /// them, the comment count the caller knows.
  func issue(isPullRequest: Bool, comments: Int) -> GitHubIssue? {
    guard let databaseId else { return nil }
    let state: GitHubIssue.State = state == "OPEN" ? .open : .closed
    var issue = GitHubIssue(
      id: databaseId.value, number: number, title: title, state: state,
      stateReason: stateReason?.lowercased(),
      user: author?.user ?? .ghost,
      labels: (labels?.nodes ?? []).compactMap(\.node).map {
        GitHubLabel(name: $0.name, color: $0.color, description: $0.description, nodeID: $0.id)
      },
      milestone: milestone.map {
        GitHubMilestone(id: 0, number: $0.number, title: $0.title ?? "", state: .open)
      },
      assignees: (assignees?.nodes ?? []).compactMap { $0.node?.user },
      comments: comments, createdAt: createdAt, updatedAt: updatedAt, closedAt: closedAt,
      body: body, htmlURL: url, isPullRequest: isPullRequest, locked: locked ?? false,
      subIssues: subIssuesSummary.map { SubIssueSummary(total: $0.total, completed: $0.completed) })
    issue.nodeID = id
    issue.issueType = issueType?.name
    if isPullRequest {
      issue.isDraft = isDraft ?? false
      issue.mergedAt = mergedAt
    }
    return issue
  }
}

extension MirrorNode.TimelineItem {
  /// The comment, when this entry is one.
  var comment: GitHubComment? {
    guard __typename == "IssueComment", let databaseId, let createdAt else { return nil }
    var reactions: [String: Int] = [:]
    for (content, count) in self.reactions {
      guard let name = MirrorNode.reactionNames[content] else { continue }
      reactions[name] = count
    }
    return GitHubComment(
      id: databaseId, user: author?.user ?? .ghost, body: body ?? "", createdAt: createdAt,
      updatedAt: updatedAt ?? createdAt, htmlURL: url, authorAssociation: authorAssociation,
      reactions: reactions, nodeID: id)
  }

  /// The event, when this entry is one a reader shows.
  var event: GitHubTimelineEvent? {
    let kind: GitHubTimelineEvent.Kind
    switch __typename {
    case "ClosedEvent": kind = .closed(reason: stateReason?.lowercased())
    case "ReopenedEvent": kind = .reopened
    case "MilestonedEvent":
      guard let milestoneTitle else { return nil }
      kind = .milestoned(milestoneTitle)
    case "DemilestonedEvent":
      guard let milestoneTitle else { return nil }
      kind = .demilestoned(milestoneTitle)
    case "LabeledEvent":
      guard let name = label?.name else { return nil }
      kind = .labeled(name)
    case "UnlabeledEvent":
      guard let name = label?.name else { return nil }
      kind = .unlabeled(name)
    case "AssignedEvent":
      guard let login = assignee?.login else { return nil }
      kind = .assigned(login)
    case "UnassignedEvent":
      guard let login = assignee?.login else { return nil }
      kind = .unassigned(login)
    case "RenamedTitleEvent":
      guard let previousTitle, let currentTitle else { return nil }
      kind = .renamed(from: previousTitle, to: currentTitle)
    case "CrossReferencedEvent":
      guard let number = source?.number else { return nil }
      kind = .crossReferenced(
        source: "\(source?.repository?.nameWithOwner ?? "")#\(number)", title: source?.title ?? "")
    default: return nil
    }
    return GitHubTimelineEvent(kind: kind, actor: actor?.user ?? .ghost, createdAt: createdAt)
  }
}
