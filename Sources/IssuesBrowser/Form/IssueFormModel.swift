import Foundation
import GitHubIssues

/// The new-issue screen's state as a value: which template, the title, the form's answers or
/// the body, the field in focus, the problems the last submit found — tested without a terminal.
///
/// It opens on the repository's template chooser (unless a template was given) and then shows
/// the template's fields: the title, then a form's fields in the file's order (its markdown as
/// text between them), or the body of a Markdown template or a blank issue; a last row submits.
/// A submit refuses what the web refuses (``IssueForm/problems(title:answers:)``) and moves the
/// focus to the first problem.
package struct IssueFormModel: Hashable, Sendable {
  /// A row that takes the focus.
  package enum Field: Hashable, Sendable {
    /// The issue's title.
    case title
    /// A form's field: the element's index in the form's `body:`.
    case element(Int)
    /// The body of a Markdown template or a blank issue.
    case body
    /// The submit row.
    case submit
  }

  /// A choice in the template chooser.
  package enum Choice: Hashable, Sendable {
    /// One of the repository's templates, by its index.
    case template(Int)
    /// An issue without a template (when the repository allows it).
    case blank
  }

  /// Where the screen stands.
  package enum Stage: Hashable, Sendable {
    /// Choosing a template: the choice in focus, by index in ``choices``.
    case choosing(Int)
    /// Filling the chosen template's fields.
    case filling
  }

  /// The repository's templates and chooser configuration.
  package let templates: IssueTemplates
  /// The choices the chooser offers, in order.
  package let choices: [Choice]
  /// Where the screen stands.
  package private(set) var stage: Stage
  /// The template being filled; `nil` for a blank issue.
  package private(set) var template: IssueTemplate?
  /// The title.
  package var title = ""
  /// A form's answers, by element index.
  package var answers: [Int: FormAnswer] = [:]
  /// The body of a Markdown template or a blank issue.
  package var body = ""
  /// The field in focus, by index in ``fields``.
  package private(set) var focus = 0
  /// The option in focus in a dropdown or a group of checkboxes.
  package private(set) var option = 0
  /// What the last submit refused, in the form's order.
  package private(set) var problems: [FormProblem] = []
  /// Whether the fields rewrite a new issue already queued (its title and body), rather than
  /// start one.
  package private(set) var isRewrite = false

  /// A model over a repository's templates; with `chosen`, that template's fields at once.
  package init(templates: IssueTemplates, chosen: IssueTemplate? = nil) {
    self.templates = templates
    var choices = templates.templates.indices.map(Choice.template)
    if templates.config.blankIssuesEnabled || templates.templates.isEmpty {
      choices.append(.blank)
    }
    self.choices = choices
    stage = .choosing(0)
    if let chosen {
      start(chosen)
    } else if templates.templates.isEmpty {
      start(nil)
    }
  }

  // MARK: Fields

  /// The rows that take the focus, in order.
  package var fields: [Field] {
    guard case .filling = stage else { return [] }
    var fields: [Field] = [.title]
    if let form = template?.form {
      fields += form.elements.indices.filter { form.elements[$0].label != nil }.map(Field.element)
    } else {
      fields.append(.body)
    }
    return fields + [.submit]
  }

  /// The field in focus, while filling.
  package var focusedField: Field? {
    let fields = fields
    return fields.indices.contains(focus) ? fields[focus] : nil
  }

  /// The form element a field stands for.
  package func element(_ field: Field) -> FormElement? {
    guard case .element(let index) = field, let form = template?.form,
      form.elements.indices.contains(index)
    else { return nil }
    return form.elements[index]
  }

  /// Whether typing goes into the focused field: the title, a form's text fields, the body.
  package var focusTakesText: Bool {
    switch focusedField {
    case .title, .body: true
    case .element(let index)?:
      switch element(.element(index)) {
      case .input?, .textarea?: true
      default: false
      }
    case .submit?, nil: false
    }
  }

  /// Whether the focused field holds several lines (Enter starts a new line there).
  package var focusIsMultiline: Bool {
    switch focusedField {
    case .body: true
    case .element(let index)?:
      if case .textarea? = element(.element(index)) { true } else { false }
    default: false
    }
  }

  /// The focused field's text, if it takes text.
  package var focusedText: String? {
    switch focusedField {
    case .title: title
    case .body: body
    case .element(let index)?:
      if case .text(let text)? = answers[index] { text } else { nil }
    default: nil
    }
  }

  // MARK: Changes

  /// Chooses a template (or blank, `nil`) and shows its fields, the title first.
  package mutating func start(_ chosen: IssueTemplate?) {
    template = chosen
    stage = .filling
    title = chosen?.title ?? ""
    answers = chosen?.form?.initialAnswers ?? [:]
    if case .markdown(let text)? = chosen?.content { body = text } else { body = "" }
    focus = 0
    option = 0
    problems = []
  }

  /// Shows a queued new issue's title and body to rewrite, as a blank issue's fields.
  package mutating func rewrite(title: String, body: String) {
    start(nil)
    self.title = title
    self.body = body
    isRewrite = true
  }

  /// Moves the chooser's focus by `offset`, staying within the choices.
  package mutating func moveChoice(by offset: Int) {
    guard case .choosing(let index) = stage, !choices.isEmpty else { return }
    stage = .choosing(min(max(0, index + offset), choices.count - 1))
  }

  /// Takes the chooser's focused choice.
  package mutating func choose() {
    guard case .choosing(let index) = stage, choices.indices.contains(index) else { return }
    switch choices[index] {
    case .template(let template): start(templates.templates[template])
    case .blank: start(nil)
    }
  }

  /// Moves the focus to the next (or previous) field, wrapping around.
  package mutating func moveField(by offset: Int) {
    let count = fields.count
    guard count > 0 else { return }
    focus = ((focus + offset) % count + count) % count
    option = 0
  }

  /// Moves the focus to a field.
  package mutating func focus(on field: Field) {
    if let index = fields.firstIndex(of: field) {
      focus = index
      option = 0
    }
  }

  /// Types text into the focused field; a line break only where the field holds several lines.
  package mutating func type(_ text: String) {
    let typed = focusIsMultiline ? text : String(text.filter { !$0.isNewline })
    setFocusedText((focusedText ?? "") + typed)
  }

  /// Erases the focused field's last character (or all of it).
  package mutating func erase(all: Bool = false) {
    guard var text = focusedText, !text.isEmpty else { return }
    if all { text = "" } else { text.removeLast() }
    setFocusedText(text)
  }

  /// Replaces the focused field's text (what the editor wrote).
  package mutating func setFocusedText(_ text: String) {
    switch focusedField {
    case .title: title = String(text.filter { !$0.isNewline })
    case .body: body = text
    case .element(let index)?:
      if case .input? = element(.element(index)) {
        answers[index] = .text(String(text.filter { !$0.isNewline }))
      } else {
        answers[index] = .text(text)
      }
    default: return
    }
    let place = place(of: focusedField)
    problems.removeAll { $0.place == place }
  }

  /// Moves the option in focus of a dropdown or a group of checkboxes.
  package mutating func moveOption(by offset: Int) {
    let count = optionCount
    guard count > 0 else { return }
    option = min(max(0, option + offset), count - 1)
  }

  /// Chooses (a dropdown) or ticks (checkboxes) the option in focus; choosing the one option
  /// of a single dropdown again clears it.
  package mutating func toggleOption() {
    guard case .element(let index)? = focusedField, optionCount > 0 else { return }
    var chosen: Set<Int> = []
    if case .chosen(let current)? = answers[index] { chosen = current }
    switch element(.element(index)) {
    case .dropdown(let dropdown)?:
      if chosen.contains(option) {
        chosen.remove(option)
      } else {
        if !dropdown.allowsMultiple { chosen = [] }
        chosen.insert(option)
      }
    case .checkboxes?:
      if !chosen.insert(option).inserted { chosen.remove(option) }
    default: return
    }
    answers[index] = .chosen(chosen)
    problems.removeAll { $0.place == .element(index) }
  }

  private var optionCount: Int {
    switch focusedField.flatMap(element) {
    case .dropdown(let dropdown)?: dropdown.options.count
    case .checkboxes(let boxes)?: boxes.options.count
    default: 0
    }
  }

  private func place(of field: Field?) -> FormProblem.Place? {
    switch field {
    case .title: .title
    case .element(let index)?: .element(index)
    default: nil
    }
  }

  /// What a submit comes to.
  package enum Submission: Hashable, Sendable {
    /// The issue to file.
    case file(NewIssue)
    /// What keeps it from being filed, in the form's order.
    case refused([FormProblem])
  }

  /// The issue to file, or the problems that keep it from being filed (the focus moves to the
  /// first).
  package mutating func submit() -> Submission {
    let found: [FormProblem]
    if let form = template?.form {
      found = form.problems(title: title, answers: answers)
    } else {
      found =
        title.allSatisfy(\.isWhitespace) ? [FormProblem(.title, "The title is required.")] : []
    }
    problems = found
    if let first = found.first {
      switch first.place {
      case .title: focus(on: .title)
      case .element(let index): focus(on: .element(index))
      }
      return .refused(found)
    }
    return .file(filled)
  }

  /// The issue as filled so far, whether or not it could be filed: what is filed, and what a
  /// draft keeps (the template and every answer, so that the form reopens as it was left).
  package var filled: NewIssue {
    NewIssue(
      title: title, body: template?.form.map { $0.body(answers: answers) } ?? body,
      labels: template?.labels ?? [], assignees: template?.assignees ?? [],
      type: template?.type,
      form: template.map { FilledForm(template: $0.file, answers: $0.form == nil ? [:] : answers) })
  }

  /// Whether nothing was written beyond what the template starts with.
  ///
  /// Leaving such a form keeps no draft.
  package var isUntouched: Bool {
    guard case .filling = stage else { return true }
    var start = IssueFormModel(templates: templates)
    start.start(template)
    return title == start.title && answers == start.answers && body == start.body
  }

  /// Opens a new issue's draft as it was left: its template with every answer when the template
  /// is still the repository's (a form's answers only where its fields still are), else as a
  /// blank issue's title and body, so that no word is dropped.
  package mutating func restore(_ issue: NewIssue, rewriting: Bool = false) {
    defer { isRewrite = rewriting }
    if let name = issue.form?.template,
      let chosen = templates.templates.first(where: { $0.file == name })
    {
      start(chosen)
      title = issue.title
      if let form = chosen.form {
        let answers = issue.form?.answersByElement ?? [:]
        if answers.keys.allSatisfy({ form.elements.indices.contains($0) }),
          form.body(answers: answers) == issue.body
        {
          self.answers = answers
          return
        }
      } else {
        body = issue.body
        return
      }
    }
    // The template changed or is gone: the composed words, as a blank issue's.
    start(nil)
    title = issue.title
    body = issue.body
  }

  /// The problems about a field, as the screen shows them under it.
  package func problems(of field: Field) -> [FormProblem] {
    guard let place = place(of: field) else { return [] }
    return problems.filter { $0.place == place }
  }
}
