import GitHubIssues
import Testing

private let formHeader = "name: Bug\ndescription: File a bug\n"

/// What GitHub's form schema accepts and refuses ("Syntax for GitHub's form schema", "Common
/// validation errors when creating issue forms"), each refusal at its line and column.
@Suite struct IssueFormSchemaTests {
  /// Reads one form file; its problem, or `nil` when GitHub would offer it.
  private func problem(_ yaml: String) -> String? {
    let read = IssueTemplates(files: [("bug.yml", yaml)])
    return read.problems.first.map { "\($0.line):\($0.column): \($0.message)" }
  }

  private func field(_ element: String) -> String {
    formHeader + "body:\n" + element
  }

  @Test func aFormWithEveryElementIsAccepted() throws {
    let yaml =
      formHeader + """
        title: "[Bug]: "
        labels: ["bug", "triage"]
        assignees: octocat, hubot
        type: Bug
        body:
          - type: markdown
            attributes:
              value: Thanks!
          - type: input
            id: contact
            attributes:
              label: Contact
              placeholder: ex. email@example.com
              value: me@example.com
            validations:
              required: true
          - type: textarea
            id: logs
            attributes:
              label: Logs
              render: shell
          - type: dropdown
            id: version
            attributes:
              label: Version
              multiple: true
              options: ["1.0", "2.0"]
              default: 1
          - type: checkboxes
            id: terms
            attributes:
              label: Terms
              options:
                - label: I agree
                  required: true
                - label: Subscribe me
        """
    let read = IssueTemplates(files: [("bug.yml", yaml)])
    #expect(read.problems == [])
    let template = try #require(read.templates.first)
    #expect(template.title == "[Bug]: ")
    #expect(template.labels == ["bug", "triage"])
    #expect(template.assignees == ["octocat", "hubot"])
    #expect(template.type == "Bug")
    #expect(
      template.form?.elements == [
        .markdown("Thanks!"),
        .input(
          FormTextField(
            id: "contact", label: "Contact", placeholder: "ex. email@example.com",
            value: "me@example.com", isRequired: true)),
        .textarea(FormTextField(id: "logs", label: "Logs", render: "shell")),
        .dropdown(
          FormDropdown(
            id: "version", label: "Version", options: ["1.0", "2.0"], allowsMultiple: true,
            defaultIndex: 1)),
        .checkboxes(
          FormCheckboxes(
            id: "terms", label: "Terms",
            options: [.init(label: "I agree", isRequired: true), .init(label: "Subscribe me")])),
      ])
  }

  static let refused: [(yaml: String, problem: String)] = [
    // Required top-level keys, and keys GitHub does not know.
    ("description: x\nbody: []\n", "1:1: name: is required."),
    ("name: Bug\nbody: []\n", "1:1: description: is required."),
    (
      formHeader + "about: x\nbody: []\n",
      "3:1: the form has no “about”: it takes name:, description:, title:, labels:, assignees:, projects:, type:, body:."
    ),
    (formHeader + "bodyy: []\n", "3:1: the form has no “bodyy”: did you mean “body”?"),
    (formHeader, "1:1: the form has no body: (the list of its fields)."),
    // Strings: not empty, not a YAML boolean.
    ("name: \"\"\ndescription: x\nbody: []\n", "1:7: name: is empty."),
    (
      "name: Bug\ndescription: true\nbody: []\n",
      "2:14: description: “true” reads as true or false in YAML: put it in quotes."
    ),
    // The body: at least one field, ids and labels unique, ids of letters, digits, - and _.
    (
      formHeader + "body:\n- type: markdown\n  attributes:\n    value: hi\n",
      "4:1: body: has no field to answer, only markdown."
    ),
    (formHeader + "body: []\n", "3:7: body: has no field to answer, only markdown."),
    (
      formHeader
        + "body:\n- type: input\n  attributes:\n    label: A\n- type: input\n  attributes:\n    label: A\n",
      "7:3: label: “A” is used by an earlier element."
    ),
    (
      formHeader
        + "body:\n- type: input\n  id: a\n  attributes:\n    label: A\n- type: input\n  id: a\n  attributes:\n    label: B\n",
      "8:3: id: “a” is used by an earlier element."
    ),
    (
      formHeader + "body:\n- type: input\n  id: a b\n  attributes:\n    label: A\n",
      "5:7: id: “a b” may hold only letters, digits, - and _."
    ),
    // Elements.
    (
      formHeader + "body:\n- attributes:\n    label: A\n",
      "4:3: this element has no type: (markdown, input, textarea, dropdown, checkboxes)."
    ),
    (
      formHeader + "body:\n- type: inptu\n  attributes:\n    label: A\n",
      "4:9: “inptu” is not an element type: did you mean “input”?"
    ),
    (formHeader + "body:\n- type: input\n", "4:3: this input has no attributes:."),
    (
      formHeader + "body:\n- type: input\n  attributes:\n    description: x\n",
      "6:5: label: is required."
    ),
    (
      formHeader + "body:\n- type: input\n  attributes:\n    label: A\n    render: sh\n",
      "7:5: the attributes of this input has no “render”: it takes label:, description:, placeholder:, value:."
    ),
    (
      formHeader + "body:\n- type: markdown\n  attributes:\n    label: A\n",
      "6:5: the attributes of this markdown has no “label”: it takes value:."
    ),
    (
      formHeader
        + "body:\n- type: input\n  attributes:\n    label: A\n  validations:\n    required: maybe\n",
      "8:15: required: takes true or false, not “maybe”."
    ),
    // Dropdowns: options, distinct, never None, never a bare boolean; default an index.
    (
      formHeader + "body:\n- type: dropdown\n  attributes:\n    label: A\n",
      "6:5: this dropdown has no options:."
    ),
    (
      formHeader + "body:\n- type: dropdown\n  attributes:\n    label: A\n    options: []\n",
      "7:14: options: is empty."
    ),
    (
      formHeader + "body:\n- type: dropdown\n  attributes:\n    label: A\n    options: [x, x]\n",
      "7:18: “x” is given twice."
    ),
    (
      formHeader + "body:\n- type: dropdown\n  attributes:\n    label: A\n    options: [x, None]\n",
      "7:18: “None” is reserved: GitHub uses it for no choice."
    ),
    (
      formHeader + "body:\n- type: dropdown\n  attributes:\n    label: A\n    options: [x, yes]\n",
      "7:18: an option “yes” reads as true or false in YAML: put it in quotes."
    ),
    (
      formHeader
        + "body:\n- type: dropdown\n  attributes:\n    label: A\n    options: [x, z]\n    default: 2\n",
      "8:14: default: is the index of an option, from 0 to 1."
    ),
    // Checkboxes.
    (
      formHeader
        + "body:\n- type: checkboxes\n  attributes:\n    label: A\n    options:\n    - required: true\n",
      "8:7: label: is required."
    ),
    // Projects are OWNER/NUMBER.
    (
      formHeader + "projects: [octo-org]\nbody:\n- type: input\n  attributes:\n    label: A\n",
      "3:11: “octo-org” is not a project: projects are OWNER/NUMBER."
    ),
    // Not YAML.
    (formHeader + "body: [\n", "4:1: not valid YAML: did not find expected node content."),
  ]

  @Test(arguments: refused)
  func aFormGitHubRefusesIsReportedWhereItIsWrong(yaml: String, expected: String) {
    #expect(problem(yaml) == expected)
  }

  @Test func aMarkdownTemplateNeedsItsFrontMatter() {
    let files = [
      ("a.md", "no front matter\n"),
      ("b.md", "---\nname: B\n---\nbody"),
      (
        "c.md",
        "---\nname: C\nabout: c\ntitle: ''\nlabels: 'bug, ui'\nassignees: ''\n---\n\nBody\r\n"
      ),
      ("notes.txt", "ignored"),
      ("team/d.md", "---\nname: D\nabout: d\n---\n"),
    ]
    let read = IssueTemplates(files: files)
    #expect(
      read.problems.map(\.description) == [
        ".github/ISSUE_TEMPLATE/a.md:1:1: the template has no front matter (name: and about: between --- lines).",
        ".github/ISSUE_TEMPLATE/b.md:2:1: about: is required.",
      ])
    #expect(
      read.templates == [
        IssueTemplate(
          file: "c.md", name: "C", about: "c", labels: ["bug", "ui"], content: .markdown("\nBody\n")
        )
      ])
  }

  @Test func aMalformedConfigurationKeepsGitHubsDefaults() {
    let read = IssueTemplates(files: [
      ("config.yml", "blank_issues_enabled: sometimes\n"),
      ("bug.md", "---\nname: B\nabout: b\n---\n"),
    ])
    #expect(read.config == IssueTemplateConfig())
    #expect(
      read.problems.map(\.description) == [
        ".github/ISSUE_TEMPLATE/config.yml:1:23: blank_issues_enabled: takes true or false, not “sometimes”."
      ])
    #expect(read.templates.count == 1)
  }
}
