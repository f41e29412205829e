import CJQ

/// A jq program, compiled by jq's own library, run over a command's JSON as gh's `--jq` runs it:
/// each result on its own line, a string as its text, anything else as compact JSON with its
/// keys sorted and `<`, `>`, `&` escaped (what gh prints).
struct JQFilter {
  /// Why a program could not be compiled or run: jq's own message.
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  let program: String

  /// Checks that the program compiles.
  ///
  /// - Throws: ``Failure`` with jq's compile errors.
  init(_ program: String) throws {
    self.program = program
    try Self.withCompiled(program) { _ in }
  }

  /// The program's results over `json`, each line as gh prints it.
  ///
  /// - Throws: ``Failure`` when the input is not JSON or the program stops with an error.
  func run(_ json: [UInt8], _ emit: (String) -> Void) throws {
    guard json.count <= Int(Int32.max) else {
      throw Failure(description: "jq: error: the JSON is larger than jq can read (2 GiB)")
    }
    try Self.withCompiled(program) { state in
      let input = json.withUnsafeBufferPointer { bytes in
        bytes.withMemoryRebound(to: CChar.self) { jv_parse_sized($0.baseAddress, Int32($0.count)) }
      }
      guard jv_get_kind(input) != JV_KIND_INVALID else {
        throw Failure(description: "jq: error: \(Self.message(of: input))")
      }
      jq_start(state, input, 0)
      while true {
        let result = jq_next(state)
        if jv_get_kind(result) == JV_KIND_INVALID {
          guard jv_invalid_has_msg(jv_copy(result)) != 0 else {
            jv_free(result)
            return
          }
          throw Failure(description: "jq: error: \(Self.message(of: result))")
        }
        emit(Self.line(result))
      }
    }
  }

  /// A result as gh prints it; consumes `value`.
  static func line(_ value: jv) -> String {
    switch jv_get_kind(value) {
    case JV_KIND_STRING:
      let text = text(of: value)
      jv_free(value)
      return text
    case JV_KIND_NULL:
      jv_free(value)
      return ""
    default:
      let dumped = jv_dump_string(value, Int32(JV_PRINT_SORTED.rawValue))
      defer { jv_free(dumped) }
      var escaped = ""
      // Outside strings JSON has none of these characters, so escaping them everywhere
      // escapes them inside strings, as Go's encoder does.
      for scalar in text(of: dumped).unicodeScalars {
        switch scalar {
        case "<": escaped += "\\u003c"
        case ">": escaped += "\\u003e"
        case "&": escaped += "\\u0026"
        case "\u{2028}": escaped += "\\u2028"
        case "\u{2029}": escaped += "\\u2029"
        default: escaped.unicodeScalars.append(scalar)
        }
      }
      return escaped
    }
  }

  /// A jq string's text, all of its bytes: a string may hold NUL, which a C string would end at.
  private static func text(of string: jv) -> String {
    let count = Int(jv_string_length_bytes(jv_copy(string)))
    guard let start = jv_string_value(string), count > 0 else { return "" }
    return start.withMemoryRebound(to: UInt8.self, capacity: count) {
      String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self)
    }
  }

  /// The message of an invalid value; consumes it.
  private static func message(of invalid: jv) -> String {
    let message = jv_invalid_get_msg(invalid)
    defer { jv_free(message) }
    if jv_get_kind(message) == JV_KIND_STRING { return text(of: message) }
    let dumped = jv_dump_string(jv_copy(message), 0)
    defer { jv_free(dumped) }
    return text(of: dumped) + " (not a string)"
  }

  /// Compiles the program in a fresh jq state and hands it over; the state is torn down after.
  private static func withCompiled(
    _ program: String, _ body: (OpaquePointer) throws -> Void
  ) throws {
    var started = jq_init()
    defer { jq_teardown(&started) }
    guard let state = started else { throw Failure(description: "jq: could not start") }
    let messages = MessageBox()
    let box = Unmanaged.passRetained(messages)
    defer { box.release() }
    jq_set_error_cb(
      state,
      { context, message in
        guard let context else { return }
        let formatted = jq_format_error(message)
        defer { jv_free(formatted) }
        let box = Unmanaged<MessageBox>.fromOpaque(context).takeUnretainedValue()
        if jv_get_kind(formatted) == JV_KIND_STRING {
          box.lines.append(JQFilter.text(of: formatted))
        }
      }, box.toOpaque())
    guard jq_compile(state, program) != 0 else {
      let count = max(messages.lines.count, 1)
      throw Failure(
        description: (messages.lines + ["jq: \(count) compile error\(count == 1 ? "" : "s")"])
          .joined(separator: "\n"))
    }
    try body(state)
  }

  /// jq's messages, collected by its error callback.
  private final class MessageBox {
    var lines: [String] = []
  }
}
