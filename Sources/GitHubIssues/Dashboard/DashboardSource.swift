/// A repository a dashboard reads: its name and host, and the name it is shown by.
public struct DashboardSource: Hashable, Sendable, CustomStringConvertible {
  /// The host (its API root decides where the cache is kept).
  public var host: GitHubHost
  /// The repository.
  public var repository: RepositoryName

  /// A repository on a host.
  public init(host: GitHubHost, repository: RepositoryName) {
    self.host = host
    self.repository = repository
  }

  /// `OWNER/REPO` on github.com, `HOST/OWNER/REPO` elsewhere, as gh writes `GH_REPO`.
  public var description: String {
    host.name == GitHubHost.github.name ? "\(repository)" : "\(host.name)/\(repository)"
  }
}
