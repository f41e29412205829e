import Foundation

extension MirrorSynchronizer {
  /// Finds the issues and pull requests the cache holds and GitHub no longer has (deleted, or
  /// transferred away), by GitHub's counts, each confirmed gone on its own.
  ///
  /// One query counts both (1 point); when they agree with the cache, that is all. Issues the
  /// cache holds too many of are found by the binary search over their update times
  /// (``IssueSynchronizer/findDeletedIssues(in:requests:count:)``), pull requests by a walk of
  /// their numbers (``IssueSynchronizer/findDeletedPullRequests(in:counted:session:requests:)``).
  /// What the counts say is gone and was not found is said in ``Run/skipped``.
  ///
  /// - Returns: The ids of the items GitHub confirmed gone.
  func findDeletions(
    in owner: RepositoryName, rest: IssueSynchronizer, run: inout Run
  ) async throws(GitHubError) -> [Int64] {
    let session = run.session
    let counts = try await session.itemCounts(in: owner)
    let issues = try await rest.findDeletedIssues(in: owner, requests: &run.restRequests) {
      since throws(GitHubError) in
      since == nil ? counts.issues : try await session.issueCount(since: since, in: owner)
    }
    Self.noteUnfound(issues.unfound, "issues", in: &run)
    // A host whose schema has no pull requests counts none: nothing to compare with.
    guard let pullRequests = counts.pullRequests else { return issues.gone }
    let pulls = try await rest.findDeletedPullRequests(
      in: owner, counted: pullRequests, session: session, requests: &run.restRequests)
    Self.noteUnfound(pulls.unfound, "pull requests", in: &run)
    return issues.gone + pulls.gone
  }

  /// Says how many items GitHub's counts show gone that were not found, when some were not.
  private static func noteUnfound(_ unfound: Int, _ kind: String, in run: inout Run) {
    guard unfound > 0 else { return }
    run.skipped.append(
      SkippedItem(
        id: nil, number: nil,
        reason:
          "GitHub counts \(unfound) \(kind) fewer than the cache holds; the next sync looks again"
      ))
  }

  /// After a plain sync of a mirror, deletes what GitHub's counts show it no longer has:
  /// items deleted after the mirror's listing (or during it, hidden then by edits) that no
  /// listing by update time would ever bring, since a deleted item is listed nowhere.
  ///
  /// Costs 1 point when nothing was deleted. Not while a full listing is pending (its own end
  /// deletes), and never fatal: what could not be looked for is said, and the next sync looks
  /// again.
  func deleteWhatGitHubNoLongerHas(_ run: inout Run) async {
    guard (try? cache.syncState())?.pendingFullListing == nil else { return }
    let rest = IssueSynchronizer(client: client, cache: cache, repository: repository)
    do throws(GitHubError) {
      let gone = try await findDeletions(in: repository, rest: rest, run: &run)
      run.deleted += try step("write") { try cache.deleteGone(gone) }
    } catch {
      run.skipped.append(
        SkippedItem(
          id: nil, number: nil,
          reason:
            "items deleted on GitHub were not looked for (\(error.summary())); the next sync looks again"
        ))
    }
  }
}
