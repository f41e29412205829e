/// A template's fields as the person filled them: what a new issue's draft keeps so that the
/// form reopens as it was left, every answer in its field, rather than as the body composed
/// from them.
public struct FilledForm: Hashable, Sendable, Codable {
  /// One field's answer.
  public struct Answer: Hashable, Sendable, Codable {
    /// The element's index in the form's `body:`.
    public var element: Int
    /// What was typed, for an `input` or a `textarea`.
    public var text: String?
    /// The options chosen, for a `dropdown` or `checkboxes`, by index.
    public var chosen: [Int]?

    /// An answer as the form model holds it.
    public init(element: Int, _ answer: FormAnswer) {
      self.element = element
      switch answer {
      case .text(let text): self.text = text
      case .chosen(let chosen): self.chosen = chosen.sorted()
      }
    }

    /// The answer as the form model holds it.
    public var answer: FormAnswer {
      if let chosen { return .chosen(Set(chosen)) }
      return .text(text ?? "")
    }
  }

  /// The template's file name (``IssueTemplate/file``); `nil` for a blank issue.
  public var template: String?
  /// The answers, by element.
  public var answers: [Answer]

  /// A form as filled.
  public init(template: String?, answers: [Int: FormAnswer]) {
    self.template = template
    self.answers = answers.keys.sorted().compactMap { index in
      answers[index].map { Answer(element: index, $0) }
    }
  }

  /// The answers by element index, as the form model holds them.
  public var answersByElement: [Int: FormAnswer] {
    Dictionary(answers.map { ($0.element, $0.answer) }, uniquingKeysWith: { _, last in last })
  }
}
