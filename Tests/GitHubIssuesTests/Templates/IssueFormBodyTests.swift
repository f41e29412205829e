import GitHubIssues
import Testing
import TrellisTestSupport

/// A form's answers, refused as the web refuses them and composed as GitHub composes them.
@Suite struct IssueFormBodyTests {
  static let form = IssueForm(elements: [
    .markdown("Thanks for the report!"),
    .input(FormTextField(id: "version", label: "Version", isRequired: true)),
    .textarea(FormTextField(label: "What happened?", placeholder: "Tell us")),
    .textarea(FormTextField(label: "Logs", render: "shell")),
    .dropdown(
      FormDropdown(
        label: "Browsers", options: ["Firefox", "Chrome", "Safari"], allowsMultiple: true)),
    .dropdown(
      FormDropdown(
        label: "Platform", options: ["Linux", "macOS"], defaultIndex: 1, isRequired: true)),
    .checkboxes(
      FormCheckboxes(
        label: "Code of Conduct",
        options: [
          .init(label: "I agree to follow it", isRequired: true), .init(label: "I searched"),
        ])),
  ])

  @Test func theBodyIsWhatGitHubWritesForASubmittedForm() {
    var answers = Self.form.initialAnswers
    answers[1] = .text("1.2.3")
    answers[3] = .text("$ run\nfailed\n")
    answers[4] = .chosen([2, 0])
    answers[6] = .chosen([0])
    #expect(
      Self.form.body(answers: answers) == """
        ### Version

        1.2.3

        ### What happened?

        _No response_

        ### Logs

        ```shell
        $ run
        failed
        ```

        ### Browsers

        Firefox, Safari

        ### Platform

        macOS

        ### Code of Conduct

        - [X] I agree to follow it
        - [ ] I searched
        """)
  }

  @Test func theFormOpensWithItsValuesAndDefaults() {
    #expect(
      Self.form.initialAnswers == [
        1: .text(""), 2: .text(""), 3: .text(""), 4: .chosen([]), 5: .chosen([1]), 6: .chosen([]),
      ])
  }

  @Test func whatTheWebRefusesIsRefusedBeforeAnythingIsSent() {
    var answers = Self.form.initialAnswers
    answers[1] = .text("  \n")
    answers[5] = .chosen([])
    #expect(
      Self.form.problems(title: " ", answers: answers) == [
        FormProblem(.title, "The title is required."),
        FormProblem(.element(1), "“Version” is required."),
        FormProblem(.element(5), "Choose an option in “Platform”."),
        FormProblem(.element(6), "“I agree to follow it” in “Code of Conduct” must be ticked."),
      ])
    answers[1] = .text("1.0")
    answers[5] = .chosen([0, 1])
    answers[6] = .chosen([0])
    #expect(
      Self.form.problems(title: "Crash", answers: answers) == [
        FormProblem(.element(5), "“Platform” takes one option, not 2.")
      ])
    answers[5] = .chosen([0])
    #expect(Self.form.problems(title: "Crash", answers: answers) == [])
  }

  /// Any answers compose a body that reads back, field by field, as those answers: headings in
  /// the form's order, `_No response_` for an empty field, the code block around the logs, the
  /// choices and ticks as chosen.
  @Test(arguments: [11 as UInt64, 12, 13])
  func anyAnswersReadBackFromTheBody(seed: UInt64) throws {
    print("IssueFormBodyTests seed \(seed)")
    var random = SplitMix64(seed: seed)
    let words = ["crash", "é", "日本", "`code`", "- [ ] not a box", "a\nb", "  ", "", "1.0"]
    func word() -> String { words[Int(random.next() % UInt64(words.count))] }
    func some(_ count: Int) -> Set<Int> { Set((0..<count).filter { _ in random.next() % 2 == 0 }) }
    for _ in 0..<500 {
      let texts = [word(), word(), word()]
      let browsers = some(3)
      let platform = some(2)
      let ticked = some(2)
      let answers: [Int: FormAnswer] = [
        1: .text(texts[0]), 2: .text(texts[1]), 3: .text(texts[2]), 4: .chosen(browsers),
        5: .chosen(platform), 6: .chosen(ticked),
      ]
      let body = Self.form.body(answers: answers)
      let sections = body.dropFirst(4).components(separatedBy: "\n\n### ")
      let labels = Self.form.elements.compactMap(\.label)
      try #require(sections.count == labels.count, "\(body)")
      var read: [String] = []
      for (section, label) in zip(sections, labels) {
        #expect(section.hasPrefix(label + "\n\n"))
        read.append(String(section.dropFirst(label.count + 2)))
      }
      func typed(_ text: String) -> String {
        text.allSatisfy(\.isWhitespace) ? "_No response_" : text
      }
      #expect(read[0] == typed(texts[0]))
      #expect(read[1] == typed(texts[1]))
      #expect(
        read[2]
          == (texts[2].allSatisfy(\.isWhitespace) ? "_No response_" : "```shell\n\(texts[2])\n```"))
      let browserNames = ["Firefox", "Chrome", "Safari"]
      #expect(
        read[3] == "_No response_"
          ? browsers.isEmpty
          : Set(read[3].components(separatedBy: ", ")) == Set(browsers.map { browserNames[$0] }))
      #expect(
        read[4] == "_No response_"
          ? platform.isEmpty
          : read[4].components(separatedBy: ", ")
            == platform.sorted().map { ["Linux", "macOS"][$0] })
      let lines = read[5].split(separator: "\n")
      #expect(lines.count == 2)
      #expect(
        Set(lines.indices.filter { lines[$0].hasPrefix("- [X] ") }) == ticked,
        "\(read[5])")
    }
  }
}
