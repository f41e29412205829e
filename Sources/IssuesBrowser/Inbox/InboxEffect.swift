import GitHubIssues

/// What the inbox asks of its host.
public enum InboxEffect: Hashable, Sendable {
  /// Leave (`q`).
  case quit
  /// Leave as interrupted (Ctrl-C).
  case interrupted
  /// Read a thread's issue or pull request in its repository's browser (Enter).
  case read(host: Int, repository: RepositoryName, number: Int)
  /// Send the host's queued triage now.
  case sendTriage(host: Int)
  /// Ask every host for its inbox now (`R`).
  case refresh
  /// Open a URL in the web browser (`o`).
  case open(String)
  /// Run one of the person's commands on the focused thread's subject.
  case run(CommandRun)
}
