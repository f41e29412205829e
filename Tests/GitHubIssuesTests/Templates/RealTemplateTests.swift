import GitHubIssues
import GitHubTestSupport
import Testing

/// The 150 real files of 50 repositories' `.github/ISSUE_TEMPLATE/` folders, read as GitHub
/// reads them.
@Suite struct RealTemplateTests {
  @Test func everyTemplateGitHubAcceptsIsOfferedAndTheOthersAreReportedWhereTheyAre() throws {
    let folders = try Fixtures.issueTemplateFolders()
    #expect(folders.count == 50)
    var offered = 0
    var problems: [String] = []
    for (repository, files) in folders.sorted(by: { $0.key < $1.key }) {
      let read = IssueTemplates(files: files)
      offered += read.templates.count
      problems += read.problems.map { "\(repository): \($0)" }
      // In GitHub's order: by file name.
      #expect(read.templates.map(\.file) == read.templates.map(\.file).sorted())
    }
    // 72 forms and 38 Markdown templates, less the three GitHub refuses.
    #expect(offered == 107)
    #expect(
      problems == [
        "AyeNyeinSanISRubi__lab04DevOps: .github/ISSUE_TEMPLATE/Custom-feature.yml:29:16: "
          + "default: is the index of an option, from 0 to 1.",
        "home-assistant__core: .github/ISSUE_TEMPLATE/bug_report.yml:2:1: the form has no "
          + "“about”: it takes name:, description:, title:, labels:, assignees:, projects:, "
          + "type:, body:.",
        "kubernetes__kubernetes: .github/ISSUE_TEMPLATE/failing-test.yaml:9:5: an element of "
          + "body: has no “description”: it takes type:, id:, attributes:, validations:.",
      ])
  }

  @Test func everyFormComposesAHeadingPerFieldAndOnlyThose() throws {
    for (repository, files) in try Fixtures.issueTemplateFolders() {
      for template in IssueTemplates(files: files).templates {
        guard let form = template.form else { continue }
        let fields = form.elements.compactMap(\.label)
        let body = form.body(answers: form.initialAnswers)
        let headings = body.split(separator: "\n").filter { $0.hasPrefix("### ") }
        // A field's own text may hold a `### ` line (a pre-filled value); the headings of the
        // fields come first, in order.
        #expect(
          fields.allSatisfy { label in headings.contains { $0 == "### \(label)" } },
          "\(repository)/\(template.file)")
        #expect(!body.hasSuffix("\n"), "\(repository)/\(template.file)")
      }
    }
  }

  @Test func theChooserConfigurationIsReadAsWritten() throws {
    let folders = try Fixtures.issueTemplateFolders()
    let configs = folders.mapValues { IssueTemplates(files: $0).config }
    // 21 forbid blank issues; 4 files leave it unsaid, which GitHub reads as allowed.
    #expect(configs.values.filter { !$0.blankIssuesEnabled }.count == 21)
    #expect(configs["facebook__react"]?.blankIssuesEnabled == true)
    #expect(configs["pypa__pip"]?.contactLinks.isEmpty == true)
    let swift = try #require(configs["swiftlang__swift"])
    #expect(swift.contactLinks.count == 8)
    // A folded `about: >` is one line of text.
    #expect(
      swift.contactLinks.first?.about
        == "Share an idea with the Swift community.\n")
  }

  @Test func aMarkdownTemplateKeepsItsBodyAsPublished() throws {
    let folders = try Fixtures.issueTemplateFolders()
    let ratatui = IssueTemplates(files: try #require(folders["ratatui__ratatui"]))
    let bug = try #require(ratatui.template(named: "Bug report"))
    #expect(bug.file == "bug_report.md")
    #expect(bug.labels == ["Type: Bug"])
    #expect(bug.title == "")
    guard case .markdown(let body) = bug.content else {
      Issue.record("not a Markdown template")
      return
    }
    #expect(body.hasPrefix("\n<!--\nHi there, sorry `ratatui` is not working as expected."))
    // `--template` takes the file name too.
    #expect(ratatui.template(named: "BUG_REPORT.MD") == bug)
  }

  @Test func labelsGivenAsOneStringAreSplitAtCommas() throws {
    let folders = try Fixtures.issueTemplateFolders()
    let helix = IssueTemplates(files: try #require(folders["helix-editor__helix"]))
    let forms = helix.templates.filter { $0.form != nil }
    #expect(!forms.isEmpty)
    #expect(forms.allSatisfy { !$0.labels.isEmpty && !$0.labels.contains { $0.contains(",") } })
  }
}
