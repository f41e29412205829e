import Foundation
import GitHubIssues
import IssuesBrowser
import TrellisTerminal

/// The new-issue workloads: opening the form, and queuing an issue.
///
/// `create:form`: `n` → the form on screen from the cache: the repository's template files read
/// from SQLite and parsed (a 12-field form among four templates), the form's screen made and its
/// first frame drawn at 160×50. `create:provisional`: a new issue queued on a 100,000-issue
/// cache kept on disk (its provisional row and its action written in one durable transaction)
/// and its row read back as the list shows it.
@MainActor
func createWorkloads(wanted: (String) -> Bool) throws {
  guard wanted("create") else { return }
  let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
    "trellis-bench-create-\(UUID().uuidString)")
  defer { try? FileManager.default.removeItem(at: directory) }
  try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  let cache = try IssueCache(path: directory.appendingPathComponent("create.sqlite").path)
  try cache.apply(SyntheticRepository(itemCount: 100_000, milestoneCount: 60).make())
  let files = benchmarkTemplates()
  try cache.replaceIssueTemplates(
    kept: [], fetched: files.map { ($0.name, "sha-\($0.name)", $0.text) }, etags: [:],
    checkedAt: Date())
  let repository = RepositoryName(owner: "acme", name: "tracker")
  let size = TerminalSize(columns: 160, rows: 50)

  var runs = 0
  var opened = 0
  let (formMedian, _) = measure(runs: 101) { () -> Int in
    runs += 1
    guard let templates = try? cache.issueTemplates()?.templates,
      let chosen = templates.template(named: "Bug report")
    else { return 0 }
    let screen = IssueFormScreen(
      repository: repository, templates: templates, chosen: chosen, size: size)
    var frame = CellBuffer(width: size.columns, height: size.rows)
    screen.render(into: &frame)
    opened += 1
    return frame.width
  }
  print(
    "create:form".padding(to: 22) + format(formMedian).leftPadding(to: 10)
      + " ms   n → a 12-field form on screen from the cache, \(opened) of \(runs) opened "
      + "(target ≤ 20)")

  var shown = 0
  var index = 0
  let (rowMedian, _) = measure(runs: 101) { () -> Int in
    index += 1
    guard
      let action = try? cache.enqueueNewIssue(
        NewIssue(title: "Filed offline \(index)", body: "Body \(index)", labels: ["bug"]),
        author: "octocat"),
      let key = action.issueKey,
      let row = try? cache.issue(key: key)
    else { return 0 }
    if row.title == "Filed offline \(index)" { shown += 1 }
    return row.number
  }
  print(
    "create:provisional".padding(to: 22) + format(rowMedian).leftPadding(to: 10)
      + " ms   create → its row on a 100,000-issue cache on disk, durable; \(shown) of \(index) "
      + "shown (target ≤ 2)")
}

/// A repository's templates as the cache keeps them: a form with every kind of field, two
/// Markdown templates and the chooser's configuration.
private func benchmarkTemplates() -> [(name: String, text: String)] {
  var form = """
    name: Bug report
    description: Something does not work as it should
    title: "[Bug]: "
    labels: [bug, triage]
    body:
      - type: markdown
        attributes:
          value: |
            Thanks for taking the time to fill out this report! Please **search** first.

    """
  for field in 0..<4 {
    form += """
        - type: input
          id: input\(field)
          attributes:
            label: Input \(field)
            description: What version of our software are you running?
            placeholder: ex. 1.2.\(field)
          validations:
            required: true
        - type: textarea
          id: area\(field)
          attributes:
            label: Text area \(field)
            description: Also tell us, what did you expect to happen?
            placeholder: Tell us what you see!
            render: shell

      """
  }
  form += """
      - type: dropdown
        id: browsers
        attributes:
          label: What browsers are you seeing the problem on?
          multiple: true
          options: [Firefox, Chrome, Safari, Microsoft Edge, Other]
      - type: dropdown
        id: version
        attributes:
          label: Version
          options: [1.0.2 (Default), 1.0.3 (Edge)]
          default: 0
        validations:
          required: true
      - type: checkboxes
        id: terms
        attributes:
          label: Code of Conduct
          description: By submitting this issue, you agree to follow our Code of Conduct.
          options:
            - label: I agree to follow this project's Code of Conduct
              required: true
            - label: I searched the existing issues

    """
  let markdown = "---\nname: Feature\nabout: An idea\nlabels: enhancement\n---\n\n## What\n\n"
  return [
    ("bug.yml", form), ("feature.md", markdown),
    ("question.md", "---\nname: Question\nabout: Ask us\n---\n"),
    (
      "config.yml",
      "blank_issues_enabled: false\ncontact_links:\n  - name: Forum\n"
        + "    url: https://example.com\n    about: Ask there\n"
    ),
  ]
}
