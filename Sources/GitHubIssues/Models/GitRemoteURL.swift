import Foundation

/// A repository named by a git remote URL, as `gh` finds one from the current directory.
package struct GitRemoteURL: Hashable, Sendable {
  /// The host the remote is on (`github.com`, or an Enterprise host).
  package var host: String
  /// The repository.
  package var repository: RepositoryName

  /// Parses `git@HOST:OWNER/REPO(.git)`, `ssh://[git@]HOST[:PORT]/OWNER/REPO(.git)` and
  /// `https://HOST/OWNER/REPO(.git)`; `nil` for anything else (a local path, say).
  package init?(_ url: String) {
    var text = url.trimmingCharacters(in: .whitespacesAndNewlines)
    if text.hasSuffix("/") { text.removeLast() }
    if text.hasSuffix(".git") { text.removeLast(4) }
    var hostAndPath: Substring
    if let scheme = text.range(of: "://") {
      let kind = text[..<scheme.lowerBound].lowercased()
      guard ["https", "http", "ssh", "git"].contains(kind) else { return nil }
      hostAndPath = text[scheme.upperBound...]
      guard let slash = hostAndPath.firstIndex(of: "/") else { return nil }
      var authority = hostAndPath[..<slash]
      if let at = authority.lastIndex(of: "@") {
        authority = authority[authority.index(after: at)...]
      }
      // An ssh port is not part of the host's name.
      if kind == "ssh", let colon = authority.firstIndex(of: ":") {
        authority = authority[..<colon]
      }
      host = String(authority)
      hostAndPath = hostAndPath[hostAndPath.index(after: slash)...]
    } else if let colon = text.firstIndex(of: ":"), !text.hasPrefix("/") {
      var authority = text[..<colon]
      if let at = authority.lastIndex(of: "@") {
        authority = authority[authority.index(after: at)...]
      }
      host = String(authority)
      hostAndPath = text[text.index(after: colon)...]
    } else {
      return nil
    }
    guard !host.isEmpty, let repository = RepositoryName(String(hostAndPath)) else { return nil }
    host = host.lowercased()
    self.repository = repository
  }
}
