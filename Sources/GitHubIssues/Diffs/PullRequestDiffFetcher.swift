import Foundation

/// Reads a pull request's files and their patches into the cache, for reading offline: the
/// files' pages (100 a page, ≤ 3,000 files), then the whole diff once (the diff media type),
/// as gh reads it, for each file's header as git writes it (modes, blob ids) and to tell a
/// binary file from a patch dropped for size.
///
/// The listing is complete or nothing is kept: it must reach the number of files the pull
/// request announces (up to GitHub's 3,000), every item readable. A file GitHub gives no
/// patch for, and no other way to have one (the whole diff refused as too large), says so
/// rather than showing as unchanged. The head commit is read first: a diff kept for it is
/// used as it is; a push reads the files again, and a push while the files are read keeps
/// nothing (the head is read again after the last page).
package struct PullRequestDiffFetcher: Sendable {
  package var client: GitHubClient
  package var cache: IssueCache
  package var repository: RepositoryName
  /// The most files GitHub lists of a pull request.
  package static let mostFiles = 3_000

  package init(client: GitHubClient, cache: IssueCache, repository: RepositoryName) {
    self.client = client
    self.cache = cache
    self.repository = repository
  }

  /// The diff at the pull request's head, read from GitHub unless the cache has it.
  package func fetch(_ number: Int, now: Date = Date()) async throws(GitHubError)
    -> PullRequestDiff
  {
    let place = "files of \(repository)#\(number)"
    let pull = try await client.pullRequest(number, of: repository)
    if let kept = try? cache.pullRequestDiff(number), kept.headSHA == pull.headSHA {
      return kept
    }
    var files: [PullRequestFile] = []
    for try await page in client.pullRequestFilePages(of: repository, pullRequest: number) {
      guard page.skipped.isEmpty else {
        throw GitHubError(
          .incompleteListing, url: place, detail: "a file of the listing could not be read")
      }
      files += page.items
      if files.count >= Self.mostFiles { break }
    }
    files = Array(files.prefix(Self.mostFiles))
    // A push while the pages were read mixes two heads' files: read the head again.
    let after = try await client.pullRequest(number, of: repository)
    guard after.headSHA == pull.headSHA else {
      throw GitHubError(
        .incompleteListing, url: place,
        detail: "it was pushed to while its files were read: read it again")
    }
    let announced = pull.changedFiles ?? files.count
    guard files.count >= min(announced, Self.mostFiles) else {
      throw GitHubError(
        .incompleteListing, url: place,
        detail: "it listed \(files.count) of the \(announced) files announced")
    }
    var diffs = files.map { file in
      FileDiff(
        path: file.path, previousPath: file.previousPath, status: file.status,
        additions: file.additions, deletions: file.deletions,
        content: file.patch.map { .patch($0) } ?? .unavailable("GitHub gave no patch"))
    }
    // GitHub's whole diff: each file's header as git writes it (modes, blob ids: what
    // `git apply` needs), and the patches the listing left out — binary, or dropped for size.
    if let whole = try await client.pullRequestDiff(of: repository, pullRequest: number) {
      let sections = GitDiffSections.sections(whole)
      for index in diffs.indices {
        guard let section = sections[diffs[index].path] else {
          if case .unavailable = diffs[index].content {
            diffs[index].content = .unavailable("GitHub's diff of the pull request leaves it out")
          }
          continue
        }
        // A push after the files were listed gives another head's diff: its blob ids say so.
        if let blob = section.newBlob, !blob.isEmpty, let sha = files[index].blob,
          !blob.allSatisfy({ $0 == "0" }), !sha.hasPrefix(blob)
        {
          throw GitHubError(
            .incompleteListing, url: place,
            detail: "it was pushed to while its files were read: read it again")
        }
        diffs[index].header = section.header
        guard case .unavailable = diffs[index].content else { continue }
        switch section.content {
        case .patch(let text):
          diffs[index].content = .patch(text)
          // A patch dropped for size is listed as changing nothing: the patch counts.
          if diffs[index].additions + diffs[index].deletions == 0,
            let counts = try? Patch(parsing: text).changeCount
          {
            (diffs[index].additions, diffs[index].deletions) = counts
          }
        case .binary: diffs[index].content = .binary
        case .noTextChanges: diffs[index].content = .noTextChanges
        }
      }
    } else {
      for index in diffs.indices {
        guard case .unavailable = diffs[index].content else { continue }
        diffs[index].content = .unavailable(
          "GitHub gave no patch, and its diff of the pull request is too large to read")
      }
    }
    let diff = PullRequestDiff(headSHA: pull.headSHA, files: diffs, announcedFiles: announced)
    do {
      try cache.keepPullRequestDiff(diff, of: number, at: now)
    } catch {
      throw GitHubError(
        .decoding, url: cache.path ?? "cache", detail: "the cache could not keep the diff: \(error)"
      )
    }
    // The pull request itself, when no sync brought it: what is drafted on its diff offline
    // (line comments, a review) hangs on it. A failure here leaves the diff kept.
    if (try? cache.issue(number: number)) == nil,
      let issue = try? await client.issue(number, of: repository)
    {
      try? cache.confirm(issue)
    }
    return diff
  }
}
