import ArgumentParser
import GitHubIssues

/// `issues help scripts` (or `issues scripts`): what a script written for gh gets from `issues`,
/// and where the two can still be told apart.
struct ScriptsHelp: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "scripts",
    abstract: "Scripts written for gh: the flags, --json, --jq, and what still differs.",
    discussion: """
      `list`, `view`, `pr list` and `pr view` take gh's flags and print what gh prints: to a \
      terminal a table sized to it, to a pipe gh's tab-separated columns (one record a line, \
      control characters shown as ␛, ␇…), and with --json FIELDS gh's field names and shapes \
      with keys sorted as Go writes maps. --jq EXPR runs the expression in gojq, the jq gh is \
      built on (apt install gojq), and prints each result as gh does: a string bare, null as \
      an empty line, a number as gh writes one (10.50, every digit of 1e300), anything else \
      as compact JSON in Go's escaping. input, inputs, debug and stderr fail as in gh, halt \
      and halt_error end with gh's "error: …"; a program that does not compile or stops with \
      an error prints gh's message and exits 1. The program runs apart from issues, at most \
      20 seconds and 1 GiB (more for a large input): past either, or if gojq crashes, one \
      sentence says so and the command exits 1. --jq without --json is refused, as gh \
      refuses it; an empty --jq is none. Usage errors exit \
      1, as gh's do. @me is the token's account, asked of GitHub once per token and \
      remembered in the cache, so offline reads know it too.

      Fields the cache cannot fill truthfully (projects, reactions of an issue, a pull \
      request's files and commits) are refused with the reason, never made up; so is -t \
      (Go templates), naming --jq instead. A pull request's branches, size and review are \
      printed only from its details: those missing are fetched for the command (fifteen at \
      most), and what is still unknown (--offline, GitHub not answering) is refused rather \
      than printed as an empty branch or 0 additions.

      What a script can still tell apart from gh, and why:

      """ + differences)

  /// What differs from gh, a term and its reason each.
  static var differences: String {
    let entries: [(String, String)] = [
      (
        "search",
        "Search is the cache's (issues help search): words match the start of a word in "
          + "titles and bodies, where GitHub also stems words and searches comments; "
          + "qualifiers the cache cannot answer, and OR, are refused rather than ignored."
      ),
      (
        "jq",
        "The installed gojq, which is gh's own jq when their versions match (gh 2.23 has "
          + "0.12.11); halt inside try is caught here, and a program that prints before "
          + "reaching input or debug prints those lines first, where gh fails at once. Whole "
          + "numbers past 2^53 read from GitHub keep their digits (gh rounds them), and "
          + "infinite and nan print as 1.7976931348623157e+308 and null (gh: +Inf, NaN)."
      ),
      (
        "names",
        "REST sends no display names: author and assignee names are empty."
      ),
      (
        "reviews",
        "Read through REST: includesCreatedEdit is always false and reactionGroups "
          + "empty; latestReviews holds ten reviewers at most (gh asks for 100)."
      ),
      (
        "checks",
        "statusCheckRollup reads the head commit's first 100 check runs and 100 statuses."
      ),
      ("messages", "Usage errors say the same things in other words."),
    ]
    return entries.flatMap { HelpText.entry($0.0, $0.1, column: 14) }.joined(separator: "\n")
  }

  func run() {
    // From the root: parsed alone, the command would name itself without "issues".
    print(Issues.helpMessage(for: Self.self), terminator: "")
  }
}
