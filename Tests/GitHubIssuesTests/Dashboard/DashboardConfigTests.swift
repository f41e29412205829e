import Foundation
import GitHubIssues
import Testing

@Suite struct DashboardConfigTests {
  static let sample = """
    # Two hosts, three sections.
    repositories:
      - acme/tracker
      - acme/web
      - ghe.example.com/platform/api
    hosts:
      ghe.example.com:
        api-url: http://127.0.0.1:9090
    sections:
      - title: My pull requests
        query: is:open is:pr author:@me
      - title: Bugs
        query: "is:open label:bug,crash sort:created-asc"
        group-by: repository
      - title: Platform
        query: repo:ghe.example.com/platform/api is:open
    """

  @Test func readsRepositoriesHostsAndSections() throws {
    let config = try DashboardConfig(yaml: Self.sample, file: "dashboard.yml")
    #expect(
      config.repositories.map(\.description) == [
        "acme/tracker", "acme/web", "ghe.example.com/platform/api",
      ])
    #expect(config.repositories[2].host.apiBaseURL.absoluteString == "http://127.0.0.1:9090")
    #expect(config.repositories[2].host.isEnterprise)
    #expect(config.sections.map(\.title) == ["My pull requests", "Bugs", "Platform"])
    #expect(config.sections[1].grouping == .repository)
    #expect(config.sections[1].query.sort == QuerySort(.created, .ascending))
    #expect(
      config.sections[2].query.singleRepository == RepositoryName(owner: "platform", name: "api"))
  }

  @Test func withoutAListTheQueriesNameTheRepositories() throws {
    let config = try DashboardConfig(
      yaml: """
        sections:
          - title: A
            query: repo:acme/tracker is:open
          - title: B
            query: repo:acme/web repo:acme/tracker
        """, file: "d.yml")
    #expect(config.repositories.map(\.description) == ["acme/tracker", "acme/web"])
  }

  /// Each mistake, and the line and column it is reported at.
  @Test(
    arguments: [
      ("sections:\n  - title: A\n    query: is:open lable:bug", 3, 20, "Did you mean label:?"),
      ("sections:\n  - title: A\n    query: \"is:open lable:bug\"", 3, 21, "Unknown qualifier"),
      (
        "sections:\n  - title: A\n    query: repo:a/b\n    colour: red", 4, 5,
        "a section has no “colour”"
      ),
      ("section:\n  - title: A", 1, 1, "did you mean “sections”?"),
      (
        "sections:\n  - title: A\n    query: repo:a/b\n  - title: A\n    query: repo:a/b", 4, 12,
        "two sections are called “A”"
      ),
      ("sections:\n  - title: A", 2, 5, "has no query:"),
      (
        "repositories:\n  - acme\nsections:\n  - title: A\n    query: is:open", 2, 5,
        "not a repository"
      ),
      (
        "repositories: [a/b, a/b]\nsections:\n  - {title: A, query: is:open}", 1, 21, "listed twice"
      ),
      ("repositories: [a/b]\nsections:\n  - {title: A, query: org:nobody}", 3, 23, "names none"),
      ("sections:\n  - title: A\n    query: is:open", 1, 1, "no repositories"),
      ("sections:\n  - title: [A\n", 3, 1, "not valid YAML"),
      ("", 1, 1, "the file is empty"),
      ("sections: []", 1, 11, "sections: is empty"),
      (
        "repositories: [a/b]\nsections:\n  - {title: A, query: is:open, group-by: label}", 3, 42,
        "group-by: takes repository or none"
      ),
      ("hosts:\n  ghe.io:\n    api-url: ftp://x\nsections: []", 3, 14, "should be an http(s) URL"),
    ] as [(String, Int, Int, String)])
  func mistakesAreReportedWhereTheyAre(yaml: String, line: Int, column: Int, message: String) {
    do {
      _ = try DashboardConfig(yaml: yaml, file: "dashboard.yml")
      Issue.record("accepted: \(yaml)")
    } catch {
      #expect(error.file == "dashboard.yml")
      #expect(error.line == line, "\(error)")
      #expect(error.column == column, "\(error)")
      #expect(error.message.contains(message), "\(error)")
    }
  }

  @Test func theStandardDashboardHasTheCurrentRepositoryFirst() throws {
    let current = DashboardSource(host: .github, repository: RepositoryName(owner: "a", name: "b"))
    let other = DashboardSource(host: .github, repository: RepositoryName(owner: "c", name: "d"))
    let config = DashboardConfig.standard(current: current, cached: [other, current])
    #expect(config.repositories == [current, other])
    #expect(
      config.sections.map(\.title) == [
        "a/b", "My pull requests", "Review requests", "Assigned to me",
      ])
    #expect(config.sections[0].query.text == "repo:github.com/a/b is:open is:issue")
    let none = DashboardConfig.standard(current: nil, cached: [other])
    #expect(none.sections.count == 3)
  }

  @Test func theFileLivesInTheXDGConfigFolder() {
    #expect(
      DashboardConfig.defaultURL(environment: ["XDG_CONFIG_HOME": "/x/cfg", "HOME": "/h"]).path
        == "/x/cfg/trellis-issues/dashboard.yml")
    #expect(
      DashboardConfig.defaultURL(environment: ["HOME": "/h"]).path
        == "/h/.config/trellis-issues/dashboard.yml")
  }
}
