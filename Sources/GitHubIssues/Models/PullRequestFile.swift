/// One file of a pull request as `GET /repos/{owner}/{repo}/pulls/{number}/files` lists it.
///
/// GitHub leaves `patch` out of a binary file, and silently out of files once a response's
/// patches grow too large; ``PullRequestDiffFetcher`` tells the two apart.
package struct PullRequestFile: Decodable, Hashable, Sendable {
  /// The path in the head commit.
  package var path: String
  /// The path before a rename or copy.
  package var previousPath: String?
  /// `added`, `removed`, `modified`, `renamed`, `copied`, `changed` or `unchanged`.
  package var status: String
  /// Lines added.
  package var additions: Int
  /// Lines removed.
  package var deletions: Int
  /// The changes as a unified diff's hunks, when GitHub gave them.
  package var patch: String?
  /// The blob id of the file at the head (GitHub's `sha`), when it gave a full one.
  package var blob: String?

  package init(
    path: String, previousPath: String? = nil, status: String, additions: Int, deletions: Int,
    patch: String?, blob: String? = nil
  ) {
    self.path = path
    self.previousPath = previousPath
    self.status = status
    self.additions = additions
    self.deletions = deletions
    self.patch = patch
    self.blob = blob
  }

  enum CodingKeys: String, CodingKey {
    case path = "filename"
    case previousPath = "previous_filename"
    case blob = "sha"
    case status, additions, deletions, patch
  }

  package init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    path = try container.decode(String.self, forKey: .path)
    previousPath = try? container.decodeIfPresent(String.self, forKey: .previousPath)
    status = (try? container.decodeIfPresent(String.self, forKey: .status)) ?? "modified"
    additions = max(0, (try? container.decodeIfPresent(Int.self, forKey: .additions)) ?? 0)
    deletions = max(0, (try? container.decodeIfPresent(Int.self, forKey: .deletions)) ?? 0)
    patch = try? container.decodeIfPresent(String.self, forKey: .patch)
    blob = (try? container.decodeIfPresent(String.self, forKey: .blob)).flatMap { sha in
      sha.count == 40 && sha.allSatisfy(\.isHexDigit) ? sha.lowercased() : nil
    }
  }
}
