import GitHubIssues
import GitHubTestSupport
import Testing
import TrellisTerminal

@testable import IssuesBrowser

/// The new-issue screen's model and keys, without a terminal: the chooser, typing, options,
/// the editor's text, and a submit that refuses what the web refuses.
@MainActor
@Suite struct IssueFormModelTests {
  static let form = """
    name: Bug
    description: A bug
    title: "[Bug]: "
    labels: [bug]
    body:
      - type: markdown
        attributes:
          value: Thanks!
      - type: input
        attributes:
          label: Version
        validations:
          required: true
      - type: textarea
        attributes:
          label: Logs
          render: shell
      - type: dropdown
        attributes:
          label: OS
          options: [Linux, macOS]
      - type: checkboxes
        attributes:
          label: Terms
          options:
            - label: I agree
              required: true
    """
  static let templates = IssueTemplates(files: [
    ("bug.yml", form), ("config.yml", "blank_issues_enabled: false\ncontact_links: []\n"),
    ("idea.md", "---\nname: Idea\nabout: An idea\n---\nWhat?\n"),
  ])

  private func key(_ key: Key, _ modifiers: Modifiers = []) -> InputEvent {
    .key(KeyEvent(key, modifiers: modifiers))
  }

  private func type(_ text: String, on screen: IssueFormScreen) {
    for character in text { _ = screen.handle(key(.character(character))) }
  }

  @Test func theChooserOffersTheTemplatesInOrderAndNoBlankIssueWhenTheRepositoryForbidsIt() {
    let model = IssueFormModel(templates: Self.templates)
    #expect(model.choices == [.template(0), .template(1)])
    #expect(model.stage == .choosing(0))
    let open = IssueFormModel(
      templates: IssueTemplates(files: [("idea.md", "---\nname: I\nabout: i\n---\n")]))
    #expect(open.choices == [.template(0), .blank])
    // No templates at all: the blank issue's fields at once.
    #expect(IssueFormModel(templates: IssueTemplates()).stage == .filling)
  }

  @Test func aFormIsFilledWithKeysAndFiledAsGitHubComposesIt() throws {
    let screen = IssueFormScreen(
      repository: RepositoryName(owner: "acme", name: "tracker"), templates: Self.templates,
      size: TerminalSize(columns: 80, rows: 24))
    _ = screen.handle(key(.enter))  // The bug form.
    #expect(screen.model.focusedField == .title)
    #expect(screen.model.title == "[Bug]: ")
    type("Crash", on: screen)
    // Ctrl-S before the required fields: refused, the focus on the first problem.
    #expect(screen.handle(key(.character("s"), .control)) == [])
    #expect(screen.model.focusedField == .element(1))
    #expect(
      screen.model.problems.map(\.message) == [
        "“Version” is required.", "“I agree” in “Terms” must be ticked.",
      ])
    type("1.0", on: screen)
    _ = screen.handle(key(.tab))
    type("log", on: screen)
    _ = screen.handle(key(.enter))  // A new line in a text area.
    type("more", on: screen)
    _ = screen.handle(key(.tab))
    _ = screen.handle(key(.right))
    _ = screen.handle(key(.character(" ")))  // macOS.
    _ = screen.handle(key(.tab))
    _ = screen.handle(key(.character(" ")))  // I agree.
    let effects = screen.handle(key(.character("s"), .control))
    #expect(
      effects == [
        .file(
          NewIssue(
            title: "[Bug]: Crash",
            body: """
              ### Version

              1.0

              ### Logs

              ```shell
              log
              more
              ```

              ### OS

              macOS

              ### Terms

              - [X] I agree
              """, labels: ["bug"],
            // What a draft of it keeps, so that the form reopens as it was left.
            form: FilledForm(
              template: "bug.yml",
              answers: [1: .text("1.0"), 2: .text("log\nmore"), 3: .chosen([1]), 4: .chosen([0])]))
        )
      ])
  }

  @Test func spaceTypesInTextFieldsAndBackspaceAndCtrlUErase() {
    let screen = IssueFormScreen(
      repository: RepositoryName(owner: "acme", name: "tracker"), templates: Self.templates,
      size: TerminalSize(columns: 80, rows: 24))
    _ = screen.handle(key(.down))
    _ = screen.handle(key(.enter))  // Idea.
    type("a b", on: screen)
    #expect(screen.model.title == "a b")
    _ = screen.handle(key(.backspace))
    #expect(screen.model.title == "a ")
    _ = screen.handle(key(.character("u"), .control))
    #expect(screen.model.title == "")
    // A paste keeps its line breaks only in the body.
    _ = screen.handle(.paste("one\ntwo"))
    #expect(screen.model.title == "onetwo")
    _ = screen.handle(key(.tab))
    #expect(screen.model.body == "What?\n")
    _ = screen.handle(.paste("one\ntwo"))
    #expect(screen.model.body == "What?\none\ntwo")
  }

  @Test func theEditorWritesTheFocusedField() {
    let screen = IssueFormScreen(
      repository: RepositoryName(owner: "acme", name: "tracker"), templates: Self.templates,
      chosen: Self.templates.template(named: "Bug"), size: TerminalSize(columns: 80, rows: 24))
    _ = screen.handle(key(.tab))
    _ = screen.handle(key(.tab))  // Logs.
    #expect(screen.handle(key(.character("e"), .control)) == [.edit("")])
    screen.finishEditing("line 1\nline 2")
    #expect(screen.model.answers[2] == .text("line 1\nline 2"))
    // A single line keeps the first line the editor wrote.
    _ = screen.handle(key(.up))
    screen.finishEditing("2.0\nignored")
    #expect(screen.model.answers[1] == .text("2.0"))
    // Not a text field.
    _ = screen.handle(key(.tab))
    _ = screen.handle(key(.tab))
    #expect(screen.handle(key(.character("e"), .control)) == [])
  }

  @Test func aDropdownOfOneKeepsOneChoice() {
    var model = IssueFormModel(
      templates: Self.templates, chosen: Self.templates.template(named: "Bug"))
    model.focus(on: .element(3))
    model.toggleOption()
    model.moveOption(by: 1)
    model.toggleOption()
    #expect(model.answers[3] == .chosen([1]))
    model.toggleOption()
    #expect(model.answers[3] == .chosen([]))
  }

  @Test func everyRealFormRendersNarrowAndWideWithTheFocusInView() throws {
    for (_, files) in try Fixtures.issueTemplateFolders() {
      let templates = IssueTemplates(files: files)
      for template in templates.templates {
        for columns in [30, 100] {
          let screen = IssueFormScreen(
            repository: RepositoryName(owner: "acme", name: "tracker"), templates: templates,
            chosen: template, size: TerminalSize(columns: columns, rows: 12))
          for _ in 0..<(screen.model.fields.count) {
            let frame = screen.render()
            #expect(frame.width == columns)
            let cursor = try #require(screen.cursorPosition, "\(template.file) at \(columns)")
            #expect((1..<11).contains(cursor.y), "\(template.file) at \(columns)")
            _ = screen.handle(key(.tab))
          }
        }
      }
    }
  }

  /// An option's label is Markdown, as on the web: a link shows its text, not its syntax.
  @Test func optionLabelsAreDrawnAsMarkdown() throws {
    let form = """
      name: Conduct
      description: Agree
      body:
        - type: checkboxes
          attributes:
            label: Terms
            options:
              - label: I agree to the [Code of Conduct](https://example.com/coc) and **this**
      """
    let templates = IssueTemplates(files: [("conduct.yml", form)])
    let screen = IssueFormScreen(
      repository: RepositoryName(owner: "acme", name: "tracker"), templates: templates,
      chosen: templates.templates.first, size: TerminalSize(columns: 100, rows: 12))
    let text = screen.render().lines.joined(separator: "\n")
    #expect(text.contains("[ ] I agree to the Code of Conduct"), "\(text)")
    #expect(!text.contains("](https") && !text.contains("**this**"), "\(text)")
  }
}
