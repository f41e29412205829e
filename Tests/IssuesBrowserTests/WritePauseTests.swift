import Foundation
import GitHubIssues
import GitHubTestSupport
import Testing

extension ActionCommandTests {
  /// A secondary limit's `retry-after` is kept in the cache and honoured by the next process:
  /// `queue send` half a second later sends nothing and says until when; once the pause is
  /// over the comment goes, once.
  @Test func aSecondaryLimitsPauseIsKeptAcrossCommands() async throws {
    let world = try await World()
    defer { Task { await world.stop() } }
    let issue = try await openIssue(world)
    let path = "/repos/acme/tracker/issues/\(issue.number)/comments"
    _ = try await world.run(["sync"])
    await world.github.inject(.secondaryRateLimit(retryAfter: 2), path: path, method: "POST")
    var (status, _, err) = try await world.run(
      ["comment", String(issue.number), "--body", "Paced."])
    #expect(status == 0, "\(err)")
    #expect(err.contains("Queued: comment on"), "\(err)")
    #expect(await world.github.writeAttempts.count { $0 == "POST \(path)" } == 1)
    // At once, from another process: nothing is sent, and it says so.
    (status, _, err) = try await world.run(["queue", "send"])
    #expect(await world.github.writeAttempts.count { $0 == "POST \(path)" } == 1, "\(err)")
    #expect(err.contains("secondary rate limit") && err.contains("until"), "\(err)")
    // After the pause: sent once.
    try await Task.sleep(for: .seconds(2.5))
    (status, _, err) = try await world.run(["queue", "send"])
    #expect(status == 0, "\(err)")
    #expect(await world.github.commentBodies(of: issue.number, in: acme) == ["Paced."])
    #expect(await world.github.writeAttempts.count { $0 == "POST \(path)" } == 2)
  }
}

extension ActionCommandTests {
  /// A comment GitHub applies late — after the command gave up waiting — is not sent again by
  /// a `queue send` a moment later: within the grace an unanswered write is only looked for;
  /// once GitHub shows it, it is found, and GitHub holds one comment.
  @Test func aWriteAppliedLateIsLookedForNotSentAgain() async throws {
    let world = try await World()
    defer { Task { await world.stop() } }
    let issue = try await openIssue(world)
    let path = "/repos/acme/tracker/issues/\(issue.number)/comments"
    let grace = ["TRELLIS_UNANSWERED_GRACE": "8"]
    _ = try await world.run(["sync"])
    // GitHub takes 4 s; the command waits 1 s for an answer.
    await world.github.inject(.delayed(seconds: 4), path: path, method: "POST")
    var (status, _, err) = try await world.run(
      ["comment", String(issue.number), "--body", "Late.", "--timeout", "1"], environment: grace)
    #expect(status == 0, "\(err)")
    #expect(err.contains("Queued: comment on"), "\(err)")
    // A moment later, before GitHub applied it: looked for, not sent.
    (status, _, err) = try await world.run(["queue", "send"], environment: grace)
    #expect(await world.github.writeAttempts.count { $0 == "POST \(path)" } == 1, "\(err)")
    // GitHub applies it; the next send finds it.
    try await Task.sleep(for: .seconds(4))
    (status, _, err) = try await world.run(["queue", "send"], environment: grace)
    #expect(status == 0, "\(err)")
    #expect(await world.github.commentBodies(of: issue.number, in: acme) == ["Late."])
    #expect(await world.github.writeAttempts.count { $0 == "POST \(path)" } == 1)
    let (_, out, _) = try await world.run(["queue"])
    #expect(out.isEmpty, "\(out)")
  }
}
