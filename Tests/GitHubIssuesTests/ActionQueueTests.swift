import Foundation
@testable import GitHubIssues
import GitHubTestSupport
import Testing
import TrellisTestSupport

/// The action queue against the local GitHub: actions queued offline reach GitHub exactly
/// once, in order per issue, whatever the connection does; conflicts wait for the person.
@Suite(.serialized) struct ActionQueueTests {
  let acme = RepositoryName(owner: "acme", name: "tracker")
  let synthetic = SyntheticRepository(itemCount: 400, milestoneCount: 6, seed: 3)

  private func setUp() async throws -> (LocalGitHub, GitHubClient, IssueCache) {
    let github = try await LocalGitHub.start()
    try await github.serve(synthetic: synthetic, as: acme)
    await github.requireToken(forWrites: "test-token")
    var client = GitHubClient(
      host: await github.host, token: "test-token", transport: HTTPClientTransport(timeout: 5))
    client.initialBackoff = .milliseconds(1)
    client.maximumRetries = 1
    let cache = try IssueCache()
    _ = try await IssueSynchronizer(client: client, cache: cache, repository: acme).sync()
    return (github, client, cache)
  }

  /// 1,000 actions queued offline on 300 issues, replayed while connections drop at random
  /// before reads, before writes, after writes applied, and with 502s after applying: every
  /// action lands exactly once, in order per issue; the queue ends empty and the cache shows
  /// what GitHub holds.
  @Test func aThousandActionsLandExactlyOnceWhateverTheConnectionDoes() async throws {
    let (github, client, cache) = try await setUp()
    defer { Task { await github.stop() } }
    let seed: UInt64 = 0xA11_0E7C_E5EE
    print("action queue seed \(seed)")
    var random = SplitMix64(seed: seed)
    let issues = Array(try cache.issues(IssueFilter(state: .all, kind: .issues)).prefix(300))
    #expect(issues.count == 300)
    let milestones = try cache.milestones().map(\.number)
    let labels = ["bug", "ui", "docs", "needs: triage", "한글"]
    let bodies = ["+1", "Thanks!", "Fixed in main.", "Same here on 2.1 — see the log below."]
    await github.setReachable(false)
    var models: [Int: EditableFields] = [:]
    var expected: [Int: [String]] = [:]
    for _ in 0..<1_000 {
      let issue = issues[Int(random.next() % UInt64(issues.count))].number
      let operation: QueuedAction.Operation =
        switch random.next() % 9 {
        case 0: .change(.close(random.next() % 2 == 0 ? .completed : .notPlanned))
        case 1: .change(.reopen)
        case 2:
          .change(.setMilestone(number: milestones[Int(random.next() % UInt64(milestones.count))]))
        case 3: .change(.removeMilestone)
        case 4: .change(.addLabels([labels[Int(random.next() % UInt64(labels.count))]]))
        case 5: .change(.removeLabel(labels[Int(random.next() % UInt64(labels.count))]))
        case 6: .change(.addAssignees(["mona"]))
        case 7: .change(.removeAssignees(["mona"]))
        default: .comment(bodies[Int(random.next() % UInt64(bodies.count))])
        }
      if models[issue] == nil {
        models[issue] = try #require(
          await github.issue(number: issue, in: acme).map(EditableFields.init))
      }
      // The writes GitHub should see: those that change something, in order.
      switch operation {
      case .change(let change):
        if let fields = models[issue], !fields.satisfies(change) {
          expected[issue, default: []].append(Self.describe(change))
          models[issue] = fields.applying(change, now: Date())
        }
      case .comment(let body): expected[issue, default: []].append("comment \(body)")
      }
      try cache.enqueue(operation, onIssue: issue)
    }
    #expect(await github.appliedWrites.isEmpty, "nothing is sent offline")
    #expect(try cache.queuedActions().count == 1_000)
    // The network back, dropping at random.
    await github.setChaos(
      Chaos(
        seed: seed, dropRead: 0.03, dropBeforeWrite: 0.05, dropAfterWrite: 0.05,
        failAfterWrite: 0.05))
    let replayer = ActionReplayer(client: client, cache: cache, repository: acme, viewer: "octocat")
    var rounds = 0
    var found = 0
    while try !cache.queuedActions().isEmpty, rounds < 3_000 {
      let summary = await replayer.replay()
      found += summary.foundLanded
      #expect(summary.conflicts == 0)
      rounds += 1
    }
    print("replayed in \(rounds) rounds; \(found) actions found landed after a lost answer")
    #expect(try cache.queuedActions().isEmpty)
    #expect(found > 10, "answers were lost after writes applied, and settled by reading")
    // Exactly once, in order per issue.
    var served: [Int: [String]] = [:]
    for write in await github.appliedWrites {
      guard let number = Self.issueNumber(write.path) else { continue }
      served[number, default: []].append(Self.describe(write))
    }
    let issuesWritten = Set(expected.keys).union(served.keys)
    var mismatches = 0
    for number in issuesWritten.sorted() where served[number] ?? [] != expected[number] ?? [] {
      mismatches += 1
      if mismatches <= 3 {
        Issue.record(
          "#\(number): served \(served[number] ?? []), expected \(expected[number] ?? [])")
      }
    }
    #expect(mismatches == 0)
    // The cache shows what GitHub holds.
    await github.setChaos(nil)
    for number in models.keys.sorted().prefix(60) {
      let server = try #require(await github.issue(number: number, in: acme))
      let cached = try #require(try cache.issues(numbers: [number]).first)
      #expect(cached.state == server.state, "#\(number)")
      #expect(cached.milestoneNumber == server.milestone?.number, "#\(number)")
      #expect(Set(cached.labels) == Set(server.labels.map(\.name)), "#\(number)")
    }
  }

  static func issueNumber(_ path: String) -> Int? {
    let parts = path.split(separator: "/")
    guard parts.count >= 5, parts[3] == "issues" else { return nil }
    return Int(parts[4])
  }

  static func describe(_ change: IssueChange) -> String {
    switch change {
    case .close: "state closed"
    case .reopen: "state open"
    case .setMilestone(let number): "milestone \(number)"
    case .removeMilestone: "milestone none"
    case .addLabels(let names): "label +\(names.joined(separator: ","))"
    case .removeLabel(let name): "label -\(name)"
    case .addAssignees(let logins): "assign +\(logins.joined(separator: ","))"
    case .removeAssignees(let logins): "assign -\(logins.joined(separator: ","))"
    }
  }

  /// A served write said as ``describe(_:)-swift.type.method`` says the change it came from.
  static func describe(_ write: AppliedWrite) -> String {
    let object =
      (try? JSONSerialization.jsonObject(with: Data(write.body.utf8))) as? [String: Any] ?? [:]
    let parts = write.path.split(separator: "/").map(String.init)
    switch (write.method, Array(parts.dropFirst(5))) {
    case ("PATCH", []):
      if let state = object["state"] as? String { return "state \(state)" }
      return "milestone " + ((object["milestone"] as? Int).map(String.init) ?? "none")
    case ("POST", ["labels"]):
      return "label +" + ((object["labels"] as? [String]) ?? []).joined(separator: ",")
    case ("DELETE", let rest) where rest.first == "labels":
      return "label -" + rest.dropFirst().joined(separator: "/")
    case ("POST", ["assignees"]):
      return "assign +" + ((object["assignees"] as? [String]) ?? []).joined(separator: ",")
    case ("DELETE", ["assignees"]):
      return "assign -" + ((object["assignees"] as? [String]) ?? []).joined(separator: ",")
    case ("POST", ["comments"]): return "comment " + (object["body"] as? String ?? "")
    default: return "\(write.method) \(write.path)"
    }
  }
}
