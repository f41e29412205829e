import Foundation

/// Brings a repository's issue templates and forms into its cache: one conditional listing of
/// `.github/ISSUE_TEMPLATE/` (a `304` when nothing changed, which costs no rate limit), then
/// only the files whose blob SHA changed.
///
/// The folder is listed in one answer (the contents API lists up to 1,000 entries and pages
/// none), so the listing is complete: a file no longer listed is gone from the repository and
/// is forgotten. Nothing is written until every changed file was read; a failure leaves the
/// cache as it was, for offline use.
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

  /// Reads the folder, updates the cache, and returns the templates.
  package func fetch(now: Date = Date()) async throws(GitHubError) -> IssueTemplates {
    let etags = PendingETagStore(cache: cache)
    let client = client.replacingETagStore(with: etags)
    let listing = try await client.folder(IssueTemplates.folder, of: repository)
    do {
      switch listing {
      case .notModified:
        try cache.markIssueTemplatesChecked(at: now, absent: false, etags: await etags.pending())
      case .absent:
        try cache.markIssueTemplatesChecked(at: now, absent: true, etags: await etags.pending())
      case .listed(let entries):
        let files = entries.filter {
          $0.type == "file" && IssueTemplateFile.kind(of: $0.name) != nil
            && $0.path == IssueTemplates.folder + "/" + $0.name
        }.sorted { $0.name < $1.name }.prefix(Self.mostFiles)
        let known = try cache.issueTemplateSHAs()
        var kept: Set<String> = []
        var fetched: [(name: String, sha: String, text: String)] = []
        for entry in files {
          if known[entry.name] == entry.sha {
            kept.insert(entry.name)
            continue
          }
          let (text, sha) = try await client.fileText(entry.path, of: repository)
          fetched.append((entry.name, sha, text))
        }
        try cache.replaceIssueTemplates(
          kept: kept, fetched: fetched, etags: await etags.pending(), checkedAt: now)
      }
      return try cache.issueTemplates()?.templates ?? IssueTemplates()
    } catch let error as GitHubError {
      throw error
    } catch {
      throw GitHubError(
        .decoding, url: cache.path ?? "cache",
        detail: "the cache could not keep the issue templates: \(error)")
    }
  }
}
