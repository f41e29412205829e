import Testing
import TrellisTerminal
import TrellisTestSupport

@Suite struct DisplayWidthTests {
  @Test(
    "Widths of the issue's examples",
    arguments: [
      ("전체선택", 8),
      ("마일스톤 없는 이슈", 18),
      ("新版本的问题", 12),
      ("😃", 2),
      ("👨‍👩‍👧", 2),
      ("🇰🇷", 2),
      ("e\u{301}", 1),
      ("é", 1),
      ("abc", 3),
      ("", 0),
    ])
  func widthOf(text: String, columns: Int) {
    #expect(DisplayWidth.of(text) == columns)
  }

  @Test func variationSelectorsAndCombiningMarksAddNothing() {
    #expect(DisplayWidth.of(scalar: "\u{FE0F}") == 0)
    #expect(DisplayWidth.of(scalar: "\u{301}") == 0)
    #expect(DisplayWidth.of(scalar: "\u{200D}") == 0)
  }

  @Test func emojiPresentationSequenceIsTwoColumns() {
    // U+2764 HEAVY BLACK HEART is one column alone and two with VS16.
    #expect(DisplayWidth.of("\u{2764}") == 1)
    #expect(DisplayWidth.of("\u{2764}\u{FE0F}") == 2)
  }

  @Test func ambiguousWidthIsOneColumn() {
    #expect(DisplayWidth.of("°±§") == 3)
  }

  @Test func controlCharactersTakeNoColumns() {
    #expect(DisplayWidth.of("\u{7}\u{1B}") == 0)
  }

  @Test func hangulJamoComposeIntoOneWideCluster() {
    // 한 written as the three conjoining jamo ᄒ ᅡ ᆫ.
    #expect(DisplayWidth.of("\u{1112}\u{1161}\u{11AB}") == 2)
  }

  @Test func truncationAddsAnEllipsisAndNeverSplitsAWideCharacter() {
    #expect(DisplayWidth.truncate("마일스톤 없는 이슈", toColumns: 9) == "마일스톤…")
    #expect(DisplayWidth.truncate("마일스톤 없는 이슈", toColumns: 8) == "마일스…")
    #expect(DisplayWidth.truncate("新版本的问题", toColumns: 12) == "新版本的问题")
    #expect(DisplayWidth.truncate("abc👨‍👩‍👧def", toColumns: 5) == "abc…")
    #expect(DisplayWidth.truncate("cafe\u{301} noir", toColumns: 5) == "cafe\u{301}…")
    #expect(DisplayWidth.truncate("hello", toColumns: 0) == "")
  }

  @Test(arguments: 0..<5 as Range<UInt64>)
  func truncationNeverExceedsTheLimit(seed: UInt64) {
    var rng = SplitMix64(seed: seed)
    let pieces = ["a", "한", "😃", "🇰🇷", "e\u{301}", "👨‍👩‍👧", " ", "新"]
    for step in 0..<200 {
      let text = (0..<Int.random(in: 0...12, using: &rng)).map { _ in
        pieces[Int.random(in: 0..<pieces.count, using: &rng)]
      }.joined()
      let limit = Int.random(in: 0...20, using: &rng)
      let cut = DisplayWidth.truncate(text, toColumns: limit)
      #expect(DisplayWidth.of(cut) <= limit, "seed \(seed), step \(step): \(text) → \(cut)")
      if DisplayWidth.of(text) <= limit { #expect(cut == text) }
    }
  }
}

@Suite struct HostileWidthTests {
  /// Indic vowel signs that space (Mc) take a column of their own, as tmux and VTE draw them
  /// (they count columns by code point), so a row of Devanagari or Bengali stays aligned.
  ///
  /// Those that do not space (Mn) add nothing.
  @Test func spacingVowelSignsTakeAColumnOfTheirOwn() {
    // KA + VOWEL SIGN I (Mc), KA + VOWEL SIGN U (Mn), Bengali KA + VOWEL SIGN AA (Mc).
    #expect(DisplayWidth.of(Character("\u{0915}\u{093F}")) == 2)
    #expect(DisplayWidth.of(Character("\u{0915}\u{0941}")) == 1)
    #expect(DisplayWidth.of(Character("\u{0995}\u{09BE}")) == 2)
    // A conjunct: NA, VIRAMA, DA is 2 as tmux draws it (NA 1, DA 1); with a vowel sign it
    // would be 3, which a cell cannot hold: 2.
    #expect(DisplayWidth.of(Character("\u{0928}\u{094D}\u{0926}")) == 2)
    #expect(DisplayWidth.of("हिन्दी") == 4)
    // A wide base stays at most 2.
    #expect(DisplayWidth.of(Character("\u{4E00}\u{093F}")) == 2)
    #expect(DisplayWidth.of(scalar: "\u{093F}") == 1)
  }

  @Test func aPrependedMarkTakesTheWidthOfWhatItPrecedes() {
    #expect(DisplayWidth.of(Character("\u{0600}1")) == 1)
    #expect(DisplayWidth.of("\u{0600}12") == 2)
  }

  @Test func thousandsOfCombiningMarksMakeOneCappedCell() {
    let text = "e" + String(repeating: "\u{301}", count: 30_000)
    #expect(DisplayWidth.of(text) == 1)
    var buffer = CellBuffer(width: 4, height: 1)
    buffer.draw { canvas in canvas.text(text + "x", x: 0, y: 0) }
    #expect(buffer[0, 0].grapheme.unicodeScalars.count == 32)
    #expect(buffer[1, 0].grapheme == "x")
  }
}
