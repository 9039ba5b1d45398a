import Testing
import TextRotorICU

@testable import TextRotor

/// Look-around patterns without a literal: RE2 finds the lines where their relaxed form matches,
/// ICU searches only those (``RegexRelaxation``), against ICU on every line.
@Suite("Matching: look-around searched on the lines its relaxed form finds")
struct RegexRelaxationTests {
  @Test(
    "the relaxed form: assertions out, a leading look-behind and a trailing look-ahead consumed",
    arguments: [
      (#"(?<=\d\s)[a-z]+"#, #"(?:\d\s)[a-z]+"#),
      (#"(?<![a-z])[a-z]+"#, "[a-z]+"),
      (#"\w+(?=\s\d)"#, #"\w+(?:\s\d)"#),
      (#"\w+(?!\s\d)"#, #"\w+"#),
      (#"(?<=a(?!b))c(?<=x)d(?=e(?<=f))"#, "(?:a)cd(?:e)"),
      (#"\A\w+\b\z"#, #"\w+"#),
      (#"(a(?=b)|c)\Z"#, "(a|c)"),
      (#"[(?=x)]+(?<=\))"#, "[(?=x)]+"),
      (#"(?<=\cX\))y"#, #"(?:\cX\))y"#),
      (#"(?<n>a)(?=b)"#, "(?<n>a)(?:b)"),
      (#"(?:(?<=a)b)"#, "(?:b)"),
    ] as [(String, String)])
  func relaxed(pattern: String, expected: String) {
    #expect(RegexRelaxation.of(pattern) == expected)
  }

  @Test(
    "no relaxed form: unread syntax, a quantified assertion, nothing to relax",
    arguments: [
      #"\Q(?=a)\E"#, "(?i)(?=a)b", "(?x)(?=a) b", "(?#c)(?=a)", #"(?=a)*b"#, #"\b+a"#, "(?=a", "[(?=a)",
      "a(?=b))", #"\w+"#, "a|b",
    ])
  func refused(pattern: String) {
    #expect(RegexRelaxation.of(pattern) == nil)
  }

  static let behind = [
    "", #"(?<=\d\s)"#, "(?<=[a-z] )", "(?<![a-z])", #"(?<!\d)"#, "(?<=é)", #"(?<=\s)"#, "(?<=x{1,2})", #"(?<=\bab)"#,
    #"\A"#, #"(?<=\p{Lu})"#, "^", "[:alpha:]", #"(?<=^\d)"#,
  ]
  static let cores = [
    "[a-z]+", #"\w+"#, #"\d+"#, #"[A-Z]\w*"#, #"é\w?"#, "a", ".", #"\S+"#, "(?:ab|c)+", "x*", #"[^ ]"#, #"\s"#,
  ]
  static let middles = ["", "", #"(?!\d)"#, #"(?<=b)"#, #"\b"#, " ", "(?=.)"]
  static let ahead = [
    "", #"(?=\s\d)"#, #"(?!\w)"#, "(?=[.,])", "(?= )", "(?=é)", #"\b"#, "$", #"(?=\w\w)"#, #"\z"#, #"\Z"#, "(?!x)",
  ]
  /// Lines of every kind (CR LF, CR, VT, NEL, LS), ill-formed bytes (ICU reads U+FFFD, RE2 does
  /// not match them), characters that fold to several without case.
  static let pieces: [[UInt8]] =
    [
      "12 ab", "x", " ", "\n", "\r\n", "\r", "é", "\u{0B}", "\u{85}", "AB", "abc", ".,", "\u{2028}", "ß", "\u{212A}",
      "3",
      "ab", "xx", "É", "the", "\t",
    ].map { Array($0.utf8) } + [[0xFF], [0xC3]]

  @Test("random look-around patterns on random texts: the relaxed path equals ICU line by line")
  func randomPatterns() throws {
    let seed = SeededRandom.seedFromEnvironment()
    var random = SeededRandom(seed: seed)
    var relaxed = 0
    for _ in 0..<600 {
      var source = Self.behind.randomElement(using: &random)! + Self.cores.randomElement(using: &random)!
      if Bool.random(using: &random) {
        source += Self.middles.randomElement(using: &random)! + Self.cores.randomElement(using: &random)!
      }
      source += Self.ahead.randomElement(using: &random)!
      var text: [UInt8] = []
      for _ in 0..<Int.random(in: 0..<50, using: &random) { text += Self.pieces.randomElement(using: &random)! }
      let pattern = Pattern.regex(
        source, ignoreCase: Int.random(in: 0..<4, using: &random) == 0,
        wholeWord: Int.random(in: 0..<4, using: &random) == 0)
      let fast = try PatternMatcher(pattern)
      if case .regex(let search) = fast.engine, case .relaxed = search.mode { relaxed += 1 }
      let plain = try PatternMatcher(pattern, strategy: .icu).matches(in: ByteStorage(text))
      #expect(try fast.matches(in: ByteStorage(text)) == plain, "\(pattern) on \(text), seed \(seed)")
      // A range with parts of lines at its edges (a line of its own to the search: `^` and `$`
      // match there).
      let lo = Int.random(in: 0...text.count, using: &random)
      let hi = Int.random(in: lo...text.count, using: &random)
      #expect(
        try fast.matches(in: ByteStorage(text), range: lo..<hi)
          == PatternMatcher(pattern, strategy: .icu).matches(in: ByteStorage(text), range: lo..<hi),
        "\(pattern) on \(text) in \(lo)..<\(hi), seed \(seed)")
      // From an offset inside the text, and the first match only, as `find -m 1` asks.
      let from = text.isEmpty ? 0 : Int.random(in: 0..<text.count, using: &random)
      var first: Range<Int>? = nil
      try fast.forEachMatch(in: ByteStorage(text), range: from..<text.count) { m in
        first = m
        return false
      }
      var plainFirst: Range<Int>? = nil
      try PatternMatcher(pattern, strategy: .icu).forEachMatch(in: ByteStorage(text), range: from..<text.count) { m in
        plainFirst = m
        return false
      }
      #expect(first == plainFirst, "\(pattern) on \(text) from \(from), seed \(seed)")
    }
    #expect(relaxed > 250, "seed \(seed)")
  }

  @Test("a filter that names most lines gives way to every line searched: the same matches")
  func mostLinesNamed() throws {
    let seed = SeededRandom.seedFromEnvironment()
    var random = SeededRandom(seed: seed)
    // Past the trial (64 KB): lines of prose, numbers and ill-formed bytes.
    var text: [UInt8] = []
    while text.count < 3 * RegexSearch.relaxedTrial {
      for _ in 0..<Int.random(in: 1..<12, using: &random) { text += Self.pieces.randomElement(using: &random)! }
      text += Array("\n".utf8)
    }
    for source in [#"(?<![a-z])[a-z]+"#, #"(?<=\d\s)[a-z]+"#, #"\w+(?!\w)"#, #"(?<=b)\S"#] {
      let pattern = Pattern.regex(source)
      let fast = try PatternMatcher(pattern)
      guard case .regex(let search) = fast.engine, case .relaxed = search.mode else {
        Issue.record("\(source) not on the relaxed path")
        continue
      }
      let plain = try PatternMatcher(pattern, strategy: .icu).matches(in: ByteStorage(text))
      #expect(try fast.matches(in: ByteStorage(text)) == plain, "\(source), seed \(seed)")
      #expect(!plain.isEmpty)
    }
  }

  @Test("a pattern with a look-around and no literal: RE2 picks the lines, ICU searches them")
  func relaxedMode() throws {
    let matcher = try PatternMatcher(.regex(#"(?<=\d\s)[a-z]+"#))
    guard case .regex(let search) = matcher.engine, case .relaxed(let filter) = search.mode else {
      Issue.record("not searched on the relaxed form's lines")
      return
    }
    #expect(filter.regex.linear != nil)
    let text = "no digits here\n3 apples and 4 pears\nnone\n12 x\n"
    let found = try matcher.matches(in: ByteStorage(text)).map {
      String(text.utf8.dropFirst($0.lowerBound).prefix($0.count))!
    }
    #expect(found == ["apples", "pears", "x"])
    // Only the two lines RE2 names reach ICU, in a range ending at a line's start too (a slice of
    // a count on several threads), not every line of it.
    let before = search.regex.icuRegions
    let cut = text.utf8.count - "12 x\n".utf8.count
    #expect(try matcher.matches(in: ByteStorage(text), range: 0..<cut).count == 2)
    #expect(search.regex.icuRegions - before == 1, "one line: the second")
  }
}
