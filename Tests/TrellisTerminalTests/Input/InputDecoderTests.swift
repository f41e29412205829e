import Testing
import TrellisTerminal
import TrellisTestSupport

@Suite struct InputDecoderTests {
  private func decode(_ text: String) -> [InputEvent] {
    var decoder = InputDecoder()
    return decoder.decode(Array(text.utf8)) + decoder.flush()
  }

  private func key(_ key: Key, _ modifiers: Modifiers = []) -> InputEvent {
    .key(KeyEvent(key, modifiers: modifiers))
  }

  private func text(_ string: String) -> [InputEvent] { string.map { key(.character($0)) } }

  @Test func textIncludingHangulAndEmojiIsOneEventPerCharacter() {
    #expect(decode("a한😃") == text("a한😃"))
    #expect(decode("e\u{301}") == [key(.character("e\u{301}"))])
    #expect(decode("👨‍👩‍👧") == [key(.character("👨‍👩‍👧"))])
  }

  @Test func controlKeys() {
    #expect(
      decode("\r\t\u{7F}\u{1}\u{1A}\u{0}") == [
        key(.enter), key(.tab), key(.backspace), key(.character("a"), .control),
        key(.character("z"), .control), key(.character(" "), .control),
      ])
  }

  @Test(
    "CSI and SS3 keys",
    arguments: [
      ("\u{1B}[A", KeyEvent(.up)), ("\u{1B}[B", KeyEvent(.down)), ("\u{1B}[C", KeyEvent(.right)),
      ("\u{1B}[D", KeyEvent(.left)), ("\u{1B}OA", KeyEvent(.up)), ("\u{1B}[H", KeyEvent(.home)),
      ("\u{1B}[F", KeyEvent(.end)), ("\u{1B}[1~", KeyEvent(.home)), ("\u{1B}[4~", KeyEvent(.end)),
      ("\u{1B}[5~", KeyEvent(.pageUp)), ("\u{1B}[6~", KeyEvent(.pageDown)),
      ("\u{1B}[2~", KeyEvent(.insert)), ("\u{1B}[3~", KeyEvent(.delete)),
      ("\u{1B}OP", KeyEvent(.function(1))), ("\u{1B}OS", KeyEvent(.function(4))),
      ("\u{1B}[11~", KeyEvent(.function(1))), ("\u{1B}[15~", KeyEvent(.function(5))),
      ("\u{1B}[17~", KeyEvent(.function(6))), ("\u{1B}[21~", KeyEvent(.function(10))),
      ("\u{1B}[23~", KeyEvent(.function(11))), ("\u{1B}[24~", KeyEvent(.function(12))),
      ("\u{1B}[1;5A", KeyEvent(.up, modifiers: .control)),
      ("\u{1B}[1;2C", KeyEvent(.right, modifiers: .shift)),
      ("\u{1B}[3;3~", KeyEvent(.delete, modifiers: .alt)),
      ("\u{1B}[1;6P", KeyEvent(.function(1), modifiers: [.shift, .control])),
      ("\u{1B}[15;5~", KeyEvent(.function(5), modifiers: .control)),
      ("\u{1B}[Z", KeyEvent(.tab, modifiers: .shift)),
      ("\u{1B}[97;5u", KeyEvent(.character("a"), modifiers: .control)),
    ])
  func sequence(_ bytes: String, _ expected: KeyEvent) {
    #expect(decode(bytes) == [.key(expected)])
  }

  @Test func escapeThenAKeyIsAlt() {
    #expect(decode("\u{1B}x") == [key(.character("x"), .alt)])
    #expect(decode("\u{1B}한") == [key(.character("한"), .alt)])
    #expect(decode("\u{1B}\u{1B}[A") == [key(.up, .alt)])
  }

  @Test func aLoneEscapeWaitsForTheTimeout() {
    var decoder = InputDecoder()
    #expect(decoder.decode([0x1B]).isEmpty)
    #expect(decoder.hasPendingInput)
    #expect(decoder.flush() == [key(.escape)])
    #expect(!decoder.hasPendingInput)
    // If the rest of a sequence arrives before the timeout, it is the sequence.
    #expect(decoder.decode([0x1B]).isEmpty)
    #expect(decoder.decode(Array("[A".utf8)) == [key(.up)])
  }

  @Test func bracketedPasteIsOneEventEvenAcrossReads() {
    var decoder = InputDecoder()
    let bytes = Array("\u{1B}[200~첫 줄\n\u{1B}[Asecond\u{1B}[201~x".utf8)
    var events: [InputEvent] = []
    for byte in bytes { events += decoder.decode([byte]) }
    #expect(events == [.paste("첫 줄\n\u{1B}[Asecond"), key(.character("x"))])
  }

  @Test func sgrMouseReports() {
    #expect(decode("\u{1B}[<0;10;5M") == [.mouse(MouseEvent(.press(.left), x: 9, y: 4))])
    #expect(decode("\u{1B}[<0;10;5m") == [.mouse(MouseEvent(.release(.left), x: 9, y: 4))])
    #expect(decode("\u{1B}[<32;11;5M") == [.mouse(MouseEvent(.drag(.left), x: 10, y: 4))])
    #expect(decode("\u{1B}[<64;1;1M") == [.mouse(MouseEvent(.scrollUp, x: 0, y: 0))])
    #expect(decode("\u{1B}[<65;1;1M") == [.mouse(MouseEvent(.scrollDown, x: 0, y: 0))])
    #expect(
      decode("\u{1B}[<18;3;4M") == [
        .mouse(MouseEvent(.press(.right), x: 2, y: 3, modifiers: .control))
      ])
  }

  @Test func focusReports() {
    #expect(decode("\u{1B}[I\u{1B}[O") == [.focusGained, .focusLost])
  }

  @Test func unknownSequencesAndInvalidUTF8AreSkipped() {
    #expect(decode("a\u{1B}[99zb") == text("ab"))
    #expect(decode("a\u{1B}[?1;2cb") == text("ab"))
    var decoder = InputDecoder()
    #expect(decoder.decode([0x61, 0xFF, 0xC3, 0x28, 0x80, 0x62]) == text("a(b"))
  }

  /// Merges a character event that continues the previous event's grapheme cluster into it, and
  /// runs of plain character events into one string, so that clusters split across reads compare
  /// equal to whole ones.
  private func normalized(_ events: [InputEvent]) -> [String] {
    var merged: [InputEvent] = []
    for event in events {
      if case .key(let key) = event, case .character(let character) = key.key,
        case .key(var previous)? = merged.last, case .character(let before) = previous.key,
        (String(before) + String(character)).count == 1
      {
        previous.key = .character(Character(String(before) + String(character)))
        merged[merged.count - 1] = .key(previous)
        continue
      }
      merged.append(event)
    }
    var result: [String] = []
    var run = ""
    for event in merged {
      if case .key(let key) = event, key.modifiers.isEmpty, case .character(let character) = key.key
      {
        run.append(character)
      } else {
        if !run.isEmpty { result.append("text:\(run)") }
        run = ""
        result.append("\(event)")
      }
    }
    if !run.isEmpty { result.append("text:\(run)") }
    return result
  }

  @Test(arguments: 0..<20 as Range<UInt64>)
  func randomBytesNeverCrashAndSplittingNeverChangesTheEvents(seed: UInt64) {
    var rng = SplitMix64(seed: seed)
    // Mostly fragments of real input, spliced with random bytes.
    let fragments = [
      "\u{1B}", "\u{1B}[", "[", "1;5", "A", "~", "\u{1B}[<0;3;4M", "\u{1B}[200~", "\u{1B}[201~",
      "한",
      "😃", "e\u{301}", "O", "P", "\u{1B}O", ";", "5", "<", "M", "m", "x", "\r", "\u{7F}",
    ].map { Array($0.utf8) }
    for step in 0..<100 {
      var bytes: [UInt8] = []
      for _ in 0..<Int.random(in: 0...30, using: &rng) {
        if Int.random(in: 0..<4, using: &rng) == 0 {
          bytes.append(UInt8.random(in: 0...255, using: &rng))
        } else {
          bytes += fragments[Int.random(in: 0..<fragments.count, using: &rng)]
        }
      }
      var whole = InputDecoder()
      let expected = whole.decode(bytes) + whole.flush()
      var split = InputDecoder()
      var events: [InputEvent] = []
      var index = 0
      while index < bytes.count {
        let length = Int.random(in: 1...5, using: &rng)
        events += split.decode(bytes[index..<min(bytes.count, index + length)])
        index += length
      }
      events += split.flush()
      #expect(normalized(events) == normalized(expected), "seed \(seed), step \(step): \(bytes)")
      for event in events {
        if case .key(let key) = event, case .character(let character) = key.key {
          #expect(
            character.unicodeScalars.allSatisfy {
              $0.value >= 0x20 && $0.value != 0x7F && $0.value != 0xFFFD
            },
            "seed \(seed), step \(step): control or replacement character \(character.unicodeScalars.map(\.value))"
          )
        }
      }
    }
  }
}

@Suite struct HostileInputTests {
  private func key(_ key: Key, _ modifiers: Modifiers = []) -> InputEvent {
    .key(KeyEvent(key, modifiers: modifiers))
  }

  @Test func twentyThousandEscapesAreOneEscapeKeyWithoutRecursion() {
    var decoder = InputDecoder()
    let burst = [UInt8](repeating: 0x1B, count: 20_000)
    let events = decoder.decode(burst) + decoder.flush()
    #expect(events == [key(.escape), key(.escape)])
    // Byte by byte, the same, and no run is held back whole.
    var slow = InputDecoder()
    var trickled: [InputEvent] = []
    for byte in burst { trickled += slow.decode([byte]) }
    #expect(trickled.count == 1)
    #expect(trickled + slow.flush() == events)
    // A key after the burst still arrives.
    var after = InputDecoder()
    #expect(after.decode(burst + Array("q".utf8)).last == key(.character("q"), .alt))
  }

  @Test func anInterruptedSequenceNeverTypesItsParameters() {
    var decoder = InputDecoder()
    #expect(decoder.decode(Array("\u{1B}[1;5\u{1B}[A".utf8)) == [key(.up)])
    #expect(decoder.decode(Array("\u{1B}[12\rx".utf8)) == [key(.enter), key(.character("x"))])
    let long = "\u{1B}[" + String(repeating: "1;", count: 100) + "A"
    #expect(decoder.decode(Array(long.utf8)).isEmpty)
    #expect(decoder.decode(Array("\u{1B}[1;2".utf8)) + decoder.flush() == [])
  }

  @Test func aLongRunOfCombiningMarksIsOneCappedCharacter() {
    var decoder = InputDecoder()
    let text = "e" + String(repeating: "\u{301}", count: 100_000) + "x"
    let events = decoder.decode(Array(text.utf8))
    #expect(events.count == 2)
    guard case .key(let first)? = events.first, case .character(let character) = first.key else {
      Issue.record("expected a character")
      return
    }
    #expect(character.unicodeScalars.count == 32)
    #expect(events.last == key(.character("x")))
  }
}
