/// One element of an issue form's `body:`, as GitHub's form schema defines it: text shown, or a
/// field the person answers.
public enum FormElement: Hashable, Sendable {
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
  public var label: String? {
    switch self {
    case .markdown: nil
    case .input(let field), .textarea(let field): field.label
    case .dropdown(let dropdown): dropdown.label
    case .checkboxes(let boxes): boxes.label
    }
  }

  /// The field's `id`, when it has one (it never shows in the body).
  public var id: String? {
    switch self {
    case .markdown: nil
    case .input(let field), .textarea(let field): field.id
    case .dropdown(let dropdown): dropdown.id
    case .checkboxes(let boxes): boxes.id
    }
  }
}

/// A text field of a form: `input` (one line) or `textarea`.
public struct FormTextField: Hashable, Sendable {
  /// Its `id`, for prefilling; not part of the body.
  public var id: String?
  /// The heading it gets in the body.
  public var label: String
  /// Help shown under the label.
  public var description: String?
  /// Shown while the field is empty; never submitted.
  public var placeholder: String?
  /// The text the field starts with (submitted as left).
  public var value: String?
  /// A textarea's `render` language: the answer is submitted as a code block in it.
  public var render: String?
  /// Whether the web refuses to submit the form while it is empty.
  public var isRequired: Bool

  /// A text field.
  public init(
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
public struct FormDropdown: Hashable, Sendable {
  /// Its `id`, for prefilling; not part of the body.
  public var id: String?
  /// The heading it gets in the body.
  public var label: String
  /// Help shown under the label.
  public var description: String?
  /// The options, in the file's order (distinct, never `None`).
  public var options: [String]
  /// Whether several options may be chosen.
  public var allowsMultiple: Bool
  /// The option chosen when the form opens (`default:`, an index into ``options``).
  public var defaultIndex: Int?
  /// Whether the web refuses to submit the form while nothing is chosen.
  public var isRequired: Bool

  /// A dropdown.
  public init(
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
public struct FormCheckboxes: Hashable, Sendable {
  /// One box.
  public struct Option: Hashable, Sendable {
    /// The text beside the box (Markdown).
    public var label: String
    /// Whether the web refuses to submit the form while it is not ticked.
    public var isRequired: Bool

    /// A box.
    public init(label: String, isRequired: Bool = false) {
      self.label = label
      self.isRequired = isRequired
    }
  }

  /// Its `id`, for prefilling; not part of the body.
  public var id: String?
  /// The heading it gets in the body.
  public var label: String
  /// Help shown under the label.
  public var description: String?
  /// The boxes, in the file's order.
  public var options: [Option]

  /// A group of boxes.
  public init(id: String? = nil, label: String, description: String? = nil, options: [Option]) {
    self.id = id
    self.label = label
    self.description = description
    self.options = options
  }
}
