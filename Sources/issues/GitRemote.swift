import Foundation
import GitHubIssues

/// The current directory's git remote, as `gh` uses it when no repository is named.
enum GitRemote {
  /// The `origin` remote (or the first one), if the directory is in a clone of a hosted repository.
  static func current() -> GitRemoteURL? {
    guard let names = run(["remote"])?.split(separator: "\n").map(String.init), !names.isEmpty
    else { return nil }
    let ordered = names.contains("origin") ? ["origin"] + names.filter { $0 != "origin" } : names
    for name in ordered {
      if let url = run(["remote", "get-url", name]), let remote = GitRemoteURL(url) {
        return remote
      }
    }
    return nil
  }

  private static func run(_ arguments: [String]) -> String? {
    ExternalTool(named: "git")?.output(arguments)
  }
}
