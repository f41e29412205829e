import Foundation

/// Brings a repository's issue templates and forms into its cache: one conditional listing of
/// `.github/ISSUE_TEMPLATE/` (a `304` when nothing changed, which costs no rate limit), then
/// only the files whose blob SHA changed.
///
/// The folder is listed in one answer (the contents API lists up to 1,000 entries and pages
/// none), so the listing is complete: a file no longer listed is gone from the repository and
/// is forgotten. Nothing is written until every changed file was read; a failure leaves the
/// cache as it was, for offline use.
///
/// What the server says is not trusted: only plain files named in the folder itself are read
/// (no `/` in a name, the path the folder's own), at most ``mostFiles`` of them; a file listed
/// larger than 1 MB is not asked for; a file that does not come as the bytes announced, or is
/// not UTF-8, is refused. A refused file is reported in the result's
/// ``IssueTemplates/problems`` and skipped — its earlier version, if one was kept, stays.
package struct IssueTemplateFetcher: Sendable {
  /// The client the reads go through.
  package var client: GitHubClient
  /// The cache the files are kept in.
  package var cache: IssueCache
  /// The repository.
  package var repository: RepositoryName
  /// The most template files read from one folder: GitHub's chooser shows a handful; a folder
  /// listing more is read up to this many, by name.
  package static let mostFiles = 100

  /// A fetcher for a repository's templates.
  package init(client: GitHubClient, cache: IssueCache, repository: RepositoryName) {
    self.client = client
    self.cache = cache
    self.repository = repository
  }

  /// One file's text and blob SHA, or why not.
  private static func read(
    _ path: String, with client: GitHubClient, of repository: RepositoryName
  ) async -> Result<(String, String), GitHubError> {
    do {
      let (text, sha) = try await client.fileText(path, of: repository)
      return .success((text, sha))
    } catch {
      return .failure(error)
    }
  }

  /// Reads the folder, updates the cache, and returns the templates.
  package func fetch(now: Date = Date()) async throws(GitHubError) -> IssueTemplates {
    let etags = PendingETagStore(cache: cache)
    let client = client.replacingETagStore(with: etags)
    let listing = try await client.folder(IssueTemplates.folder, of: repository)
    var refused: [ConfigFileError] = []
    do {
      switch listing {
      case .notModified:
        try cache.markIssueTemplatesChecked(at: now, absent: false, etags: await etags.pending())
      case .absent:
        try cache.markIssueTemplatesChecked(at: now, absent: true, etags: await etags.pending())
      case .listed(let entries):
        let files = entries.filter {
          $0.type == "file" && IssueTemplateFile.kind(of: $0.name) != nil
            && !$0.name.contains("/") && $0.path == IssueTemplates.folder + "/" + $0.name
        }.sorted { $0.name < $1.name }.prefix(Self.mostFiles)
        let known = try cache.issueTemplateSHAs()
        var kept: Set<String> = []
        var fetched: [(name: String, sha: String, text: String)] = []
        for entry in files {
          if known[entry.name] == entry.sha {
            kept.insert(entry.name)
            continue
          }
          let reason: String
          if entry.size > GitHubClient.largestContentFile {
            reason = "it is \(entry.size) bytes; files over 1 MB are not read"
          } else {
            switch await Self.read(entry.path, with: client, of: repository) {
            case .success(let (text, sha)):
              fetched.append((entry.name, sha, text))
              continue
            case .failure(let error) where error.code == .decoding:
              reason = error.detail ?? error.summary()
            case .failure(let error): throw error
            }
          }
          let hadOne = known[entry.name] != nil
          if hadOne { kept.insert(entry.name) }
          refused.append(
            ConfigFileError(
              file: entry.path, line: 1, column: 1,
              message: "not read: \(reason)" + (hadOne ? " (the version read before is kept)" : ""))
          )
        }
        try cache.replaceIssueTemplates(
          kept: kept, fetched: fetched, etags: await etags.pending(), checkedAt: now)
      }
      var templates = try cache.issueTemplates()?.templates ?? IssueTemplates()
      templates.problems = refused + templates.problems
      return templates
    } catch let error as GitHubError {
      throw error
    } catch {
      throw GitHubError(
        .decoding, url: cache.path ?? "cache",
        detail: "the cache could not keep the issue templates: \(error)")
    }
  }
}
