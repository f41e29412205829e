import Foundation
import GitHubTestSupport
import Testing

@testable import GitHubIssues

/// What the hostile-GitHub suites share: a synthetic repository served by the local GitHub, a
/// synchronizer against it, and the milestone identity checked after every sync.
///
/// The scenarios are two suites, each serialized (they start servers and time out on purpose),
/// so that the two halves run beside each other rather than one after the other.
protocol HostileGitHubScenario {}

extension HostileGitHubScenario {
  var repository: RepositoryName { RepositoryName(owner: "acme", name: "tracker") }
  var issuesPath: String { "/repos/acme/tracker/issues" }
  /// 3,000 items in 30 pages of 100, as GitHub pages them.
  var synthetic: SyntheticRepository {
    SyntheticRepository(itemCount: 3_000, milestoneCount: 12, seed: 11)
  }

  func start() async throws -> LocalGitHub {
    let github = try await LocalGitHub.start()
    try await github.serve(synthetic: synthetic, as: repository)
    return github
  }

  func synchronizer(
    _ github: LocalGitHub, cache: IssueCache, timeout: Double = LocalGitHub.patientTimeout,
    repository: RepositoryName? = nil
  ) async -> IssueSynchronizer {
    var client = GitHubClient(
      host: await github.host, token: "test-token",
      transport: HTTPClientTransport(timeout: timeout))
    client.initialBackoff = .milliseconds(10)
    return IssueSynchronizer(
      client: client, cache: cache, repository: repository ?? self.repository)
  }

  /// "All" is always "No milestone" plus the sum of the milestones, for every state.
  func expectMilestoneIdentity(
    _ cache: IssueCache, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let milestones = try cache.milestones()
    for state in IssueStateFilter.allCases {
      // Counted over the milestones the cache lists: an issue left in a deleted one breaks it.
      let counts = EntryCounts(try cache.listEntries(IssueFilter(state: state)))
      let inMilestones = milestones.map { counts.byMilestone[$0.number, default: 0] }
      #expect(
        counts.all == counts.noMilestone + inMilestones.reduce(0, +),
        sourceLocation: sourceLocation)
    }
  }

  func fullySynced(_ github: LocalGitHub) async throws -> IssueCache {
    let cache = try IssueCache()
    try await synchronizer(github, cache: cache).sync()
    #expect(try cache.syncState().itemCount == 3_000)
    try expectMilestoneIdentity(cache)
    return cache
  }
}
