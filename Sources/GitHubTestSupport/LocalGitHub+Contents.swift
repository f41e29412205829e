import Foundation
import GitHubIssues

// The contents API over a repository's `.github/ISSUE_TEMPLATE/` folder: a listing with blob
// SHAs and an entity tag that changes with it, and each file's bytes in base64, as GitHub
// serves them.

extension LocalGitHub {
  /// Serves `files` as the repository's `.github/ISSUE_TEMPLATE/` folder, replacing what it
  /// served before (a file left out is gone from the folder); `nil` removes the folder.
  package func serveIssueTemplates(
    _ files: [(name: String, text: String)]?, of repository: RepositoryName
  ) throws {
    let root = "/repos/\(repository.owner)/\(repository.name)/contents/"
    let folder = IssueTemplates.folder
    if let old = servedTemplateFiles[repository] {
      for name in old { routes[Self.key(path: root + folder + "/" + name, page: nil)] = nil }
    }
    guard let files else {
      routes[Self.key(path: root + folder, page: nil)] = nil
      servedTemplateFiles[repository] = nil
      return
    }
    var entries: [[String: Any]] = []
    for (name, text) in files {
      let bytes = Data(text.utf8)
      let sha = Self.blobSHA(bytes)
      let path = folder + "/" + name
      entries.append([
        "name": name, "path": path, "sha": sha, "size": bytes.count, "type": "file",
        "url": "https://api.github.com\(root)\(path)",
      ])
      // GitHub wraps the base64 at 60 characters.
      let base64 = bytes.base64EncodedString(options: [
        .lineLength64Characters, .endLineWithLineFeed,
      ])
      let file: [String: Any] = [
        "name": name, "path": path, "sha": sha, "size": bytes.count, "type": "file",
        "encoding": "base64", "content": base64,
      ]
      serve(root + path, body: try JSONSerialization.data(withJSONObject: file), etag: "\"\(sha)\"")
    }
    let listing = try JSONSerialization.data(withJSONObject: entries, options: [.sortedKeys])
    serve(root + folder, body: listing, etag: "\"\(Self.blobSHA(listing))\"")
    servedTemplateFiles[repository] = files.map(\.name)
  }

  /// A stand-in for git's blob SHA: the same bytes, the same text; other bytes, another.
  static func blobSHA(_ bytes: Data) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes {
      hash ^= UInt64(byte)
      hash = hash &* 0x0000_0100_0000_01B3
    }
    return String(hash, radix: 16) + String(bytes.count, radix: 16)
  }
}
