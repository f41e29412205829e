import GitHubIssues
import Testing

@Suite struct GitRemoteURLTests {
  @Test(arguments: [
    ("git@github.com:octo/hello.git", "github.com", "octo/hello"),
    ("https://github.com/octo/hello", "github.com", "octo/hello"),
    ("https://github.com/octo/hello.git/", "github.com", "octo/hello"),
    ("ssh://git@ghe.example.com:2222/team/app.git", "ghe.example.com", "team/app"),
    ("https://user@GHE.example.com/team/app", "ghe.example.com", "team/app"),
  ])
  func remotesNameAHostAndARepository(url: String, host: String, repository: String) throws {
    let remote = try #require(GitRemoteURL(url))
    #expect(remote.host == host)
    #expect(remote.repository == RepositoryName(repository))
  }

  @Test(arguments: ["/srv/git/app.git", "file:///srv/app", "https://github.com/only-owner", ""])
  func localPathsAndOddURLsAreNotRemotes(url: String) {
    #expect(GitRemoteURL(url) == nil)
  }
}
