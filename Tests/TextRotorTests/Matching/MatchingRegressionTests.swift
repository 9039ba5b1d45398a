import Foundation
import Testing
import TextRotorICU

@testable import TextRotor

/// Regression tests for the matching cases of issue 9 (each failed before its fix).
@Suite("Matching: regressions (issue 9)")
struct MatchingRegressionTests {
  /// Item 1: every match appended to a copy of the line's array made one line with n matches cost
  /// O(n²) (40,000 matches took 12-23 s, 400,000 did not finish). Linear, this is well under a
  /// second alone; quadratic it runs for hours. The limit only guards against that hang: it is
  /// generous because a debug build sharing 2 cores with the whole parallel suite and other
  /// builds once took over a minute.
  @Test("a line with 500,000 matches is gathered in linear time", .timeLimit(.minutes(10)))
  func manyMatchesOnOneLine() throws {
    let n = 500_000
    let bytes = ByteStorage(String(repeating: "a ", count: n) + "\nb a\n")
    let matcher = try PatternMatcher(.literal("a"))
    var lines: [MatchedLine] = []
    try matcher.forEachMatchedLine(in: bytes) { line in
      lines.append(line)
      return true
    }
    #expect(lines.count == 2)
    #expect(lines[0].matches.count == n)
    #expect(lines[0].matches.last == (2 * n - 2)..<(2 * n - 1))
    #expect(lines[1].matches == [(2 * n + 3)..<(2 * n + 4)])
  }

  /// Item 2: `"\r\n"` is one `Character`, so `text.contains("\n")` missed a literal holding CR LF,
  /// and it matched across lines.
  @Test(
    "a literal holding a line terminator, CR LF included, is an error",
    arguments: ["\r\nab", "a\r\n", "\r\n", "x\ry", "\n"])
  func literalWithCRLF(literal: String) throws {
    #expect(throws: PatternError.self) { try PatternMatcher(.literal(literal)) }
    #expect(throws: PatternError.self) { try PatternMatcher(.literal(literal, ignoreCase: true)) }
    let document = try RotorDocument(elements: [TextElement(id: 0, text: "x\r\nab\n")])
    #expect(throws: PatternError.self) { try document.rotor(matching: .literal(literal)) }
  }

  /// Item 6: an empty match right after the previous match is not reported, as in ripgrep.
  @Test("empty regex matches follow ripgrep")
  func emptyMatchesAsRipgrep() throws {
    // rg --json 'a*': bab → 0, 1-2, 3; ba → 0, 1-2; aa → 0-2.
    let text = "bab\nba\naa\n"
    let expected = [0..<0, 1..<2, 3..<3, 4..<4, 5..<6, 7..<9]
    for strategy in [PatternMatcher.Strategy.automatic, .icu] {
      #expect(try matches(.regex("a*"), text, strategy: strategy) == expected, "\(strategy)")
    }
    #expect(try matches(.regex("x*"), "a\r\nb\n") == [0..<0, 1..<1, 3..<3, 4..<4])
    #expect(try matches(.regex("a|"), "aab") == [0..<1, 1..<2, 3..<3])
    let document = try RotorDocument(elements: [TextElement(id: 0, text: "bab")])
    #expect(try document.rotor(matching: .regex("a*")).count == 3)
  }

  /// A file's byte order mark is not content: a regex's `^` matched after it only where the
  /// engine was given the text without it, so a file document's pattern rotor missed the first
  /// line's `^a` (and `find --regex '^a'` missed it, where rg finds it).
  @Test("a regex sees a file's text after its byte order mark, before and after edits")
  func anchorsAfterAByteOrderMark() throws {
    let path = NSTemporaryDirectory() + "textrotor-bom-\(UUID().uuidString).txt"
    defer { try? FileManager.default.removeItem(atPath: path) }
    try Data([0xEF, 0xBB, 0xBF] + Array("abc\ndef\na".utf8)).write(to: URL(fileURLWithPath: path))
    for kind in [ElementKind.whole, .lines] {
      let document = try RotorDocument<Int>(contentsOf: path, elements: kind)
      let starts = try document.rotor(matching: .regex("^a"))
      #expect(starts.count == 2, "\(kind)")
      #expect(try document.rotor(matching: .regex("^")).count == 3, "\(kind)")
      // An edit on the first line searches its window again: still after the mark.
      try document.replace(utf8Range: 1..<1, in: 0, with: "x")
      try document.replace(utf8Range: 1..<2, in: 0, with: "")
      #expect(document.rotor(named: "matches: '^' (regex)")?.count == 3, "\(kind)")
    }
    let bytes = try ByteStorage.contentsOf(path: path)
    let matcher = try PatternMatcher(.regex("^(a|d)"))
    #expect(try matcher.matches(in: bytes, range: 3..<bytes.count) == [3..<4, 7..<8, 11..<12])
  }

  /// Item 8: a mapped file truncated while it is searched was read to its old size, the missing
  /// pages as zeros, so the last line ran on as one huge line of NULs.
  @Test("a file that shrinks while it is searched is searched to its new end only")
  func truncatedWhileSearched() throws {
    let path = NSTemporaryDirectory() + "textrotor-shrink-\(UUID().uuidString).txt"
    defer { try? FileManager.default.removeItem(atPath: path) }
    let line = "abc a def\n"
    let full = String(repeating: line, count: 40_000)  // 400,000 bytes, about 98 pages
    try Data(full.utf8).write(to: URL(fileURLWithPath: path))
    let bytes = try ByteStorage.contentsOf(path: path)
    #expect(bytes.count == 400_000)
    #expect(!bytes.shrankWhileReading)
    // Truncate in the middle of a line, before any page is read.
    let newSize = 100_005
    #expect(truncate(path, off_t(newSize)) == 0)
    let matcher = try PatternMatcher(.literal("a"))
    var lines: [MatchedLine] = []
    try matcher.forEachMatchedLine(in: bytes) { line in
      lines.append(line)
      return true
    }
    #expect(bytes.shrankWhileReading)
    #expect(bytes.availableCount == newSize)
    #expect(lines.count == 10_001)
    #expect(lines.allSatisfy { $0.next <= newSize && $0.matches.allSatisfy { $0.upperBound <= newSize } })
    #expect(lines.last?.content == 100_000..<100_005)
  }

  /// What only counts (`-c`, `--count -m`) keeps a line's first match and its count, not every
  /// match: a 50 MB line of one-letter matches held 800 MB of ranges.
  @Test("forEachMatchedLine(keeping:): the first matches of each line and how many it holds")
  func keepingFewMatches() throws {
    let text = "ab ab ab\nno\n" + String(repeating: "ab", count: 1000) + "\nab"
    let bytes = ByteStorage(text)
    for pattern in [Pattern.literal("ab"), .regex("a\\w")] {
      let matcher = try PatternMatcher(pattern)
      var all: [MatchedLine] = []
      try matcher.forEachMatchedLine(in: bytes) {
        all.append($0); return true
      }
      for keeping in [1, 2, 5] {
        var some: [(MatchedLine, Int)] = []
        try matcher.forEachMatchedLine(in: bytes, keeping: keeping) {
          some.append(($0, $1)); return true
        }
        #expect(some.map(\.1) == all.map(\.matches.count), "\(pattern), keeping \(keeping)")
        #expect(some.map(\.0.content) == all.map(\.content) && some.map(\.0.next) == all.map(\.next))
        #expect(some.map(\.0.matches) == all.map { Array($0.matches.prefix(keeping)) }, "\(pattern)")
      }
    }
  }

  /// Found by FuzzFind: ICU reads an ill-formed byte as U+FFFD, so a pattern holding U+FFFD matched
  /// ill-formed bytes through ICU (`-i`, regexes) but not through the byte search.
  @Test("U+FFFD in a pattern matches only a real U+FFFD, never ill-formed bytes, in every engine")
  func replacementCharacter() throws {
    let bytes = ByteStorage([0x0D, 0x95, 0xE0, 0xB8, 0xA5, 0x20] + Array("\u{FFFD}\u{E25}".utf8) as [UInt8])
    for pattern in [
      Pattern.literal("\u{FFFD}\u{E25}"), .literal("\u{FFFD}\u{E25}", ignoreCase: true), .regex("\u{FFFD}\u{E25}"),
      .regex("\u{FFFD}."),
    ] {
      for strategy in [PatternMatcher.Strategy.automatic, .icu] {
        #expect(
          try PatternMatcher(pattern, strategy: strategy).matches(in: bytes) == [6..<12], "\(pattern) \(strategy)")
      }
    }
  }

  /// Found by FuzzFind: a match covering an ill-formed byte was rejected and the search resumed
  /// after its start, so a shorter match at the same start, before the ill-formed byte, was lost
  /// (`\uFFFD?\uFFFD` on a real U+FFFD then a stray continuation byte: RE2's windows found the real
  /// U+FFFD, ICU nothing). An ill-formed byte matches nothing, as in ripgrep.
  @Test(
    "a pattern holding U+FFFD finds the match that stops before an ill-formed byte, in every engine",
    arguments: [
      // (pattern, text, expected): the fuzz input's line, then neighbours.
      (#"\uFFFD?\uFFFD"#, [0xEF, 0xBF, 0xBD, 0xA9, 0x0A], [0..<3]),
      (#"\uFFFD?\uFFFD"#, [0x61, 0xEF, 0xBF, 0xBD, 0xA9, 0xEF, 0xBF, 0xBD, 0x0A], [1..<4, 5..<8]),
      (#"\uFFFD+"#, [0xEF, 0xBF, 0xBD, 0xEF, 0xBF, 0xBD, 0xFF, 0xEF, 0xBF, 0xBD, 0x0A], [0..<6, 7..<10]),
      (#"x\uFFFD*"#, [0x78, 0xEF, 0xBF, 0xBD, 0xC3, 0x78, 0x0A], [0..<4, 5..<6]),
      (#"\uFFFD.?"#, [0xEF, 0xBF, 0xBD, 0xE2, 0x82, 0x0A], [0..<3]),
      // `$` does not match where the search before the ill-formed byte stops.
      (#"\uFFFD\w*(?:$|\uFFFD)"#, [0xEF, 0xBF, 0xBD, 0x61, 0xFF, 0x0A], []),
      // The pattern as a character, not an escape.
      ("\u{FFFD}?\u{FFFD}", [0xEF, 0xBF, 0xBD, 0xA9, 0x0A], [0..<3]),
      // An empty match at the ill-formed byte itself (ICU's match starts there), as rg gives them.
      (#"\uFFFD?"#, [0xFF, 0x0A], [0..<0, 1..<1]),
      (#"^\uFFFD*"#, [0x6F, 0x6B, 0x0A, 0xFF, 0x7A, 0x0A], [0..<0, 3..<3]),
      // `\x{...}` with leading zeros is U+FFFD too.
      (#"x\x{0FFFD}?"#, [0x78, 0xFF, 0x0A], [0..<1]),
    ] as [(String, [UInt8], [Range<Int>])])
  func replacementCharacterBeforeIllFormed(pattern: String, text: [UInt8], expected: [Range<Int>]) throws {
    let bytes = ByteStorage(text)
    for strategy in [PatternMatcher.Strategy.automatic, .icu, .wholeText] {
      #expect(
        try PatternMatcher(.regex(pattern), strategy: strategy).matches(in: bytes) == expected, "\(strategy)")
    }
  }

  /// Smart case read `\x48` as no capital (rg reads the letter it spells): each spelling of a
  /// code point decides as the code point itself written out does.
  @Test("-S: a letter spelled as a code point counts as the letter")
  func smartCaseSpelledLetters() {
    let samples: [Unicode.Scalar] = [
      "A", "a", "Z", "z", "0", "_", "É", "é", "Σ", "σ", "ǅ", "Ⅻ", "ⅻ", "Ａ", "ａ", "𝐀", "𐐀", "𐐨", "中",
    ]
    for c in samples {
      let hex = String(c.value, radix: 16)
      let expected = Pattern.isAllLowercase(String(c), syntax: .literal)
      var spellings = [#"\x{"# + hex + "}"]
      if c.value <= 0xFF { spellings += [#"\x"# + String(repeating: "0", count: 2 - hex.count) + hex] }
      if c.value <= 0xFFFF { spellings += [#"\u"# + String(repeating: "0", count: 4 - hex.count) + hex] }
      spellings += [#"\U"# + String(repeating: "0", count: 8 - hex.count) + hex]
      if c.value <= 0o377 { spellings += [#"\0"# + String(c.value, radix: 8)] }
      for spelled in spellings {
        #expect(Pattern.isAllLowercase("a" + spelled + "b", syntax: .regex) == expected, "\(spelled) for \(c)")
        // ICU reads the spelling as the code point itself.
        let matcher = try? PatternMatcher(.regex(spelled))
        #expect((try? matcher?.matches(in: ByteStorage(String(c)))) == [0..<String(c).utf8.count], "\(spelled)")
      }
    }
    // Quoted text is letters (an escape inside is not read); classes and names are not letters.
    #expect(Pattern.isAllLowercase(#"\Q\x48\E"#, syntax: .regex))
    #expect(!Pattern.isAllLowercase(#"\Qa.H\E"#, syntax: .regex))
    #expect(!Pattern.isAllLowercase(#"\Qab\EC"#, syntax: .regex))
    #expect(Pattern.isAllLowercase(#"\p{Lu}\pL\N{LATIN CAPITAL LETTER A}\x{}x"#, syntax: .regex))
    #expect(!Pattern.isAllLowercase(#"[\x41-\x5a]"#, syntax: .regex))
    #expect(Pattern.isAllLowercase(#"\x4g\x"#, syntax: .regex), "\\x4 is U+0004")
    // A group's name is no letter of the pattern (rg: `(?P<Name>abc)` ignores case with -S);
    // look-behind is not a name.
    #expect(Pattern.isAllLowercase(#"(?<Name>abc)\k<Name>"#, syntax: .regex))
    #expect(!Pattern.isAllLowercase(#"(?<Name>Abc)"#, syntax: .regex))
    #expect(!Pattern.isAllLowercase(#"(?<=A)b"#, syntax: .regex))
    #expect(!Pattern.isAllLowercase(#"(?<!A)b"#, syntax: .regex))
    #expect(!Pattern.isAllLowercase(#"(?<Name>abc)\k<Name>D"#, syntax: .regex))
  }

}
