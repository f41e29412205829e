/// Turns the bytes a terminal sends into ``InputEvent``s: text, keys with modifiers, pastes,
/// mouse reports and focus changes.
///
///     var decoder = InputDecoder()
///     decoder.decode(Array("\u{1B}[1;5A한".utf8))  // [ctrl+up, 한]
///     decoder.decode([0x1B])                         // [] — Escape, or the start of a sequence?
///     decoder.hasPendingInput                         // true: wait briefly, then
///     decoder.flush()                                 // [escape]
///
/// Sequences split across reads are reassembled: decoding bytes in any number of pieces gives the
/// same events as decoding them at once. A lone Escape is held back until more bytes arrive or the
/// caller, after a short timeout with no input, calls ``flush()``. Unknown or malformed sequences
/// (with their parameter bytes, also when another byte interrupts them) and invalid UTF-8 are
/// skipped, never shown as text. A run of Escapes is one Escape key; a grapheme cluster keeps at
/// most 32 scalars (more combining marks are dropped). Decoding is iterative and linear in the
/// input, whatever it is.
public struct InputDecoder: Sendable {
  private var buffer: [UInt8] = []
  /// The content of a bracketed paste in progress.
  private var paste: [UInt8]?
  /// Where each candidate scalar of a cluster ends, kept to reuse its storage.
  private var ends: [Int] = []
  /// Inside a run of Escapes already reported as one Escape key: more of it is swallowed.
  private var swallowingEscapes = false
  /// Inside a sequence too long to be one: its remaining parameter bytes and final byte are
  /// skipped, across reads.
  private var discardingSequence = false

  /// The longest escape sequence accepted; longer ones are malformed and skipped.
  static let maximumSequenceLength = 64
  /// The event of each ASCII character, made once.
  static let asciiEvents: [InputEvent] = (0..<128).map {
    .key(KeyEvent(.character(Character(Unicode.Scalar(UInt8($0))))))
  }

  /// The most scalars one typed grapheme cluster keeps (a base and its marks), as a cell does.
  static let maximumClusterScalars = DisplayWidth.maximumClusterScalars

  /// The combining blocks that hold most marks, checked before any property lookup.
  @inline(__always) static func isCommonMark(_ value: UInt32) -> Bool {
    (0x0300...0x036F).contains(value) || (0x1AB0...0x1AFF).contains(value)
      || (0x1DC0...0x1DFF).contains(value) || (0x20D0...0x20FF).contains(value)
      || (0xFE20...0xFE2F).contains(value)
  }

  /// Whether a scalar may continue a cluster that ends with `last`, by the grapheme break classes
  /// that can join (marks, joiners, variation selectors, emoji modifiers, tags, regional
  /// indicators, Hangul jamo, what follows a joiner or a prepended mark); when it may, the exact
  /// answer comes from the standard library.
  ///
  /// A cheap test first keeps decoding fast for text made of whole characters (Hangul syllables,
  /// CJK, emoji).
  static func mayExtend(_ scalar: Unicode.Scalar, after last: Unicode.Scalar) -> Bool {
    let value = scalar.value
    if isCommonMark(value) { return true }
    let previous = last.value
    if previous == 0x200D { return true }
    // Prepended concatenation marks and other Prepend characters take what follows.
    if (0x0600...0x0605).contains(previous) || previous == 0x06DD || previous == 0x070F
      || (0x0890...0x0891).contains(previous) || previous == 0x08E2 || previous == 0x110BD
      || previous == 0x110CD || previous == 0x0D4E
    {
      return true
    }
    // Hangul: a leading jamo takes vowels and syllables; vowels and trailing jamo join.
    if (0x1100...0x115F).contains(previous) || (0xA960...0xA97F).contains(previous) {
      return true
    }
    // Whole characters of the big scripts never join what precedes them.
    if (0xAC00...0xD7A3).contains(value) || (0x4E00...0x9FFF).contains(value)
      || (0x3400...0x4DBF).contains(value) || (0x3041...0x3096).contains(value)
      || (0x30A1...0x30FA).contains(value) || (0x00A0...0x02FF).contains(value)
      || (0x0370...0x0482).contains(value) || (0xFF01...0xFF9D).contains(value)
    {
      return false
    }
    if (0x1160...0x11FF).contains(value) || (0xD7B0...0xD7FF).contains(value) { return true }
    if (0x1F1E6...0x1F1FF).contains(value) { return true }
    if (0x1F3FB...0x1F3FF).contains(value) || (0xE0000...0xE0FFF).contains(value) { return true }
    if value == 0x200D || value == 0x200C || value == 0xFF9E || value == 0xFF9F
      || scalar.properties.isVariationSelector
    {
      return true
    }
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .enclosingMark, .spacingMark, .format: return true
    default: return false
    }
  }

  static let pasteEnd: [UInt8] = Array("\u{1B}[201~".utf8)

  /// Creates a decoder with nothing pending.
  public init() {}

  /// Whether bytes are held back, waiting for more.
  ///
  /// They may be an Escape that starts a sequence, or an incomplete sequence, character or paste.
  /// Call ``flush()`` if no more input comes within a short timeout.
  public var hasPendingInput: Bool { !buffer.isEmpty || paste != nil || discardingSequence }

  /// Decodes bytes, returning the events they complete.
  public mutating func decode(_ bytes: some Sequence<UInt8>) -> [InputEvent] {
    buffer.append(contentsOf: bytes)
    var events: [InputEvent] = []
    // At most one event starts at each byte that is not a UTF-8 continuation: reserving that
    // many spares a long read of typed text many copies of a growing array.
    if paste == nil {
      var starts = 0
      for byte in buffer where byte & 0xC0 != 0x80 { starts += 1 }
      events.reserveCapacity(starts)
    }
    var index = 0
    while index < buffer.count {
      if paste != nil {
        guard let next = continuePaste(from: index, into: &events) else { break }
        index = next
        continue
      }
      guard let (next, event) = decodeOne(at: index) else { break }
      if let event { events.append(event) }
      index = next
    }
    buffer.removeSubrange(..<index)
    return events
  }

  /// Decodes what is held back as if no more bytes will follow.
  ///
  /// A lone Escape (or a run of them) becomes the Escape key, Escape and one character become that character with
  /// Alt, and anything else incomplete is dropped. An unfinished paste is delivered as it is.
  public mutating func flush() -> [InputEvent] {
    var events: [InputEvent] = []
    defer {
      swallowingEscapes = false
      discardingSequence = false
    }
    if let content = paste {
      events.append(.paste(String(decoding: content + buffer, as: UTF8.self)))
      paste = nil
      buffer = []
      return events
    }
    if !buffer.isEmpty, buffer.allSatisfy({ $0 == 0x1B }) {
      events.append(.key(KeyEvent(.escape)))
    } else if buffer.count == 2, buffer[0] == 0x1B, buffer[1] >= 0x20, buffer[1] < 0x7F {
      events.append(
        .key(KeyEvent(.character(Character(Unicode.Scalar(buffer[1]))), modifiers: .alt)))
    }
    buffer = []
    return events
  }

  // MARK: - Decoding one event

  /// Decodes the event at `index`: the index after it and the event (nil for skipped bytes), or
  /// nil when more bytes are needed.
  private mutating func decodeOne(at index: Int) -> (Int, InputEvent?)? {
    let byte = buffer[index]
    if byte != 0x1B { swallowingEscapes = false }
    if discardingSequence {
      if (0x20...0x3F).contains(byte) { return (index + 1, nil) }
      discardingSequence = false
      if (0x40...0x7E).contains(byte) { return (index + 1, nil) }
    }
    if byte == 0x1B { return decodeEscape(at: index) }
    if byte < 0x20 || byte == 0x7F { return (index + 1, .key(controlKey(byte))) }
    return decodeText(at: index)
  }

  private func controlKey(_ byte: UInt8) -> KeyEvent {
    switch byte {
    case 0x0D, 0x0A: KeyEvent(.enter)
    case 0x09: KeyEvent(.tab)
    case 0x7F, 0x08: KeyEvent(.backspace)
    case 0x00: KeyEvent(.character(" "), modifiers: .control)
    case 0x1B: KeyEvent(.escape)
    case 0x01...0x1A:
      KeyEvent(.character(Character(Unicode.Scalar(byte + 0x60))), modifiers: .control)
    default:
      // 0x1C–0x1F: Control with \ ] ^ _.
      KeyEvent(.character(Character(Unicode.Scalar(byte + 0x40))), modifiers: .control)
    }
  }

  /// Decodes a run of UTF-8 text, as one event per grapheme cluster within the run.
  private mutating func decodeText(at index: Int) -> (Int, InputEvent?)? {
    let lead = buffer[index]
    // Printable ASCII not followed by a possible mark: a cluster of its own, at once.
    if lead < 0x80, index + 1 >= buffer.count || buffer[index + 1] < 0x80 {
      return (index + 1, Self.asciiEvents[Int(lead)])
    }
    let scalar: Unicode.Scalar
    var end: Int
    switch Self.scalar(in: buffer, at: index) {
    case .scalar(let decoded, let length):
      scalar = decoded
      end = index + length
    case .incomplete: return nil
    case .invalid: return (index + 1, nil)  // a stray continuation byte or an invalid sequence
    }
    // The scalars that may join it (marks, joiners, selectors…) in this read, at most
    // `maximumClusterScalars` of them; the standard library then says how many really do.
    ends.removeAll(keepingCapacity: true)
    var last = scalar
    // Whether every scalar so far joins by the rules that need no context (a mark or a joiner
    // after an ordinary base): then no grapheme breaking is needed to know the cluster.
    var certain = true
    var regionalIndicators = 0
    var dropped = false
    while end < buffer.count, buffer[end] >= 0x80,
      case .scalar(let following, let length) = Self.scalar(in: buffer, at: end),
      Self.mayExtend(following, after: last)
    {
      if ends.isEmpty {
        // Known only now that something may join it, so that whole characters cost nothing.
        certain = Self.isOrdinaryBase(scalar)
        regionalIndicators = Self.isRegionalIndicator(scalar) ? 1 : 0
      }
      if Self.isRegionalIndicator(following) {
        // Flags are pairs: a third indicator starts the next flag.
        guard regionalIndicators == 1, ends.isEmpty else { break }
        regionalIndicators += 1
      } else if !Self.alwaysJoins(following) {
        certain = false
      }
      if ends.count + 1 < Self.maximumClusterScalars {
        ends.append(end + length)
      } else if Self.alwaysJoins(following) || last.value == 0x200D {
        // Full: more marks on the same cluster are consumed and dropped, as terminals do, so
        // that a run of marks costs linear time.
        dropped = true
      } else {
        break
      }
      last = following
      end += length
    }
    guard let keptEnd = ends.last else {
      return (end, .key(KeyEvent(.character(Character(scalar)))))
    }
    let candidates = String(decoding: buffer[index..<keptEnd], as: UTF8.self)
    if certain || regionalIndicators == 2 {
      return (end, .key(KeyEvent(.character(Character(candidates)))))
    }
    guard let character = candidates.first else { return (end, nil) }
    let joined = character.unicodeScalars.count
    // The cluster ends after its last scalar, and after the dropped marks if it took them all.
    let after =
      joined == ends.count + 1
      ? (dropped ? end : keptEnd) : joined > 1 ? ends[joined - 2] : index + Self.length(of: scalar)
    return (after, .key(KeyEvent(.character(character))))
  }

  /// Whether a scalar starts a cluster that any mark or joiner extends (a letter, digit,
  /// punctuation, symbol or space), unlike controls, prepended marks and Hangul jamo.
  static func isOrdinaryBase(_ scalar: Unicode.Scalar) -> Bool {
    if (0x1100...0x11FF).contains(scalar.value) || (0xA960...0xA97F).contains(scalar.value)
      || (0xD7B0...0xD7FF).contains(scalar.value) || (0xAC00...0xD7A3).contains(scalar.value)
    {
      return false
    }
    switch scalar.properties.generalCategory {
    case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse,
      .unassigned:
      return false
    default: return true
    }
  }

  /// Whether a scalar joins whatever ordinary base precedes it (grapheme break rules 9 and 9a:
  /// marks, spacing marks, the zero-width joiner, variation selectors, emoji modifiers, tags).
  static func alwaysJoins(_ scalar: Unicode.Scalar) -> Bool {
    let value = scalar.value
    if isCommonMark(value) || value == 0x200D || (0x1F3FB...0x1F3FF).contains(value)
      || (0xE0020...0xE007F).contains(value) || (0xFE00...0xFE0F).contains(value)
    {
      return true
    }
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .enclosingMark, .spacingMark: return true
    default: return false
    }
  }

  static func isRegionalIndicator(_ scalar: Unicode.Scalar) -> Bool {
    (0x1F1E6...0x1F1FF).contains(scalar.value)
  }

  /// What the UTF-8 bytes at an offset hold.
  enum DecodedScalar {
    case scalar(Unicode.Scalar, length: Int)
    case incomplete
    case invalid
  }

  /// Decodes one scalar, rejecting overlong forms, surrogates and values past U+10FFFF.
  static func scalar(in bytes: [UInt8], at index: Int) -> DecodedScalar {
    let lead = bytes[index]
    let length: Int
    let secondRange: ClosedRange<UInt8>
    switch lead {
    case 0x00...0x7F: return .scalar(Unicode.Scalar(lead), length: 1)
    case 0xC2...0xDF: (length, secondRange) = (2, 0x80...0xBF)
    case 0xE0: (length, secondRange) = (3, 0xA0...0xBF)
    case 0xED: (length, secondRange) = (3, 0x80...0x9F)
    case 0xE1...0xEF: (length, secondRange) = (3, 0x80...0xBF)
    case 0xF0: (length, secondRange) = (4, 0x90...0xBF)
    case 0xF4: (length, secondRange) = (4, 0x80...0x8F)
    case 0xF1...0xF3: (length, secondRange) = (4, 0x80...0xBF)
    default: return .invalid
    }
    var value = UInt32(lead) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
    for offset in 1..<length {
      guard index + offset < bytes.count else { return .incomplete }
      let byte = bytes[index + offset]
      guard offset == 1 ? secondRange.contains(byte) : (0x80...0xBF).contains(byte) else {
        return .invalid
      }
      value = value << 6 | UInt32(byte & 0x3F)
    }
    guard let scalar = Unicode.Scalar(value) else { return .invalid }
    return .scalar(scalar, length: length)
  }

  static func length(of scalar: Unicode.Scalar) -> Int {
    switch scalar.value {
    case 0..<0x80: 1
    case 0x80..<0x800: 2
    case 0x800..<0x10000: 3
    default: 4
    }
  }

  private mutating func decodeEscape(at index: Int) -> (Int, InputEvent?)? {
    // A run of Escapes (a stuck key, a paste, a hostile program): all but the last two are one
    // Escape key, decided without waiting and without recursion, so no run can overflow the
    // stack or be scanned twice.
    var run = 1
    while index + run < buffer.count, buffer[index + run] == 0x1B { run += 1 }
    if run > 2 {
      defer { swallowingEscapes = true }
      return (index + run - 2, swallowingEscapes ? nil : .key(KeyEvent(.escape)))
    }
    guard index + 1 < buffer.count else { return nil }
    let next = buffer[index + 1]
    switch next {
    case 0x5B:  // [
      return decodeControlSequence(at: index)
    case 0x4F:  // O: SS3
      guard index + 2 < buffer.count else { return nil }
      let key: Key? =
        switch buffer[index + 2] {
        case 0x41: .up
        case 0x42: .down
        case 0x43: .right
        case 0x44: .left
        case 0x48: .home
        case 0x46: .end
        case 0x4D: .enter
        case 0x50: .function(1)
        case 0x51: .function(2)
        case 0x52: .function(3)
        case 0x53: .function(4)
        default: nil
        }
      return (index + 3, key.map { .key(KeyEvent($0)) })
    case 0x1B:
      // Escape, Escape: Alt with whatever the second Escape starts (which is followed by no
      // third Escape, so this goes one level deep at most).
      guard let (end, event) = decodeEscape(at: index + 1) else { return nil }
      if case .key(var key)? = event {
        key.modifiers.insert(.alt)
        return (end, .key(key))
      }
      return (end, event)
    default:
      // Escape then a key: that key with Alt.
      guard let (end, event) = decodeOne(at: index + 1) else { return nil }
      if case .key(var key)? = event {
        key.modifiers.insert(.alt)
        return (end, .key(key))
      }
      return (end, event)
    }
  }

  /// Decodes `ESC [ parameters final`.
  private mutating func decodeControlSequence(at index: Int) -> (Int, InputEvent?)? {
    var end = index + 2
    while true {
      guard end < buffer.count else {
        // Incomplete, unless already too long to be a sequence: then its bytes are skipped, and
        // the rest of it when it comes.
        guard end - index > Self.maximumSequenceLength else { return nil }
        discardingSequence = true
        return (end, nil)
      }
      let byte = buffer[end]
      if (0x40...0x7E).contains(byte) { break }
      // Parameter and intermediate bytes are 0x20–0x3F; anything else interrupts the sequence,
      // whose bytes so far are skipped (never typed), and is decoded on its own.
      guard (0x20...0x3F).contains(byte) else { return (end, nil) }
      guard end - index <= Self.maximumSequenceLength else {
        discardingSequence = true
        return (end, nil)
      }
      end += 1
    }
    let final = buffer[end]
    var parameterBytes = Array(buffer[(index + 2)..<end])
    let marker = parameterBytes.first.flatMap { (0x3C...0x3F).contains($0) ? $0 : nil }
    if marker != nil { parameterBytes.removeFirst() }
    var parameters: [Int?] = []
    var value: Int?
    for byte in parameterBytes {
      if byte == 0x3B {  // ;
        parameters.append(value)
        value = nil
      } else if (0x30...0x39).contains(byte), (value ?? 0) < 1_000_000 {
        value = (value ?? 0) * 10 + Int(byte - 0x30)
      } else {
        value = -1  // not a number: no valid parameter
      }
    }
    parameters.append(value)
    parameters = parameters.map { $0.flatMap { $0 < 0 ? nil : $0 } }
    func parameter(_ position: Int, _ fallback: Int) -> Int {
      position < parameters.count ? (parameters[position] ?? fallback) : fallback
    }
    let after = end + 1
    let modifiers = Modifiers(xtermParameter: parameter(1, 1))

    if marker == 0x3C {  // <: SGR mouse
      guard final == 0x4D || final == 0x6D, parameters.count == 3 else { return (after, nil) }
      return (
        after,
        mouseEvent(
          code: parameter(0, 0), x: parameter(1, 1), y: parameter(2, 1), released: final == 0x6D)
      )
    }
    guard marker == nil else { return (after, nil) }
    switch final {
    case 0x41: return (after, .key(KeyEvent(.up, modifiers: modifiers)))
    case 0x42: return (after, .key(KeyEvent(.down, modifiers: modifiers)))
    case 0x43: return (after, .key(KeyEvent(.right, modifiers: modifiers)))
    case 0x44: return (after, .key(KeyEvent(.left, modifiers: modifiers)))
    case 0x48: return (after, .key(KeyEvent(.home, modifiers: modifiers)))
    case 0x46: return (after, .key(KeyEvent(.end, modifiers: modifiers)))
    case 0x50: return (after, .key(KeyEvent(.function(1), modifiers: modifiers)))
    case 0x51: return (after, .key(KeyEvent(.function(2), modifiers: modifiers)))
    case 0x52: return (after, .key(KeyEvent(.function(3), modifiers: modifiers)))
    case 0x53: return (after, .key(KeyEvent(.function(4), modifiers: modifiers)))
    case 0x5A: return (after, .key(KeyEvent(.tab, modifiers: .shift)))
    case 0x49: return (after, .focusGained)
    case 0x4F: return (after, .focusLost)
    case 0x4D where parameterBytes.isEmpty:
      // X10 mouse: three raw bytes follow.
      guard after + 3 <= buffer.count else { return nil }
      let code = Int(buffer[after]) - 32
      return (
        after + 3,
        mouseEvent(
          code: code, x: Int(buffer[after + 1]) - 32, y: Int(buffer[after + 2]) - 32,
          released: code & 3 == 3)
      )
    case 0x75:  // u: "CSI code ; modifiers u" (fixterms / kitty)
      let code = parameter(0, 0)
      let key: Key? =
        switch code {
        case 13: .enter
        case 9: .tab
        case 27: .escape
        case 127, 8: .backspace
        case 32...0x10FFFF: Unicode.Scalar(code).map { .character(Character($0)) }
        default: nil
        }
      return (after, key.map { .key(KeyEvent($0, modifiers: modifiers)) })
    case 0x7E:  // ~
      let number = parameter(0, 0)
      if number == 200 {
        paste = []
        return (after, nil)
      }
      let key: Key? =
        switch number {
        case 1, 7: .home
        case 2: .insert
        case 3: .delete
        case 4, 8: .end
        case 5: .pageUp
        case 6: .pageDown
        case 11...15: .function(number - 10)
        case 17...21: .function(number - 11)
        case 23...26: .function(number - 12)
        case 28, 29: .function(number - 13)
        case 31...34: .function(number - 14)
        default: nil
        }
      return (after, key.map { .key(KeyEvent($0, modifiers: modifiers)) })
    default:
      return (after, nil)
    }
  }

  private func mouseEvent(code: Int, x: Int, y: Int, released: Bool) -> InputEvent? {
    guard code >= 0, x >= 1, y >= 1 else { return nil }
    var modifiers: Modifiers = []
    if code & 4 != 0 { modifiers.insert(.shift) }
    if code & 8 != 0 { modifiers.insert(.alt) }
    if code & 16 != 0 { modifiers.insert(.control) }
    let button: MouseButton? =
      switch code & 3 {
      case 0: .left
      case 1: .middle
      case 2: .right
      default: nil
      }
    let kind: MouseEvent.Kind
    if code & 64 != 0 {
      switch code & 3 {
      case 0: kind = .scrollUp
      case 1: kind = .scrollDown
      case 2: kind = .scrollLeft
      default: kind = .scrollRight
      }
    } else if code & 32 != 0 {
      kind = button.map { .drag($0) } ?? .move
    } else if released {
      kind = .release(button ?? .left)
    } else {
      guard let button else { return nil }
      kind = .press(button)
    }
    return .mouse(MouseEvent(kind, x: x - 1, y: y - 1, modifiers: modifiers))
  }

  /// Collects paste content until `ESC [201~`; returns the index to continue from, or nil to wait.
  private mutating func continuePaste(from index: Int, into events: inout [InputEvent]) -> Int? {
    let terminator = Self.pasteEnd
    var position = index
    while position < buffer.count {
      if buffer[position] == 0x1B {
        let available = buffer.count - position
        if available < terminator.count {
          if Array(buffer[position...]) == Array(terminator[..<available]) {
            paste?.append(contentsOf: buffer[index..<position])
            return position == index ? nil : position
          }
        } else if Array(buffer[position..<(position + terminator.count)]) == terminator {
          let content = (paste ?? []) + buffer[index..<position]
          paste = nil
          events.append(.paste(String(decoding: content, as: UTF8.self)))
          return position + terminator.count
        }
      }
      position += 1
    }
    paste?.append(contentsOf: buffer[index..<position])
    return position
  }
}
