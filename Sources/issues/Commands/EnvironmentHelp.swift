import ArgumentParser
import GitHubIssues

/// `issues help environment` (or `issues environment`): the variables `issues` reads, the files
/// it keeps, and its exit statuses.
struct EnvironmentHelp: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "environment",
    abstract: "The environment variables it reads, the files it keeps, its exit statuses.",
    discussion: text)

  func run() {
    // From the root: parsed alone, the command would name itself without "issues".
    print(Issues.helpMessage(for: Self.self), terminator: "")
  }

  /// The page: a paragraph per group, then its entries.
  static var text: String {
    func section(_ heading: String, _ entries: [(String, String)], column: Int = 20) -> [String] {
      [heading, ""] + entries.flatMap { HelpText.entry($0.0, $0.1, column: column) } + [""]
    }
    var lines: [String] = []
    lines += section(
      "Tokens and hosts, read as gh reads them (a token goes to its host's API root only):",
      [
        (
          "GH_TOKEN, GITHUB_TOKEN",
          "The token for github.com; without either, `gh auth token` is asked. Public "
            + "repositories need none (at GitHub's lower rate limit)."
        ),
        ("GH_ENTERPRISE_TOKEN, GITHUB_ENTERPRISE_TOKEN", "The token for an Enterprise host."),
        (
          "GH_HOST",
          "The host when neither --hostname nor the repository names one (default: github.com)."
        ),
        (
          "GH_REPO",
          "The repository when no argument names one: OWNER/REPO or HOST/OWNER/REPO (without "
            + "it, the current directory's git remote)."
        ),
      ])
    lines += section(
      "The network. The token goes only to the API root: a link or redirect to another host is "
        + "refused, naming it (a same-host redirect for a renamed repository is followed, and "
        + "said). Reads that fail (a dropped connection, a 5xx) are retried with backoff, "
        + "writes never (issues help offline); a server silent for --timeout seconds (15) is "
        + "reported, and paging stops at a repeated page or past the last one announced. "
        + "Rate limits are said with which limit, when it lifts, and whether a token would "
        + "help. Proxies:",
      [
        (
          "https_proxy, HTTPS_PROXY, http_proxy, all_proxy, ALL_PROXY",
          "A proxy, read as curl reads them: http://[user:password@]host[:port] (CONNECT for "
            + "https) or socks5://host[:port]. A proxy that cannot be used fails the request "
            + "rather than going around it; loopback hosts are always reached directly."
        ),
        (
          "no_proxy, NO_PROXY",
          "The hosts reached directly (a domain covers its subdomains; * all)."
        ),
        (
          "TRELLIS_UNANSWERED_GRACE",
          "Seconds a write sent without an answer is only looked for on GitHub before it may be "
            + "sent again (default 30: GitHub may still apply it that long after the client "
            + "gave up)."
        ),
      ])
    lines += section(
      "The terminal:",
      [
        ("NO_COLOR", "No colour: the focus and the selected chip are drawn in reverse video."),
        (
          "COLORTERM, TERM",
          "The colour depth: 24-bit, 256 or 16 colours. With TERM=dumb or no TERM the screens "
            + "do not start and say what prints instead."
        ),
        ("TRELLIS_ACCESSIBLE", "1: the accessible mode, as --accessible."),
        ("VISUAL, EDITOR", "The editor a comment is written in."),
        ("COLUMNS", "The width of a printed table when standard output is not a terminal."),
      ])
    lines += section(
      "Files (under ~/.config, ~/.cache and ~/.local/state, or XDG_CONFIG_HOME, XDG_CACHE_HOME "
        + "and XDG_STATE_HOME):",
      [
        (
          "$XDG_CONFIG_HOME/trellis-issues/dashboard.yml",
          "The configuration: the dashboard, keys, commands, theme (issues help config)."
        ),
        (
          "$XDG_CACHE_HOME/trellis-issues/HOST/OWNER/REPO.sqlite",
          "A repository's cache, and its queue of actions waiting to reach GitHub: delete it to "
            + "start over once `issues queue` lists nothing. What --api-url fetched is kept "
            + "under that API's host and port. A damaged file is moved aside to "
            + "REPO.sqlite.bad-TIME and a new one started."
        ),
        (
          "$XDG_CACHE_HOME/trellis-issues/HOST/inbox.sqlite",
          "The inbox's threads, and its triage waiting to be sent."
        ),
        (
          "$XDG_STATE_HOME/trellis-issues/HOST/OWNER/REPO/drafts/N.md",
          "A comment written in the editor, until it is queued (and again if GitHub refuses "
            + "it); readable by you only."
        ),
      ], column: 6)
    lines += section(
      "Exit statuses:",
      [
        (
          "0",
          "Done; also when GitHub could not be reached and an action waits in the queue (said "
            + "on standard error)."
        ),
        (
          "1",
          "Anything else: a usage mistake, GitHub refusing, a listing that could not prove it "
            + "was complete (then nothing was deleted)."
        ),
        ("130", "Interrupted (Ctrl-C)."),
      ], column: 8)
    return lines.dropLast().joined(separator: "\n")
  }
}
