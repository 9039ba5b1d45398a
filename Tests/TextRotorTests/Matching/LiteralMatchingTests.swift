import Glibc
import Testing

@testable import TextRotor
@testable import TextRotorICU

/// A naive model: leftmost non-overlapping byte matches of `needle`, optionally ASCII-caseless.
func naiveMatches(_ text: [UInt8], _ needle: [UInt8], asciiCaseless: Bool = false) -> [Range<Int>] {
  func lower(_ b: UInt8) -> UInt8 { asciiCaseless && (0x41...0x5A).contains(b) ? b | 0x20 : b }
  var result: [Range<Int>] = []
  var i = 0
  guard !needle.isEmpty else { return [] }
  while i + needle.count <= text.count {
    var ok = true
    for k in 0..<needle.count where lower(text[i + k]) != lower(needle[k]) {
      ok = false
      break
    }
    if ok {
      result.append(i..<(i + needle.count))
      i += needle.count
    } else {
      i += 1
    }
  }
  return result
}

func matches(_ pattern: Pattern, _ text: String, strategy: PatternMatcher.Strategy = .automatic) throws -> [Range<Int>]
{
  try PatternMatcher(pattern, strategy: strategy).matches(in: ByteStorage(text))
}

@Suite("Matching: literals")
struct LiteralMatchingTests {
  @Test("the vectorised literal search equals a naive model on random texts")
  func randomLiterals() throws {
    let seed = SeededRandom.seedFromEnvironment()
    var random = SeededRandom(seed: seed)
    let alphabet: [UInt8] = Array("aab ab\nbaAB".utf8) + [0xC3, 0xA9]
    for round in 0..<400 {
      // Every fourth text long enough for the kernel's 64-byte blocks, their 32-byte tail and the
      // last bytes one by one; needles of 1 to 20 bytes (the verification compares 1-3, 4-7, 8-16
      // and longer needles differently). Long needles are made of a text's piece, so they occur.
      let length = Int.random(in: 0..<(round % 4 == 0 ? 1500 : 300), using: &random)
      let text = (0..<length).map { _ in alphabet.randomElement(using: &random)! }
      let needleLength = Int.random(in: 1...(round % 2 == 0 ? 5 : 20), using: &random)
      var needle = (0..<needleLength).map { _ in Array("abAB ".utf8).randomElement(using: &random)! }
      if needleLength > 5 && length > needleLength && Bool.random(using: &random) {
        let at = Int.random(in: 0...(length - needleLength), using: &random)
        needle = Array(text[at..<(at + needleLength)])
      }
      let bytes = ByteStorage(text)
      let caseless = Bool.random(using: &random)
      let pattern = BytePattern(needle, asciiCaseInsensitive: caseless)
      var starts: [Int] = []
      _ = bytes.occurrences(of: pattern, in: 0..<bytes.count, into: &starts)
      let expected = naiveMatches(text, needle, asciiCaseless: caseless)
      #expect(starts == expected.map(\.lowerBound), "seed \(seed), needle \(needle), text \(text)")
      #expect(bytes.occurrenceCount(of: pattern, in: 0..<bytes.count) == expected.count, "seed \(seed)")
      // A few at a time, each search resuming where the one before stopped.
      var batched: [Int] = []
      var position = 0
      while position < bytes.count {
        let before = batched.count
        position = bytes.occurrences(
          of: pattern, in: position..<bytes.count, limit: Int.random(in: 1...3, using: &random), into: &batched)
        if batched.count == before && position < bytes.count { break }
      }
      #expect(batched == expected.map(\.lowerBound), "seed \(seed), needle \(needle) (limited)")
      // A sub-range.
      let lo = Int.random(in: 0...length, using: &random)
      let hi = Int.random(in: lo...length, using: &random)
      var sub: [Int] = []
      _ = bytes.occurrences(of: pattern, in: lo..<hi, into: &sub)
      #expect(
        sub == naiveMatches(Array(text[lo..<hi]), needle, asciiCaseless: caseless).map { $0.lowerBound + lo },
        "seed \(seed)")
    }
  }

  @Test("the compared offsets: the rarest bytes, of distinct values, never a lead byte of a non-ASCII character")
  func rareOffsets() {
    func offsets(_ s: String, caseless: Bool = false) -> Set<Int> {
      let p = BytePattern(Array(s.utf8), asciiCaseInsensitive: caseless)
      return [p.rare1, p.rare2, p.rare3]
    }
    // The 7 of 192.168.7. is among them (every pair inside "192.168." comes together in a log).
    #expect(offsets("192.168.7.").contains(8))
    #expect(!offsets("192.168.7.").contains(3) && !offsets("192.168.7.").contains(7))
    // Cyrillic, Greek, CJK: continuation bytes only (D0/D1, CE/CF, E4-E9 lead every character).
    for word in ["файл", "Система", "και", "文件", "中国"] {
      let bytes = Array(word.utf8)
      #expect(offsets(word).allSatisfy { bytes[$0] & 0xC0 == 0x80 }, "\(word)")
    }
    // Spread out where the needle lets them: not the neighbouring bytes of "10." in 10.0.0.
    #expect(offsets("10.0.0.") == [0, 3, 6])
    // Three distinct offsets once the needle has three bytes.
    #expect(offsets("Linux").count == 3)
    #expect(offsets("aab").count == 3)
    #expect(Set(offsets("zzzzq").map { Array("zzzzq".utf8)[$0] }).count == 2)
    #expect(offsets("ab") == [0, 1] && offsets("x") == [0])
    // Without case a letter counts as common as both of its cases.
    #expect(
      BytePattern.frequency(UInt8(ascii: "L"), caseless: true)
        > BytePattern.frequency(UInt8(ascii: "L"), caseless: false))
  }

  @Test("long texts exercise the 32-byte blocks and their tails")
  func longTexts() throws {
    var random = SeededRandom(seed: 42)
    for needle in ["Important", "the", "x", "abcdefghijklmnopqrstuvwxyz0123456789abcdefghij"] {
      var text = (0..<5000).map { _ in Array("the quick brown fox Imp ortant ".utf8).randomElement(using: &random)! }
      for _ in 0..<20 {
        let at = Int.random(in: 0..<(text.count - needle.utf8.count), using: &random)
        text.replaceSubrange(at..<(at + needle.utf8.count), with: needle.utf8)
      }
      text += Array(needle.utf8)
      let got = try PatternMatcher(.literal(needle)).matches(in: ByteStorage(text))
      #expect(got == naiveMatches(text, Array(needle.utf8)))
    }
  }

  /// An empty storage handed its nil base address to the C kernels, where the AVX2 needle scan
  /// computed `NULL + offset` (undefined behaviour, UBSan's report on `find --count an` over the
  /// corpora, whose set holds an empty file).
  @Test("an empty text, or a range too short for the needle: no NULL for the kernels, nothing found")
  func emptyTexts() throws {
    // An empty file (what `find` reads), and an empty copy.
    let path = "/tmp/textrotor-empty-\(getpid()).txt"
    fclose(fopen(path, "w"))
    defer { unlink(path) }
    let emptyFile = try ByteStorage.contentsOf(path: path)
    #expect(emptyFile.withUnsafeBytes { $0.baseAddress != nil && $0.isEmpty })
    for empty in [emptyFile, ByteStorage([UInt8]())] {
      #expect(empty.withUnsafeBytes { $0.baseAddress != nil && $0.isEmpty })
      for needle in ["an", "Important"] {
        let pattern = BytePattern(Array(needle.utf8))
        #expect(empty.occurrenceCount(of: pattern, in: 0..<0) == 0)
        #expect(try PatternMatcher(.literal(needle)).count(in: empty, threads: 2) == 0)
      }
    }
    let empty = emptyFile
    for needle in ["an", "Important", "x"] {
      for caseless in [false, true] {
        let pattern = BytePattern(Array(needle.utf8), asciiCaseInsensitive: caseless)
        #expect(empty.occurrenceCount(of: pattern, in: 0..<0) == 0)
        #expect(empty.firstIndex(of: pattern, in: 0..<0) == nil)
        // A text shorter than the needle, and a short range inside a long text.
        let text = ByteStorage(
          String(repeating: "a", count: 70) + needle.dropLast() + String(repeating: "b", count: 70))
        #expect(text.occurrenceCount(of: pattern, in: 70..<(70 + needle.utf8.count - 1)) == 0)
        #expect(text.occurrenceCount(of: pattern, in: 0..<text.count) == 0)
        #expect(ByteStorage(needle).occurrenceCount(of: pattern, in: 0..<needle.utf8.count) == 1)
      }
      for pattern in [Pattern.literal(needle), .literal(needle, ignoreCase: true), .regex(needle + "\\w*")] {
        #expect(try PatternMatcher(pattern).count(in: empty, range: 0..<0) == 0)
        #expect(try PatternMatcher(pattern).matches(in: empty).isEmpty)
      }
    }
  }

  @Test(
    "literal fast path equals the ICU path",
    arguments: [
      ("Important", "Important, important! IMPORTANT.\nimPortant"),
      ("aa", "aaaaa\naaa"),
      ("é", "café CAFÉ caf\u{E9}e"),
      ("a.b", "a.b axb a.b"),
    ])
  func literalEqualsICU(pattern: String, text: String) throws {
    for ignoreCase in [false, true] {
      for word in [false, true] {
        let p = Pattern.literal(pattern, ignoreCase: ignoreCase, wholeWord: word)
        #expect(try matches(p, text) == matches(p, text, strategy: .icu), "\(p)")
      }
    }
  }

  @Test("ignore case: ASCII, and ICU's full case folding (STRASSE matches straße)")
  func ignoreCase() throws {
    #expect(try matches(.literal("important", ignoreCase: true), "Important IMPORTANT x") == [0..<9, 10..<19])
    // ß folds to ss: the ASCII fast path hands such lines to ICU.
    let text = "Die Straße\nSTRASSE\nstrasse ſtraſſe\nkelvin \u{212A}ELVIN"
    let got = try matches(.literal("strasse", ignoreCase: true), text)
    #expect(got == (try matches(.literal("strasse", ignoreCase: true), text, strategy: .icu)))
    #expect(got.count == 4)
    #expect(try matches(.literal("kelvin", ignoreCase: true), text).count == 2)
    #expect(try matches(.literal("STRAßE", ignoreCase: true), text).count == 4)
    #expect(try matches(.literal("Straße"), text) == [4..<11])
  }

  @Test("the folding-exception list is exactly ICU's characters whose full folding holds ASCII")
  func foldingExceptions() throws {
    let folding = try CaseFolding()
    var found: [UInt32] = []
    for v in UInt32(0x80)...0x10FFFF {
      guard let scalar = Unicode.Scalar(v) else { continue }
      if try folding.fold(String(scalar)).unicodeScalars.contains(where: \.isASCII) { found.append(v) }
    }
    #expect(found == FoldingExceptions.scalars)
    // And ICU's case-insensitive matching does match each through its ASCII part.
    #expect(try matches(.literal("ss", ignoreCase: true), "\u{DF}", strategy: .icu).count == 1)
    #expect(try matches(.literal("k", ignoreCase: true), "\u{212A}").count == 1)
    #expect(try matches(.literal("fi", ignoreCase: true), "\u{FB01}").count == 1)
  }

  @Test("the vectorised exception scan finds the first exception character as a byte-by-byte model does")
  func exceptionScanEqualsAModel() throws {
    let seed = SeededRandom.seedFromEnvironment()
    var random = SeededRandom(seed: seed)
    // Exceptions, near misses (same lead byte or same first two bytes), ASCII.
    let pieces: [[UInt8]] = [
      Array("ß".utf8), Array("ſ".utf8), Array("\u{212A}".utf8), Array("ﬁ".utf8), Array("ẞ".utf8), Array("ẚ".utf8),
      Array("é".utf8), Array("’".utf8), Array("™".utf8), Array("ẛ".utf8), Array("Ĳ".utf8), Array("ﬀ".utf8),
      [0xE2, 0x84], [0xC3], Array("abc ".utf8), Array("Straße".utf8), Array("x\n".utf8),
    ]
    func isException(_ text: [UInt8], _ i: Int, _ limit: Int) -> Bool {
      for scalar in FoldingExceptions.scalars {
        let utf8 = Array(String(Unicode.Scalar(scalar)!).utf8)
        if i + utf8.count <= limit && Array(text[i..<(i + utf8.count)]) == utf8 { return true }
      }
      return false
    }
    for round in 0..<400 {
      var text: [UInt8] = Array(repeating: UInt8(ascii: "a"), count: Int.random(in: 0...70, using: &random))
      for _ in 0..<Int.random(in: 0...6, using: &random) {
        text.insert(
          contentsOf: pieces.randomElement(using: &random)!, at: Int.random(in: 0...text.count, using: &random))
      }
      let bytes = ByteStorage(text)
      let lower = Int.random(in: 0...text.count, using: &random)
      let upper = Int.random(in: lower...text.count, using: &random)
      let expected = (lower..<upper).first { isException(text, $0, upper) }
      let found = FoldingExceptions.first(in: bytes, range: lower..<upper)
      #expect(found == expected, "seed \(seed), round \(round): \(text) in \(lower)..<\(upper)")
      if found != expected { return }
    }
  }

  /// The parts ``FoldingExceptions/split(_:range:confinedTo:_:)`` gives for `text` with the
  /// confinement of a caseless `st`: each part's range, its text and whether it is an exception's.
  static func exceptionParts(_ text: String) throws -> [(range: Range<Int>, text: String, isException: Bool)] {
    let utf8 = Array(text.utf8)
    var parts: [(range: Range<Int>, text: String, isException: Bool)] = []
    try FoldingExceptions.split(
      ByteStorage(utf8), range: 0..<utf8.count, confinedTo: ByteClass.of(Array("st".utf8), caseless: true)
    ) { (part, isException) throws(ICUError) -> Bool in
      parts.append((part, String(decoding: utf8[part], as: UTF8.self), isException))
      return false
    }
    return parts
  }

  @Test("with a confinement, an exception's part is the run of its bytes around it, not its line")
  func exceptionRuns() throws {
    let filler = String(repeating: "x ", count: 600)
    var parts = try Self.exceptionParts("one Straße two \u{212A}ilo x ß\nſun \(filler)ß end\n")
    // A short line is a part whole; on a long one, only the bytes a match may hold stand around an
    // exception in its part (`u` is not one), and the runs of exceptions close after it on its
    // line join it, as does the line's edge when it is near (``FoldingExceptions/mergeGap``).
    #expect(parts.map(\.text) == ["one Straße two \u{212A}ilo x ß", "ſ", "un \(filler)", "ß end"])
    #expect(parts.map(\.isException) == [true, true, false, true])
    // The runs alone on a long line: `Stra` is not one.
    parts = try Self.exceptionParts("\(filler)one Straße two \u{212A}ilo\(filler)\n")
    #expect(parts.map(\.text) == ["\(filler)one Stra", "ße two \u{212A}", "ilo\(filler)\n"])
    // Many runs close together: from the first, the rest of the line is one part.
    parts = try Self.exceptionParts("\(filler)\(String(repeating: "ß x ", count: 20))\(filler)\nend")
    #expect(parts.map(\.text) == [filler, "\(String(repeating: "ß x ", count: 20))\(filler)", "end"])
    #expect(parts.map(\.isException) == [false, true, false])
    // On a line of megabytes, at most ``FoldingExceptions/denseSpan`` bytes more, to a byte outside
    // the run there.
    let huge = String(repeating: "ß x ", count: 40_000) + "\n"
    let hugeParts = try Self.exceptionParts(huge).filter(\.isException).map(\.range)
    #expect(hugeParts.count > 2 && hugeParts.allSatisfy { $0.count < FoldingExceptions.denseSpan + 1024 })
    #expect(hugeParts.first?.lowerBound == 0 && hugeParts.last?.upperBound == huge.utf8.count - 1)
  }

  @Test(
    "without case, a pattern that reads its line (look-around, ^, \\A, \\z) next to an exception sees the whole line",
    arguments: [
      (#"(?<!x.{0,9})foo"#, "xß-foo\n"), (#"(?<=^-)foo"#, "ß-foo\n"), (#"(?<=\A-)foo"#, "ß-foo\n"),
      (#"foo(?!-.)"#, "foo-ß\n"), (#"(?<!x.{0,9})foo\z"#, "x ß foo\n"), (#"(?<=the )\w+"#, "the ß the cat\n"),
    ] as [(String, String)])
  func exceptionsWithLineLocalPatterns(source: String, text: String) throws {
    let pattern = Pattern.regex(source, ignoreCase: true)
    #expect(try matches(pattern, text) == (try matches(pattern, text, strategy: .icu)))
  }

  @Test("without case, a long line holding exception characters finds what ICU finds on it")
  func exceptionsOnALongLine() throws {
    let seed = SeededRandom.seedFromEnvironment()
    var random = SeededRandom(seed: seed)
    let pieces = [
      "the ", "THE ", "Straße ", "strasse ", "\u{212A}ey ", "key ", "ſt ", "st ", "ﬆ ", "théâtre ", "x", ", ",
    ]
    let text = (0..<4000).map { _ in pieces.randomElement(using: &random)! }.joined() + "\n"
    for pattern in [
      Pattern.literal("ss", ignoreCase: true), .literal("key", ignoreCase: true), .literal("st", ignoreCase: true),
      .regex(#"st\w*"#, ignoreCase: true), .regex(#"\w+sse\b"#, ignoreCase: true),
      .regex("the [a-z]+", ignoreCase: true),
    ] {
      let found = try matches(pattern, text)
      #expect(found == (try matches(pattern, text, strategy: .icu)), "\(pattern), seed \(seed)")
      #expect(!found.isEmpty, "\(pattern)")
    }
  }

  @Test("--word: matches must start and end on ICU word boundaries")
  func wholeWord() throws {
    let text = "cat concat cat's cat_x caté cat\ncat"
    #expect(try matches(.literal("cat", wholeWord: true), text) == [0..<3, 29..<32, 33..<36])
    // A rejected candidate does not hide a later one that overlaps it.
    #expect(try matches(.literal("aa", wholeWord: true), "aaa aa") == [4..<6])
    #expect(try matches(.literal("Cat", ignoreCase: true, wholeWord: true), text).count == 3)
  }

  @Test("a literal holding a line terminator is rejected; an empty one matches every position")
  func edgeCases() throws {
    #expect(throws: PatternError.self) { try PatternMatcher(.literal("a\nb")) }
    #expect(try matches(.literal(""), "ab\n\ncd\n") == [0..<0, 1..<1, 2..<2, 3..<3, 4..<4, 5..<5, 6..<6])
    #expect(try matches(.literal(""), "") == [])
    #expect(try matches(.literal("x"), "") == [])
  }
}
