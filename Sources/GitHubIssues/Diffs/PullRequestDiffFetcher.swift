import Foundation

/// Reads a pull request's files and their patches into the cache, for reading offline: the
/// files' pages (100 a page, ≤ 3,000 files), then the whole diff once (the diff media type),
/// as gh reads it, for each file's header as git writes it (modes, blob ids) and to tell a
/// binary file from a patch dropped for size.
///
/// One listing, one proof, or nothing is kept. The listing must hold exactly the number of
/// files the pull request announces (up to GitHub's 3,000; an answer that announces none
/// proves nothing), each once, every item readable, its pages whole (``ListingProof``). The
/// head and the base are read before the first page, after every page and after the whole
/// diff: a push to either, or a retarget (GitHub retargets a stacked pull request by itself
/// when the one below merges), while they are read keeps nothing — files of two heads or two
/// bases are never mixed. A diff kept for the same head and base is used as it is; another
/// head or base reads the files again. A file GitHub gives no patch for, and no other way to
/// have one (the whole diff refused as too large), says so rather than showing as unchanged.
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
    let base = PullRequestDiff.Base(ref: pull.baseRef, sha: pull.baseSHA)
    if let kept = try? cache.pullRequestDiff(number), kept.headSHA == pull.headSHA,
      kept.base == base
    {
      return kept
    }
    guard let announced = pull.changedFiles else {
      throw GitHubError(
        .incompleteListing, url: place,
        detail: "GitHub did not say how many files it changes, so no listing proves whole")
    }
    // The head and the base, read again: what every page, and the whole diff, must be of.
    func unchanged(_ what: String) async throws(GitHubError) {
      let now = try await client.pullRequest(number, of: repository)
      if now.headSHA != pull.headSHA {
        throw GitHubError(
          .incompleteListing, url: place,
          detail: "it was pushed to while \(what) was read: read it again")
      }
      if PullRequestDiff.Base(ref: now.baseRef, sha: now.baseSHA) != base {
        throw GitHubError(
          .incompleteListing, url: place,
          detail: "its base changed (retargeted, or pushed to) while \(what) was read: "
            + "read it again")
      }
    }
    let expected = min(announced, Self.mostFiles)
    var files: [PullRequestFile] = []
    var proof = ListingProof(announced: expected)
    var paths = Set<String>()
    for try await page in client.pullRequestFilePages(of: repository, pullRequest: number) {
      proof.record(page)
      for file in page.items where !paths.insert(file.path).inserted {
        throw GitHubError(
          .incompleteListing, url: place,
          detail: "the listing gave \(file.path) twice: it changed while it was read")
      }
      files += page.items
      guard files.count <= expected else {
        throw GitHubError(
          .incompleteListing, url: place,
          detail: "it listed more than the \(announced) files announced")
      }
      try await unchanged("its files")
    }
    if let gap = proof.gap {
      throw GitHubError(.incompleteListing, url: place, detail: "its files: \(gap)")
    }
    guard files.count == expected else {
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
    // A push that touches only files the diff adds, or a retarget, leaves no blob id to see:
    // the head and the base are read once more.
    try await unchanged("its diff")
    let diff = PullRequestDiff(
      headSHA: pull.headSHA, files: diffs, announcedFiles: announced, base: base)
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
