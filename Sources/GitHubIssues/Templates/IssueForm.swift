/// An issue form: the fields a repository asks for, answered by the person and composed into an
/// issue's body the way GitHub composes a form submitted on the web.
///
/// The answers are values (``FormAnswer``) keyed by the index of their element, so a screen, a
/// command line and a test fill the same form the same way; ``problems(title:answers:)`` refuses
/// what the web refuses, and ``body(answers:)`` writes what the web writes.
public struct IssueForm: Hashable, Sendable {
  /// The elements, in the file's order.
  public var elements: [FormElement]

  /// A form of these elements.
  public init(elements: [FormElement]) {
    self.elements = elements
  }

  /// The answers the form opens with: each text field's `value`, each dropdown's `default`,
  /// nothing ticked.
  public var initialAnswers: [Int: FormAnswer] {
    var answers: [Int: FormAnswer] = [:]
    for (index, element) in elements.enumerated() {
      switch element {
      case .markdown: break
      case .input(let field), .textarea(let field): answers[index] = .text(field.value ?? "")
      case .dropdown(let dropdown):
        answers[index] = .chosen(dropdown.defaultIndex.map { [$0] } ?? [])
      case .checkboxes: answers[index] = .chosen([])
      }
    }
    return answers
  }

  /// What keeps the form from being submitted, in the order of the form (the title first): an
  /// empty title, a required field left empty, a required box not ticked, several options of a
  /// dropdown that takes one.
  public func problems(title: String, answers: [Int: FormAnswer]) -> [FormProblem] {
    var problems: [FormProblem] = []
    if Self.isBlank(title) { problems.append(FormProblem(.title, "The title is required.")) }
    for (index, element) in elements.enumerated() {
      switch element {
      case .markdown: break
      case .input(let field), .textarea(let field):
        if field.isRequired, Self.isBlank(text(answers, index)) {
          problems.append(FormProblem(.element(index), "“\(field.label)” is required."))
        }
      case .dropdown(let dropdown):
        let chosen = self.chosen(answers, index).filter { dropdown.options.indices.contains($0) }
        if dropdown.isRequired, chosen.isEmpty {
          problems.append(FormProblem(.element(index), "Choose an option in “\(dropdown.label)”."))
        } else if !dropdown.allowsMultiple, chosen.count > 1 {
          problems.append(
            FormProblem(
              .element(index), "“\(dropdown.label)” takes one option, not \(chosen.count)."))
        }
      case .checkboxes(let boxes):
        let ticked = chosen(answers, index)
        for (option, box) in boxes.options.enumerated()
        where box.isRequired && !ticked.contains(option) {
          problems.append(
            FormProblem(.element(index), "“\(box.label)” in “\(boxes.label)” must be ticked."))
        }
      }
    }
    return problems
  }

  /// The issue's body for these answers, as GitHub writes a submitted form: each field a
  /// `### Label` heading, a blank line and the answer, fields a blank line apart; markdown
  /// elements left out.
  ///
  /// An empty answer reads `_No response_`; a textarea with `render` is a code block in that
  /// language; a dropdown's choices are joined with `, ` in the options' order; boxes are
  /// task-list lines, `- [X]` ticked and `- [ ]` not. A field the answers do not mention is
  /// answered with its initial value.
  public func body(answers: [Int: FormAnswer]) -> String {
    var sections: [String] = []
    for (index, element) in elements.enumerated() {
      let answer: String
      switch element {
      case .markdown: continue
      case .input(let field), .textarea(let field):
        let typed = Self.trimmingTrailingNewlines(text(answers, index))
        if Self.isBlank(typed) {
          answer = Self.noResponse
        } else if let render = field.render {
          answer = "```\(render)\n\(typed)\n```"
        } else {
          answer = typed
        }
      case .dropdown(let dropdown):
        let chosen = self.chosen(answers, index)
        let names = dropdown.options.indices.filter(chosen.contains).map { dropdown.options[$0] }
        answer = names.isEmpty ? Self.noResponse : names.joined(separator: ", ")
      case .checkboxes(let boxes):
        let ticked = chosen(answers, index)
        answer = boxes.options.indices.map {
          "- [\(ticked.contains($0) ? "X" : " ")] \(boxes.options[$0].label)"
        }.joined(separator: "\n")
      }
      sections.append("### \(element.label ?? "")\n\n\(answer)")
    }
    return sections.joined(separator: "\n\n")
  }

  /// What GitHub writes for a field left empty.
  public static let noResponse = "_No response_"

  private func text(_ answers: [Int: FormAnswer], _ index: Int) -> String {
    switch answers[index] ?? initialAnswer(index) {
    case .text(let text): return text
    case .chosen, nil:
      preconditionFailure("element \(index) of the form takes text, and was answered with choices")
    }
  }

  private func chosen(_ answers: [Int: FormAnswer], _ index: Int) -> Set<Int> {
    switch answers[index] ?? initialAnswer(index) {
    case .chosen(let chosen): return chosen
    case .text, nil:
      preconditionFailure("element \(index) of the form takes choices, and was answered with text")
    }
  }

  private func initialAnswer(_ index: Int) -> FormAnswer? {
    switch elements[index] {
    case .markdown: nil
    case .input(let field), .textarea(let field): .text(field.value ?? "")
    case .dropdown(let dropdown): .chosen(dropdown.defaultIndex.map { [$0] } ?? [])
    case .checkboxes: .chosen([])
    }
  }

  static func isBlank(_ text: String) -> Bool {
    text.allSatisfy { $0.isWhitespace }
  }

  private static func trimmingTrailingNewlines(_ text: String) -> String {
    var text = Substring(text)
    while let last = text.last, last.isNewline { text.removeLast() }
    return String(text)
  }
}
