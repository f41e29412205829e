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
    let issue = try #require(
      SyntheticRepository(itemCount: 40, milestoneCount: 3, seed: 9).make().issues.first {
        $0.state == .open && !$0.isPullRequest
      })
    let path = "/repos/acme/tracker/issues/\(issue.number)/comments"
    _ = try await world.run(["sync"])
    await world.github.inject(.secondaryRateLimit(retryAfter: 2), path: path, method: "POST")
    var (status, _, err) = try await world.run(
      ["comment", String(issue.number), "--body", "Paced."])
    #expect(status == 0, "\(err)")
    #expect(err.contains("Queued: the comment"), "\(err)")
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
