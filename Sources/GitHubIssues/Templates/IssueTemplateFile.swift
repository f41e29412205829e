/// Reads one file of `.github/ISSUE_TEMPLATE/` by the rules GitHub documents for it ("Syntax for
/// issue forms", "Syntax for GitHub's form schema", "Common validation errors when creating issue
/// forms", "Configuring issue templates for your repository"), so that a template the web would
/// refuse is reported at its line and column instead of filling a form GitHub never shows.
struct IssueTemplateFile: YAMLReading {
  /// The file's path in the repository, as errors name it.
  let path: String
  /// The file's name, without its folder.
  let name: String

  init(folder: String, name: String) {
    self.path = folder.isEmpty ? name : folder + "/" + name
    self.name = name
  }

  /// The kind of file a name is, by its extension; `nil` for files GitHub does not read there.
  enum Kind {
    case form
    case markdown
    case config
  }

  static func kind(of name: String) -> Kind? {
    let lower = name.lowercased()
    if lower == "config.yml" || lower == "config.yaml" { return .config }
    if lower.hasSuffix(".yml") || lower.hasSuffix(".yaml") { return .form }
    if lower.hasSuffix(".md") { return .markdown }
    return nil
  }

  // MARK: Issue forms

  static let formKeys = [
    "name", "description", "title", "labels", "assignees", "projects", "type", "body",
  ]
  static let elementKeys = ["type", "id", "attributes", "validations"]
  static let elementTypes = ["markdown", "input", "textarea", "dropdown", "checkboxes"]

  /// An issue form.
  func form(_ source: String) throws(ConfigFileError) -> IssueTemplate {
    guard let root = try Self.compose(yaml: source, file: path) else {
      throw error(at: nil, "the form is empty: it needs name:, description: and body:.")
    }
    let pairs = try mapping(root, what: "the form", allowed: Self.formKeys)
    func value(_ key: String) -> ConfigNode? { pairs.first { $0.key == key }?.value }
    let name = try requiredText(value("name"), key: "name", in: root)
    let about = try requiredText(value("description"), key: "description", in: root)
    let title = try value("title").map { node throws(ConfigFileError) in
      try text(node, what: "title:")
    }
    let labels = try names(value("labels"), what: "labels:")
    let assignees = try names(value("assignees"), what: "assignees:")
    let projects = try names(value("projects"), what: "projects:")
    for project in projects where !Self.isProject(project) {
      throw error(
        at: value("projects"), "“\(project)” is not a project: projects are OWNER/NUMBER.")
    }
    let type = try value("type").map { node throws(ConfigFileError) in try text(node, what: "type:")
    }
    guard let bodyNode = value("body") else {
      throw error(at: root, "the form has no body: (the list of its fields).")
    }
    let items = try sequence(bodyNode, what: "body:")
    var elements: [FormElement] = []
    for item in items { elements.append(try element(item)) }
    try checkElements(elements, items, body: bodyNode)
    return IssueTemplate(
      file: self.name, name: name, about: about, title: title ?? "", labels: labels,
      assignees: assignees, projects: projects, type: type,
      content: .form(IssueForm(elements: elements)))
  }

  private func element(_ node: ConfigNode) throws(ConfigFileError) -> FormElement {
    let pairs = try mapping(node, what: "an element of body:", allowed: Self.elementKeys)
    func value(_ key: String) -> ConfigNode? { pairs.first { $0.key == key }?.value }
    guard let typeNode = value("type") else {
      throw error(
        at: node, "this element has no type: (\(Self.elementTypes.joined(separator: ", "))).")
    }
    let type = try string(typeNode, what: "type:")
    guard Self.elementTypes.contains(type) else {
      var message =
        "“\(type)” is not an element type: it is one of \(Self.elementTypes.joined(separator: ", "))."
      if let close = Self.nearest(type, in: Self.elementTypes) {
        message = "“\(type)” is not an element type: did you mean “\(close)”?"
      }
      throw error(at: typeNode, message)
    }
    let id = try value("id").map { node throws(ConfigFileError) in
      let id = try string(node, what: "id:")
      guard !id.isEmpty, id.unicodeScalars.allSatisfy(Self.isIdentifierCharacter) else {
        throw error(at: node, "id: “\(id)” may hold only letters, digits, - and _.")
      }
      return id
    }
    var isRequired = false
    if let validations = value("validations") {
      for pair in try mapping(validations, what: "validations:", allowed: ["required"]) {
        isRequired = try bool(pair.value, what: "required:")
      }
    }
    guard let attributesNode = value("attributes") else {
      throw error(at: node, "this \(type) has no attributes:.")
    }
    let allowed: [String] =
      switch type {
      case "markdown": ["value"]
      case "input": ["label", "description", "placeholder", "value"]
      case "textarea": ["label", "description", "placeholder", "value", "render"]
      case "dropdown": ["label", "description", "multiple", "options", "default"]
      default: ["label", "description", "options"]
      }
    let attributes = try mapping(
      attributesNode, what: "the attributes of this \(type)", allowed: allowed)
    func attribute(_ key: String) -> ConfigNode? { attributes.first { $0.key == key }?.value }
    func optional(_ key: String) throws(ConfigFileError) -> String? {
      guard let node = attribute(key) else { return nil }
      return try string(node, what: "\(key):")
    }
    if type == "markdown" {
      guard let valueNode = attribute("value") else {
        throw error(at: attributesNode, "this markdown has no value: (the text it shows).")
      }
      return .markdown(try nonBlank(valueNode, what: "value:"))
    }
    let label = try requiredText(attribute("label"), key: "label", in: attributesNode)
    let description = try optional("description")
    switch type {
    case "input", "textarea":
      return FormTextField(
        id: id, label: label, description: description, placeholder: try optional("placeholder"),
        value: try optional("value"), render: try optional("render"), isRequired: isRequired
      ).asElement(textarea: type == "textarea")
    case "dropdown":
      guard let optionsNode = attribute("options") else {
        throw error(at: attributesNode, "this dropdown has no options:.")
      }
      let items = try sequence(optionsNode, what: "options:")
      guard !items.isEmpty else { throw error(at: optionsNode, "options: is empty.") }
      var options: [String] = []
      for item in items {
        let option = try text(item, what: "an option")
        if option.lowercased() == "none" {
          throw error(at: item, "“\(option)” is reserved: GitHub uses it for no choice.")
        }
        if options.contains(option) { throw error(at: item, "“\(option)” is given twice.") }
        options.append(option)
      }
      let multiple = try attribute("multiple").map { node throws(ConfigFileError) in
        try bool(node, what: "multiple:")
      }
      var defaultIndex: Int?
      if let node = attribute("default") {
        guard let index = Int(try string(node, what: "default:")), options.indices.contains(index)
        else {
          throw error(
            at: node, "default: is the index of an option, from 0 to \(options.count - 1).")
        }
        defaultIndex = index
      }
      return .dropdown(
        FormDropdown(
          id: id, label: label, description: description, options: options,
          allowsMultiple: multiple ?? false, defaultIndex: defaultIndex, isRequired: isRequired))
    default:
      guard let optionsNode = attribute("options") else {
        throw error(at: attributesNode, "these checkboxes have no options:.")
      }
      let items = try sequence(optionsNode, what: "options:")
      guard !items.isEmpty else { throw error(at: optionsNode, "options: is empty.") }
      var options: [FormCheckboxes.Option] = []
      for item in items {
        let pairs = try mapping(item, what: "a checkbox", allowed: ["label", "required"])
        let label = try requiredText(
          pairs.first { $0.key == "label" }?.value, key: "label", in: item)
        let required = try pairs.first { $0.key == "required" }.map {
          pair throws(ConfigFileError) in
          try bool(pair.value, what: "required:")
        }
        options.append(FormCheckboxes.Option(label: label, isRequired: required ?? false))
      }
      return .checkboxes(
        FormCheckboxes(id: id, label: label, description: description, options: options))
    }
  }

  /// What GitHub checks across the elements: ids and labels unique, at least one field.
  private func checkElements(
    _ elements: [FormElement], _ nodes: [ConfigNode], body: ConfigNode
  ) throws(ConfigFileError) {
    guard elements.contains(where: { $0.label != nil }) else {
      throw error(at: body, "body: has no field to answer, only markdown.")
    }
    var ids: Set<String> = []
    var labels: Set<String> = []
    for (element, node) in zip(elements, nodes) {
      if let id = element.id, !ids.insert(id).inserted {
        throw error(at: node, "id: “\(id)” is used by an earlier element.")
      }
      if let label = element.label, !labels.insert(label).inserted {
        throw error(at: node, "label: “\(label)” is used by an earlier element.")
      }
    }
  }

  // MARK: Markdown templates

  /// A Markdown template: front matter between `---` lines, then the body.
  func markdown(_ source: String) throws(ConfigFileError) -> IssueTemplate {
    let lines = source.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
    func isFence(_ line: Substring) -> Bool {
      line.trimmingTrailingSpace() == "---"
    }
    guard let first = lines.first, isFence(first),
      let close = lines.indices.dropFirst().first(where: { isFence(lines[$0]) })
    else {
      throw error(at: nil, "the template has no front matter (name: and about: between --- lines).")
    }
    // The first fence stays as an empty line, so that lines keep their numbers in errors.
    let yaml = "\n" + lines[1..<close].joined(separator: "\n")
    let root = try Self.compose(yaml: yaml, file: path)
    let pairs =
      try root.map { node throws(ConfigFileError) in
        try mapping(node, what: "the front matter", allowed: nil)
      } ?? []
    func value(_ key: String) -> ConfigNode? { pairs.first { $0.key == key }?.value }
    let at = root ?? ConfigNode(.scalar("", .plain), line: 1, column: 1)
    let name = try requiredText(value("name"), key: "name", in: at)
    let about = try requiredText(value("about"), key: "about", in: at)
    let title = try value("title").map { node throws(ConfigFileError) in
      try string(node, what: "title:")
    }
    let body = lines[(close + 1)...].joined(separator: "\n")
    return IssueTemplate(
      file: self.name, name: name, about: about, title: title ?? "",
      labels: try names(value("labels"), what: "labels:"),
      assignees: try names(value("assignees"), what: "assignees:"),
      projects: try names(value("projects"), what: "projects:"),
      type: try value("type").map { node throws(ConfigFileError) in try string(node, what: "type:")
      }.flatMap {
        $0.isEmpty ? nil : $0
      },
      content: .markdown(body))
  }

  // MARK: config.yml

  /// The template chooser's configuration.
  func config(_ source: String) throws(ConfigFileError) -> IssueTemplateConfig {
    guard let root = try Self.compose(yaml: source, file: path) else {
      return IssueTemplateConfig()
    }
    var config = IssueTemplateConfig()
    for pair in try mapping(
      root, what: "config.yml", allowed: ["blank_issues_enabled", "contact_links"])
    {
      switch pair.key {
      case "blank_issues_enabled":
        config.blankIssuesEnabled = try bool(pair.value, what: "blank_issues_enabled:")
      default:
        if case .scalar(let text, _) = pair.value.value, text.isEmpty { continue }
        for item in try sequence(pair.value, what: "contact_links:") {
          let link = try mapping(item, what: "a contact link", allowed: ["name", "url", "about"])
          func value(_ key: String) throws(ConfigFileError) -> String {
            try requiredText(link.first { $0.key == key }?.value, key: key, in: item)
          }
          config.contactLinks.append(
            IssueTemplateConfig.ContactLink(
              name: try value("name"), url: try value("url"), about: try value("about")))
        }
      }
    }
    return config
  }

  // MARK: Values

  /// Text GitHub takes where it wants a string: not empty or blank, and not a word YAML reads
  /// as true or false (GitHub parses the file so, and refuses it).
  private func text(_ node: ConfigNode, what: String) throws(ConfigFileError) -> String {
    let value = try nonBlank(node, what: what)
    if case .scalar(_, .plain) = node.value, Self.yamlBooleans.contains(value) {
      throw error(at: node, "\(what) “\(value)” reads as true or false in YAML: put it in quotes.")
    }
    return value
  }

  private func nonBlank(_ node: ConfigNode, what: String) throws(ConfigFileError) -> String {
    let value = try string(node, what: what)
    guard !IssueForm.isBlank(value) else { throw error(at: node, "\(what) is empty.") }
    return value
  }

  private func requiredText(_ node: ConfigNode?, key: String, in parent: ConfigNode)
    throws(ConfigFileError) -> String
  {
    guard let node else { throw error(at: parent, "\(key): is required.") }
    return try text(node, what: "\(key):")
  }

  /// A list of names, given as a list or as one comma-separated string; empty when absent.
  private func names(_ node: ConfigNode?, what: String) throws(ConfigFileError) -> [String] {
    guard let node else { return [] }
    let items: [String]
    switch node.value {
    case .scalar(let text, _): items = text.split(separator: ",").map(String.init)
    case .sequence(let nodes):
      var texts: [String] = []
      for item in nodes { texts.append(try string(item, what: "an item of \(what)")) }
      items = texts
    case .mapping: throw error(at: node, "\(what) should be a list, or names separated by commas.")
    }
    return items.map { $0.trimmingBlankSpace() }.filter { !$0.isEmpty }
  }

  static let yamlBooleans: Set<String> = [
    "y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO", "true", "True", "TRUE", "false",
    "False", "FALSE", "on", "On", "ON", "off", "Off", "OFF",
  ]

  private static func isIdentifierCharacter(_ scalar: Unicode.Scalar) -> Bool {
    scalar.isASCII
      && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "-"
        || scalar == "_")
  }

  private static func isProject(_ text: String) -> Bool {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    return parts.count == 2 && !parts[0].isEmpty && !parts[1].isEmpty
      && parts[1].allSatisfy(\.isNumber)
  }
}

extension FormTextField {
  fileprivate func asElement(textarea: Bool) -> FormElement {
    textarea ? .textarea(self) : .input(self)
  }
}

extension Substring {
  fileprivate func trimmingTrailingSpace() -> Substring {
    var text = self
    while let last = text.last, last == " " || last == "\t" || last == "\r" { text.removeLast() }
    return text
  }
}

extension String {
  fileprivate func trimmingBlankSpace() -> String {
    String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
  }
}
