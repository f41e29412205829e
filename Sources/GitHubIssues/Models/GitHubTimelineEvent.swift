import Foundation

/// One event of an issue's timeline that a reader of the conversation needs: who closed or
/// reopened it, milestone and label changes, assignments, renames, and where it was referenced.
///
/// Decoded from `GET /repos/{owner}/{repo}/issues/{number}/timeline`. A pull request's submitted
/// reviews come as ``Kind/reviewed(_:)``: the reader shows them as posts, not lines. Events a
/// reader does not need (comments, which are listed on their own; subscriptions, commits) decode
/// as
/// ``Kind/other(_:)`` and are not kept. Every field but `event` is optional: a deleted actor is
/// ``GitHubUser/ghost``.
package struct GitHubTimelineEvent: Decodable, Hashable, Sendable {
  /// What happened.
  package enum Kind: Hashable, Sendable {
    /// Closed, with GitHub's `state_reason` when it says.
    case closed(reason: String?)
    /// Reopened.
    case reopened
    /// Put in a milestone, by title.
    case milestoned(String)
    /// Taken out of a milestone, by title.
    case demilestoned(String)
    /// A label added.
    case labeled(String)
    /// A label removed.
    case unlabeled(String)
    /// Assigned to a login.
    case assigned(String)
    /// Unassigned from a login.
    case unassigned(String)
    /// Renamed from a title to another.
    case renamed(from: String, to: String)
    /// Mentioned in another issue or pull request: `repository#number` and its title.
    case crossReferenced(source: String, title: String)
    /// A pull request's review was submitted (a pending one is ``other(_:)``).
    case reviewed(PullRequestReview)
    /// Anything else, by GitHub's name: not kept.
    case other(String)
  }

  /// What happened.
  package var kind: Kind
  /// Who did it.
  package var actor: GitHubUser
  /// When.
  package var createdAt: Date?
  /// GitHub's identifier of the event (REST `id`), when the answer has one: events made later
  /// have larger ones, which tells a close made after a point from one made before it with no
  /// clock involved.
  package var eventID: Int64?

  /// Creates an event.
  package init(kind: Kind, actor: GitHubUser, createdAt: Date?, eventID: Int64? = nil) {
    self.kind = kind
    self.actor = actor
    self.createdAt = createdAt
    self.eventID = eventID
  }

  enum CodingKeys: String, CodingKey {
    case event, actor, label, milestone, assignee, rename, source, id, user, state, body
    case createdAt = "created_at"
    case stateReason = "state_reason"
    case submittedAt = "submitted_at"
    case authorAssociation = "author_association"
    case nodeID = "node_id"
    case commitID = "commit_id"
  }

  struct Named: Decodable { var name: String?; var title: String?; var login: String? }
  struct Rename: Decodable { var from: String?; var to: String? }
  struct Source: Decodable {
    struct Issue: Decodable {
      struct Repository: Decodable {
        var fullName: String?
        enum CodingKeys: String, CodingKey { case fullName = "full_name" }
      }
      var number: Int?
      var title: String?
      var repository: Repository?
    }
    var issue: Issue?
  }

  package init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let event = try container.decode(String.self, forKey: .event)
    actor = (try? container.decodeIfPresent(GitHubUser.self, forKey: .actor)) ?? .ghost
    createdAt = try? container.decodeIfPresent(Date.self, forKey: .createdAt)
    eventID = event == "reviewed" ? nil : try? container.decodeIfPresent(Int64.self, forKey: .id)
    func named(_ key: CodingKeys) -> String? {
      let value = try? container.decodeIfPresent(Named.self, forKey: key)
      return value?.name ?? value?.title ?? value?.login
    }
    switch event {
    case "closed":
      kind = .closed(reason: try? container.decodeIfPresent(String.self, forKey: .stateReason))
    case "reopened": kind = .reopened
    case "milestoned": kind = named(.milestone).map { .milestoned($0) } ?? .other(event)
    case "demilestoned": kind = named(.milestone).map { .demilestoned($0) } ?? .other(event)
    case "labeled": kind = named(.label).map { .labeled($0) } ?? .other(event)
    case "unlabeled": kind = named(.label).map { .unlabeled($0) } ?? .other(event)
    case "assigned": kind = named(.assignee).map { .assigned($0) } ?? .other(event)
    case "unassigned": kind = named(.assignee).map { .unassigned($0) } ?? .other(event)
    case "renamed":
      let rename = try? container.decodeIfPresent(Rename.self, forKey: .rename)
      if let from = rename?.from, let to = rename?.to {
        kind = .renamed(from: from, to: to)
      } else {
        kind = .other(event)
      }
    case "cross-referenced":
      let issue = (try? container.decodeIfPresent(Source.self, forKey: .source))?.issue
      if let number = issue?.number {
        let repository = issue?.repository?.fullName ?? ""
        kind = .crossReferenced(source: "\(repository)#\(number)", title: issue?.title ?? "")
      } else {
        kind = .other(event)
      }
    case "reviewed":
      // A review names its author `user` and its time `submitted_at`; a pending one has none.
      let state = (try? container.decodeIfPresent(String.self, forKey: .state))?.uppercased()
      let submitted = try? container.decodeIfPresent(Date.self, forKey: .submittedAt)
      if let id = try? container.decodeIfPresent(Int64.self, forKey: .id), let state,
        state != "PENDING", let submitted
      {
        actor = (try? container.decodeIfPresent(GitHubUser.self, forKey: .user)) ?? .ghost
        createdAt = submitted
        kind = .reviewed(
          PullRequestReview(
            id: id, author: actor.login, state: state,
            body: (try? container.decodeIfPresent(String.self, forKey: .body)) ?? "",
            submittedAt: submitted,
            authorAssociation: try? container.decodeIfPresent(
              String.self, forKey: .authorAssociation),
            nodeID: try? container.decodeIfPresent(String.self, forKey: .nodeID),
            commitID: try? container.decodeIfPresent(String.self, forKey: .commitID)))
      } else {
        kind = .other(event)
      }
    default: kind = .other(event)
    }
  }

  /// Whether a reader shows it as a line under the conversation (a review is a post of its own).
  package var isShown: Bool {
    switch kind {
    case .other, .reviewed: false
    default: true
    }
  }

  /// "closed this as not planned", "added the bug label": what the actor did, for a line under
  /// the conversation.
  package var sentence: String {
    switch kind {
    case .closed(let reason?) where reason == "not_planned": "closed this as not planned"
    case .closed(let reason?) where reason == "duplicate": "closed this as a duplicate"
    case .closed: "closed this"
    case .reopened: "reopened this"
    case .milestoned(let title): "added this to the \(title) milestone"
    case .demilestoned(let title): "removed this from the \(title) milestone"
    case .labeled(let name): "added the \(name) label"
    case .unlabeled(let name): "removed the \(name) label"
    case .assigned(let login): "assigned \(login)"
    case .unassigned(let login): "unassigned \(login)"
    case .renamed(let from, let to): "changed the title from “\(from)” to “\(to)”"
    case .crossReferenced(let source, let title):
      "mentioned this in \(source)" + (title.isEmpty ? "" : " “\(title)”")
    case .reviewed(let review): review.verdict
    case .other(let name): name
    }
  }
}
