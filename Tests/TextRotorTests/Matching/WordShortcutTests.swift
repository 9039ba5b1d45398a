import Testing
import TextRotorICU

@testable import TextRotor

@Suite("-w without ICU where the answer is obvious")
struct WordShortcutTests {
  static let pieces =
    [
      "the", "other", "a1", "9", "_", "'", ".", ":", ",", ";", " ", "\t", "-", "(", ")", "\"", "@", "é", "\u{301}",
      "ß", "日本", "д", "\u{200D}", "’", "x", "\r\n", "\n", "#", "/", "!", "0.5", "don't", "файл", "Д", "ё", "ж",
      "\u{483}", "\u{482}", "α", "Ά", "·", "΄", "ϰ", "ϐ", "ς", "Ω", "×", "÷", "ĸ", "ŉ", "\u{AD}", "\u{2060}", "ǅ",
      "\u{1F600}", "٣", "א", "ก", "ア", "\u{0308}", "\u{FE0F}", "¡", "ª", "µ", "·", "\u{A0}", "\u{2019}",
      // Armenian, Arabic (a mark, the tatweel, digits, its comma), Georgian, Hangul and a jamo.
      "Ա", "ա", "\u{589}", "\u{55A}", "ب", "كتاب", "\u{64B}", "\u{640}", "٣٤", "\u{60C}", "\u{66B}", "ქ", "한국어",
      "\u{1100}", "ㄱ",
    ] + (0x20...0x7E).map { String(UnicodeScalar(UInt8($0))) }

  @Test("the shortcut agrees with ICU's word break iterator on random text, at every span")
  func agreesWithICU() throws {
    let seed = SeededRandom.seedFromEnvironment()
    var rng = SeededRandom(seed: seed)
    let words = try WordBoundaries()
    var decided = 0
    for _ in 0..<2000 {
      let text = (0..<Int.random(in: 1...12, using: &rng)).map { _ in Self.pieces.randomElement(using: &rng)! }
        .joined()
      let bytes = ByteStorage(text)
      let range = 0..<bytes.count
      for start in 0..<bytes.count {
        for end in (start + 1)...min(bytes.count, start + 6) {
          guard let quick = WordBoundaries.obviousAnswer(start..<end, in: bytes, range: range) else { continue }
          // Only spans inside one line: a match never crosses a terminator.
          if LineBounds.containsTerminator(start..<end, in: bytes) { continue }
          decided += 1
          let icu = try words.icuAccepts(start..<end, in: bytes, range: range)
          #expect(quick == icu, "seed \(seed): \(Array(text.utf8)) span \(start)..<\(end)")
          if quick != icu { return }
        }
      }
    }
    #expect(decided > 1000)
  }

  /// Every text of four pieces from letters, digits and the punctuation whose boundary depends on
  /// the character beyond it (`,` `;` `.` `'` `:`), with a mark, a space, `_` and `@` around:
  /// every span the shortcut decides agrees with ICU (`9,9` keeps the digits together, WB11/12;
  /// `a.\u{301}b` the letters, WB6/7 over the mark, WB4), and the punctuation next to a letter
  /// before a space is decided (`a, b`, `end. Next`).
  @Test func punctuationBetweenWordsAgreesWithICU() throws {
    let pieces = ["a", "9", ",", ";", ".", "'", ":", " ", "\u{301}", "_", "é", "@", "-", "ب"]
    let words = try WordBoundaries()
    var decided = 0
    for n in 0..<(pieces.count * pieces.count * pieces.count * pieces.count) {
      var k = n
      var text = ""
      for _ in 0..<4 {
        text += pieces[k % pieces.count]
        k /= pieces.count
      }
      let bytes = ByteStorage(text)
      let range = 0..<bytes.count
      for start in 0..<bytes.count {
        for end in (start + 1)...min(bytes.count, start + 3) {
          guard let quick = WordBoundaries.obviousAnswer(start..<end, in: bytes, range: range) else { continue }
          decided += 1
          let icu = try words.icuAccepts(start..<end, in: bytes, range: range)
          #expect(quick == icu, "\(text.debugDescription) span \(start)..<\(end)")
          if quick != icu { return }
        }
      }
    }
    #expect(decided > 10_000)
    for (text, span) in [("a, b", 0..<1), ("x end. Next", 2..<5), ("b ;a", 3..<4), ("it's 'a' x", 6..<7)] {
      #expect(WordBoundaries.obviousAnswer(span, in: ByteStorage(text), range: 0..<text.utf8.count) == true, "\(text)")
    }
  }
}

@Suite("-w literal: rejected candidates do not restart the search")
struct WordLiteralTests {
  @Test(
    "self-overlapping and overlap-free needles",
    arguments: [
      ("the", "the other the. bathe the", [0..<3, 10..<13, 21..<24]),
      ("aa", "aaa aa", [4..<6]),
      ("abab", "ababab abab", [7..<11]),
      ("x", "xx x_x x", [7..<8]),
    ])
  func wordLiterals(_ needle: String, _ text: String, _ expected: [Range<Int>]) throws {
    let found = try PatternMatcher(.literal(needle, wholeWord: true)).matches(in: ByteStorage(text))
    #expect(found == expected)
    let icu = try PatternMatcher(.literal(needle, wholeWord: true), strategy: .icu).matches(in: ByteStorage(text))
    #expect(icu == expected)
  }
}
