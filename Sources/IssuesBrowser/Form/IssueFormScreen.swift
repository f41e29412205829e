import Foundation
import GitHubIssues
import TrellisTerminal

/// The new-issue screen: the repository's template chooser, then the chosen template's fields —
/// a form's inputs, text areas, dropdowns and checkboxes, or a Markdown template's body — filled
/// with keys and filed through the outbox.
///
/// Its state is an ``IssueFormModel`` value; the screen turns keys into the model's changes
/// through its key table and draws the model. What reaches outside (filing, the editor) is an
/// ``IssueFormEffect`` its host performs.
@MainActor
public final class IssueFormScreen: Screen {
  /// The repository the issue is filed in, for the title bar.
  package let repository: RepositoryName
  /// The model.
  package private(set) var model: IssueFormModel
  /// The keys: the standard ones, or the person's.
  package var keys = IssueFormKeys.standard
  /// The screen size.
  package private(set) var size: TerminalSize
  /// The first line of the fields shown (they scroll to keep the focus in view).
  private var scroll = 0
  private var message: StatusMessage?
  private var help: HelpOverlay?
  private let now: () -> Date
  /// Where the focus was drawn, for the accessible mode's cursor.
  private var focusCell: CellPoint?

  /// A screen filing an issue in `repository` from its `templates` (`chosen`: that template's
  /// fields at once).
  public init(
    repository: RepositoryName, templates: IssueTemplates, chosen: IssueTemplate? = nil,
    size: TerminalSize, now: @escaping () -> Date = Date.init
  ) {
    self.repository = repository
    self.model = IssueFormModel(templates: templates, chosen: chosen)
    self.size = size
    self.now = now
    for problem in templates.problems {
      show(message: "\(problem) (left out)")
    }
  }

  // MARK: Events

  package func handle(_ event: InputEvent) -> [IssueFormEffect] {
    if var help {
      if case .key(let key) = event, keys.command(for: key) == .interrupt { return [.interrupted] }
      self.help = help.handle(event, on: size) ? help : nil
      return []
    }
    switch event {
    case .paste(let text):
      if model.focusTakesText { model.type(text) }
      return []
    case .key(let key):
      if let command = keys.command(for: key) {
        // A space types in a text field.
        if command == .toggleOption, model.focusTakesText {
          model.type(" ")
          return []
        }
        return perform(command)
      }
      if model.focusTakesText, case .character(let character) = key.key,
        key.modifiers.subtracting(.shift).isEmpty
      {
        model.type(String(character))
      }
      return []
    default:
      return []
    }
  }

  /// Performs a command, whatever key sent it.
  package func perform(_ command: IssueFormCommand) -> [IssueFormEffect] {
    switch command {
    case .nextField, .previousField:
      let offset = command == .nextField ? 1 : -1
      if case .choosing = model.stage {
        model.moveChoice(by: offset)
      } else {
        model.moveField(by: offset)
      }
    case .previousOption: model.moveOption(by: -1)
    case .nextOption: model.moveOption(by: 1)
    case .toggleOption: model.toggleOption()
    case .enter:
      if case .choosing = model.stage {
        model.choose()
        if let projects = model.template?.projects, !projects.isEmpty {
          show(
            message: "This form adds the issue to projects (\(projects.joined(separator: ", "))), "
              + "which issues cannot do: add it on the web.")
        }
      } else if model.focusedField == .submit {
        return submit()
      } else if model.focusIsMultiline {
        model.type("\n")
      } else {
        model.moveField(by: 1)
      }
    case .edit:
      guard let text = model.focusedText else {
        show(message: "Ctrl-E writes a text field in your editor: this is not one.")
        return []
      }
      return [.edit(text)]
    case .erase: model.erase()
    case .eraseAll: model.erase(all: true)
    case .submit:
      if case .choosing = model.stage {
        show(message: "Choose a template first (Enter).")
        return []
      }
      return submit()
    case .showHelp: help = HelpOverlay(lines: IssueFormKeys.helpLines(keys))
    case .cancel: return [.cancel]
    case .interrupt: return [.interrupted]
    case .run(let command):
      show(message: "“\(command.title)” runs on an issue: this one is not filed yet.")
    }
    return []
  }

  private func submit() -> [IssueFormEffect] {
    switch model.submit() {
    case .file(let issue): return [.file(issue)]
    case .refused(let problems):
      show(
        message: problems.count == 1
          ? problems[0].message
          : "\(problems[0].message) (and \(problems.count - 1) more)")
      return []
    }
  }

  /// Shows a queued new issue's title and body to rewrite (its labels and the rest stay as
  /// queued).
  package func rewrite(title: String, body: String) {
    model.rewrite(title: title, body: body)
  }

  /// Opens a new issue's draft as it was left (``IssueFormModel/restore(_:)``).
  package func restore(_ issue: NewIssue, rewriting: Bool = false) {
    model.restore(issue, rewriting: rewriting)
  }

  /// Takes the text the editor wrote for the focused field.
  package func finishEditing(_ text: String) {
    var text = text
    if !model.focusIsMultiline {
      text = String(text.prefix { !$0.isNewline })
    }
    model.setFocusedText(text)
  }

  package func tick() -> [IssueFormEffect] {
    if let message, message.hasExpired(at: now()) { self.message = nil }
    return []
  }

  package func resize(_ size: TerminalSize) { self.size = size }

  package func show(message text: String) {
    message = StatusMessage(ControlCharacters.visible(text), now: now())
  }

  // MARK: Drawing

  /// A line of the screen's content: its runs, and the field it belongs to (the chooser's
  /// choice, while choosing).
  struct Line {
    var runs: StyledLine
    var field: Int?
    /// Where the cursor goes on it, when it is the focus's.
    var cursor: Int?
  }

  public func render(into screen: inout CellBuffer) {
    if screen.width != size.columns || screen.height != size.rows {
      screen = CellBuffer(width: size.columns, height: size.rows)
    }
    guard !ScreenBars.tooSmall(&screen, size: size, rows: 6, columns: 30) else { return }
    let name =
      model.isRewrite
      ? "new issue, not filed yet" : model.template.map { "new issue · \($0.name)" } ?? "new issue"
    ScreenBars.title(&screen, name: ControlCharacters.visible(name), status: "\(repository)")
    let width = size.columns - 2
    let lines = self.lines(width: width)
    let height = size.rows - 2
    let focused: Int? =
      switch model.stage {
      case .choosing(let index): index
      case .filling: model.focus
      }
    // Keep the focused field's lines in view.
    if let focused, let first = lines.firstIndex(where: { $0.field == focused }) {
      let last = lines.lastIndex(where: { $0.field == focused }) ?? first
      if last - first < height {
        if first < scroll { scroll = first }
        if last >= scroll + height { scroll = last - height + 1 }
      } else if let cursor = lines.firstIndex(where: { $0.cursor != nil }),
        cursor < scroll || cursor >= scroll + height
      {
        // Taller than the screen: the line being typed on shows.
        scroll = max(first, cursor - height + 1)
      }
    }
    scroll = max(0, min(scroll, max(0, lines.count - height)))
    focusCell = nil
    screen.draw(in: CellRect(x: 0, y: 1, width: size.columns, height: height)) { canvas in
      canvas.fill()
      for (row, line) in lines.dropFirst(scroll).prefix(height).enumerated() {
        var x = 1
        for run in line.runs { x = canvas.text(run.text, x: x, y: row, style: run.style) }
        if let cursor = line.cursor { focusCell = CellPoint(x: 1 + cursor, y: 1 + row) }
      }
    }
    ScreenBars.statusLine(&screen, message: message, hints: keys.hints)
    help?.draw(into: &screen)
  }

  /// The content's lines at `width`.
  func lines(width: Int) -> [Line] {
    switch model.stage {
    case .choosing(let focus): return chooserLines(focus: focus, width: width)
    case .filling: return fieldLines(width: width)
    }
  }

  private func chooserLines(focus: Int, width: Int) -> [Line] {
    var lines = [
      Line(runs: [StyledRun("Choose how to file an issue in \(repository):", Theme.header)]),
      Line(runs: []),
    ]
    for (index, choice) in model.choices.enumerated() {
      let (name, about): (String, String)
      switch choice {
      case .template(let template):
        let chosen = model.templates.templates[template]
        (name, about) = (chosen.name, chosen.about)
      case .blank: (name, about) = ("Blank issue", "Start from nothing")
      }
      let isFocused = index == focus
      let style = isFocused ? Theme.current.focus : Style.plain
      lines.append(
        Line(
          runs: [
            StyledRun(isFocused ? "▸ " : "  ", style),
            StyledRun(ControlCharacters.visible(name), style.with(.bold)),
          ], field: index, cursor: isFocused ? 0 : nil))
      for line in Markdown.render(about, width: max(1, width - 4)) {
        lines.append(Line(runs: [StyledRun("    ", .plain)] + dimmed(line), field: index))
      }
    }
    let links = model.templates.config.contactLinks
    if !links.isEmpty {
      lines.append(Line(runs: []))
      lines.append(Line(runs: [StyledRun("Or, instead of an issue:", Theme.header)]))
      for link in links {
        lines.append(
          Line(runs: [
            StyledRun("  " + ControlCharacters.visible(link.name), Style.plain.with(.bold)),
            StyledRun("  " + ControlCharacters.visible(link.url), Theme.current.accent),
          ]))
      }
    }
    return lines
  }

  private func fieldLines(width: Int) -> [Line] {
    var lines: [Line] = []
    let fields = model.fields
    func fieldIndex(_ field: IssueFormModel.Field) -> Int? { fields.firstIndex(of: field) }
    func heading(_ label: String, required: Bool, field: IssueFormModel.Field) {
      let isFocused = model.focusedField == field
      lines.append(Line(runs: []))
      lines.append(
        Line(
          runs: [
            StyledRun(isFocused ? "▸ " : "  ", Theme.current.accent),
            StyledRun(ControlCharacters.visible(label), Style.plain.with(.bold)),
            StyledRun(required ? " *" : "", Theme.current.failure),
          ], field: fieldIndex(field)))
    }
    func note(_ text: String?, field: IssueFormModel.Field?) {
      guard let text, !text.isEmpty else { return }
      for line in Markdown.render(text, width: max(1, width - 4)) {
        lines.append(
          Line(runs: [StyledRun("    ", .plain)] + dimmed(line), field: field.flatMap(fieldIndex)))
      }
    }
    func textBox(_ text: String, placeholder: String?, field: IssueFormModel.Field) {
      let isFocused = model.focusedField == field
      let boxStyle = isFocused ? Theme.current.focus : Theme.current.chip
      let shown = text.isEmpty ? [placeholder ?? ""] : text.components(separatedBy: "\n")
      for (index, line) in shown.enumerated() {
        let visible = DisplayWidth.truncate(
          ControlCharacters.visible(line), toColumns: max(1, width - 6))
        let isLast = index == shown.count - 1
        let style = text.isEmpty ? boxStyle.with(.dim) : boxStyle
        lines.append(
          Line(
            runs: [
              StyledRun("    ", .plain), StyledRun(" " + visible + " ", style),
            ],
            field: fieldIndex(field),
            cursor: isFocused && isLast ? 5 + (text.isEmpty ? 0 : DisplayWidth.of(visible)) : nil))
      }
    }
    func problems(_ field: IssueFormModel.Field) {
      for problem in model.problems(of: field) {
        lines.append(
          Line(
            runs: [StyledRun("    " + problem.message, Theme.current.failure)],
            field: fieldIndex(field)))
      }
    }
    heading("Title", required: true, field: .title)
    textBox(model.title, placeholder: "Title", field: .title)
    problems(.title)
    if let form = model.template?.form {
      for (index, element) in form.elements.enumerated() {
        let field = IssueFormModel.Field.element(index)
        switch element {
        case .markdown(let text):
          lines.append(Line(runs: []))
          for line in Markdown.render(text, width: max(1, width - 2)) {
            lines.append(Line(runs: [StyledRun("  ", .plain)] + line))
          }
        case .input(let text), .textarea(let text):
          heading(text.label, required: text.isRequired, field: field)
          note(text.description, field: field)
          var typed = ""
          if case .text(let answer)? = model.answers[index] { typed = answer }
          textBox(typed, placeholder: text.placeholder, field: field)
          if let render = text.render {
            lines.append(
              Line(
                runs: [StyledRun("    a \(render) code block", Theme.dim)], field: fieldIndex(field)
              ))
          }
        case .dropdown(let dropdown):
          heading(dropdown.label, required: dropdown.isRequired, field: field)
          note(dropdown.description, field: field)
          options(
            dropdown.options, marks: dropdown.allowsMultiple ? ("[x]", "[ ]") : ("(•)", "( )"),
            index: index, field: field, into: &lines, fieldIndex: fieldIndex(field))
        case .checkboxes(let boxes):
          heading(boxes.label, required: boxes.options.contains(where: \.isRequired), field: field)
          note(boxes.description, field: field)
          options(
            boxes.options.map { $0.label + ($0.isRequired ? " *" : "") }, marks: ("[x]", "[ ]"),
            index: index, field: field, into: &lines, fieldIndex: fieldIndex(field))
        }
        problems(field)
      }
    } else {
      heading("Body", required: false, field: .body)
      textBox(model.body, placeholder: "Markdown", field: .body)
    }
    lines.append(Line(runs: []))
    let onSubmit = model.focusedField == .submit
    lines.append(
      Line(
        runs: [
          StyledRun(onSubmit ? "▸ " : "  ", Theme.current.accent),
          StyledRun(
            model.isRewrite ? " Keep the changes " : " File the issue ",
            onSubmit ? Theme.current.focus : Theme.current.chip),
        ], field: fieldIndex(.submit), cursor: onSubmit ? 2 : nil))
    if let template = model.template, !(template.labels.isEmpty && template.assignees.isEmpty) {
      var said: [String] = []
      if !template.labels.isEmpty {
        said.append("labels " + template.labels.joined(separator: ", "))
      }
      if !template.assignees.isEmpty {
        said.append("assigned to " + template.assignees.joined(separator: ", "))
      }
      lines.append(
        Line(
          runs: [StyledRun("  Filed with " + said.joined(separator: "; "), Theme.dim)],
          field: fieldIndex(.submit)))
    }
    return lines
  }

  private func options(
    _ names: [String], marks: (on: String, off: String), index: Int,
    field: IssueFormModel.Field, into lines: inout [Line], fieldIndex: Int?
  ) {
    var chosen: Set<Int> = []
    if case .chosen(let set)? = model.answers[index] { chosen = set }
    let isFocused = model.focusedField == field
    for (option, name) in names.enumerated() {
      let here = isFocused && option == model.option
      let style = here ? Theme.current.focus : Style.plain
      lines.append(
        Line(
          // An option's label is Markdown on the web (a link to a code of conduct, say).
          runs: [
            StyledRun("    ", .plain),
            StyledRun((chosen.contains(option) ? marks.on : marks.off) + " ", style),
          ] + Markdown.inline(ControlCharacters.visible(name), base: style),
          field: fieldIndex, cursor: here ? 4 : nil))
    }
  }

  private func dimmed(_ line: StyledLine) -> StyledLine {
    line.map { StyledRun($0.text, $0.style.with(.dim)) }
  }

  package var cursorPosition: CellPoint? {
    help != nil ? HelpOverlay.cursor : focusCell
  }

  package var focusDescription: String? {
    if help != nil { return "the list of keys" }
    switch model.stage {
    case .choosing(let index):
      guard model.choices.indices.contains(index) else { return nil }
      switch model.choices[index] {
      case .template(let template): return "template " + model.templates.templates[template].name
      case .blank: return "blank issue"
      }
    case .filling:
      switch model.focusedField {
      case .title: return "title: " + (model.title.isEmpty ? "empty" : model.title)
      case .body: return "body"
      case .submit: return "file the issue"
      case .element(let index)?:
        return model.element(.element(index))?.label.map { "field \($0)" }
      case nil: return nil
      }
    }
  }

  /// A new frame of the screen.
  public func render() -> CellBuffer {
    var screen = CellBuffer(width: size.columns, height: size.rows)
    render(into: &screen)
    return screen
  }
}
