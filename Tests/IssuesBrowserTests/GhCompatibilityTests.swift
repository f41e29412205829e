import Foundation
import GitHubIssues
import GitHubTestSupport
import Testing

#if os(Linux)

/// A script written for gh, run against `issues`: each case is a gh command line and what gh
/// prints for it by its documentation (`gh help formatting`, `gh issue list --help`), worked out
/// from the served issues.
@Suite(.serialized) struct GhCompatibilityTests {
  typealias World = ActionCommandTests.World

  static let served = SyntheticRepository(itemCount: 40, milestoneCount: 3, seed: 9).make().issues

  /// Numbers as gh lists issues: newest created first.
  static func numbers(_ issues: [GitHubIssue], ascending: Bool = false) -> String {
    let sorted = issues.sorted { ($0.createdAt, $0.number) > ($1.createdAt, $1.number) }
    return (ascending ? sorted.reversed() : sorted).map { "\($0.number)\n" }.joined()
  }

  static func has(_ issue: GitHubIssue, label: String) -> Bool {
    issue.labels.contains { $0.name.lowercased() == label.lowercased() }
  }

  /// A string as Go's JSON encoder writes it (what gh prints): `<`, `>`, `&` and the line
  /// separators escaped, control characters as `\n` or `\u00XX`.
  static func goString(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case "<", ">", "&", "\u{2028}", "\u{2029}":
        out +=
          "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
          + String(scalar.value, radix: 16)
      case _ where scalar.value < 0x20:
        out += "\\u00" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16)
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }

  struct Case: CustomStringConvertible {
    var arguments: [String]
    var status: Int32
    var output: String?
    var error: String?
    var description: String { arguments.joined(separator: " ") }
  }

  static var cases: [Case] {
    let issues = served.filter { !$0.isPullRequest }
    let open = issues.filter { $0.state == .open }
    let closed = issues.filter { $0.state == .closed }
    let pulls = served.filter { $0.isPullRequest && $0.state == .open }
    let first = numbers(open).split(separator: "\n").first.map(String.init) ?? ""
    let firstIssue = open.first { "\($0.number)" == first }
    // Two labels one open issue has together.
    let pair =
      open.first { $0.labels.count >= 2 }.map { [$0.labels[0].name, $0.labels[1].name] }
      ?? ["bug", "ui"]
    return [
      // --jq: jq's language, each result a line, strings bare, objects compact with sorted keys.
      Case(
        arguments: ["list", "--json", "number", "--jq", ".[].number"], status: 0,
        output: numbers(open)),
      Case(
        arguments: ["list", "--json", "title,number", "-L", "1", "--jq", ".[0] | {title, number}"],
        status: 0,
        output: firstIssue.map {
          "{\"number\":\($0.number),\"title\":\(Self.goString($0.title))}\n"
        }),
      Case(
        arguments: ["list", "--json", "number", "-q", ".[0].number", "-L", "1"], status: 0,
        output: first + "\n"),
      Case(
        arguments: ["list", "--json", "number", "--jq", ".[0].missing"], status: 0, output: "\n"),
      Case(
        arguments: ["list", "--jq", ".[].number"], status: 1,
        error: "cannot use `--jq` without specifying `--json`"),
      Case(
        arguments: ["list", "--json", "number", "--jq", ".["], status: 1, error: "unexpected EOF"),
      Case(
        arguments: ["list", "--json", "number", "--jq", ".[0].number.x"], status: 1,
        error: "expected an object but got: number"),
      // gh's gojq: input and debug are not there, halt_error ends with gh's message, strings
      // are indexed by character, and a number alone prints as gh writes it.
      Case(
        arguments: ["list", "--json", "number", "--jq", "[inputs]"], status: 1,
        error: "input(s)/0 is not allowed"),
      Case(
        arguments: ["list", "--json", "number", "--jq", "\"gone\" | halt_error"], status: 1,
        error: "error: gone"),
      Case(
        arguments: [
          "list", "--json", "number", "-L", "1", "--jq", "\"héllo wörld\" | index(\"w\"), 10.5",
        ],
        status: 0, output: "6\n10.50\n"),
      Case(
        arguments: [
          "list", "--json", "number", "--jq", "\" ab \" | gsub(\"^\\\\s*|\\\\s*$\"; \"\")",
        ],
        status: 0, output: "ab\n"),
      Case(arguments: ["list", "--json", "number", "-t", "{{.number}}"], status: 1, error: "--jq"),
      // One search language: every qualifier, negation, a value starting with -.
      Case(
        arguments: [
          "list", "-S", "label:bug no:assignee", "--json", "number", "--jq", ".[].number",
        ],
        status: 0,
        output: numbers(open.filter { has($0, label: "bug") && $0.assignees.isEmpty })),
      Case(
        arguments: [
          "list", "-s", "all", "-S", "is:closed", "--json", "number", "--jq", ".[].number", "-L",
          "100",
        ],
        status: 0, output: numbers(closed)),
      // A state asked for in -S sets aside the default --state open, as gh's
      // QueryHasStateClause does; an explicit other state still holds with it.
      Case(
        arguments: [
          "list", "-S", "no:assignee is:closed", "--json", "number", "--jq", ".[].number", "-L",
          "100",
        ],
        status: 0, output: numbers(closed.filter { $0.assignees.isEmpty })),
      Case(
        arguments: [
          "list", "-S", "state:closed", "--json", "number", "--jq", ".[].number", "-L", "100",
        ],
        status: 0, output: numbers(closed)),
      Case(
        arguments: [
          "list", "-S", "closed:>2000-01-01", "--json", "number", "--jq", ".[].number", "-L",
          "100",
        ],
        status: 0, output: numbers(closed)),
      Case(
        arguments: [
          "list", "-S", "-is:closed", "--json", "number", "--jq", ".[].number", "-L", "100",
        ],
        status: 0, output: numbers(open)),
      Case(
        arguments: ["pr", "list", "-S", "is:closed", "--json", "number", "--jq", ".[].number"],
        status: 0,
        output: numbers(served.filter { $0.isPullRequest && $0.state == .closed })),
      Case(
        arguments: ["list", "-S", "-label:bug", "--json", "number", "--jq", ".[].number"],
        status: 0, output: numbers(open.filter { !has($0, label: "bug") })),
      Case(
        arguments: ["list", "-S", "sort:created-asc", "--json", "number", "--jq", ".[].number"],
        status: 0, output: numbers(open, ascending: true)),
      Case(
        arguments: ["list", "-S", "lable:bug", "--json", "number"], status: 1,
        error: "Did you mean label:?"),
      // gh's flag conventions: -s in any case, -l split at commas.
      Case(
        arguments: ["list", "-s", "CLOSED", "--json", "number", "--jq", ".[].number", "-L", "100"],
        status: 0, output: numbers(closed)),
      Case(
        arguments: [
          "list", "-l", pair.joined(separator: ","), "--json", "number", "--jq", ".[].number",
        ],
        status: 0,
        output: numbers(open.filter { has($0, label: pair[0]) && has($0, label: pair[1]) })),
      Case(
        arguments: [
          "list", "--label", pair[0], "--label", pair[1], "--json", "number", "--jq", ".[].number",
        ],
        status: 0,
        output: numbers(open.filter { has($0, label: pair[0]) && has($0, label: pair[1]) })),
      Case(arguments: ["list", "-s", "sideways"], status: 1, error: "sideways"),
      // pr list: newest created first, as gh lists them.
      Case(
        arguments: ["pr", "list", "-L", "1", "--json", "number", "--jq", ".[].number"], status: 0,
        output: String(numbers(pulls).split(separator: "\n").first ?? "") + "\n"),
    ]
  }

  /// `pr list --json` fills node ids and account shapes as `pr view --json` does (gh reads both
  /// from one GraphQL shape).
  @Test func pullRequestListAndViewAgreeOnIdsAndAuthors() async throws {
    let world = try await World()
    defer { Task { await world.stop() } }
    let (synced, _, syncError) = try await world.run(["sync"])
    #expect(synced == 0, "\(syncError)")
    let (status, listed, error) = try await world.run([
      "pr", "list", "-s", "all", "-L", "100", "--json", "number,id,author,assignees", "--offline",
      "--jq", ".[] | tojson",
    ])
    #expect(status == 0, "\(error)")
    let lines = listed.split(separator: "\n")
    #expect(lines.count == Self.served.filter(\.isPullRequest).count)
    for line in lines {
      let object = try #require(
        try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      let number = try #require(object["number"] as? Int)
      #expect((object["id"] as? String)?.isEmpty == false, "#\(number)")
      let (_, viewed, _) = try await world.run([
        "pr", "view", "\(number)", "--json", "number,id,author,assignees", "--offline",
        "--jq", "tojson",
      ])
      #expect(viewed == line + "\n", "#\(number)")
    }
  }

  /// `pr list --json` takes the conversation and file fields `pr view` takes, each listed pull
  /// request read as `pr view` reads it; offline, one never read refuses the list, printing
  /// nothing.
  @Test func pullRequestListTakesTheFieldsViewTakes() async throws {
    let world = try await World()
    defer { Task { await world.stop() } }
    let (synced, _, syncError) = try await world.run(["sync"])
    #expect(synced == 0, "\(syncError)")
    let fields = "number,comments,reviews,statusCheckRollup,reviewThreads"
    var (status, out, err) = try await world.run([
      "pr", "list", "-s", "all", "-L", "3", "--json", fields, "--offline",
    ])
    #expect(status == 1)
    #expect(err.contains("not cached") || err.contains("have not been read"), "\(err)")
    #expect(out.isEmpty)
    (status, out, err) = try await world.run([
      "pr", "list", "-s", "all", "-L", "3", "--json", fields, "--jq", ".[] | tojson",
    ])
    #expect(status == 0, "\(err)")
    let lines = out.split(separator: "\n")
    #expect(lines.count == 3)
    for line in lines {
      let object = try #require(
        try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      let number = try #require(object["number"] as? Int)
      #expect((object["statusCheckRollup"] as? [Any])?.count == 3, "#\(number)")
      let (_, viewed, viewError) = try await world.run([
        "pr", "view", "\(number)", "--json", fields, "--offline", "--jq", "tojson",
      ])
      #expect(viewed == line + "\n", "#\(number): \(viewError)")
    }
  }

  /// `pr view`'s reviewers as gh lists them: those who reviewed, then those asked, each by
  /// name (gh's `sortReviewerStates`), whatever order GitHub gives; a merged pull request's
  /// state is MERGED in `view` too.
  @Test func reviewersAreSortedAndAMergedPullRequestSaysMerged() async throws {
    let world = try await World()
    defer { Task { await world.stop() } }
    let (synced, _, syncError) = try await world.run(["sync"])
    #expect(synced == 0, "\(syncError)")
    var reordered = 0
    for pull in Self.served where pull.isPullRequest {
      let details = LocalGitHub.pullRequestDetails(
        ["number": pull.number, "pull_request": [:] as [String: Any]])
      let requested =
        ((details["reviewRequests"] as? [String: Any])?["nodes"] as? [[String: Any]])?
        .compactMap { $0["requestedReviewer"] as? [String: Any] }
        .map { ($0["login"] as? String) ?? ($0["combinedSlug"] as? String) ?? "" } ?? []
      let reviewed =
        ((details["latestReviews"] as? [String: Any])?["nodes"] as? [[String: Any]])?
        .filter { ($0["author"] as? [String: Any])?["login"] as? String != pull.user.login }
        .map { review -> (String, String) in
          let login = (review["author"] as? [String: Any])?["login"] as? String ?? ""
          let state = (review["state"] as? String ?? "")
          let named = ["APPROVED": "Approved", "CHANGES_REQUESTED": "Changes requested"]
          return (login, named[state] ?? "Commented")
        } ?? []
      let asGitHubGives =
        reviewed.map { "\($0.0) (\($0.1))" } + requested.map { "\($0) (Requested)" }
      let expected =
        reviewed.sorted { $0.0 < $1.0 }.map { "\($0.0) (\($0.1))" }
        + requested.sorted().map { "\($0) (Requested)" }
      if expected != asGitHubGives { reordered += 1 }
      let (status, out, err) = try await world.run(["pr", "view", "\(pull.number)", "--offline"])
      #expect(status == 0, "\(err)")
      let line = out.split(separator: "\n").first { $0.hasPrefix("reviewers:\t") }
      #expect(line == "reviewers:\t" + expected.joined(separator: ", "), "#\(pull.number)")
    }
    #expect(reordered > 0, "a pull request whose reviewers GitHub gives in another order")
    let merged = try #require(Self.served.first { $0.mergedAt != nil })
    let (status, out, err) = try await world.run(["view", "\(merged.number)", "--offline"])
    #expect(status == 0, "\(err)")
    #expect(out.split(separator: "\n").contains("state:\tMERGED"), "\(out)")
  }

  /// A merged pull request's branch and size are printed as GitHub has them, or refused.
  ///
  /// Never as an empty branch or 0 additions. Without a token (no GraphQL), a command fetches
  /// the few it prints through REST.
  @Test func closedPullRequestsShowTheirDetailsOrRefuse() async throws {
    let world = try await World()
    defer { Task { await world.stop() } }
    let (synced, _, syncError) = try await world.run(["sync"], token: nil)
    #expect(synced == 0, "\(syncError)")
    let merged = Self.served.filter { $0.mergedAt != nil }
      .sorted { ($0.createdAt, $0.number) > ($1.createdAt, $1.number) }.prefix(3)
    #expect(merged.count == 3)
    let asked = ["pr", "list", "-s", "merged", "-L", "3", "--json", "number,headRefName,additions"]
    var (status, out, err) = try await world.run(asked + ["--offline"], token: nil)
    #expect(status == 1)
    #expect(err.contains("are not cached"), "\(err)")
    #expect(out.isEmpty)
    (status, out, err) = try await world.run(
      asked + ["--jq", #".[] | "\(.number) \(.headRefName)""#], token: nil)
    #expect(status == 0, "\(err)")
    #expect(out == merged.map { "\($0.number) feature/\($0.number)\n" }.joined())
    // Fetched once, they are the cache's: piped, with the branch.
    (status, out, err) = try await world.run(
      ["pr", "list", "-s", "merged", "-L", "3", "--offline"], token: nil)
    #expect(status == 0, "\(err)")
    #expect(
      out.split(separator: "\n").map { $0.split(separator: "\t")[2] }
        == merged.map { "feature/\($0.number)" })
  }

  /// `viewerDidAuthor` says whether the token's account wrote the comment, asked of GitHub
  /// when not known yet — never `false` only because nothing had asked who `@me` is.
  @Test func viewerDidAuthorIsKnownOrRefused() async throws {
    let world = try await World()
    defer { Task { await world.stop() } }
    let number = try #require(Self.served.first { !$0.isPullRequest }?.number)
    let acme = RepositoryName(owner: "acme", name: "tracker")
    try await world.github.addComment("mine", by: "octocat", on: number, in: acme)
    try await world.github.addComment("theirs", by: "mona", on: number, in: acme)
    let asked = ["view", "\(number)", "--json", "comments", "--jq", ".comments[].viewerDidAuthor"]
    // Synced without a token, so nobody asked who the token's account is: offline, with a
    // token, it cannot be known.
    let (synced, _, syncError) = try await world.run(["sync", "--comments"], token: nil)
    #expect(synced == 0, "\(syncError)")
    var (status, out, err) = try await world.run(asked + ["--offline"])
    #expect(status == 1)
    #expect(err.contains("viewerDidAuthor needs the token's account"), "\(err)")
    (status, out, err) = try await world.run(asked)
    #expect(status == 0, "\(err)")
    #expect(out == "true\nfalse\n")
    // Asked once, it is remembered for the token.
    (status, out, _) = try await world.run(asked + ["--offline"])
    #expect(status == 0 && out == "true\nfalse\n")
  }

  /// gh's review, check and team shapes, byte for byte as gh writes them to a pipe: a review
  /// as its `PullRequestReview` struct (members in order; `latestReviews` without the id and
  /// commit gh does not ask for), a check as a sorted map with Go's zero time for a time not
  /// yet known, a team with its display name.
  @Test func reviewsChecksAndTeamsHaveGhsShapes() async throws {
    let world = try await World()
    defer { Task { await world.stop() } }
    let (synced, _, syncError) = try await world.run(["sync"])
    #expect(synced == 0, "\(syncError)")
    func time(_ seconds: Int) -> String {
      Date(timeIntervalSince1970: Double(seconds)).formatted(
        Date.ISO8601FormatStyle(timeZone: TimeZone(secondsFromGMT: 0) ?? .current))
    }
    // Changes requested, then a comment by another reviewer (`LocalGitHub.reviews(of:)`).
    let reviewed = try #require(Self.served.first { $0.isPullRequest && $0.number % 4 == 1 })
    let n = reviewed.number
    let reviewTime = { (offset: Int) in time(1_650_000_000 + n * 1_000 + offset) }
    func review(
      id: String, _ login: String, _ body: String, _ at: Int, _ state: String, oid: String
    )
      -> String
    {
      #"{"id":"\#(id)","author":{"login":"\#(login)"},"authorAssociation":"MEMBER","body":"\#(body)","#
        + #""submittedAt":"\#(reviewTime(at))","includesCreatedEdit":false,"reactionGroups":[],"#
        + #""state":"\#(state)","commit":{"oid":"\#(oid)"}}"#
    }
    var (status, out, err) = try await world.run([
      "pr", "view", "\(n)", "--json", "latestReviews,reviewRequests", "--offline",
    ])
    #expect(status == 0, "\(err)")
    #expect(
      out == #"{"latestReviews":["#
        + review(id: "", "mona", "Please cover the empty case.", 10, "CHANGES_REQUESTED", oid: "")
        + "," + review(id: "", "octocat", "", 20, "COMMENTED", oid: "")
        + #"],"reviewRequests":[]}"# + "\n")
    // `reviews` comes with the conversation, with each review's id and commit.
    let head = LocalGitHub.headSHA(of: n)
    (status, out, err) = try await world.run(["pr", "view", "\(n)", "--json", "reviews"])
    #expect(status == 0, "\(err)")
    #expect(
      out == #"{"reviews":["#
        + review(
          id: "PRR_kwDO\(n * 10 + 1)", "mona", "Please cover the empty case.", 10,
          "CHANGES_REQUESTED", oid: head) + ","
        + review(id: "PRR_kwDO\(n * 10 + 2)", "octocat", "", 20, "COMMENTED", oid: head)
        + "]}\n")
    // Checks: a GitHub Actions run named by its workflow, another app's run still going (Go's
    // zero time for its end), a status started when it was posted.
    let running = try #require(Self.served.first { $0.isPullRequest && $0.number % 3 == 2 })
    let m = running.number
    let checkTime = { (offset: Int) in time(1_660_000_000 + m * 100 + offset) }
    let jobs = "https://github.com/acme/widgets/actions/runs/\(m)/job"
    (status, out, err) = try await world.run([
      "pr", "view", "\(m)", "--json", "statusCheckRollup",
    ])
    #expect(status == 0, "\(err)")
    #expect(
      out == #"{"statusCheckRollup":[{"__typename":"CheckRun","completedAt":"\#(checkTime(3))","#
        + #""conclusion":"SUCCESS","detailsUrl":"\#(jobs)/build","name":"build","#
        + #""startedAt":"\#(checkTime(1))","status":"COMPLETED","workflowName":"CI"},"#
        + #"{"__typename":"CheckRun","completedAt":"0001-01-01T00:00:00Z","conclusion":"","#
        + #""detailsUrl":"\#(jobs)/test","name":"test","startedAt":"\#(checkTime(1))","#
        + #""status":"IN_PROGRESS","workflowName":""},"#
        + #"{"__typename":"StatusContext","context":"ci/lint","startedAt":"\#(checkTime(5))","#
        + #""state":"SUCCESS","targetUrl":""}]}"# + "\n")
    // A team asked to review: its slug and its display name, after the person asked.
    let team = try #require(Self.served.first { $0.isPullRequest && $0.number % 6 == 0 })
    (status, out, err) = try await world.run([
      "pr", "view", "\(team.number)", "--json", "reviewRequests", "--offline",
    ])
    #expect(status == 0, "\(err)")
    let person = team.number % 4 == 0 ? "octocat" : "mona"
    #expect(
      out == #"{"reviewRequests":[{"__typename":"User","login":"\#(person)"},"#
        + #"{"__typename":"Team","name":"Core maintainers","slug":"acme/core"}]}"# + "\n")
  }

  /// A token GitHub refuses the Actions runs (403: a fine-grained token without Actions, or
  /// Actions turned off) still reads the checks: kept and printed, their workflow unnamed.
  @Test func checksAreKeptWhenActionsRunsAreRefused() async throws {
    let world = try await World()
    defer { Task { await world.stop() } }
    let (synced, _, syncError) = try await world.run(["sync"])
    #expect(synced == 0, "\(syncError)")
    let running = try #require(Self.served.first { $0.isPullRequest && $0.number % 3 == 2 })
    await world.github.inject(.status(403), path: "/repos/acme/tracker/actions/runs", times: 50)
    var (status, out, err) = try await world.run([
      "pr", "view", "\(running.number)", "--json", "statusCheckRollup", "--jq",
      ".statusCheckRollup[] | [.name // .context, .workflowName // \"-\"] | join(\" \")",
    ])
    #expect(status == 0, "\(err)")
    #expect(out == "build \ntest \nci/lint -\n")
    // Kept: offline prints them too.
    (status, out, err) = try await world.run([
      "pr", "view", "\(running.number)", "--json", "statusCheckRollup", "--offline", "--jq",
      ".statusCheckRollup | length",
    ])
    #expect(status == 0, "\(err)")
    #expect(out == "3\n")
  }

  /// What the cache has not read is refused, not printed empty: checks never fetched, offline.
  @Test func checksNeverReadAreRefused() async throws {
    let world = try await World()
    defer { Task { await world.stop() } }
    let (synced, _, syncError) = try await world.run(["sync"])
    #expect(synced == 0, "\(syncError)")
    let pull = try #require(Self.served.first { $0.isPullRequest })
    var (status, out, err) = try await world.run([
      "pr", "view", "\(pull.number)", "--json", "statusCheckRollup", "--offline",
    ])
    #expect(status == 1)
    #expect(err.contains("The checks of #\(pull.number) have not been read"), "\(err)")
    #expect(out.isEmpty)
    (status, out, err) = try await world.run([
      "pr", "view", "\(pull.number)", "--json", "statusCheckRollup", "--jq",
      ".statusCheckRollup | length",
    ])
    #expect(status == 0, "\(err)")
    #expect(out == "3\n")
  }

  /// A workflow's name comes from the network: whatever it holds (escape sequences, a bell, a
  /// NUL, 20,000 characters), `--json` prints it escaped, whole, and nothing reaches the terminal raw.
  @Test func aHostileWorkflowNameIsPrintedEscaped() async throws {
    let world = try await World()
    defer { Task { await world.stop() } }
    let (synced, _, syncError) = try await world.run(["sync"])
    #expect(synced == 0, "\(syncError)")
    let pull = try #require(Self.served.first { $0.isPullRequest })
    let long = String(repeating: "w", count: 20_000)
    let hostile = "CI\u{1B}]0;pwned\u{07}\u{1B}[2J\u{0}" + long
    let runs: [String: Any] = [
      "total_count": 1,
      "workflow_runs": [["id": 1, "name": hostile, "check_suite_id": 7_000]],
    ]
    await world.github.serve(
      "/repos/acme/tracker/actions/runs", body: try JSONSerialization.data(withJSONObject: runs))
    let (status, out, err) = try await world.run([
      "pr", "view", "\(pull.number)", "--json", "statusCheckRollup",
    ])
    #expect(status == 0, "\(err)")
    #expect(!out.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{07}" || $0 == "\u{0}" })
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any])
    let checks = try #require(object["statusCheckRollup"] as? [[String: Any]])
    // Kept whole, but for the NUL, which the cache does not store as it came.
    let name = try #require(checks.first?["workflowName"] as? String)
    #expect(name.hasPrefix("CI\u{1B}]0;pwned\u{07}\u{1B}[2J") && name.hasSuffix(long))
  }

  /// A sync with a token asks once who the token's account is, so that offline reads know.
  @Test func aSyncWithATokenRemembersItsAccount() async throws {
    let world = try await World()
    defer { Task { await world.stop() } }
    let number = try #require(Self.served.first { !$0.isPullRequest }?.number)
    try await world.github.addComment(
      "mine", by: "octocat", on: number, in: RepositoryName(owner: "acme", name: "tracker"))
    let (synced, _, syncError) = try await world.run(["sync", "--comments"])
    #expect(synced == 0, "\(syncError)")
    let (status, out, err) = try await world.run([
      "view", "\(number)", "--json", "comments", "--jq", ".comments[].viewerDidAuthor",
      "--offline",
    ])
    #expect(status == 0, "\(err)")
    #expect(out == "true\n")
    let asked = await world.github.requests.count { $0.target == "/user" }
    #expect(asked == 1)
    _ = try await world.run(["sync"])
    #expect(await world.github.requests.count { $0.target == "/user" } == 1, "asked once per token")
  }

  @Test func scriptsWrittenForGhGetGhsAnswers() async throws {
    let world = try await World()
    defer { Task { await world.stop() } }
    // One sync first; then every case reads the cache as it is.
    let (synced, _, syncError) = try await world.run(["sync"])
    #expect(synced == 0, "\(syncError)")
    for check in Self.cases {
      // A case that expects nothing would pass whatever `issues` did.
      if check.status == 0 { #expect(check.output?.isEmpty == false, "\(check)") }
      let (status, out, err) = try await world.run(check.arguments + ["--offline"])
      #expect(status == check.status, "\(check): \(err)")
      if let output = check.output { #expect(out == output, "\(check)") }
      if let error = check.error { #expect(err.contains(error), "\(check): \(err)") }
    }
  }
}
#endif
