import TrellisTerminal

extension IssueJSON {
  /// A JSON value whose objects keep their keys in the order given, as gh writes them: a Go
  /// map sorted by key (an issue's top level, `author`), a Go struct in field order (`labels`:
  /// id, name, description, color; `milestone`; a comment).
  indirect enum Value: Equatable {
    case null
    case bool(Bool)
    case int(Int)
    case string(String)
    case array([Value])
    case object(Object)

    /// The text of the value: on one line, or indented by two spaces a level as gh indents for
    /// a terminal, with `"key": value` and no escaped slash.
    func text(pretty: Bool) -> String {
      var text = ""
      write(into: &text, indent: pretty ? "" : nil)
      return text
    }

    /// Writes the value; `indent` is the current line's indentation when pretty, else `nil`.
    private func write(into text: inout String, indent: String?) {
      switch self {
      case .null: text += "null"
      case .bool(let value): text += value ? "true" : "false"
      case .int(let value): text += String(value)
      case .string(let value): Self.quote(value, into: &text)
      case .array(let values):
        Self.writeList(values, into: &text, indent: indent, brackets: ("[", "]")) {
          $0.write(into: &$1, indent: $2)
        }
      case .object(let object):
        Self.writeList(object.members, into: &text, indent: indent, brackets: ("{", "}")) {
          member, text, indent in
          Self.quote(member.key, into: &text)
          text += indent == nil ? ":" : ": "
          member.value.write(into: &text, indent: indent)
        }
      }
    }

    private static func writeList<Element>(
      _ elements: [Element], into text: inout String, indent: String?,
      brackets: (open: String, close: String),
      element write: (Element, inout String, String?) -> Void
    ) {
      text += brackets.open
      guard !elements.isEmpty else {
        text += brackets.close
        return
      }
      let inner = indent.map { $0 + "  " }
      for (index, element) in elements.enumerated() {
        if index > 0 { text += "," }
        if let inner { text += "\n" + inner }
        write(element, &text, inner)
      }
      if let indent { text += "\n" + indent }
      text += brackets.close
    }

    /// A JSON string: quotes, backslashes and every scalar a terminal may act on (C0, DEL, C1,
    /// bidirectional controls) escaped, so that no byte of it drives the terminal it reaches;
    /// the line separators too, as Go escapes them.
    static func quote(_ string: String, into text: inout String) {
      text += "\""
      for scalar in string.unicodeScalars {
        switch scalar {
        case "\"": text += "\\\""
        case "\\": text += "\\\\"
        case "\n": text += "\\n"
        case "\r": text += "\\r"
        case "\t": text += "\\t"
        case "\u{2028}", "\u{2029}": text += escaped(scalar)
        default:
          if ControlCharacters.isInterpreted(scalar) {
            text += escaped(scalar)
          } else {
            text.unicodeScalars.append(scalar)
          }
        }
      }
      text += "\""
    }

    private static func escaped(_ scalar: Unicode.Scalar) -> String {
      let hex = String(scalar.value, radix: 16)
      return "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
  }

  /// A JSON object's members in order, written as a dictionary literal in that order.
  struct Object: Equatable, ExpressibleByDictionaryLiteral {
    var members: [(key: String, value: Value)]

    init(_ members: [(key: String, value: Value)]) { self.members = members }

    init(dictionaryLiteral elements: (String, Value)...) {
      members = elements.map { (key: $0.0, value: $0.1) }
    }

    /// The value of a key, or `nil`; setting one replaces it in place or appends it.
    subscript(key: String) -> Value? {
      get { members.first { $0.key == key }?.value }
      set {
        let index = members.firstIndex { $0.key == key }
        switch (index, newValue) {
        case (let index?, let value?): members[index].value = value
        case (let index?, nil): members.remove(at: index)
        case (nil, let value?): members.append((key, value))
        case (nil, nil): break
        }
      }
    }

    /// The members sorted by key, as Go writes a map.
    func sortedByKey() -> Object { Object(members.sorted { $0.key < $1.key }) }

    static func == (lhs: Object, rhs: Object) -> Bool {
      lhs.members.elementsEqual(rhs.members) { $0.key == $1.key && $0.value == $1.value }
    }
  }
}
