import GitHubIssues

extension IssueJSON {
  /// A dashboard section as `issues dash --json` prints it: its title, query, count and items
  /// (gh's fields, and `repository` as gh's search prints it, and `isPullRequest`).
  static func dashboardSection(
    _ section: DashboardSection, count: Int, items: [DashboardItem], fields: [Field],
    repository: Bool, isPullRequest: Bool, contexts: [DashboardSource: Context]
  ) -> Value {
    var values: [Value] = []
    for item in items {
      let context = contexts[item.source] ?? Context(milestones: [:], labels: [:])
      var members: Object = [:]
      if case .object(let fieldMembers) = object(item.issue, fields: fields, context: context) {
        members = fieldMembers
      }
      if isPullRequest { members["isPullRequest"] = .bool(item.issue.isPullRequest) }
      if repository {
        members["repository"] = .object([
          "name": .string(item.source.repository.name),
          "nameWithOwner": .string(item.source.repository.description),
        ])
      }
      values.append(.object(members.sortedByKey()))
    }
    return .object([
      "count": .int(count), "items": .array(values), "query": .string(section.query.text),
      "title": .string(section.title),
    ])
  }
}
