import Foundation

/// Decodes GitHub's answers into `Decodable` models, as Foundation's `JSONDecoder` configured
/// for GitHub (``GitHubJSON/decoder``) does, in less time.
///
/// The document is read once into ``JSONValue``s and each model's fields are found among an
/// object's members by comparing keys. Dates are GitHub's ISO 8601 text (``GitHubDate``); the
/// errors are `DecodingError`s with the coding paths and wording Foundation uses, so that
/// ``GitHubJSON/describe(_:relativeTo:)`` names a failed field the same way.
package struct GitHubJSONDecoder: Sendable {
  package init() {}

  /// Decodes a value of `type` from a whole document.
  ///
  /// - Throws: `DecodingError.dataCorrupted` with an empty coding path for a document that is
  ///   not JSON, and the field's `DecodingError` for one that does not fit the model.
  package func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
    let parsed = data.withUnsafeBytes { raw in
      Result { () throws(JSONValue.SyntaxError) in
        try JSONValue.parse(raw.bindMemory(to: UInt8.self))
      }
    }
    let root: JSONValue
    switch parsed {
    case .success(let value): root = value
    case .failure(let error):
      throw DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: [],
          debugDescription:
            "The given data was not valid JSON (\(error.reason) at byte \(error.offset))."))
    }
    return try JSONTreeDecoder(root, path: .root).decodeValue(type)
  }
}

/// Where a value sits in the document, built only when an error or a model asks for it.
indirect enum JSONPath: Sendable {
  case root
  case member(String, of: JSONPath)
  case element(Int, of: JSONPath)

  var codingPath: [any CodingKey] {
    var keys: [any CodingKey] = []
    var node = self
    while true {
      switch node {
      case .root: return keys.reversed()
      case .member(let name, let parent):
        keys.append(JSONKey(stringValue: name))
        node = parent
      case .element(let index, let parent):
        keys.append(JSONKey(intValue: index))
        node = parent
      }
    }
  }

  func appending(_ key: some CodingKey) -> JSONPath {
    if let index = key.intValue, key.stringValue == "Index \(index)" {
      return .element(index, of: self)
    }
    return .member(key.stringValue, of: self)
  }
}

/// A key of a coding path: a member's name or an element's index.
struct JSONKey: CodingKey {
  var stringValue: String
  var intValue: Int?

  init(stringValue: String) {
    self.stringValue = stringValue
    intValue = nil
  }

  init(intValue: Int) {
    stringValue = "Index \(intValue)"
    self.intValue = intValue
  }

  static let superKey = JSONKey(stringValue: "super")
}

/// The `Decoder` a model decodes itself from: one value and where it sits.
final class JSONTreeDecoder: Decoder {
  let value: JSONValue
  let path: JSONPath

  init(_ value: JSONValue, path: JSONPath) {
    self.value = value
    self.path = path
  }

  var codingPath: [any CodingKey] { path.codingPath }
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    guard case .object(let members) = value else {
      throw mismatch([String: Any].self, value, path)
    }
    return KeyedDecodingContainer(JSONKeyedContainer<Key>(members: members, path: path))
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    guard case .array(let elements) = value else { throw mismatch([Any].self, value, path) }
    return JSONUnkeyedContainer(elements: elements, path: path)
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer {
    JSONSingleValueContainer(value: value, path: path)
  }

  /// The value as `type`: dates as GitHub writes them, everything else by its own decoding.
  func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
    try JSONTreeDecoder.decode(type, from: value, at: path)
  }

  /// The value as `type`.
  ///
  /// The path is built only for an error or a nested model: most values are strings and
  /// numbers that need none. (Each `as? T` below is of the type just compared: it always fits.)
  static func decode<T: Decodable>(
    _ type: T.Type, from value: JSONValue, at path: @autoclosure () -> JSONPath
  ) throws -> T {
    if type == JSONValue.self, let value = value as? T { return value }
    if type == Date.self, let date = try decodeDate(value, at: path()) as? T { return date }
    if type == String.self, let text = try decodeString(value, at: path()) as? T { return text }
    if type == Int.self, let number = try decodeInteger(Int.self, value, at: path()) as? T {
      return number
    }
    if type == Int64.self, let number = try decodeInteger(Int64.self, value, at: path()) as? T {
      return number
    }
    if type == Bool.self, let flag = try decodeBool(value, at: path()) as? T { return flag }
    if type == Double.self, let number = try decodeFloat(Double.self, value, at: path()) as? T {
      return number
    }
    return try T(from: JSONTreeDecoder(value, path: path()))
  }

  static func decodeDate(_ value: JSONValue, at path: @autoclosure () -> JSONPath) throws -> Date {
    let text = try decodeString(value, at: path())
    guard let date = GitHubDate.parse(text) else {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: path().codingPath,
          debugDescription: "Expected date string to be ISO8601-formatted."))
    }
    return date
  }

  static func decodeString(_ value: JSONValue, at path: @autoclosure () -> JSONPath) throws
    -> String
  {
    guard case .string(let text) = value else { throw mismatch(String.self, value, path()) }
    return text
  }

  static func decodeBool(_ value: JSONValue, at path: @autoclosure () -> JSONPath) throws -> Bool {
    guard case .bool(let flag) = value else { throw mismatch(Bool.self, value, path()) }
    return flag
  }

  static func decodeInteger<I: FixedWidthInteger>(
    _ type: I.Type, _ value: JSONValue, at path: @autoclosure () -> JSONPath
  ) throws -> I {
    guard case .number(let text) = value else { throw mismatch(type, value, path()) }
    if let integer = I(text) { return integer }
    // `1.0` or `1e3` is a whole number too; anything else does not fit.
    if let double = Double(text), double.rounded() == double, let integer = I(exactly: double) {
      return integer
    }
    throw DecodingError.dataCorrupted(
      DecodingError.Context(
        codingPath: path().codingPath,
        debugDescription: "Number \(text) is not representable in Swift."))
  }

  static func decodeFloat<F: BinaryFloatingPoint & LosslessStringConvertible>(
    _ type: F.Type, _ value: JSONValue, at path: @autoclosure () -> JSONPath
  ) throws -> F {
    guard case .number(let text) = value, let number = F(text) else {
      throw mismatch(type, value, path())
    }
    return number
  }

  static func mismatch(_ type: Any.Type, _ value: JSONValue, _ path: JSONPath) -> DecodingError {
    if case .null = value {
      return DecodingError.valueNotFound(
        type,
        DecodingError.Context(
          codingPath: path.codingPath,
          debugDescription: "Cannot get value of type \(type) -- found null value instead"))
    }
    return DecodingError.typeMismatch(
      type,
      DecodingError.Context(
        codingPath: path.codingPath,
        debugDescription: "Expected to decode \(type) but found \(value.kindDescription) instead."
      ))
  }

  func mismatch(_ type: Any.Type, _ value: JSONValue, _ path: JSONPath) -> DecodingError {
    Self.mismatch(type, value, path)
  }
}

/// An object's members, found by name.
struct JSONKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
  let members: [(key: String, value: JSONValue)]
  let path: JSONPath
  /// Where each name's member is, for an object too large to search: one a model reads as a
  /// dictionary, which may be as large as the server makes it.
  private let positions: [String: Int]?

  init(members: [(key: String, value: JSONValue)], path: JSONPath) {
    self.members = members
    self.path = path
    if members.count > 32 {
      var positions: [String: Int] = [:]
      for (position, member) in members.enumerated() where positions[member.key] == nil {
        positions[member.key] = position
      }
      self.positions = positions
    } else {
      positions = nil
    }
  }

  var codingPath: [any CodingKey] { path.codingPath }

  /// The names in order, each once.
  var allKeys: [Key] {
    if let positions {
      return members.indices.compactMap { position in
        positions[members[position].key] == position ? Key(stringValue: members[position].key) : nil
      }
    }
    return members.indices.compactMap { position in
      member(named: members[position].key, in: members) == position
        ? Key(stringValue: members[position].key) : nil
    }
  }

  /// The member's value; of two with one name the first, as Foundation keeps.
  private func member(_ key: Key) -> JSONValue? { member(named: key.stringValue) }

  private func member(named name: String) -> JSONValue? {
    if let positions { return positions[name].map { members[$0].value } }
    return member(named: name, in: members).map { members[$0].value }
  }

  private func member(named name: String, in members: [(key: String, value: JSONValue)]) -> Int? {
    members.firstIndex { $0.key == name }
  }

  private func required(_ key: Key) throws -> JSONValue {
    guard let value = member(key) else {
      throw DecodingError.keyNotFound(
        key,
        DecodingError.Context(
          codingPath: path.codingPath,
          debugDescription: "No value associated with key \(key) (\"\(key.stringValue)\")."))
    }
    return value
  }

  func contains(_ key: Key) -> Bool { member(key) != nil }

  func decodeNil(forKey key: Key) throws -> Bool {
    if case .null = try required(key) { return true }
    return false
  }

  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
    try JSONTreeDecoder.decode(type, from: required(key), at: path.appending(key))
  }

  func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
    guard let value = member(key) else { return nil }
    if case .null = value { return nil }
    return try JSONTreeDecoder.decode(type, from: value, at: path.appending(key))
  }

  func decode(_ type: String.Type, forKey key: Key) throws -> String {
    try JSONTreeDecoder.decodeString(required(key), at: path.appending(key))
  }

  func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
    guard let value = member(key) else { return nil }
    if case .null = value { return nil }
    return try JSONTreeDecoder.decodeString(value, at: path.appending(key))
  }

  func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
    try JSONTreeDecoder.decodeBool(required(key), at: path.appending(key))
  }

  func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
    guard let value = member(key) else { return nil }
    if case .null = value { return nil }
    return try JSONTreeDecoder.decodeBool(value, at: path.appending(key))
  }

  func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
    try JSONTreeDecoder.decodeInteger(type, required(key), at: path.appending(key))
  }

  func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
    guard let value = member(key) else { return nil }
    if case .null = value { return nil }
    return try JSONTreeDecoder.decodeInteger(type, value, at: path.appending(key))
  }

  func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
    try JSONTreeDecoder.decodeInteger(type, required(key), at: path.appending(key))
  }

  func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
    guard let value = member(key) else { return nil }
    if case .null = value { return nil }
    return try JSONTreeDecoder.decodeInteger(type, value, at: path.appending(key))
  }

  func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 {
    try JSONTreeDecoder.decodeInteger(type, required(key), at: path.appending(key))
  }

  func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 {
    try JSONTreeDecoder.decodeInteger(type, required(key), at: path.appending(key))
  }

  func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 {
    try JSONTreeDecoder.decodeInteger(type, required(key), at: path.appending(key))
  }

  func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt {
    try JSONTreeDecoder.decodeInteger(type, required(key), at: path.appending(key))
  }

  func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 {
    try JSONTreeDecoder.decodeInteger(type, required(key), at: path.appending(key))
  }

  func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
    try JSONTreeDecoder.decodeInteger(type, required(key), at: path.appending(key))
  }

  func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
    try JSONTreeDecoder.decodeInteger(type, required(key), at: path.appending(key))
  }

  func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
    try JSONTreeDecoder.decodeInteger(type, required(key), at: path.appending(key))
  }

  func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
    try JSONTreeDecoder.decodeFloat(type, required(key), at: path.appending(key))
  }

  func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
    try JSONTreeDecoder.decodeFloat(type, required(key), at: path.appending(key))
  }

  func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type, forKey key: Key
  ) throws -> KeyedDecodingContainer<NestedKey> {
    let value = try required(key)
    let nested = path.appending(key)
    guard case .object(let members) = value else {
      throw JSONTreeDecoder.mismatch([String: Any].self, value, nested)
    }
    return KeyedDecodingContainer(JSONKeyedContainer<NestedKey>(members: members, path: nested))
  }

  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    let value = try required(key)
    let nested = path.appending(key)
    guard case .array(let elements) = value else {
      throw JSONTreeDecoder.mismatch([Any].self, value, nested)
    }
    return JSONUnkeyedContainer(elements: elements, path: nested)
  }

  func superDecoder() throws -> any Decoder {
    JSONTreeDecoder(member(named: "super") ?? .null, path: path.appending(JSONKey.superKey))
  }

  func superDecoder(forKey key: Key) throws -> any Decoder {
    JSONTreeDecoder(member(key) ?? .null, path: path.appending(key))
  }
}

/// An array's elements, in order.
struct JSONUnkeyedContainer: UnkeyedDecodingContainer {
  let elements: [JSONValue]
  let path: JSONPath
  var currentIndex = 0

  init(elements: [JSONValue], path: JSONPath) {
    self.elements = elements
    self.path = path
  }

  var codingPath: [any CodingKey] { path.codingPath }
  var count: Int? { elements.count }
  var isAtEnd: Bool { currentIndex >= elements.count }

  private func next(_ type: Any.Type) throws -> JSONValue {
    guard !isAtEnd else {
      throw DecodingError.valueNotFound(
        type,
        DecodingError.Context(
          codingPath: path.appending(JSONKey(intValue: currentIndex)).codingPath,
          debugDescription: "Unkeyed container is at end."))
    }
    return elements[currentIndex]
  }

  mutating func decodeNil() throws -> Bool {
    guard case .null = try next(Any?.self) else { return false }
    currentIndex += 1
    return true
  }

  mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
    let value = try JSONTreeDecoder.decode(
      type, from: next(type), at: .element(currentIndex, of: path))
    currentIndex += 1
    return value
  }

  mutating func decode(_ type: String.Type) throws -> String {
    let value = try JSONTreeDecoder.decodeString(next(type), at: .element(currentIndex, of: path))
    currentIndex += 1
    return value
  }

  mutating func decode(_ type: Int.Type) throws -> Int {
    let value = try JSONTreeDecoder.decodeInteger(
      type, next(type), at: .element(currentIndex, of: path))
    currentIndex += 1
    return value
  }

  mutating func decode(_ type: Bool.Type) throws -> Bool {
    let value = try JSONTreeDecoder.decodeBool(next(type), at: .element(currentIndex, of: path))
    currentIndex += 1
    return value
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type
  ) throws -> KeyedDecodingContainer<NestedKey> {
    let value = try next(KeyedDecodingContainer<NestedKey>.self)
    let nested = JSONPath.element(currentIndex, of: path)
    guard case .object(let members) = value else {
      throw JSONTreeDecoder.mismatch([String: Any].self, value, nested)
    }
    currentIndex += 1
    return KeyedDecodingContainer(JSONKeyedContainer<NestedKey>(members: members, path: nested))
  }

  mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
    let value = try next((any UnkeyedDecodingContainer).self)
    let nested = JSONPath.element(currentIndex, of: path)
    guard case .array(let elements) = value else {
      throw JSONTreeDecoder.mismatch([Any].self, value, nested)
    }
    currentIndex += 1
    return JSONUnkeyedContainer(elements: elements, path: nested)
  }

  mutating func superDecoder() throws -> any Decoder {
    let value = try next((any Decoder).self)
    let decoder = JSONTreeDecoder(value, path: .element(currentIndex, of: path))
    currentIndex += 1
    return decoder
  }
}

/// One value, for a model that decodes itself from a string, a number or `null`.
struct JSONSingleValueContainer: SingleValueDecodingContainer {
  let value: JSONValue
  let path: JSONPath

  var codingPath: [any CodingKey] { path.codingPath }

  func decodeNil() -> Bool {
    if case .null = value { return true }
    return false
  }

  func decode<T: Decodable>(_ type: T.Type) throws -> T {
    try JSONTreeDecoder.decode(type, from: value, at: path)
  }

  func decode(_ type: String.Type) throws -> String {
    try JSONTreeDecoder.decodeString(value, at: path)
  }

  func decode(_ type: Bool.Type) throws -> Bool { try JSONTreeDecoder.decodeBool(value, at: path) }

  func decode(_ type: Int.Type) throws -> Int {
    try JSONTreeDecoder.decodeInteger(type, value, at: path)
  }

  func decode(_ type: Int8.Type) throws -> Int8 {
    try JSONTreeDecoder.decodeInteger(type, value, at: path)
  }

  func decode(_ type: Int16.Type) throws -> Int16 {
    try JSONTreeDecoder.decodeInteger(type, value, at: path)
  }

  func decode(_ type: Int32.Type) throws -> Int32 {
    try JSONTreeDecoder.decodeInteger(type, value, at: path)
  }

  func decode(_ type: Int64.Type) throws -> Int64 {
    try JSONTreeDecoder.decodeInteger(type, value, at: path)
  }

  func decode(_ type: UInt.Type) throws -> UInt {
    try JSONTreeDecoder.decodeInteger(type, value, at: path)
  }

  func decode(_ type: UInt8.Type) throws -> UInt8 {
    try JSONTreeDecoder.decodeInteger(type, value, at: path)
  }

  func decode(_ type: UInt16.Type) throws -> UInt16 {
    try JSONTreeDecoder.decodeInteger(type, value, at: path)
  }

  func decode(_ type: UInt32.Type) throws -> UInt32 {
    try JSONTreeDecoder.decodeInteger(type, value, at: path)
  }

  func decode(_ type: UInt64.Type) throws -> UInt64 {
    try JSONTreeDecoder.decodeInteger(type, value, at: path)
  }

  func decode(_ type: Double.Type) throws -> Double {
    try JSONTreeDecoder.decodeFloat(type, value, at: path)
  }

  func decode(_ type: Float.Type) throws -> Float {
    try JSONTreeDecoder.decodeFloat(type, value, at: path)
  }
}
