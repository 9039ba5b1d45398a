import Testing
import TextRotorICU

@testable import TextRotor

/// The anchored regex path (ICU run only on windows around a required literal) against the plain
/// ICU path (every line on its own), on many patterns and random texts.
@Suite("Matching: regexes searched around a required literal")
struct RegexAnchorTests {
  @Test(
    "the anchor of a pattern: its literal and what may stand before and after it",
    arguments: [
      (#"\w+tion\b"#, "tion", [#"\w"#], []),
      (#"[a-z]+ing"#, "ing", ["[a-z]"], []),
      (#"\w+ the \w+"#, " the ", [#"\w"#], [#"\w"#]),
      (#"Linux \w+"#, "Linux ", [], [#"\w"#]),
      (#"ab+c"#, "ab", [], ["c", "b"]),
      (#"(x|yz)*foo\d{2,}"#, "foo", ["x", "y", "z"], [#"\d"#]),
      (#"(?<=a)foo(?!b)"#, "afoo", [], []),
      // A literal look-behind that begins the pattern, a literal look-ahead that ends it: their
      // characters are read as consumed, and may be the anchor.
      (#"(?<=the )\w+"#, "the ", [], [#"\w"#]),
      (#"\d+(?= dollars)"#, " dollars", [#"\d"#], []),
      (#"(?<=x)\w+(?=ing\.)"#, "ing.", ["x", #"\w"#], []),
      (#"\w+(?=ab)c"#, "c", [#"\w"#], []),
      // Any plain sequence in that look-around: classes, quantifiers, groups, word boundaries.
      (#"(?<=,\s)[a-z]+"#, ",", [], [#"\s"#, "[a-z]"]),
      (#"\w+(?=\s+of\b)"#, "of", [#"\w"#, #"\s"#], []),
      (#"(?<=\bthe\s{1,2})\w+"#, "the", [], [#"\s"#, #"\w"#]),
      (#"(?<=(?:ab)?x\d)\w+"#, "x", ["a", "b"], [#"\d"#, #"\w"#]),
      (#"\p{Lu}\p{Ll}+ing"#, "ing", [#"\p{Lu}"#, #"\p{Ll}"#], []),
    ] as [(String, String, [String], [String])])
  func anchor(pattern: String, literal: String, before: [String], after: [String]) throws {
    let anchor = try #require(LiteralAnchor.of(pattern))
    #expect(anchor.literal == literal)
    #expect(anchor.before == before)
    #expect(anchor.after == after)
  }

  @Test(
    "patterns without a provable anchor",
    arguments: [
      #"(?<!the )\w+"#, #"(?<=a|b)\w+"#, #"(?<=\w)\d+"#, #"(?<=(?!a)b)\w+"#, #"(?<=\w\1)x?"#, #"\w+(?=a)(?<=the)"#,
      #"(?<=a*)\w"#, "a|b", "(?i)abc",
      #"\Qabc\E"#, #"\w+"#, "x?y?", "(foo)bar(", #"\b{w}foo"#, #"\Gfoo"#, #"x(?i:a)foo"#,
    ])
  func noAnchor(pattern: String) {
    #expect(LiteralAnchor.of(pattern) == nil)
  }

  @Test("a set holding \\c] ends at the next ]: its atom is the whole set")
  func controlEscapeInSet() throws {
    let text = "x\u{1D}]foo x]foo\n"
    for source in [#"[\c]]foo"#, #"[\c]x]+foo"#] {
      let p = Pattern.regex(source)
      #expect(try PatternMatcher(p).matches(in: ByteStorage(text)) == matches(p, text, strategy: .icu), "\(source)")
    }
  }

  @Test("unknown atoms stretch a window over the whole line")
  func unknownAtoms() throws {
    let anchor = try #require(LiteralAnchor.of(#"(\w)\1foo\X"#))
    #expect(anchor.before == nil && anchor.after == nil)
  }

  @Test("byte classes: ASCII as ICU says, non-ASCII only when an atom may match it")
  func byteClasses() throws {
    let word = try ByteClass([#"\w"#], options: [.multiline], timeLimit: 100)
    #expect(word.contains(UInt8(ascii: "a")) && word.contains(UInt8(ascii: "_")) && !word.contains(UInt8(ascii: " ")))
    #expect(word.contains(0xC3))
    let lower = try ByteClass(["[a-z]"], options: [.multiline], timeLimit: 100)
    #expect(lower.contains(UInt8(ascii: "q")) && !lower.contains(UInt8(ascii: "Q")) && !lower.contains(0xC3))
    let folded = try ByteClass(["[a-z]"], options: [.multiline, .caseInsensitive], timeLimit: 100)
    #expect(folded.contains(UInt8(ascii: "Q")) && folded.contains(0xE2))  // K (Kelvin) is E2 84 AA
    let dot = try ByteClass(["."], options: [.multiline], timeLimit: 100)
    #expect(!dot.contains(0x0A) && !dot.contains(0x0D) && dot.contains(0x09))
  }

  static let prefixes = [
    #"\w+"#, "[a-z]+", #"\w*"#, #"\d+"#, ".", "[^ ]+", #"\s"#, "(ab|c)+", #"\b"#, "x?", "é+", #"\p{L}+"#, "[A-Z]",
    "(?<=a)", "(?<!the )", #"(?<!\w)"#, #"(?!\w)"#, "(?<=the )", "(?<=é)", #"(?<=a\.)"#, "a{2,}", "", #"\S+?"#,
    "(?:the )?", #"[\w&&[^e]]+"#, #"(?<=,\s)"#, #"(?<=\bthe\s?)"#, #"(?<=[a-z]{2}\.)"#, #"(?<=(?:ab){1,2}x)"#,
    "[é-ë]", "a", #"\."#, #"(?=\w)"#,
  ]
  static let literals = ["tion", "ab", "aa", "the", " the ", "é", "ing", "foo", "a.b", "ﬁ", ".", "@"]
  static let suffixes = [
    #"\b"#, #"\w+"#, "", "s?", "[a-z]*", #"\d{2}"#, "$", "(?!a)", ".", "é", "b+", #"\p{Ll}*"#, "(ing|ed)", " ", "a*?",
    "(?= )", "(?=ing)", #"(?!\w)"#, #"(?=\w\w)"#, #"(?=\s+the\b)"#, #"(?=[.,]\s)"#, #"(?=é?ing)"#,
    #"\s[a-z]+"#, #"(?=\s\w)"#, #"[a-z]\d"#,
  ]
  static let pieces = [
    "attention", "ab", "aaa", "the", " ", " the ", "\n", "\r\n", "\r", "é", "ë", "ing", "foo", "x", "12", "ABC",
    "ﬁ", "\u{212A}", "a.b", "tion", "Z", "\t", "théé", "ß", "42", "1.2", ".", "3@4", "@",
  ]

  @Test("random patterns on random texts: the anchored path equals ICU line by line")
  func randomPatterns() throws {
    let seed = SeededRandom.seedFromEnvironment()
    var random = SeededRandom(seed: seed)
    var anchored = 0
    for _ in 0..<400 {
      let source =
        Self.prefixes.randomElement(using: &random)! + Self.prefixes.randomElement(using: &random)!
        + Self.literals.randomElement(using: &random)!.map { ".+*?()[]{}\\|^$".contains($0) ? "\\\($0)" : "\($0)" }
        .joined() + Self.suffixes.randomElement(using: &random)!
      let text = (0..<Int.random(in: 0..<60, using: &random)).map { _ in Self.pieces.randomElement(using: &random)! }
        .joined()
      let word = Bool.random(using: &random)
      let pattern = Pattern.regex(source, wholeWord: word)
      let fast = try PatternMatcher(pattern)
      if case .regex(let search) = fast.engine, case .anchored = search.mode { anchored += 1 }
      let plain = try matches(pattern, text, strategy: .icu)
      #expect(try fast.matches(in: ByteStorage(text)) == plain, "\(pattern) on \(text.debugDescription), seed \(seed)")
    }
    #expect(anchored > 200, "seed \(seed)")
  }

  @Test("random alternations on random texts: the anchored path equals ICU line by line")
  func randomAlternations() throws {
    let seed = SeededRandom.seedFromEnvironment()
    var random = SeededRandom(seed: seed)
    var anchored = 0
    for _ in 0..<300 {
      let branches = (0..<Int.random(in: 2...3, using: &random)).map { _ in
        Self.prefixes.randomElement(using: &random)!
          + Self.literals.randomElement(using: &random)!.map { ".+*?()[]{}\\|^$".contains($0) ? "\\\($0)" : "\($0)" }
          .joined() + Self.suffixes.randomElement(using: &random)!
      }
      let source = branches.joined(separator: "|")
      let text = (0..<Int.random(in: 0..<60, using: &random)).map { _ in Self.pieces.randomElement(using: &random)! }
        .joined()
      let pattern = Pattern.regex(source, wholeWord: Bool.random(using: &random))
      let fast = try PatternMatcher(pattern)
      if case .regex(let search) = fast.engine, case .anchored(let anchors, _, _) = search.mode, anchors.count > 1 {
        anchored += 1
      }
      let plain = try matches(pattern, text, strategy: .icu)
      #expect(try fast.matches(in: ByteStorage(text)) == plain, "\(pattern) on \(text.debugDescription), seed \(seed)")
    }
    #expect(anchored > 100, "seed \(seed)")
  }

  /// Texts for `-i`: case variants of the literals, and characters whose full case folding is
  /// ASCII (`ß` = `ss`, `ſ` = `s`, `K` = `k`, `ﬁ` = `fi`, `İ` = `i̇`), which ICU matches without case.
  static let caselessPieces =
    pieces + [
      "TION", "Tion", "AB", "aB", "THE", "The", " THE ", "ING", "FOO", "fOo", "A.B", "SS", "ss", "ſ", "ſt", "ﬅ", "İ",
      "ẞ", "FI", "fi", "É", "\u{212A}B", "K", "k", "Ss", "CIÓN", "ción", "Ción", "σ", "Σ", "ς", "ω", "\u{2126}", "Ω",
      "ΐ", "ﬀ", "ÉTÉ", "été",
    ]

  @Test("random patterns without case on random texts: the anchored path equals ICU line by line")
  func randomCaselessPatterns() throws {
    let seed = SeededRandom.seedFromEnvironment()
    var random = SeededRandom(seed: seed)
    var anchored = 0
    var variants = 0
    let literals = Self.literals + ["ss", "st", "fi", "k", "ik", "ción", "ÉTÉ", "σω", "xΣ", "ωk"]
    let prefixes = Self.prefixes + [#"\p{Ll}+"#, "[a-z]{2}", "[S]", "s", "[^x]"]
    for _ in 0..<800 {
      let source =
        prefixes.randomElement(using: &random)! + prefixes.randomElement(using: &random)!
        + literals.randomElement(using: &random)!.map { ".+*?()[]{}\\|^$".contains($0) ? "\\\($0)" : "\($0)" }
        .joined() + Self.suffixes.randomElement(using: &random)!
      let text = (0..<Int.random(in: 0..<60, using: &random)).map { _ in
        Self.caselessPieces.randomElement(using: &random)!
      }.joined()
      let pattern = Pattern.regex(source, ignoreCase: true, wholeWord: Bool.random(using: &random))
      let fast = try PatternMatcher(pattern)
      if case .regex(let search) = fast.engine, case .anchored(_, _, let ascii) = search.mode {
        anchored += 1
        if !ascii { variants += 1 }
      }
      let plain = try matches(pattern, text, strategy: .icu)
      #expect(try fast.matches(in: ByteStorage(text)) == plain, "\(pattern) on \(text.debugDescription), seed \(seed)")
    }
    #expect(anchored > 150 && variants > 20, "seed \(seed)")
  }

  @Test(
    "without case, a pattern spelling a character that folds to several ASCII ones is not searched in windows",
    arguments: [
      #"ß?foo"#, #"ß?éfoo"#, #"ﬁ*cíon"#, #"\u00DF?éfoo"#, #"ﬁ*tion"#, #"\u00DF?foo"#, #"\x{DF}?foo"#,
      #"[\N{LATIN SMALL LETTER SHARP S}]?foo"#,
    ])
  func caselessWindowsRefused(source: String) throws {
    let fast = try PatternMatcher(.regex(source, ignoreCase: true))
    if case .regex(let search) = fast.engine, case .anchored = search.mode {
      Issue.record("\(source) searched in windows")
    }
    // ICU lets ß match "SS" without case: the match starts before the literal's window.
    let text = "xSSfoo SSÉfoo SStion ﬁtion fitions FIcíon\n"
    #expect(try fast.matches(in: ByteStorage(text)) == matches(.regex(source, ignoreCase: true), text, strategy: .icu))
  }

  @Test(
    "without case, an ASCII literal's windows: case variants found, the runs around exceptions searched by ICU, as ICU")
  func caselessWindows() throws {
    let text = "The THE the tHe\nthe ſtate of the ꜱ\nKILO \u{212A}ilo kilo\nnothing here\nTHE\tX, ſt,\u{212A}\n"
    for source in [
      #"(?<=the )\w+"#, #"\w+(?= of)"#, #"\w*ilo\b"#, #"st\w+"#, #"(?<=the\s)\w+"#, #"(?<=,\s?)[a-z]+"#,
    ] {
      let pattern = Pattern.regex(source, ignoreCase: true)
      let fast = try PatternMatcher(pattern)
      guard case .regex(let search) = fast.engine, case .anchored(_, _, foldingExceptions: true) = search.mode else {
        Issue.record("\(source) not searched in windows")
        continue
      }
      let plain = try matches(pattern, text, strategy: .icu)
      #expect(try fast.matches(in: ByteStorage(text)) == plain, "\(source)")
      #expect(!plain.isEmpty, "\(source)")
    }
  }

  @Test("a look-around holding U+FFFD reads an ill-formed byte as U+FFFD: it is no anchor, and matches there")
  func replacementCharacterInLookAround() throws {
    for (source, bytes) in [
      ("a(?=\u{FFFD})", [0x61, 0xFF, 0x0A]), ("(?<=\u{FFFD})b", [0xFF, 0x62, 0x0A]),
      ("(?<=x\u{FFFD})ab", [0x78, 0xFF, 0x61, 0x62, 0x0A]), ("(?<=\u{FFFD})", [0xFF, 0x62, 0x0A]),
    ] as [(String, [UInt8])] {
      let fast = try PatternMatcher(.regex(source)).matches(in: ByteStorage(bytes))
      let plain = try PatternMatcher(.regex(source), strategy: .icu).matches(in: ByteStorage(bytes))
      #expect(fast == plain && !fast.isEmpty, "\(source): \(fast) vs \(plain)")
    }
  }

  @Test("alternatives whose windows reach back over an earlier one keep the matches in order")
  func alternativesReachingBack() throws {
    for (source, text) in [
      (#"ab|\w+#"#, "xabyabz# ab"), (#"@|\w+#"#, "a@b@c# a@@#\n@#"), (#"(ab|c)+d|\w+e"#, "abcde cd e"),
      ("Linux|Debian", "Debian Linux LinuxDebian"),
    ] {
      #expect(try matches(.regex(source), text) == matches(.regex(source), text, strategy: .icu), "\(source)")
    }
  }

  @Test("a punctuation literal with digits around it: occurrences without them are skipped, matches kept")
  func punctuation() throws {
    let text = "Version 1.2.3.4 of 10.0.3.17. End. 1.2\n.5 x. 192.168.0.1"
    let pattern = Pattern.regex(#"\d+\.\d+\.\d+\.\d+"#)
    let fast = try PatternMatcher(pattern)
    guard case .regex(let search) = fast.engine, case .anchored = search.mode else {
      Issue.record("not searched around '.'")
      return
    }
    #expect(try fast.matches(in: ByteStorage(text)) == matches(pattern, text, strategy: .icu))
    #expect(try fast.matches(in: ByteStorage(text)).count == 3)
  }

  @Test("many occurrences on one long line (runs remembered between occurrences)")
  func longLine() throws {
    let text = String(repeating: "xfoo yfoo 12.34 ", count: 2000) + "\n" + String(repeating: "a.b@c ", count: 500)
    for source in [".*foo", #"\w+foo\w*"#, #"[^ ]+@\w"#, #"\d+\.\d+"#, "foo|y.", #"\S+\.\S+"#] {
      #expect(try matches(.regex(source), text) == matches(.regex(source), text, strategy: .icu), "\(source)")
    }
  }

  @Test("a \\b next to the literal rejects occurrences inside words without ICU, and only those")
  func boundaries() throws {
    #expect(LiteralAnchor.of(#"\w+tion\b"#)?.boundaryAfter == true)
    #expect(LiteralAnchor.of(#"\bfoo"#)?.boundaryBefore == true)
    #expect(LiteralAnchor.of(#"(?<!\w)the(?!\w)"#).map { [$0.noWordBefore, $0.noWordAfter] } == [true, true])
    #expect(LiteralAnchor.of(#"(?!\w)the(?<!\w)"#).map { [$0.noWordBefore, $0.noWordAfter] } == [false, false])
    #expect(LiteralAnchor.of(#"(?<!\w\w)the+(?!\w)"#).map { [$0.noWordBefore, $0.noWordAfter] } == [false, false])
    #expect(LiteralAnchor.of(#"ab+\b"#)?.boundaryAfter == false)
    #expect(LiteralAnchor.of(#"foo\b?"#)?.boundaryAfter == false)
    let text = "nation nations national nation_ nation. nation\u{301}x émotion émotionné tion\ntion1 (tion)"
    for source in [#"\w+tion\b"#, #"\btion"#, #"\btion\b"#, #"\b\w*tion\b\W"#, #"\Btion\b"#] {
      #expect(try matches(.regex(source), text) == matches(.regex(source), text, strategy: .icu), "\(source)")
    }
  }

  @Test("a match holding the literal twice is found whole (greedy prefix over later occurrences); \\G stays with ICU")
  func repeatedLiteral() throws {
    for (source, text) in [
      (#"\Gfoo"#, "foofoo xfoo\nfoo"), (#"(?:\Gfoo)+|bar"#, "foofoo bar foo"),
      (#"\w+tion"#, "ationtion attention\nxtiontiontion"), ("a+aa", "aaaaa b aa aaa"), (#"\w+ab\w*"#, "ababab abab"),
      (#"[a-z]+ing\b"#, "singing ringing bring"),
    ] {
      #expect(try matches(.regex(source), text) == matches(.regex(source), text, strategy: .icu), "\(source)")
    }
  }
}

@Suite("Matching: counting on several threads")
struct ParallelCountTests {
  @Test("a count over line-aligned slices equals the count on one thread", arguments: [1, 2, 3, 5])
  func slices(threads: Int) throws {
    let seed = SeededRandom.seedFromEnvironment()
    var random = SeededRandom(seed: seed)
    // An ill-formed byte among them: a pattern holding U+FFFD checks it again on ICU.
    let pieces =
      ["attention", " the ", "\n", "\r\n", "é", "nation", "x", "12", "\u{FFFD}"].map { Array($0.utf8) } + [[0xFF]]
    var text: [UInt8] = []
    while text.count < 30_000 {
      text += pieces.randomElement(using: &random)!
    }
    let bytes = ByteStorage(text)
    // Literals, and regexes on each engine and path (each thread's matcher is a copy of the first).
    for pattern in [
      Pattern.literal("tion"), .regex(#"\w+tion\b"#), .literal("THE", ignoreCase: true, wholeWord: true),
      .regex(#"\w+tion"#, wholeWord: true), .regex(#"(?<=at)t\w+"#), .regex(#"(t)\1"#),
      .regex(#"\w+ION"#, ignoreCase: true),
      .regex("x\u{FFFD}?"), .regex(#"\p{L}+"#),
    ] {
      let matcher = try PatternMatcher(pattern)
      #expect(
        try matcher.count(in: bytes, range: nil, threads: threads, minimumSlice: 5000) == matcher.count(in: bytes),
        "\(pattern), seed \(seed)")
      let range = 17..<(bytes.count - 5)
      #expect(
        try matcher.count(in: bytes, range: range, threads: threads, minimumSlice: 5000)
          == matcher.count(in: bytes, range: range))
    }
  }

  @Test("a time-out on another thread is reported")
  func error() throws {
    // Each line holds an `ac`, so that RE2 (searching the pattern without its look-ahead) gives
    // every line to ICU, which times out on the run of a's not followed by c.
    let line = String(repeating: "a", count: 30) + "b ac\n"
    let bytes = ByteStorage(String(repeating: line, count: 300))
    var pattern = Pattern.regex("(a+)+(?=c)")
    pattern.timeLimit = 1
    #expect(throws: ICUError.self) {
      try PatternMatcher(pattern).count(in: bytes, range: nil, threads: 3, minimumSlice: 1000)
    }
  }
}

@Suite("Byte search: several literals in one pass")
struct BytePatternSetTests {
  @Test("the first occurrence of any of 1-8 literals equals the earliest of the searches one by one")
  func randomSets() throws {
    let seed = SeededRandom.seedFromEnvironment()
    var random = SeededRandom(seed: seed)
    let alphabet: [UInt8] = Array("aAbB \n".utf8) + [0xD0, 0xD1, 0x84, 0xB0, 0xCE, 0x9A]
    for round in 0..<300 {
      // Every fourth text long enough for the kernel's 64-byte blocks.
      let length = Int.random(in: 0..<(round % 4 == 0 ? 1200 : 200), using: &random)
      let text = (0..<length).map { _ in alphabet.randomElement(using: &random)! }
      let bytes = ByteStorage(text)
      // Half the time of one length (the kernel then compares every pattern at shared offsets).
      let oneLength = Bool.random(using: &random) ? Int.random(in: 1...5, using: &random) : nil
      let patterns = (0..<Int.random(in: 1...8, using: &random)).map { _ in
        BytePattern(
          (0..<(oneLength ?? Int.random(in: 1...5, using: &random))).map { _ in alphabet.randomElement(using: &random)!
          },
          asciiCaseInsensitive: Bool.random(using: &random))
      }
      let set = BytePatternSet(patterns)
      var from = 0
      while from <= bytes.count {
        let range = from..<bytes.count
        let each = patterns.indices.compactMap { k in bytes.firstIndex(of: patterns[k], in: range).map { ($0, k) } }
        let expected = each.min { $0.0 < $1.0 || ($0.0 == $1.0 && $0.1 < $1.1) }
        let got = bytes.firstIndex(ofAny: set, in: range)
        #expect(got?.offset == expected?.0 && got?.pattern == expected?.1, "seed \(seed)")
        from += Int.random(in: 1...40, using: &random)
      }
      // Every start of any of them (overlapping ones too), a few at a time.
      let model = (0..<bytes.count).filter { o in patterns.contains { bytes.hasPrefix($0, at: o, limit: bytes.count) } }
      var all: [Int] = []
      var position = 0
      while position < bytes.count {
        let before = all.count
        position = bytes.occurrences(
          ofAny: set, in: position..<bytes.count, limit: Int.random(in: 1...4, using: &random), into: &all)
        if all.count == before && position < bytes.count { break }
      }
      #expect(all == model, "seed \(seed)")
    }
  }
}
