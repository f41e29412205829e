/// One element of an issue form's `body:`, as GitHub's form schema defines it: text shown, or a
/// field the person answers.
package enum FormElement: Hashable, Sendable {
  /// Text shown in the form and not submitted (`type: markdown`).
  case markdown(String)
  /// A single line of text (`type: input`).
  case input(FormTextField)
  /// Several lines of text, or a code block when it has a `render` language (`type: textarea`).
  case textarea(FormTextField)
  /// A choice among options, of one or of several (`type: dropdown`).
  case dropdown(FormDropdown)
  /// Boxes to tick, some of which may have to be (`type: checkboxes`).
  case checkboxes(FormCheckboxes)

  /// The label of a field, its heading in the body; `nil` for markdown.
  package var label: String? {
    switch self {
    case .markdown: nil
    case .input(let field), .textarea(let field): field.label
    case .dropdown(let dropdown): dropdown.label
    case .checkboxes(let boxes): boxes.label
    }
  }

  /// The field's `id`, when it has one (it never shows in the body).
  package var id: String? {
    switch self {
    case .markdown: nil
    case .input(let field), .textarea(let field): field.id
    case .dropdown(let dropdown): dropdown.id
    case .checkboxes(let boxes): boxes.id
    }
  }
}

/// A text field of a form: `input` (one line) or `textarea`.
package struct FormTextField: Hashable, Sendable {
  /// Its `id`, for prefilling; not part of the body.
  package var id: String?
  /// The heading it gets in the body.
  package var label: String
  /// Help shown under the label.
  package var description: String?
  /// Shown while the field is empty; never submitted.
  package var placeholder: String?
  /// The text the field starts with (submitted as left).
  package var value: String?
  /// A textarea's `render` language: the answer is submitted as a code block in it.
  package var render: String?
  /// Whether the web refuses to submit the form while it is empty.
  package var isRequired: Bool

  /// A text field.
  package init(
    id: String? = nil, label: String, description: String? = nil, placeholder: String? = nil,
    value: String? = nil, render: String? = nil, isRequired: Bool = false
  ) {
    self.id = id
    self.label = label
    self.description = description
    self.placeholder = placeholder
    self.value = value
    self.render = render
    self.isRequired = isRequired
  }
}

/// A dropdown of a form.
package struct FormDropdown: Hashable, Sendable {
  /// Its `id`, for prefilling; not part of the body.
  package var id: String?
  /// The heading it gets in the body.
  package var label: String
  /// Help shown under the label.
  package var description: String?
  /// The options, in the file's order (distinct, never `None`).
  package var options: [String]
  /// Whether several options may be chosen.
  package var allowsMultiple: Bool
  /// The option chosen when the form opens (`default:`, an index into ``options``).
  package var defaultIndex: Int?
  /// Whether the web refuses to submit the form while nothing is chosen.
  package var isRequired: Bool

  /// A dropdown.
  package init(
    id: String? = nil, label: String, description: String? = nil, options: [String],
    allowsMultiple: Bool = false, defaultIndex: Int? = nil, isRequired: Bool = false
  ) {
    self.id = id
    self.label = label
    self.description = description
    self.options = options
    self.allowsMultiple = allowsMultiple
    self.defaultIndex = defaultIndex
    self.isRequired = isRequired
  }
}

/// A group of checkboxes of a form.
package struct FormCheckboxes: Hashable, Sendable {
  /// One box.
  package struct Option: Hashable, Sendable {
    /// The text beside the box (Markdown).
    package var label: String
    /// Whether the web refuses to submit the form while it is not ticked.
    package var isRequired: Bool

    /// A box.
    package init(label: String, isRequired: Bool = false) {
      self.label = label
      self.isRequired = isRequired
    }
  }

  /// Its `id`, for prefilling; not part of the body.
  package var id: String?
  /// The heading it gets in the body.
  package var label: String
  /// Help shown under the label.
  package var description: String?
  /// The boxes, in the file's order.
  package var options: [Option]

  /// A group of boxes.
  package init(id: String? = nil, label: String, description: String? = nil, options: [Option]) {
    self.id = id
    self.label = label
    self.description = description
    self.options = options
  }
}
