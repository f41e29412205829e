import Foundation
import GitHubIssues
import GitHubTestSupport
import TerminalTestSupport
import Testing

extension PullRequestCommandTests {
  /// Twenty files of one hunk each: lines 1–30 added, and line 5 of the base removed.
  static func reviewedFiles() -> [PullRequestFile] {
    (0..<20).map { index in
      PullRequestFile(
        path: "Sources/File\(index).swift", status: "modified", additions: 30, deletions: 1,
        patch: "@@ -5,1 +1,30 @@\n-old line\n"
          + (1...30).map { "+line \($0)" }.joined(separator: "\n"))
    }
  }

  /// A diff read with `pr diff` alone, no sync before it, is enough to draft on offline: the
  /// pull request is kept with its diff.
  @Test func aLineCommentIsDraftedOfflineOnADiffReadWithoutASync() async throws {
    let world = try await World()
    defer { Task { await world.stop() } }
    let acme = RepositoryName(owner: "acme", name: "tracker")
    let pull = try #require(Self.served.first { $0.isPullRequest && $0.state == .open }).number
    await world.github.servePullRequestFiles(
      Self.reviewedFiles(), ofPullRequest: pull, in: acme,
      head: String(repeating: "c", count: 40))
    var (status, out, err) = try await world.run(["pr", "diff", String(pull), "--name-only"])
    #expect(status == 0, "\(err)")
    await world.github.setReachable(false)
    (status, out, err) = try await world.run(
      ["pr", "review", String(pull), "--line", "Sources/File0.swift:12", "-b", "Offline."])
    #expect(status == 0, "\(err)")
    #expect(out.contains("(1 drafted)"), "\(out)")
  }

  /// `pr review`: line comments drafted offline on the diff read before, kept in the pending
  /// review; the review with its verdict queued offline and sent once — one review with twenty
  /// comments on GitHub; lines not in the diff refused before anything is drafted; GitHub's
  /// refusal (approving one's own pull request) said.
  @Test func reviewDraftsLineCommentsOfflineAndSubmitsThemAsOneReview() async throws {
    let world = try await World()
    defer { Task { await world.stop() } }
    let acme = RepositoryName(owner: "acme", name: "tracker")
    let pull = try #require(
      Self.served.first { $0.isPullRequest && $0.state == .open && $0.user.login != "octocat" }
    ).number
    await world.github.servePullRequestFiles(
      Self.reviewedFiles(), ofPullRequest: pull, in: acme,
      head: String(repeating: "c", count: 40))
    var (status, out, err) = try await world.run(["sync"])
    (status, out, err) = try await world.run(["pr", "diff", String(pull), "--name-only"])
    #expect(status == 0, "\(err)")

    await world.github.setReachable(false)
    for index in 0..<20 {
      let place =
        switch index % 3 {
        case 0: "Sources/File\(index).swift:12"
        case 1: "Sources/File\(index).swift:3-9"
        default: "Sources/File\(index).swift:L5"
        }
      (status, out, err) = try await world.run(
        ["pr", "review", String(pull), "--line", place, "-b", "Comment \(index)"])
      #expect(status == 0, "\(index): \(err)")
    }
    #expect(out.contains("(20 drafted)"), "\(out)")
    // Lines GitHub could not place are refused here, offline, before anything is drafted.
    (status, out, err) = try await world.run(
      ["pr", "review", String(pull), "--line", "Sources/File0.swift:31", "-b", "x"])
    #expect(status != 0 && err.contains("not in the diff"), "\(err)")
    (status, out, err) = try await world.run(
      ["pr", "review", String(pull), "--line", "Nope.swift:1", "-b", "x"])
    #expect(status != 0 && err.contains("not among"), "\(err)")
    (status, out, err) = try await world.run(["pr", "review", String(pull), "--pending"])
    #expect(out.split(separator: "\n").count == 20, "\(out)")
    #expect(out.contains("Sources/File1.swift:3-9\tComment 1"), "\(out)")
    #expect(out.contains("Sources/File2.swift:L5\tComment 2"), "\(out)")
    // A review that requests changes needs a body.
    (status, out, err) = try await world.run(["pr", "review", String(pull), "-r"])
    #expect(status != 0 && err.contains("needs a body"), "\(err)")
    (status, out, err) = try await world.run(
      ["pr", "review", String(pull), "-r", "-b", "A few things."])
    #expect(status == 0, "\(err)")
    #expect(
      err.contains("Queued: review #\(pull): request changes, 20 line comments"), "\(err)")
    #expect(await world.github.submittedReviews(ofPullRequest: pull, in: acme).isEmpty)
    await world.github.setReachable(true)

    (status, out, err) = try await world.run(["queue", "send"])
    #expect(status == 0, "\(err)")
    let reviews = await world.github.submittedReviews(ofPullRequest: pull, in: acme)
    try #require(reviews.count == 1)
    #expect(reviews[0].state == "CHANGES_REQUESTED" && reviews[0].body == "A few things.")
    #expect(reviews[0].comments.map(\.body) == (0..<20).map { "Comment \($0)" })
    (status, out, err) = try await world.run(["pr", "review", String(pull), "--pending"])
    #expect(out.isEmpty, "\(out)")
    // The review's threads, read back as `pr view --json reviewThreads` prints them.
    let asked = await world.github.requests.count
    (status, out, err) = try await world.run(
      ["pr", "view", String(pull), "--json", "reviewThreads", "--jq", ".reviewThreads"])
    #expect(status == 0, "\(err)")
    let threads = try Self.json(out)
    let ours = threads.filter { ($0["path"] as? String)?.hasPrefix("Sources/File") == true }
    let targets = await world.github.requests.dropFirst(asked).map(\.target)
    #expect(ours.count == 20, "\(out.prefix(400)) \(err) \(targets)")
    let first = try #require(ours.first { $0["path"] as? String == "Sources/File0.swift" })
    #expect(first["line"] as? Int == 12 && first["isOutdated"] as? Bool == false)
    // Read online with the threads' states (GraphQL): known, and open.
    #expect(first["isResolved"] as? Bool == false, "\(first)")
    let comments = try #require(first["comments"] as? [[String: Any]])
    #expect(comments.first?["body"] as? String == "Comment 0")
    #expect((comments.first?["author"] as? [String: Any])?["login"] as? String == "octocat")
    // A reply to that thread, through the same queue; shown in the thread after.
    let root = try #require(comments.first?["id"] as? Int)
    (status, out, err) = try await world.run(
      ["pr", "review", String(pull), "--reply", String(root), "-b", "Done in the next commit."])
    #expect(status == 0, "\(err)")
    #expect(out == "Replied on #\(pull) to comment \(root).\n", "\(out)")
    (status, out, err) = try await world.run(
      ["pr", "view", String(pull), "--json", "reviewThreads", "--jq", ".reviewThreads"])
    let again = try Self.json(out).first { $0["path"] as? String == "Sources/File0.swift" }
    let bodies = (again?["comments"] as? [[String: Any]])?.compactMap { $0["body"] as? String }
    #expect(bodies == ["Comment 0", "Done in the next commit."], "\(out.prefix(300))")
    // The thread resolved, then opened again; a comment that starts no thread refused.
    let node = LocalGitHub.threadNode(acme, pull, root: root)
    (status, out, err) = try await world.run([
      "pr", "review", String(pull), "--resolve", String(root),
    ])
    #expect(status == 0, "\(err)")
    #expect(out == "Resolved the thread of comment \(root) on #\(pull).\n", "\(out)")
    #expect(await world.github.isThreadResolved(node))
    (status, out, err) = try await world.run(
      [
        "pr", "view", String(pull), "--json", "reviewThreads", "--jq", ".reviewThreads",
        "--offline",
      ])
    let resolved = try Self.json(out).first { $0["path"] as? String == "Sources/File0.swift" }
    #expect(resolved?["isResolved"] as? Bool == true, "\(out.prefix(300)) \(err)")
    (status, out, err) = try await world.run(
      ["pr", "review", String(pull), "--unresolve", String(root)])
    #expect(out == "Unresolved the thread of comment \(root) on #\(pull).\n", "\(out) \(err)")
    #expect(await !world.github.isThreadResolved(node))

    // Online, at once; gh's words.
    (status, out, err) = try await world.run(["pr", "review", String(pull), "--approve"])
    #expect(status == 0, "\(err)")
    #expect(out == "Approved pull request acme/tracker#\(pull).\n", "\(out)")

    // GitHub refuses an approval of one's own pull request: said, waiting in the queue.
    let own = try #require(
      Self.served.first { $0.isPullRequest && $0.user.login == "octocat" }
    ).number
    (status, out, err) = try await world.run(["pr", "review", String(own), "-a"])
    #expect(status != 0 && err.contains("Can not approve your own pull request"), "\(err)")
    #expect(await world.github.submittedReviews(ofPullRequest: own, in: acme).isEmpty)
    (status, out, err) = try await world.run(["pr", "review", String(pull), "-a", "-c"])
    #expect(status != 0 && err.contains("Give one of --approve"), "\(err)")
    (status, out, err) = try await world.run(["pr", "review", String(pull), "--resolve", "7"])
    #expect(status != 0 && err.contains("no review thread that starts with comment 7"), "\(err)")
    (status, out, err) = try await world.run([
      "pr", "review", String(pull), "--line", "x", "-b", "y",
    ])
    #expect(status != 0 && err.contains("--line takes"), "\(err)")
  }
}

extension QueueCommandTests {
  /// Forty reviews of twenty line comments each, queued on one pull request — every other one
  /// with the same words — then `issues queue send` killed with SIGKILL at random while
  /// connections drop and 502s answer applied writes: run again until it finishes, exactly
  /// forty reviews of twenty comments reach GitHub, none twice.
  @Test func killedAtRandomWhileReviewingEveryReviewLandsExactlyOnce() async throws {
    let world = try await World()
    defer { Task { await world.stop() } }
    _ = try await world.run(["sync"])
    let url = IssueCache.defaultURL(
      for: acme, host: await world.github.host,
      environment: ["XDG_CACHE_HOME": world.folder.appendingPathComponent("cache").path])
    let cache = try IssueCache(path: url.path)
    let pull = try #require(
      PullRequestCommandTests.served.first {
        $0.isPullRequest && $0.state == .open && $0.user.login != "octocat"
      }
    ).number
    let head = String(repeating: "c", count: 40)
    await world.github.servePullRequestFiles(
      PullRequestCommandTests.reviewedFiles(), ofPullRequest: pull, in: acme, head: head)
    let seed: UInt64 = 0x4E71_E7ED
    print("review kill seed \(seed)")
    var wanted: [String: Int] = [:]
    for index in 0..<40 {
      let tag = index % 2 == 0 ? "same" : "R\(index)"
      for file in 0..<20 {
        try cache.draftLineComment(
          DraftLineComment(path: "Sources/File\(file).swift", line: 12, body: "\(tag) \(file)"),
          onPullRequest: pull, commitID: head)
      }
      _ = try cache.enqueueReview(
        .comment, body: "Review \(tag)", onPullRequest: pull, headSHA: nil)
      wanted["Review \(tag)", default: 0] += 1
    }
    await world.github.setChaos(
      Chaos(
        seed: seed, dropRead: 0.02, dropBeforeWrite: 0.1, dropAfterWrite: 0.15,
        failAfterWrite: 0.1))
    await world.github.setLatency(.milliseconds(3))
    let kills = try await Self.sendKilledAtRandom(world, cache, seed: seed, runs: 300)
    #expect(try cache.queuedActions().isEmpty)
    #expect(kills >= 3, "some sends were killed mid-way")
    let reviews = await world.github.submittedReviews(ofPullRequest: pull, in: acme)
    var served: [String: Int] = [:]
    for review in reviews { served[review.body, default: 0] += 1 }
    #expect(served == wanted)
    #expect(reviews.allSatisfy { $0.comments.count == 20 })
  }
}
