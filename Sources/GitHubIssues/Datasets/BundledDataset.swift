import Foundation

/// A real repository's issues shipped with the library, so the app runs offline with no token:
/// betamaxpy/betamax as recorded in December 2017 (150 issues and pull requests, 4 milestones).
///
/// The data is the BSD-3-licensed github3.py test recording; `Resources/Datasets/ATTRIBUTION.md`
/// carries its notice.
package enum BundledDataset {
  /// The repository the data belongs to.
  package static let repository = RepositoryName(owner: "betamaxpy", name: "betamax")

  /// The recorded issues and milestones, ready to write into a cache.
  ///
  /// - Throws: An error if the bundled files are missing or unreadable.
  package static func load() throws -> CacheUpdate {
    let issues = try bodies("github3py__betamax_issues_state_all").flatMap {
      try GitHubJSON.decoder.decode([GitHubIssue].self, from: $0)
    }
    let milestoneFile = try Data(contentsOf: url("github3py__betamax_milestones_DERIVED"))
    struct Derived: Decodable { var milestones: [GitHubMilestone] }
    let milestones = try GitHubJSON.decoder.decode(Derived.self, from: milestoneFile).milestones
    let recordedAt = issues.map(\.updatedAt).max() ?? Date(timeIntervalSince1970: 0)
    return CacheUpdate(
      issues: issues, isComplete: true, milestones: milestones, labels: nil, syncedAt: recordedAt)
  }

  private static func url(_ name: String) throws -> URL {
    guard
      let url = Bundle.module.url(
        forResource: name, withExtension: "json", subdirectory: "Datasets")
        ?? Bundle.module.url(forResource: name, withExtension: "json")
    else { throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: name]) }
    return url
  }

  /// The response bodies of a recording in the exchange format.
  private static func bodies(_ name: String) throws -> [Data] {
    let data = try Data(contentsOf: url(name))
    guard let exchanges = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] else {
      return []
    }
    return try exchanges.compactMap { exchange in
      guard let body = (exchange["response"] as? [String: Any])?["body"] else { return nil }
      return try JSONSerialization.data(withJSONObject: body, options: [.fragmentsAllowed])
    }
  }
}
