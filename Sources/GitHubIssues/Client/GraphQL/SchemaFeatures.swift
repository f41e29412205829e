/// What a host's GraphQL schema has of the fields the mirror reads that not every host has,
/// read once per host by introspection (`__type`) and kept in the cache.
///
/// GitHub Enterprise Server before issue types or sub-issues refuses a whole query that names
/// a field its schema lacks ("Field 'issueType' doesn't exist on type 'Issue'"), so a query
/// that asked for them would mirror nothing there. Fields GitHub deprecated with a removal date
/// are read through their replacement where the host has it (`PullRequest.fullDatabaseId` for
/// `PullRequest.databaseId`).
package struct SchemaFeatures: Hashable, Sendable, Codable {
  /// `Issue.issueType`.
  package var issueTypes: Bool
  /// `Issue.parent`, `Issue.subIssues` and `Issue.subIssuesSummary`.
  package var subIssues: Bool
  /// `PullRequest.fullDatabaseId`, read in place of the deprecated `PullRequest.databaseId`.
  package var pullRequestFullDatabaseId: Bool

  /// A host with every feature: github.com as of this client.
  package static let all = SchemaFeatures(
    issueTypes: true, subIssues: true, pullRequestFullDatabaseId: true)

  /// Features as named.
  package init(issueTypes: Bool, subIssues: Bool, pullRequestFullDatabaseId: Bool) {
    self.issueTypes = issueTypes
    self.subIssues = subIssues
    self.pullRequestFullDatabaseId = pullRequestFullDatabaseId
  }

  /// The features the fields of `Issue` and `PullRequest` show.
  package init(issueFields: Set<String>, pullRequestFields: Set<String>) {
    issueTypes = issueFields.contains("issueType")
    subIssues = ["parent", "subIssues", "subIssuesSummary"].allSatisfy(issueFields.contains)
    pullRequestFullDatabaseId = pullRequestFields.contains("fullDatabaseId")
  }

  /// The introspection query: the fields of the two types.
  static let query = """
    query SchemaFeatures {
      issue: __type(name: "Issue") { fields(includeDeprecated: true) { name } }
      pullRequest: __type(name: "PullRequest") { fields(includeDeprecated: true) { name } }
    }
    """

  struct Payload: Decodable, Sendable {
    struct TypeFields: Decodable, Sendable {
      struct Field: Decodable, Sendable { var name: String }
      var fields: [Field]?
    }
    var issue: TypeFields?
    var pullRequest: TypeFields?
  }
}

extension GitHubClient {
  /// The host's schema features (``SchemaFeatures``), by one introspection query.
  ///
  /// - Throws: ``GitHubError``; an answer without the two types is
  ///   ``GitHubError/Code/decoding``.
  package func schemaFeatures() async throws(GitHubError) -> SchemaFeatures {
    let answer = try await graphQL(
      SchemaFeatures.query, operationName: "SchemaFeatures", variables: [:],
      as: SchemaFeatures.Payload.self)
    guard let issue = answer.data?.issue?.fields, let pull = answer.data?.pullRequest?.fields
    else {
      throw GitHubError(
        .decoding, method: "POST", url: host.graphQLURL.absoluteString,
        detail: "the schema's Issue and PullRequest types were not in the answer",
        sentToken: isAuthenticated)
    }
    return SchemaFeatures(
      issueFields: Set(issue.map(\.name)), pullRequestFields: Set(pull.map(\.name)))
  }
}
