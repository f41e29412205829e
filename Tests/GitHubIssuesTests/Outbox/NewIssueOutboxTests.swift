import Foundation
@testable import GitHubIssues
import GitHubTestSupport
import Testing

/// New issues through the outbox: shown at once as a provisional row, filed exactly once, the
/// row and every action queued on it following the issue to its number; a lost answer settled
/// from what GitHub holds, never from someone else's issue.
@Suite(.serialized) struct NewIssueOutboxTests {
  let acme = RepositoryName(owner: "acme", name: "tracker")

  private func setUp(
    _ repository: SyntheticRepository = SyntheticRepository(
      itemCount: 30, milestoneCount: 2, seed: 5),
    perPage: Int = 100
  ) async throws -> (LocalGitHub, GitHubClient, IssueCache) {
    let github = try await LocalGitHub.start()
    try await github.serve(synthetic: repository, as: acme, perPage: perPage)
    await github.requireToken(forWrites: "test-token")
    var client = GitHubClient(
      host: await github.host, token: "test-token",
      transport: HTTPClientTransport(timeout: LocalGitHub.patientTimeout))
    client.initialBackoff = .milliseconds(1)
    client.maximumRetries = 0
    let cache = try IssueCache()
    _ = try await IssueSynchronizer(client: client, cache: cache, repository: acme).sync()
    return (github, client, cache)
  }

  private func replay(_ client: GitHubClient, _ cache: IssueCache) async -> ActionReplayer.Summary {
    await ActionReplayer(client: client, cache: cache, repository: acme, unansweredGrace: 0)
      .replay()
  }

  private func filed(_ github: LocalGitHub, _ title: String) async -> [GitHubIssue] {
    var found: [GitHubIssue] = []
    for number in await github.filedIssues {
      if let issue = await github.issue(number: number, in: acme), issue.title == title {
        found.append(issue)
      }
    }
    return found
  }

  @Test func aNewIssueShowsAtOnceAndIsFiledOnceWithWhatWasQueuedOnIt() async throws {
    let (github, client, cache) = try await setUp()
    defer { Task { await github.stop() } }
    let new = NewIssue(title: "Crash on start", body: "### Version\n\n1.0", labels: ["bug"])
    let action = try cache.enqueueNewIssue(new, author: "octocat")
    let key = try #require(action.issueKey)
    // Shown at once: a row of its own, no number from GitHub yet.
    let row = try #require(try cache.issues(IssueFilter(state: .open)).first { $0.key == key })
    #expect(row.number < 0 && row.title == "Crash on start" && row.labels == ["bug"])
    #expect(row.author == "octocat")
    // A comment and a close queued on it before it is filed.
    try cache.enqueue(.comment("More details"), onIssue: row.number)
    try cache.enqueue(.change(.close(.completed)), onIssue: row.number)

    let summary = await replay(client, cache)
    #expect(summary.stopped == nil && summary.sent == 3 && summary.waiting == 0)
    let issues = await filed(github, "Crash on start")
    try #require(issues.count == 1)
    let number = issues[0].number
    #expect(issues[0].body == "### Version\n\n1.0")
    #expect(await github.commentBodies(of: number, in: acme) == ["More details"])
    #expect(await github.issue(number: number, in: acme)?.state == .closed)
    // The same row, now numbered.
    let after = try #require(try cache.issues(IssueFilter(state: .all)).first { $0.key == key })
    #expect(after.number == number && after.state == .closed)
    #expect(try cache.issues(IssueFilter(state: .all)).filter { $0.number == number }.count == 1)
  }

  /// A new issue rewritten while it waits is filed as rewritten — even when a replay read the
  /// queue before the rewrite (its send is refused at the mark, and the next pass sends the new
  /// text); once sent without an answer it can no longer be rewritten.
  @Test func aNewIssueRewrittenWhileItWaitsIsFiledAsRewritten() async throws {
    let (github, client, cache) = try await setUp()
    defer { Task { await github.stop() } }
    let old = NewIssue(title: "Draft title", body: "Draft body", labels: ["bug"])
    let action = try cache.enqueueNewIssue(old, author: "octocat")
    let key = try #require(action.issueKey)
    try cache.rewriteNewIssue(key: key, title: "Final title", body: "Final body")
    let row = try #require(try cache.issue(key: key))
    #expect(row.title == "Final title" && row.body == "Final body" && row.labels == ["bug"])
    // A send prepared from the queue as it was read before the rewrite is not made.
    #expect(
      try cache.markSending(
        action.id, viewer: "octocat", knownCommentID: nil, knownEventID: nil,
        sending: .create(old), now: Date()) == false)
    #expect(try cache.queuedActions(all: true).first { $0.id == action.id }?.status == .pending)

    let summary = await replay(client, cache)
    #expect(summary.stopped == nil && summary.sent == 1)
    #expect(await filed(github, "Draft title").isEmpty)
    let issues = await filed(github, "Final title")
    try #require(issues.count == 1)
    #expect(issues[0].body == "Final body" && issues[0].labels.map(\.name) == ["bug"])
    // Filed: nothing left to rewrite.
    #expect(throws: QueueError.self) {
      try cache.rewriteNewIssue(key: key, title: "Later", body: "")
    }

    // Sent without an answer: it may be filed as it was, and stays so.
    let lost = try cache.enqueueNewIssue(NewIssue(title: "Lost", body: "B"), author: "octocat")
    await github.inject(
      .failAfterApplying(status: 502), path: "/repos/acme/tracker/issues", method: "POST")
    _ = await replay(client, cache)
    #expect(throws: QueueError.sentAsItWas(lost.id)) {
      try cache.rewriteNewIssue(key: try #require(lost.issueKey), title: "Changed", body: "B")
    }
  }

  /// Many of the viewer's issues created in the same second, in pages of five whose order of
  /// ties changes with every request: a group split across two pages could hide the issue
  /// sought, so the numbers the walk did not see are read one by one — every lost answer is
  /// found, none is filed twice.
  @Test func tiesSplitAcrossPagesNeverHideAFiledIssue() async throws {
    let (github, client, cache) = try await setUp(
      SyntheticRepository(itemCount: 12, milestoneCount: 1, seed: 3), perPage: 5)
    defer { Task { await github.stop() } }
    var probed = 0
    for round in 1...12 {
      // Others of the viewer's, filed on the web around it: the same seconds, many ties.
      for other in 0..<3 {
        try await github.fileIssueOnTheWeb(
          "Web \(round).\(other)", body: "", by: "octocat", in: acme)
      }
      try cache.enqueueNewIssue(NewIssue(title: "Round \(round)", body: "B"), author: "octocat")
      await github.inject(
        .failAfterApplying(status: 502), path: "/repos/acme/tracker/issues", method: "POST")
      var summary = await replay(client, cache)
      #expect(summary.waiting == 1, "round \(round)")
      try await github.fileIssueOnTheWeb("Web \(round) after", body: "", by: "octocat", in: acme)
      let before = await github.requests.count
      summary = await replay(client, cache)
      #expect(summary.foundLanded == 1 && summary.sent == 0, "round \(round): \(summary)")
      #expect(await filed(github, "Round \(round)").count == 1, "round \(round)")
      probed += await github.requests.dropFirst(before).count {
        $0.target.range(of: #"/issues/\d+$"#, options: .regularExpression) != nil
      }
    }
    // The walk alone could not always prove it: numbers were read one by one.
    #expect(probed > 0)
  }

  @Test func aLostAnswerIsFoundOnGitHubAndNotFiledAgain() async throws {
    let (github, client, cache) = try await setUp()
    defer { Task { await github.stop() } }
    try cache.enqueueNewIssue(NewIssue(title: "Lost", body: "Body"), author: "octocat")
    await github.inject(
      .failAfterApplying(status: 502), path: "/repos/acme/tracker/issues", method: "POST")
    var summary = await replay(client, cache)
    #expect(summary.stopped != nil && summary.waiting == 1)
    #expect(await filed(github, "Lost").count == 1)
    // A sync brings the issue in as a row of its own before the answer is settled.
    _ = try await IssueSynchronizer(client: client, cache: cache, repository: acme).sync()
    summary = await replay(client, cache)
    #expect(summary.foundLanded == 1 && summary.sent == 0 && summary.waiting == 0)
    #expect(await filed(github, "Lost").count == 1)
    let number = try #require(await filed(github, "Lost").first?.number)
    // One row for it, the provisional one, numbered.
    #expect(
      try cache.issues(IssueFilter(state: .all)).filter { $0.title == "Lost" }.map(\.number) == [
        number
      ])
  }

  @Test func aSendThatNeverArrivedIsSentAgainOnce() async throws {
    let (github, client, cache) = try await setUp()
    defer { Task { await github.stop() } }
    try cache.enqueueNewIssue(NewIssue(title: "Dropped", body: ""), author: "octocat")
    await github.inject(.dropConnection, path: "/repos/acme/tracker/issues", method: "POST")
    await github.setChaos(Chaos(seed: 1, dropRead: 0, dropBeforeWrite: 1))
    var summary = await replay(client, cache)
    #expect(summary.stopped != nil)
    await github.setChaos(nil)
    #expect(await filed(github, "Dropped").isEmpty)
    summary = await replay(client, cache)
    #expect(summary.sent == 1 && summary.waiting == 0)
    #expect(await filed(github, "Dropped").count == 1)
  }

  /// The viewer filed the same title and body on the web before the first send, and someone
  /// else files it after: neither is the queued one, which is filed.
  @Test func theSameIssueByTheViewerBeforeOrByAnotherAfterIsNotTakenForOurs() async throws {
    let (github, client, cache) = try await setUp()
    defer { Task { await github.stop() } }
    let earlier = try await github.fileIssueOnTheWeb("Same", body: "Text", by: "octocat", in: acme)
    try cache.enqueueNewIssue(NewIssue(title: "Same", body: "Text"), author: "octocat")
    await github.setChaos(Chaos(seed: 1, dropRead: 0, dropBeforeWrite: 1))
    var summary = await replay(client, cache)
    #expect(summary.stopped != nil)
    await github.setChaos(nil)
    let later = try await github.fileIssueOnTheWeb("Same", body: "Text", by: "mona", in: acme)
    summary = await replay(client, cache)
    #expect(summary.sent == 1 && summary.foundLanded == 0)
    let ours = await filed(github, "Same").map(\.number).filter { $0 != earlier && $0 != later }
    #expect(ours.count == 1 && ours[0] > later)
  }

  /// Two creates with the same title and body are two issues: one found on GitHub is claimed
  /// once.
  @Test func twoIdenticalCreatesAreTwoIssues() async throws {
    let (github, client, cache) = try await setUp()
    defer { Task { await github.stop() } }
    try cache.enqueueNewIssue(NewIssue(title: "Twice", body: "x"), author: "octocat")
    try cache.enqueueNewIssue(NewIssue(title: "Twice", body: "x"), author: "octocat")
    await github.inject(
      .failAfterApplying(status: 502), path: "/repos/acme/tracker/issues", method: "POST", times: 2)
    var summary = await replay(client, cache)
    summary = await replay(client, cache)
    summary = await replay(client, cache)
    #expect(summary.waiting == 0)
    #expect(await filed(github, "Twice").count == 2)
    let rows = try cache.issues(IssueFilter(state: .all)).filter { $0.title == "Twice" }
    #expect(Set(rows.map(\.number)).count == 2 && rows.allSatisfy { $0.number > 0 })
  }

  /// A row not filed yet is no issue of GitHub's: a mirror neither counts it against GitHub's
  /// totals (which would send it looking for deletions) nor asks GitHub for its conversation.
  @Test func aProvisionalRowIsLeftOutOfWhatIsComparedWithGitHub() async throws {
    let (github, _, cache) = try await setUp()
    defer { Task { await github.stop() } }
    let counted = try cache.issueCount(updatedSince: nil)
    let times = try cache.issueUpdateTimes()
    try cache.enqueueNewIssue(NewIssue(title: "Not filed"), author: "octocat")
    #expect(try cache.issueCount(updatedSince: nil) == counted)
    #expect(try cache.issueUpdateTimes() == times)
    #expect(try cache.incompleteConversations().allSatisfy { $0.number > 0 })
  }

  @Test func aCancelledNewIssueLeavesNoRowAndCancelsWhatWasQueuedOnIt() async throws {
    let (github, client, cache) = try await setUp()
    defer { Task { await github.stop() } }
    let action = try cache.enqueueNewIssue(NewIssue(title: "Never mind"), author: "octocat")
    try cache.enqueue(.comment("hi"), onIssue: action.issueNumber)
    try cache.cancelQueuedAction(action.id)
    #expect(try cache.issues(IssueFilter(state: .all)).allSatisfy { $0.title != "Never mind" })
    #expect(try cache.queuedActions().isEmpty)
    let summary = await replay(client, cache)
    #expect(summary.sent == 0)
    #expect(await github.filedIssues.isEmpty)
  }

  @Test func aRefusedIssueWaitsInConflictWithItsReason() async throws {
    let (github, client, cache) = try await setUp()
    defer { Task { await github.stop() } }
    try cache.enqueueNewIssue(NewIssue(title: "Refused"), author: "octocat")
    await github.inject(.validation, path: "/repos/acme/tracker/issues", method: "POST")
    let summary = await replay(client, cache)
    #expect(summary.conflicts == 1)
    guard case .conflict(let reason)? = try cache.queuedActions().first?.status else {
      Issue.record("not in conflict")
      return
    }
    #expect(!reason.isEmpty)
    #expect(await github.filedIssues.isEmpty)
  }

  /// 1,000 issues created offline, then sent while connections drop before reads, before
  /// writes and after writes GitHub applied, and 502s answer applied writes: exactly 1,000
  /// issues on GitHub, each provisional row numbered once, the comments queued on rows not
  /// filed yet on the right issue.
  @Test func aThousandIssuesCreatedOfflineAreFiledExactlyOnceUnderDropsAnd502s() async throws {
    let (github, client, cache) = try await setUp()
    defer { Task { await github.stop() } }
    let seed: UInt64 = 0xC4EA_7E00
    print("NewIssueOutboxTests seed \(seed)")
    var titles: [IssueKey: String] = [:]
    for index in 0..<1_000 {
      let title = index % 10 == 9 ? "Issue \(index - 1)" : "Issue \(index)"
      let action = try cache.enqueueNewIssue(
        NewIssue(title: title, body: "Body of \(title)"), author: "octocat")
      titles[try #require(action.issueKey)] = title
      if index % 9 == 0 {
        try cache.enqueue(.comment("On \(title)"), onIssue: action.issueNumber)
      }
    }
    await github.setChaos(
      Chaos(
        seed: seed, dropRead: 0.01, dropBeforeWrite: 0.02, dropAfterWrite: 0.02,
        failAfterWrite: 0.02))
    var passes = 0
    while try !cache.queuedActions().isEmpty, passes < 2_000 {
      passes += 1
      _ = await replay(client, cache)
    }
    print("\(passes) passes")
    await github.setChaos(nil)
    #expect(try cache.queuedActions().isEmpty)
    let filed = await github.filedIssues
    #expect(filed.count == 1_000)
    var served: [String: Int] = [:]
    for number in filed {
      if let issue = await github.issue(number: number, in: acme) {
        served[issue.title, default: 0] += 1
      }
    }
    var wanted: [String: Int] = [:]
    for title in titles.values { wanted[title, default: 0] += 1 }
    #expect(served == wanted)
    var numbers: Set<Int> = []
    for (key, title) in titles {
      let row = try #require(try cache.issue(key: key))
      #expect(row.number > 0 && row.title == title)
      #expect(numbers.insert(row.number).inserted)
      let comments = await github.commentBodies(of: row.number, in: acme)
      #expect(comments.allSatisfy { $0 == "On \(title)" } && comments.count <= 1)
    }
    #expect(numbers == Set(filed))
  }
}
