import GitHubIssues
import Testing
import TrellisTestSupport

@Suite struct SearchQueryTests {
  @Test func readsGitHubsQualifiersAndNegation() throws {
    let query = try SearchQuery(
      parsing:
        #"is:open is:pr -label:wip label:bug,"good first issue" milestone:"1.0" repo:acme/tracker"#
        + #" org:acme author:@me assignee:octo-cat mentions:app/dependabot NOT crash"#
        + #" "exact words" comments:>10 updated:<=2026-11-01 sort:created-asc"#)
    #expect(
      query.terms == [
        QueryTerm(.state(.open)), QueryTerm(.kind(.pullRequest)),
        QueryTerm(.label(anyOf: ["wip"]), .exclude),
        QueryTerm(.label(anyOf: ["bug", "good first issue"])),
        QueryTerm(.milestone("1.0")),
        QueryTerm(.repository(RepositoryName(owner: "acme", name: "tracker"), host: nil)),
        QueryTerm(.owner("acme")), QueryTerm(.author(.me)),
        QueryTerm(.assignee(.login("octo-cat"))), QueryTerm(.mentions(.login("dependabot[bot]"))),
        QueryTerm(.text("crash"), .exclude), QueryTerm(.phrase("exact words")),
        QueryTerm(.comments(.greater(than: 10))),
        QueryTerm(.updated(.atMost(Self.instant("2026-11-01")))),
      ])
    #expect(query.sort == QuerySort(.created, .ascending))
    #expect(try SearchQuery(parsing: query.text) == query)
  }

  @Test func errorsNameTheColumnAndTheFix() {
    func error(_ text: String) -> QuerySyntaxError? {
      do {
        _ = try SearchQuery(parsing: text)
        return nil
      } catch {
        return error
      }
    }
    let unknown = error("is:open lable:bug")
    #expect(unknown?.offset == 8)
    #expect(unknown?.length == 9)
    #expect(unknown?.message.contains("Did you mean label:?") == true)
    #expect(error(#"is:open "no end"#)?.offset == 8)
    #expect(error("is:open OR is:closed")?.message.hasPrefix("OR is not supported") == true)
    #expect(
      error("team-review-requested:acme/core")?.message.contains(
        "teams a pull request asks to review") == true)
    #expect(error("linked:pr")?.message.contains("cannot be answered offline yet") == true)
    #expect(
      error("is:maybe")?.message
        == "is: takes open, closed, issue, pr, pull-request, draft, merged or unmerged, not “maybe”."
    )
    #expect(error("review:maybe")?.message.contains("approved, changes_requested") == true)
    #expect(error("status:green")?.message.contains("success, failure or pending") == true)
    #expect(error("review-requested:a/") != nil)
    #expect(error("sort:stars")?.offset == 0)
    #expect(error("sort:created sort:updated")?.message.contains("column 1") == true)
    #expect(error("author:a--b")?.message.contains("login or @me") == true)
    #expect(error("created:2026-02-30")?.message.contains("a date such as") == true)
    #expect(error("comments:*..*") != nil)
    #expect(error("label:")?.message == "label: needs a value.")
    #expect(error("ab\"c d\"")?.message.contains("quote the whole phrase") == true)
    #expect(error("crash NOT")?.offset == 6)
    #expect(error("- bug")?.offset == 0)
    // Not qualifiers: words with a colon whose key is not a name.
    #expect(error("10:30 TypeError: ::") == nil)
  }

  @Test func intervalsCoverWholeDaysAndCounts() throws {
    let day = try #require(QueryInstant(queryText: "2026-11-25"))
    #expect(day.queryText == "2026-11-25")
    #expect(QueryInstant(queryText: "2026-11-25T10:00:00Z") != nil)
    for bad in ["2026-13-01", "2026-02-29", "26-01-01", "2026-1-1", "yesterday", ""] {
      #expect(QueryInstant(queryText: Substring(bad)) == nil, "\(bad)")
    }
    #expect(QueryInstant(queryText: "2028-02-29") != nil)
    let query = try SearchQuery(
      parsing: "comments:5..20 comments:*..3 comments:7..* created:2026-01-01")
    #expect(
      query.terms.map(\.condition) == [
        .comments(.between(5, 20)), .comments(.atMost(3)), .comments(.atLeast(7)),
        .created(.equal(Self.instant("2026-01-01"))),
      ])
  }

  @Test func scopeTermsChooseRepositories() throws {
    let tracker = RepositoryName(owner: "acme", name: "tracker")
    let web = RepositoryName(owner: "acme", name: "web")
    let other = RepositoryName(owner: "octo", name: "tracker")
    let query = try SearchQuery(parsing: "org:acme -repo:acme/web repo:octo/tracker is:open")
    #expect(query.includes(tracker, host: "github.com"))
    #expect(!query.includes(web, host: "github.com"))
    #expect(query.includes(other, host: "ghe.example.com"))
    let onHost = try SearchQuery(parsing: "repo:ghe.example.com/acme/tracker")
    #expect(onHost.includes(tracker, host: "GHE.example.com"))
    #expect(!onHost.includes(tracker, host: "github.com"))
    #expect(onHost.singleRepository == tracker)
    #expect(try SearchQuery(parsing: "is:open").includes(web, host: "github.com"))
    #expect(try SearchQuery(parsing: "host:github.com").includes(web, host: "github.com"))
    #expect(try !SearchQuery(parsing: "-host:github.com").includes(web, host: "github.com"))
  }

  /// Random queries written as text read back as themselves; random text never traps, and an
  /// error points inside the query.
  @Test func writingAndReadingAgreeOnRandomQueries() throws {
    let seed: UInt64 = 0xDA5B_0A2D
    print("SearchQueryTests seed \(seed)")
    var random = SplitMix64(seed: seed)
    for _ in 0..<2_000 {
      let query = Self.randomQuery(&random)
      let text = query.text
      #expect(try SearchQuery(parsing: text) == query, "\(text)")
    }
    let alphabet = Array(#"ab -:"NOT,.<>=*@/12 \#t"#)
    for _ in 0..<5_000 {
      let count = Int(random.next() % 24)
      let text = String(
        (0..<count).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] })
      do {
        let query = try SearchQuery(parsing: text)
        #expect(try SearchQuery(parsing: query.text) == query, "\(text)")
      } catch {
        #expect(error.offset >= 0 && error.offset + error.length <= max(text.count, 1), "\(text)")
      }
    }
  }

  static func instant(_ text: String) -> QueryInstant {
    guard let instant = QueryInstant(queryText: Substring(text)) else {
      preconditionFailure("“\(text)” is not an instant")
    }
    return instant
  }

  static func randomQuery(_ random: inout SplitMix64) -> SearchQuery {
    func pick<T>(_ values: [T]) -> T { values[Int(random.next() % UInt64(values.count))] }
    let words = ["crash", "a:b", "-x", "NOT", "한글", "x,y", "OR"]
    let logins = [QueryActor.me, .login("octocat"), .login("dependabot[bot]")]
    let counts: [QueryInterval<Int>] = [.equal(3), .greater(than: 1), .atMost(9), .between(2, 5)]
    let instants: [QueryInterval<QueryInstant>] = [
      .atLeast(instant("2026-01-01")),
      .less(than: instant("2026-06-30T12:00:00Z")),
      .between(instant("2025-12-31"), instant("2026-01-02")),
    ]
    func condition() -> QueryCondition {
      switch random.next() % 29 {
      case 28: .phrase(pick(["dark mode", "NOT this", "a:b c", "-x y"]))
      case 19: .draft(pick([true, false]))
      case 20: .merged(pick([true, false]))
      case 21: .mergedAt(pick(instants))
      case 22: .reviewRequested(pick(["@me", "octocat", "acme/core-team", "dependabot[bot]"]))
      case 23: .reviewedBy(pick(logins))
      case 24: .review(pick(QueryReview.allCases))
      case 25: .status(pick(PullRequestDetails.Checks.allCases))
      case 26: .base(pick(["main", "release/1.0"]))
      case 27: .head(pick(["feature/x", "fix"]))
      case 0: .state(pick([.open, .closed]))
      case 1: .kind(pick([.issue, .pullRequest]))
      case 2: .issueType(pick(["Bug", "Feature request"]))
      case 3: .label(anyOf: pick([["bug"], ["good first issue", "ui"], ["a,b"]]))
      case 4: .milestone(pick(["1.0", "next release"]))
      case 5: .missing(pick(QueryField.allCases))
      case 6:
        .repository(RepositoryName(owner: "acme", name: "web.site"), host: pick([nil, "ghe.io"]))
      case 7: .owner("acme")
      case 8: .host("ghe.example.com")
      case 9: .author(pick(logins))
      case 10: .assignee(pick(logins))
      case 11: .mentions(pick(logins))
      case 12: .commenter(pick(logins))
      case 13: .involves(pick(logins))
      case 14: .comments(pick(counts))
      case 15: .created(pick(instants))
      case 16: .updated(pick(instants))
      case 17: .closed(pick(instants))
      default: .text(pick(words))
      }
    }
    let terms = (0..<Int(random.next() % 6)).map { _ in
      QueryTerm(condition(), pick([.include, .exclude]))
    }
    let sort = QuerySort(pick(QuerySort.Key.allCases), pick([.descending, .ascending]))
    return SearchQuery(terms: terms, sort: random.next() % 3 == 0 ? nil : sort)
  }

  /// A quoted phrase is its words in order, not the words anywhere; one quoted word is a word.
  @Test func aPhraseIsAPhrase() throws {
    let query = try SearchQuery(parsing: #""startup  fails" "crash""#)
    #expect(query.terms == [QueryTerm(.phrase("startup fails")), QueryTerm(.text("crash"))])
  }

  /// The table is the language: every answered qualifier's example reads as a term of that
  /// qualifier and back, every unanswered one is refused naming what it needs, and misspellings
  /// are suggested from the table's names.
  @Test func everyQualifierOfTheTableReadsItsExample() throws {
    #expect(Set(SearchQualifier.all.map(\.name)).count == SearchQualifier.all.count)
    for qualifier in SearchQualifier.all {
      if let needs = qualifier.needs {
        #expect(throws: QuerySyntaxError.self) { try SearchQuery(parsing: qualifier.example) }
        do {
          _ = try SearchQuery(parsing: qualifier.example)
        } catch {
          #expect(error.message.contains(needs), "\(qualifier.name)")
        }
        continue
      }
      #expect(qualifier.example.lowercased().hasPrefix(qualifier.name + ":"), "\(qualifier.name)")
      let query = try SearchQuery(parsing: qualifier.example)
      #expect(query.terms.count + (query.writtenSort == nil ? 0 : 1) == 1, "\(qualifier.name)")
      #expect(try SearchQuery(parsing: query.text) == query, "\(qualifier.name)")
      // Names are read in any case.
      let shouted = qualifier.name.uppercased() + qualifier.example.dropFirst(qualifier.name.count)
      #expect(try SearchQuery(parsing: shouted) == query, "\(shouted)")
      // Misspelt by one letter, it is suggested.
      if qualifier.name.count > 3 {
        let misspelt = String(qualifier.name.dropLast()) + "q"
        #expect(SearchQualifier.suggestion(for: misspelt) == qualifier.name, "\(misspelt)")
      }
    }
    #expect(SearchQualifier.helpText.contains("milestone:TITLE"))
  }
}
