import Foundation
@testable import GitHubIssues
import GitHubTestSupport
import Testing

/// `issues create`: gh's flags, the repository's templates and forms, the outbox — an issue
/// created offline shows at once, is filed exactly once, and is never filed twice when `issues
/// queue send` is killed at random while connections drop.
@Suite(.serialized) struct CreateCommandTests {
  typealias World = ActionCommandTests.World
  let acme = RepositoryName(owner: "acme", name: "tracker")

  private func cache(_ world: World) async throws -> IssueCache {
    let url = IssueCache.defaultURL(
      for: acme, host: await world.github.host,
      environment: ["XDG_CACHE_HOME": world.folder.appendingPathComponent("cache").path])
    return try IssueCache(path: url.path)
  }

  private func filed(_ world: World) async -> [GitHubIssue] {
    var issues: [GitHubIssue] = []
    for number in await world.github.filedIssues {
      if let issue = await world.github.issue(number: number, in: acme) { issues.append(issue) }
    }
    return issues
  }

  @Test func anIssueIsFiledFromAFormAndItsURLPrinted() async throws {
    let world = try await World()
    defer { Task { await world.stop() } }
    let yazi = try #require(try Fixtures.issueTemplateFolders()["sxyazi__yazi"])
    try await world.github.serveIssueTemplates(yazi, of: acme)
    let (status, out, err) = try await world.run([
      "create", "-T", "Feature Request", "-t", "Tabs", "-l", "ui,help wanted", "-a", "@me",
    ])
    try #require(status == 0, "\(err)")
    let issues = await filed(world)
    try #require(issues.count == 1)
    let issue = issues[0]
    #expect(out == "https://github.com/acme/tracker/issues/\(issue.number)\n")
    #expect(issue.title == "Tabs")
    // The form's labels, then the ones given; @me is the token's account.
    let form = try #require(IssueTemplates(files: yazi).template(named: "Feature Request"))
    #expect(issue.labels.map(\.name) == form.labels + ["ui", "help wanted"])
    #expect(issue.assignees.map(\.login) == form.assignees + ["octocat"])
    let composed = try #require(form.form).body(answers: try #require(form.form).initialAnswers)
    #expect(issue.body == composed)
    #expect(composed.hasPrefix("### "))
  }

  @Test func anUnknownTemplateIsRefusedNamingTheOthers() async throws {
    let world = try await World()
    defer { Task { await world.stop() } }
    try await world.github.serveIssueTemplates(
      [("bug.md", "---\nname: Bug report\nabout: A bug\n---\nSteps\n")], of: acme)
    let (status, _, err) = try await world.run(["create", "-T", "Crash", "-t", "x"])
    #expect(status != 0)
    #expect(err.contains("acme/tracker has no template “Crash”; it has “Bug report”."), "\(err)")
    #expect(await world.github.filedIssues.isEmpty)
  }

  /// A repository GitHub says is not there (404) is an error, as in gh: exit 1, nothing
  /// queued to be sent forever, and what was typed kept as a draft.
  @Test func aRepositoryGitHubDoesNotHaveIsAnErrorNotAQueuedCreate() async throws {
    let world = try await World()
    defer { Task { await world.stop() } }
    let (status, out, err) = try await world.run([
      "create", "-R", "acme/gone", "-t", "Tabs", "-b", "Open files in tabs.",
    ])
    #expect(status == 1, "\(err)")
    #expect(out.isEmpty)
    #expect(err.contains("Not Found") || err.contains("not found"), "\(err)")
    #expect(await world.github.filedIssues.isEmpty)
    let (_, queue, _) = try await world.run(["queue", "list", "-R", "acme/gone"])
    #expect(!queue.contains("Tabs"), "\(queue)")
    #expect(err.contains("draft"), "\(err)")
  }

  @Test func offlineItIsQueuedShownWithoutANumberAndFiledOnceLater() async throws {
    let world = try await World()
    defer { Task { await world.stop() } }
    try await world.github.serveIssueTemplates(
      [
        (
          "bug.md",
          "---\nname: Bug report\nabout: A bug\ntitle: '[bug] '\nlabels: bug\n---\nSteps\n"
        )
      ],
      of: acme)
    _ = try await world.run(["sync"])
    _ = try await world.run(["create", "-t", "warm the template cache"])
    await world.github.setReachable(false)
    var (status, out, err) = try await world.run(["create", "-T", "bug report", "-b", "It broke"])
    #expect(status == 0, "\(err)")
    #expect(out.isEmpty)
    #expect(err.contains("Queued: file “[bug] ”"), "\(err)")
    (status, out, err) = try await world.run(["queue"])
    #expect(out.contains("\tnew\tpending\tfile “[bug] ”"), "\(out)")
    (status, out, err) = try await world.run(["list", "--offline", "--label", "bug"])
    // Listed with no number yet.
    #expect(
      out.split(separator: "\n").contains { $0.hasPrefix("new\tOPEN\t[bug]\tbug\t") }, "\(out)")
    await world.github.setReachable(true)
    (status, out, err) = try await world.run(["queue", "send"])
    #expect(status == 0, "\(err)")
    let issues = await filed(world).filter { $0.title == "[bug] " }
    #expect(issues.count == 1)
    #expect(issues.first?.body == "It broke")
    #expect(issues.first?.labels.map(\.name) == ["bug"])
  }

  /// `--parent N`: filed, then made a sub-issue of N — at once, or queued offline with the
  /// create; a lost answer to the link is settled by reading the issue's parent, never by a
  /// second link; a parent GitHub refuses leaves the issue filed, its URL printed, and says so.
  @Test func parentMakesTheNewIssueASubIssueOnceAndSaysWhenRefused() async throws {
    let world = try await World()
    defer { Task { await world.stop() } }
    _ = try await world.run(["sync"])
    var (status, out, err) = try await world.run(["create", "-t", "Child", "--parent", "3"])
    try #require(status == 0, "\(err)")
    let child = try #require(await filed(world).first { $0.title == "Child" })
    #expect(out == "https://github.com/acme/tracker/issues/\(child.number)\n")
    #expect(await world.github.parent(of: child.number, in: acme) == 3)

    // Offline: queued with the create, in one transaction; the link's answer lost once.
    await world.github.setReachable(false)
    (status, out, err) = try await world.run(["create", "-t", "Later child", "--parent", "5"])
    #expect(status == 0 && err.contains("make the new issue a sub-issue of #5"), "\(err)")
    (status, out, err) = try await world.run(["queue"])
    #expect(out.contains("make the new issue a sub-issue of #5"), "\(out)")
    await world.github.setReachable(true)
    await world.github.inject(
      .failAfterApplying(status: 502), path: "/repos/acme/tracker/issues/5/sub_issues",
      method: "POST")
    (status, out, err) = try await world.run(["queue", "send"])
    await world.github.clearFaults()
    (status, out, err) = try await world.run(["queue", "send"])
    #expect(status == 0, "\(err)")
    let later = try #require(await filed(world).first { $0.title == "Later child" })
    #expect(await world.github.parent(of: later.number, in: acme) == 5)
    #expect(
      await world.github.appliedWrites.filter { $0.path.hasSuffix("/5/sub_issues") }.count == 1)
    (status, out, err) = try await world.run(["queue"])
    #expect(!out.contains("sub-issue"), "\(out)")

    // A parent GitHub does not have: filed all the same, and said.
    (status, out, err) = try await world.run(["create", "-t", "Orphan", "--parent", "999"])
    #expect(status != 0)
    let orphan = try #require(await filed(world).first { $0.title == "Orphan" })
    #expect(out == "https://github.com/acme/tracker/issues/\(orphan.number)\n")
    #expect(
      err.contains(
        "Filed #\(orphan.number), but could not make #\(orphan.number) a sub-issue of #999"),
      "\(err)")
    #expect(await world.github.parent(of: orphan.number, in: acme) == nil)
    (status, _, err) = try await world.run(["create", "-t", "x", "--parent", "0"])
    #expect(status != 0 && err.contains("--parent takes an issue's number"), "\(err)")
  }
}

// In the queue's suite, whose tests run one at a time: two suites killing processes on a
// deadline side by side starve each other's runs.
extension QueueCommandTests {
  /// `issues queue send` killed with SIGKILL at random moments while connections drop at
  /// random (before reads, before writes, after writes applied) and 502s answer writes GitHub
  /// applied: run again until it finishes, every queued issue is filed exactly once, each
  /// provisional row numbered once, the comments queued on rows not filed yet on the right
  /// issue.
  @Test func killedAtRandomWhileFilingEveryIssueIsFiledExactlyOnce() async throws {
    let world = try await World()
    defer { Task { await world.stop() } }
    _ = try await world.run(["sync"])
    let url = IssueCache.defaultURL(
      for: acme, host: await world.github.host,
      environment: ["XDG_CACHE_HOME": world.folder.appendingPathComponent("cache").path])
    let cache = try IssueCache(path: url.path)
    let count =
      ProcessInfo.processInfo.environment["TRELLIS_CREATE_COUNT"].flatMap(Int.init) ?? 120
    let seed: UInt64 = 0xF11E_D0CE
    print("create kill seed \(seed), \(count) issues")
    var keys: [IssueKey: String] = [:]
    for index in 0..<count {
      // Every tenth title repeats an earlier one, with the same body: two issues all the same.
      let title = index % 10 == 9 ? "Issue \(index - 1)" : "Issue \(index)"
      let action = try cache.enqueueNewIssue(
        NewIssue(title: title, body: "Body of \(title)"), author: "octocat")
      let key = try #require(action.issueKey)
      keys[key] = title
      if index % 7 == 0 {
        try cache.enqueue(.comment("On \(title), #\(index)"), onIssue: action.issueNumber)
      }
    }
    await world.github.setChaos(
      Chaos(
        seed: seed, dropRead: 0.02, dropBeforeWrite: 0.03, dropAfterWrite: 0.04,
        failAfterWrite: 0.03))
    await world.github.setLatency(.milliseconds(2))
    let kills = try await Self.sendKilledAtRandom(world, cache, seed: seed, runs: 600)
    #expect(try cache.queuedActions().isEmpty)
    #expect(kills >= 3, "some sends were killed mid-way")
    var issues: [GitHubIssue] = []
    for number in await world.github.filedIssues {
      if let issue = await world.github.issue(number: number, in: acme) { issues.append(issue) }
    }
    #expect(issues.count == count)
    // Each title as many times as it was queued.
    var wanted: [String: Int] = [:]
    for title in keys.values { wanted[title, default: 0] += 1 }
    var served: [String: Int] = [:]
    for issue in issues { served[issue.title, default: 0] += 1 }
    #expect(served == wanted)
    // Each provisional row is one of the filed issues, numbered once.
    var numbers: Set<Int> = []
    for (key, title) in keys {
      let row = try #require(try cache.issue(key: key))
      #expect(row.number > 0 && row.title == title)
      #expect(numbers.insert(row.number).inserted)
    }
    #expect(numbers == Set(issues.map(\.number)))
    // The comments, on the issue filed for the row they were queued on.
    for issue in issues {
      let bodies = await world.github.commentBodies(of: issue.number, in: acme)
      #expect(bodies.allSatisfy { $0.hasPrefix("On \(issue.title), #") })
      #expect(bodies.count <= 1)
    }
    let comments = await withTaskGroup(of: Int.self) { group in
      for issue in issues {
        group.addTask { await world.github.commentBodies(of: issue.number, in: self.acme).count }
      }
      return await group.reduce(0, +)
    }
    #expect(comments == (0..<count).filter { $0 % 7 == 0 }.count)
  }
}
