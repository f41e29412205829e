import TrellisTerminal

/// Inputs of 1 MB that stress the input decoder: long Escape runs, long combining runs,
/// interrupted sequences, pastes, and ordinary text.
func decoderInputs(rng: inout SplitMix64) -> [(name: String, bytes: [UInt8])] {
  let size = 1 << 20
  func repeated(_ text: String) -> [UInt8] {
    let unit = Array(text.utf8)
    return Array((0..<(size / unit.count + 1)).lazy.flatMap { _ in unit }.prefix(size))
  }
  var random: [UInt8] = []
  random.reserveCapacity(size)
  for _ in 0..<size { random.append(UInt8.random(in: 0...255, using: &rng)) }
  return [
    ("ascii", repeated("the quick brown fox ")),
    ("hangul", repeated("전체선택 ")),
    ("emoji-zwj", repeated("👨‍👩‍👧🇰🇷")),
    ("escape-run", repeated("\u{1B}")),
    ("combining-run", Array("e".utf8) + repeated("\u{301}")),
    ("decomposed", repeated("e\u{301}a\u{308}")),
    ("flags", repeated("🇰🇷🇯🇵")),
    ("csi-unfinished", repeated("\u{1B}[1;2;3;4;5;6;7;8;9;")),
    ("csi-keys", repeated("\u{1B}[1;5A")),
    ("sgr-mouse", repeated("\u{1B}[<64;120;40M")),
    ("paste", Array("\u{1B}[200~".utf8) + repeated("\u{1B}[20x ") + Array("\u{1B}[201~".utf8)),
    ("random", random),
  ]
}

/// `decoder`: the median time to decode each 1 MB input, whole and in the 4 KB reads the
/// terminal reader makes.
func runDecoderWorkloads(rng: inout SplitMix64) {
  var worst = 0.0
  for (name, bytes) in decoderInputs(rng: &rng) {
    let (whole, events) = measure(runs: 5) { () -> Int in
      var decoder = InputDecoder()
      return decoder.decode(bytes).count + decoder.flush().count
    }
    let (chunked, _) = measure(runs: 5) { () -> Int in
      var decoder = InputDecoder()
      var count = 0
      var index = 0
      while index < bytes.count {
        count += decoder.decode(bytes[index..<min(bytes.count, index + 4096)]).count
        index += 4096
      }
      return count + decoder.flush().count
    }
    worst = max(worst, whole, chunked)
    print(
      "decode 1 MB \(name)".padding(to: 30) + format(whole).leftPadding(to: 10) + " ms whole"
        + format(chunked).leftPadding(to: 10) + " ms in 4 KB reads   \(events) events")
  }
  print("worst".padding(to: 30) + format(worst).leftPadding(to: 10) + " ms (bar: 50 ms)")
}

/// `decoder-fuzz SECONDS`: random inputs decoded whole and split at random, checked.
///
/// Inputs are built from real fragments, long Escape and combining runs and random bytes; it
/// fails if splitting changes the events or a control character is ever typed. It reports the
/// slowest input per MB (timing under load is noisy, so the `decoder` workloads hold the speed
/// bar, not this).
func runDecoderFuzz(seconds: Int, rng: inout SplitMix64) -> Bool {
  let fragments = [
    "\u{1B}", "\u{1B}[", "[", "1;5", "A", "~", "\u{1B}[<0;3;4M", "\u{1B}[200~", "\u{1B}[201~",
    "한", "😃", "e\u{301}", "\u{301}", "\u{200D}", "O", "P", "\u{1B}O", ";", "<", "M", "\r", "\u{7F}",
  ].map { Array($0.utf8) }
  let deadline = clock.now.advanced(by: .seconds(seconds))
  var inputs = 0
  var totalBytes = 0
  var slowest = 0.0
  while clock.now < deadline {
    var bytes: [UInt8] = []
    for _ in 0..<Int.random(in: 1...400, using: &rng) {
      switch Int.random(in: 0..<10, using: &rng) {
      case 0: bytes += [UInt8](repeating: 0x1B, count: Int.random(in: 1...30_000, using: &rng))
      case 1:
        bytes += Array(
          String(repeating: "\u{301}", count: Int.random(in: 1...20_000, using: &rng)).utf8)
      case 2, 3: bytes.append(UInt8.random(in: 0...255, using: &rng))
      default: bytes += fragments[Int.random(in: 0..<fragments.count, using: &rng)]
      }
    }
    let start = clock.now
    var whole = InputDecoder()
    let expected = whole.decode(bytes) + whole.flush()
    let perMB = milliseconds(clock.now - start) * Double(1 << 20) / Double(max(bytes.count, 1))
    if bytes.count > 64 * 1024 { slowest = max(slowest, perMB) }
    var split = InputDecoder()
    var events: [InputEvent] = []
    var index = 0
    while index < bytes.count {
      let length = Int.random(in: 1...8192, using: &rng)
      events += split.decode(bytes[index..<min(bytes.count, index + length)])
      index += length
    }
    events += split.flush()
    for event in events {
      if case .key(let key) = event, case .character(let character) = key.key,
        character.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
      {
        print("✘ a control character was typed, input \(inputs)")
        return false
      }
    }
    if events.count != expected.count {
      // Clusters split across reads may come as more events; anything else is a bug.
      let typed = { (list: [InputEvent]) in
        list.filter {
          if case .key(let key) = $0, case .character = key.key { false } else { true }
        }
      }
      if typed(events) != typed(expected) {
        print("✘ splitting changed the events, input \(inputs)")
        return false
      }
    }
    inputs += 1
    totalBytes += bytes.count
  }
  print(
    "decoder fuzz: \(inputs) inputs, \(totalBytes / (1 << 20)) MB in \(seconds) s, clean; "
      + "slowest \(format(slowest)) ms per MB on inputs over 64 KB")
  return true
}
