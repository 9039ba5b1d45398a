import Testing
import TextRotorICU

@testable import TextRotor

/// Patterns of one-character items matched at an occurrence of their leading literal without ICU
/// (``ASCIISequence``), against ICU itself.
@Suite("Matching: sequences of one-character items matched on ASCII")
struct ASCIISequenceTests {
  static let literalItems = ["t", "h", "e", " ", "a", "b", #"\."#, "-", "0", "_"]
  static let atomItems = [
    "[a-z]", #"\w"#, #"\d"#, #"\s"#, ".", "[^a]", #"\W"#, "[A-Z_]", "[ab]", #"\S"#, #"\D"#, "[a-c ]", #"\x41"#,
    #"\p{Lu}"#, "é",
  ]
  static let quantifiers = ["", "", "", "?", "*", "+", "{2}", "{1,3}", "{0,2}", "{2,}"]
  static let pieces = [
    "a", "b", "A", "B", "the", "THE", "The", " ", "  ", "\t", "0", "12", "-", ".", "_", "é", "\n", "\r\n", "\r",
    "\u{0B}", "\u{212A}", "ſ", "x", "ab", "aab", "hee",
  ]

  static func randomItems(_ n: Int, using random: inout SeededRandom) -> String {
    (0..<n).map { _ in
      let atom =
        Bool.random(using: &random)
        ? literalItems.randomElement(using: &random)! : atomItems.randomElement(using: &random)!
      return atom + quantifiers.randomElement(using: &random)!
    }.joined()
  }

  static func sequence(_ source: String, caseless: Bool) throws -> ASCIISequence? {
    try ASCIISequence(source, options: caseless ? [.multiline, .caseInsensitive] : [.multiline], timeLimit: 0)
  }

  @Test("at every ASCII start, a match is ICU's match from there, none is none, or it is left to ICU")
  func randomStarts() throws {
    let seed = SeededRandom.seedFromEnvironment()
    var random = SeededRandom(seed: seed)
    var decided = 0
    var matched = 0
    var unknown = 0
    for _ in 0..<600 {
      let caseless = Bool.random(using: &random)
      let source = Self.randomItems(Int.random(in: 1...5, using: &random), using: &random)
      guard let sequence = try Self.sequence(source, caseless: caseless) else { continue }
      let text = (0..<Int.random(in: 0..<30, using: &random)).map { _ in Self.pieces.randomElement(using: &random)! }
        .joined()
      let bytes = ByteStorage(text)
      var options: RegularExpression.Options = [.multiline]
      if caseless { options.insert(.caseInsensitive) }
      let regex = try RegularExpression(source, options: options)
      try regex.setText(bytes)
      for start in 0..<bytes.count where bytes[start] < 0x80 && bytes[start] != 0x0A && bytes[start] != 0x0D {
        var lineEnd = start
        while lineEnd < bytes.count && bytes[lineEnd] != 0x0A && bytes[lineEnd] != 0x0D { lineEnd += 1 }
        try regex.setRegion(start..<lineEnd)
        let first = try regex.next()
        let expected: ASCIISequence.Outcome =
          first.map { $0.lowerBound == start ? .match(end: $0.upperBound) : .none } ?? .none
        let outcome = sequence.match(bytes, at: start, limit: bytes.count)
        if outcome == .unknown {
          unknown += 1
          continue
        }
        decided += 1
        if case .match = outcome { matched += 1 }
        #expect(
          outcome == expected,
          "\(source)\(caseless ? " (-i)" : "") at \(start) of \(text.debugDescription), seed \(seed)")
      }
    }
    // Most starts are decided here (unknown: a non-ASCII character or a VT on the way).
    #expect(decided > 3 * unknown && matched > 500, "seed \(seed): \(decided) decided, \(unknown) unknown")
  }

  @Test(
    "patterns that are not such sequences, or not safely so without case",
    arguments: [
      ("a+?b", false), ("ab++", false), ("(ab)c", false), ("a|b", false), (#"\bab"#, false), ("ab$", false),
      ("(?<=a)b", false), (#"a\1"#, false), ("(?i)ab", false), (#"\Qa\E"#, false), ("", false),
      ("straße", true), (#"stra\x{DF}e"#, true), (#"stra\u00DFe"#, true), ("a[^b]", true), (#"a\p{L}"#, true),
      (#"a\N{LATIN SMALL LETTER SHARP S}"#, true), (#"a[\x{DF}]"#, true), ("naïve", false),
    ] as [(String, Bool)])
  func refused(source: String, caseless: Bool) {
    #expect(ASCIISequence.items(of: source, caseless: caseless) == nil)
  }

  @Test("accepted sequences: literals, atoms and greedy repeats")
  func accepted() throws {
    let items = try #require(ASCIISequence.items(of: #"the [a-z]+ \d{2,3}x?"#, caseless: true))
    #expect(items.count == 8)
    #expect(items[4].atom == .source("[a-z]") && items[4].min == 1 && items[4].max == nil)
    #expect(items[6].atom == .source(#"\d"#) && items[6].min == 2 && items[6].max == 3)
    #expect(items[7].atom == .ascii(UInt8(ascii: "x")) && items[7].min == 0 && items[7].max == 1)
    #expect(ASCIISequence.items(of: #"a\x{E9}\p{L}"#, caseless: false)?.count == 3)
  }

  @Test("a search that would take too many steps is left to ICU, which finds the same")
  func budget() throws {
    let source = "ab*b*b*b*b*c"
    let text = "a" + String(repeating: "b", count: 60) + "d\n"
    let sequence = try #require(try Self.sequence(source, caseless: false))
    #expect(sequence.match(ByteStorage(text), at: 0, limit: text.utf8.count) == .unknown)
    #expect(sequence.match(ByteStorage("abbc"), at: 0, limit: 4) == .match(end: 4))
    let pattern = Pattern.regex(source)
    #expect(
      try PatternMatcher(pattern).matches(in: ByteStorage(text + "abbbc"))
        == matches(pattern, text + "abbbc", strategy: .icu))
    // Many such starts: the search stops matching here (its ``RegexSearch/sequenceCredit`` spent)
    // and finds the rest in its windows alone, the same matches.
    for caseless in [false, true] {
      let line = "ab" + String(repeating: "x", count: 40) + " abxxc ab" + String(repeating: "y", count: 10) + "c\n"
      let long = String(repeating: line, count: 60)
      let pattern = Pattern.regex("ab[a-z]*[a-z]*[a-z]*c", ignoreCase: caseless)
      let matcher = try PatternMatcher(pattern)
      let found = try matcher.matches(in: ByteStorage(long))
      guard case .regex(let search) = matcher.engine, case .anchored(let anchors, _, _) = search.mode else {
        Issue.record("not searched in windows")
        return
      }
      #expect(anchors[0].sequence != nil && search.sequenceCredit <= 0)
      #expect(found.count == 120)
      #expect(found == (try matches(pattern, long, strategy: .icu)))
    }
  }

  @Test("a visitor resuming inside a match is given the matches starting there")
  func resumeInsideMatch() throws {
    let bytes = ByteStorage("ababab x abab\n")
    let fast = try PatternMatcher(Pattern.regex("ab[ab]+"))
    guard case .regex(let search) = fast.engine, case .anchored(let anchors, _, _) = search.mode else {
      Issue.record("not searched in windows")
      return
    }
    #expect(anchors[0].sequence != nil)
    var found: [Range<Int>] = []
    try search.run(bytes, range: 0..<bytes.count) { m throws(ICUError) in
      found.append(m)
      return .resume(m.lowerBound + 1)
    }
    #expect(found == [0..<6, 2..<6, 9..<13])
  }

  @Test(
    "starts before the literal: right after an occurrence that had none, and next to a window ICU still searches",
    arguments: [
      // The literal (`ab`) at 0 has no match; one starts right after it and holds the next one.
      (#"b[a-z]ab"#, "abcab\n", [1..<5]),
      // `é` leaves the first occurrence to ICU, whose window the next one's start would reach into:
      // one match, not a window's and another.
      (#"\w+ing"#, "éaingbing xingy\n", [0..<10, 11..<15]),
      (#"[a-z]+ing"#, "singing bring thing-ing\n", [0..<7, 8..<13, 14..<19]),
    ] as [(String, String, [Range<Int>])])
  func startsBeforeLiteral(source: String, text: String, expected: [Range<Int>]) throws {
    for caseless in [false, true] {
      let pattern = Pattern.regex(source, ignoreCase: caseless)
      let found = try PatternMatcher(pattern).matches(in: ByteStorage(text))
      #expect(found == expected, "\(pattern)")
      #expect(found == (try matches(pattern, text, strategy: .icu)), "\(pattern)")
    }
  }

  @Test("random sequences around a literal, with and without case, -w or not: the search equals ICU line by line")
  func randomSearches() throws {
    let seed = SeededRandom.seedFromEnvironment()
    var random = SeededRandom(seed: seed)
    let literals = ["the ", "ab", "hee", "a.b", "-0-", "THE", "_a"]
    var sequences = 0
    for _ in 0..<800 {
      let literal = literals.randomElement(using: &random)!
      let source =
        Self.randomItems(Int.random(in: 0...2, using: &random), using: &random)
        + literal.map { ".+*?()[]{}\\|^$".contains($0) ? "\\\($0)" : "\($0)" }.joined()
        + Self.randomItems(Int.random(in: 0...4, using: &random), using: &random)
      let text = (0..<Int.random(in: 0..<80, using: &random)).map { _ in Self.pieces.randomElement(using: &random)! }
        .joined()
      let pattern = Pattern.regex(
        source, ignoreCase: Bool.random(using: &random), wholeWord: Bool.random(using: &random))
      let fast = try PatternMatcher(pattern)
      if case .regex(let search) = fast.engine, case .anchored(let anchors, _, _) = search.mode,
        anchors[0].sequence != nil
      {
        sequences += 1
      }
      let plain = try matches(pattern, text, strategy: .icu)
      let bytes = ByteStorage(text)
      #expect(try fast.matches(in: bytes) == plain, "\(pattern) on \(text.debugDescription), seed \(seed)")
      // A visitor resuming right after each match's first character (as `-w` does after a rejected
      // candidate) is given the matches starting inside the one before it too.
      guard case .regex(let search) = fast.engine else { continue }
      var options: RegularExpression.Options = [.multiline]
      if pattern.ignoreCase { options.insert(.caseInsensitive) }
      let reference = RegexSearch(try RegularExpression(source, options: options), mode: .lineByLine)
      func overlapping(_ search: RegexSearch) throws -> [Range<Int>] {
        var found: [Range<Int>] = []
        try search.run(bytes, range: 0..<bytes.count) { m throws(ICUError) in
          found.append(m)
          return .resume(LineBounds.nextCharacter(after: m.lowerBound, in: bytes, limit: bytes.count))
        }
        return found
      }
      #expect(
        try overlapping(search) == overlapping(reference), "\(pattern) on \(text.debugDescription), seed \(seed)")
    }
    #expect(sequences > 200, "seed \(seed)")
  }
}
