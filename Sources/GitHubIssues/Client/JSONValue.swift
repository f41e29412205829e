/// A JSON document read into values, for ``GitHubJSONDecoder`` to decode models from.
///
/// An object keeps its members in the order they came, so that a model's field is found by
/// comparing a few keys rather than by hashing every key of every object (the most of what
/// Foundation's decoder spends on a mirror page of comments and their reaction groups).
/// Numbers keep their text: each is converted to the type a model asks for.
enum JSONValue: Sendable {
  case null
  case bool(Bool)
  case number(String)
  case string(String)
  case array([JSONValue])
  case object([(key: String, value: JSONValue)])

  /// How Foundation's decoder names a value's kind in a type mismatch.
  var kindDescription: String {
    switch self {
    case .null: "null"
    case .bool: "bool"
    case .number: "number"
    case .string: "a string"
    case .array: "an array"
    case .object: "a dictionary"
    }
  }

  /// Nesting deeper than this is refused rather than read by recursing on: an answer is
  /// untrusted, and no GitHub answer comes near it.
  static let maximumDepth = 512

  /// Reads a whole document: one value, with only whitespace around it.
  ///
  /// - Throws: ``JSONValue/SyntaxError`` naming the byte offset of the first error.
  static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(SyntaxError) -> JSONValue {
    var reader = Reader(bytes: bytes)
    reader.skipWhitespace()
    let value = try reader.value(depth: 0)
    reader.skipWhitespace()
    guard reader.offset == bytes.count else {
      throw reader.error("unexpected text after the value")
    }
    return value
  }

  /// Where and why a document is not JSON.
  struct SyntaxError: Error, Sendable, Equatable {
    var offset: Int
    var reason: String
  }

  private struct Reader {
    let bytes: UnsafeBufferPointer<UInt8>
    var offset = 0

    func error(_ reason: String) -> SyntaxError { SyntaxError(offset: offset, reason: reason) }

    var current: UInt8? { offset < bytes.count ? bytes[offset] : nil }

    mutating func skipWhitespace() {
      while offset < bytes.count {
        switch bytes[offset] {
        case 0x20, 0x0A, 0x0D, 0x09: offset += 1
        default: return
        }
      }
    }

    mutating func value(depth: Int) throws(SyntaxError) -> JSONValue {
      guard let byte = current else { throw error("unexpected end of the document") }
      switch byte {
      case UInt8(ascii: "{"):
        guard depth < JSONValue.maximumDepth else { throw error("nested too deeply") }
        return try object(depth: depth + 1)
      case UInt8(ascii: "["):
        guard depth < JSONValue.maximumDepth else { throw error("nested too deeply") }
        return try array(depth: depth + 1)
      case UInt8(ascii: "\""): return .string(try string())
      case UInt8(ascii: "t"): try literal("true"); return .bool(true)
      case UInt8(ascii: "f"): try literal("false"); return .bool(false)
      case UInt8(ascii: "n"): try literal("null"); return .null
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
      default: throw error("unexpected character")
      }
    }

    mutating func literal(_ word: StaticString) throws(SyntaxError) {
      let count = word.utf8CodeUnitCount
      guard offset + count <= bytes.count else { throw error("unexpected end of the document") }
      for index in 0..<count where bytes[offset + index] != word.utf8Start[index] {
        throw error("unexpected character")
      }
      offset += count
    }

    mutating func object(depth: Int) throws(SyntaxError) -> JSONValue {
      offset += 1
      var members: [(key: String, value: JSONValue)] = []
      skipWhitespace()
      if current == UInt8(ascii: "}") {
        offset += 1
        return .object(members)
      }
      while true {
        guard current == UInt8(ascii: "\"") else { throw error("expected a member's name") }
        let key = try string()
        skipWhitespace()
        guard current == UInt8(ascii: ":") else { throw error("expected “:”") }
        offset += 1
        skipWhitespace()
        members.append((key, try value(depth: depth)))
        skipWhitespace()
        switch current {
        case UInt8(ascii: ","):
          offset += 1
          skipWhitespace()
        case UInt8(ascii: "}"):
          offset += 1
          return .object(members)
        default: throw error("expected “,” or “}”")
        }
      }
    }

    mutating func array(depth: Int) throws(SyntaxError) -> JSONValue {
      offset += 1
      var elements: [JSONValue] = []
      skipWhitespace()
      if current == UInt8(ascii: "]") {
        offset += 1
        return .array(elements)
      }
      while true {
        elements.append(try value(depth: depth))
        skipWhitespace()
        switch current {
        case UInt8(ascii: ","):
          offset += 1
          skipWhitespace()
        case UInt8(ascii: "]"):
          offset += 1
          return .array(elements)
        default: throw error("expected “,” or “]”")
        }
      }
    }

    /// A number's text, checked against JSON's grammar.
    mutating func number() throws(SyntaxError) -> String {
      let start = offset
      if current == UInt8(ascii: "-") { offset += 1 }
      func digits(_ reader: inout Reader) -> Int {
        let first = reader.offset
        while let byte = reader.current, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
          reader.offset += 1
        }
        return reader.offset - first
      }
      if current == UInt8(ascii: "0") {
        offset += 1
      } else if digits(&self) == 0 {
        throw error("expected a digit")
      }
      if current == UInt8(ascii: ".") {
        offset += 1
        guard digits(&self) > 0 else { throw error("expected a digit") }
      }
      if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
        offset += 1
        if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { offset += 1 }
        guard digits(&self) > 0 else { throw error("expected a digit") }
      }
      return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self)
    }

    /// A string's value; the reader stands on its opening quote.
    mutating func string() throws(SyntaxError) -> String {
      offset += 1
      let start = offset
      // Most strings have no escape: their bytes are the value.
      while offset < bytes.count {
        let byte = bytes[offset]
        if byte == UInt8(ascii: "\"") {
          let text = try validated(start..<offset)
          offset += 1
          return text
        }
        if byte == UInt8(ascii: "\\") { break }
        guard byte >= 0x20 else { throw error("a control character in a string") }
        offset += 1
      }
      guard offset < bytes.count else { throw error("unexpected end of a string") }
      var text = try validated(start..<offset)
      var run = offset
      while offset < bytes.count {
        let byte = bytes[offset]
        switch byte {
        case UInt8(ascii: "\""):
          text += try validated(run..<offset)
          offset += 1
          return text
        case UInt8(ascii: "\\"):
          text += try validated(run..<offset)
          offset += 1
          try escape(into: &text)
          run = offset
        default:
          guard byte >= 0x20 else { throw error("a control character in a string") }
          offset += 1
        }
      }
      throw error("unexpected end of a string")
    }

    func validated(_ range: Range<Int>) throws(SyntaxError) -> String {
      guard
        let text = String(validating: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
      else { throw SyntaxError(offset: range.lowerBound, reason: "text that is not UTF-8") }
      return text
    }

    /// One escape after its backslash.
    mutating func escape(into text: inout String) throws(SyntaxError) {
      guard let byte = current else { throw error("unexpected end of a string") }
      offset += 1
      switch byte {
      case UInt8(ascii: "\""): text += "\""
      case UInt8(ascii: "\\"): text += "\\"
      case UInt8(ascii: "/"): text += "/"
      case UInt8(ascii: "b"): text += "\u{8}"
      case UInt8(ascii: "f"): text += "\u{C}"
      case UInt8(ascii: "n"): text += "\n"
      case UInt8(ascii: "r"): text += "\r"
      case UInt8(ascii: "t"): text += "\t"
      case UInt8(ascii: "u"):
        let unit = try hexUnit()
        if (0xD800..<0xDC00).contains(unit) {
          // A high surrogate: only a low one after it makes a character.
          guard offset + 1 < bytes.count, bytes[offset] == UInt8(ascii: "\\"),
            bytes[offset + 1] == UInt8(ascii: "u")
          else { throw error("a lone surrogate in a string") }
          offset += 2
          let low = try hexUnit()
          guard (0xDC00..<0xE000).contains(low) else { throw error("a lone surrogate in a string") }
          let scalar = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
          guard let character = Unicode.Scalar(scalar) else { throw error("an invalid escape") }
          text.unicodeScalars.append(character)
        } else {
          guard let character = Unicode.Scalar(unit) else {
            throw error("a lone surrogate in a string")
          }
          text.unicodeScalars.append(character)
        }
      default: throw error("an invalid escape")
      }
    }

    mutating func hexUnit() throws(SyntaxError) -> UInt16 {
      guard offset + 4 <= bytes.count else { throw error("unexpected end of a string") }
      var unit: UInt16 = 0
      for _ in 0..<4 {
        let byte = bytes[offset]
        let digit: UInt8
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
        default: throw error("an invalid escape")
        }
        unit = unit << 4 | UInt16(digit)
        offset += 1
      }
      return unit
    }
  }
}

extension JSONValue: Decodable {
  /// The value a model asks for as it is: ``GitHubJSONDecoder`` hands over what it read,
  /// without a container per object; any other decoder builds it from its containers.
  init(from decoder: any Decoder) throws {
    if let tree = decoder as? JSONTreeDecoder {
      self = tree.value
      return
    }
    let single = try decoder.singleValueContainer()
    if single.decodeNil() {
      self = .null
    } else if let flag = try? single.decode(Bool.self) {
      self = .bool(flag)
    } else if let number = try? single.decode(Double.self) {
      self = .number(
        number.rounded() == number && abs(number) < 1e15 ? String(Int64(number)) : String(number))
    } else if let text = try? single.decode(String.self) {
      self = .string(text)
    } else if var elements = try? decoder.unkeyedContainer() {
      var values: [JSONValue] = []
      while !elements.isAtEnd { values.append(try elements.decode(JSONValue.self)) }
      self = .array(values)
    } else {
      let members = try decoder.container(keyedBy: JSONKey.self)
      self = .object(
        try members.allKeys.map { ($0.stringValue, try members.decode(JSONValue.self, forKey: $0)) }
      )
    }
  }

  /// The member of an object with that name (the first, as decoding takes), if any.
  subscript(member name: String) -> JSONValue? {
    guard case .object(let members) = self else { return nil }
    return members.first { $0.key == name }?.value
  }
}
