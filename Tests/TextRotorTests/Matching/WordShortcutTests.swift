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

  /// ICU decides a candidate on its line, or, in a line over 1 MiB, 32 KiB either side of it; the
  /// line's edges are looked for at most 1 MiB away (searching a 100 MB line's edges for each
  /// candidate made `-w the` on one 100 MB line take 1.3 s), which must choose the same windows.
  @Test(arguments: [(1 << 20) - 3, 1 << 20, (1 << 20) + 1, (1 << 20) + 40, 3 << 20])
  func windowOfALongLine(length: Int) throws {
    let before = "first line\n"
    let line = String(repeating: "ab ", count: length / 3) + String(repeating: "x", count: length % 3)
    let bytes = ByteStorage(before + line + "\nlast line\n")
    let lineRange = before.utf8.count..<(before.utf8.count + length)
    for candidate in [0, 3, length / 2, length - 3] {
      let words = try WordBoundaries()  // a window of its own (a window holding a match is kept)
      let match = (lineRange.lowerBound + candidate)..<(lineRange.lowerBound + candidate + 2)
      _ = try words.icuAccepts(match, in: bytes, range: 0..<bytes.count)
      let want =
        length > 1 << 20
        ? max(
          lineRange.lowerBound, match.lowerBound - (1 << 15))..<min(lineRange.upperBound, match.upperBound + (1 << 15))
        : lineRange
      #expect(words.window == want, "a line of \(length) bytes, a candidate at \(candidate)")
    }
  }

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

  /// What a whole-word pattern rotor's update in a long line rests on
  /// (``WordBoundaries/separatesWords(_:)``): in a line `x c y` where `c` is such an ASCII
  /// character, ICU's word boundaries up to `c` are those of `x c` followed by anything, and
  /// those after `c` are those of `c y`. Every ASCII character is asked, with every `x` and `y`
  /// of one piece (letters of several scripts, Hebrew's around `"`, digits, marks, ZWJ, a format
  /// character, regional indicators, dictionary scripts, the punctuation UAX #29 names) and
  /// random longer ones; the space and `-` must be separators (with none, nothing is tested).
  @Test func separatorsCutWordBoundaries() throws {
    let seed = SeededRandom.seedFromEnvironment()
    var rng = SeededRandom(seed: seed)
    let iterator = try BreakIterator(.word)
    func boundaries(_ text: String) throws -> Set<Int> {
      let bytes = ByteStorage(text)
      try iterator.setText(bytes, range: 0..<bytes.count)
      return Set((0...bytes.count).filter { iterator.isBoundary($0) })
    }
    let pieces = [
      "", "a", "Z", "9", "_", "é", "д", "ب", "א", "ก", "中", "ア", "한", "\u{301}", "\u{AD}", "\u{200D}", "\u{1F600}",
      "\u{1F1E9}", " ", "\t", "-", "'", "\"", ".", ":", ",", ";", "@", "’", "·", "\u{A0}", "٣",
    ]
    let separators = (UInt8(0)..<0x80).filter { WordBoundaries.separatesWords($0) && $0 != 0x0A && $0 != 0x0D }
    #expect(separators.contains(0x20) && separators.contains(0x2D))
    var texts = pieces.flatMap { x in pieces.map { y in (x, y) } }
    for _ in 0..<300 {
      func random() -> String {
        (0..<Int.random(in: 2...5, using: &rng)).map { _ in Self.pieces.randomElement(using: &rng)! }.joined()
          .filter { $0 != "\n" && $0 != "\r\n" }
      }
      texts.append((random(), random()))
    }
    for c in separators {
      let sep = String(UnicodeScalar(c))
      var failures = 0
      for (x, y) in texts where failures < 3 {
        let n = x.utf8.count
        let whole = try boundaries(x + sep + y)
        let before = try boundaries(x + sep)
        let after = try boundaries(sep + y)
        if whole.filter({ $0 <= n }) != before.filter({ $0 <= n }) {
          Issue.record("seed \(seed): before \(c) in \((x + sep + y).debugDescription)")
          failures += 1
        }
        if whole.filter({ $0 > n }) != Set(after.filter { $0 > 0 }.map { $0 + n }) {
          Issue.record("seed \(seed): after \(c) in \((x + sep + y).debugDescription)")
          failures += 1
        }
      }
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
