import Foundation
import Testing

@testable import TextRotor
@testable import TextRotorICU

/// RE2 as the engine of the regexes that mean the same there as in ICU (``RE2Translation``,
/// ``RegexEngine``): the translation, the sets ICU gives each class, random patterns over every
/// corpus against the plain ICU path, catastrophic patterns, and the regions left to ICU.
@Suite("Matching: RE2 for the patterns that mean the same there")
struct RE2EngineTests {
  func engine(_ p: Pattern, strategy: PatternMatcher.Strategy = .automatic) throws -> RegexEngine? {
    let matcher = try PatternMatcher(p, strategy: strategy)
    guard case .regex(let search) = matcher.engine else { return nil }
    return search.regex
  }

  func onRE2(_ p: Pattern, strategy: PatternMatcher.Strategy = .automatic) throws -> Bool {
    try engine(p, strategy: strategy)?.linear != nil
  }

  /// ICU's search sets its region again every ``RegexSearch/matchesPerRegion`` matches (its time
  /// limit counts every step since the region was set); RE2's does not: setting its region checks
  /// the bytes of the region's rest, so doing that every 64 matches of a long line was quadratic.
  @Test func onlyICUSetsItsRegionAgainInALongLine() throws {
    let text = ByteStorage(String(repeating: "Element has a few words. ", count: 8_000))
    let plain = try PatternMatcher(.regex("[a-z]+"))
    let lookBehind = try PatternMatcher(.regex("(?<![a-z])[a-z]+"))
    #expect(try plain.matches(in: text).count == 40_000)
    #expect(try lookBehind.matches(in: text).count == 40_000)
    guard case .regex(let a) = plain.engine, case .regex(let b) = lookBehind.engine else {
      Issue.record("not regex engines")
      return
    }
    #expect(a.regex.linearRegions >= 1 && a.regex.linearRegions <= 2, "\(a.regex.linearRegions)")
    #expect(a.regex.icuRegions == 0)
    #expect(b.regex.icuRegions >= 40_000 / RegexSearch.matchesPerRegion, "\(b.regex.icuRegions)")
  }

  /// A search whose visitor resumes further on sets its region from there to the chunk's end again
  /// and again, or starts a new chunk a line further: the bytes RE2 could read otherwise are
  /// scanned once, not once per region (that was quadratic in the chunk: `-w --regex '[a-z]+'` on
  /// 20 MB of prose took 11 s), and RE2 does not find a batch of 256 matches each time. Chunks of
  /// 1 MB (one here) and of 4 KB.
  @Test(arguments: [1 << 20, 4096])
  func resumedRegionsScanTheirBytesOnce(chunkSize: Int) throws {
    let lines = (0..<4_000).map { "line \($0) has_words and x1 words" }.joined(separator: "\n")
    let text = ByteStorage(lines)
    let pattern = Pattern.regex("[a-z]+", wholeWord: true)
    let matcher = try PatternMatcher(pattern)
    guard case .regex(let search) = matcher.engine else {
      Issue.record("not a regex engine")
      return
    }
    search.chunkSize = chunkSize
    let got = try matcher.matches(in: text)
    #expect(got == (try PatternMatcher(pattern, strategy: .icu).matches(in: text)))
    #expect(got.count == 4_000 * 3)  // line, and, words (`has_words` and `x1` are words of their own)
    #expect(search.regex.linearRegions >= 4_000, "\(search.regex.linearRegions)")
    #expect(search.regex.bytesScanned <= 2 * text.count, "\(search.regex.bytesScanned) of \(text.count) bytes")
    // RE2 stops at `has` of each line (`has_words` is one word) and goes on from the next line:
    // what it finds ahead of a rejected candidate is a small batch (1 to 4), not a batch of 64 (or 256)
    // each time.
    let found = search.regex.linear?.matchesFound ?? -1
    let regions = search.regex.linearRegions
    #expect(found > 0 && found <= 4 * regions + got.count, "RE2 found \(found) matches in \(regions) regions")
  }

  /// A visitor that needs only a line's first match (`-c`, plain output) resumes at the next line;
  /// the engine went on finding the rest of the line's matches only for them to be skipped:
  /// `-c --regex '[a-z]'` on prose found every letter, 80 times rg's time. The skip ends where the
  /// engine's batch of matches ends and the search starts again at the next line: a batch or two
  /// found a line, on RE2 (the default) and on ICU; the lines and their first matches the same.
  @Test(arguments: [false, true])
  func aLinesFirstMatchFindsFewOthers(onICU: Bool) throws {
    let line = String(repeating: "abcdefghij klmnopqrst uvwxyz ", count: 4)
    let text = ByteStorage(String(repeating: line + "\n", count: 2_000))
    let matcher = try PatternMatcher(.regex("[a-z]"), strategy: onICU ? .icu : .automatic)
    guard case .regex(let search) = matcher.engine else {
      Issue.record("not a regex engine")
      return
    }
    var lines: [(Range<Int>, Range<Int>, Int)] = []
    try matcher.forEachMatchedLine(in: text, keeping: 1, countingAll: false) { matched, count in
      lines.append((matched.content, matched.matches[0], count))
      return true
    }
    let width = line.utf8.count + 1
    #expect(lines.count == 2_000)
    #expect(
      lines.enumerated().allSatisfy { k, l in
        l.0 == (k * width)..<(k * width + width - 1) && l.1 == (k * width)..<(k * width + 1) && l.2 == 1
      })
    let found = (search.regex.linear?.matchesFound ?? 0) + search.regex.icu.matchesFound
    #expect(search.regex.searchesOnICU == onICU)
    // 104 letters a line: every one was found.
    #expect(found <= 8 * 2_000, "\(found) matches found for 2,000 lines")
  }

  /// What the remembered scan answers is what a whole scan of each region answers, for regions
  /// moving on through the text and for regions anywhere, on text with ill-formed bytes, `ß`, CRs and
  /// the line terminators only ICU knows.
  @Test(arguments: [(false, false), (true, false), (false, true), (true, true)])
  func rememberedScansAgreeWithWholeScans(anchors: Bool, caseless: Bool) throws {
    let seed = SeededRandom.seedFromEnvironment()
    var r = SeededRandom(seed: seed)
    let pieces: [[UInt8]] = [
      Array("ab ".utf8), Array("é".utf8), Array("ß".utf8), [0x0D], [0x0A], [0x0D, 0x0A], [0x0B], [0xC2, 0x85],
      Array("\u{2028}".utf8), [0xFF], [0xE2, 0x80], Array("日本".utf8), Array("word".utf8),
    ]
    let engine = try RegexEngine(RegularExpression("a"))
    for _ in 0..<TestScale.count(300) {
      var bytes: [UInt8] = []
      for _ in 0..<Int.random(in: 0..<40, using: &r) {
        bytes += Int.random(in: 0..<3, using: &r) == 0 ? pieces.randomElement(using: &r)! : Array("plain text ".utf8)
      }
      let text = ByteStorage(bytes)
      var end = Int.random(in: 0...bytes.count, using: &r)
      var start = Int.random(in: 0...end, using: &r)
      for _ in 0..<20 {
        // Regions moving on (a new chunk ends further on) and now and then anywhere.
        if Int.random(in: 0..<3, using: &r) == 0 { end = Int.random(in: end...bytes.count, using: &r) }
        let region = Int.random(in: 0..<4, using: &r) == 0 ? Int.random(in: 0...end, using: &r)..<end : start..<end
        let want = RegexEngine.linearAgrees(region, in: text, anchors: anchors, caseless: caseless)
        let got = engine.linearAgrees(region, in: text, anchors: anchors, caseless: caseless)
        #expect(got == want, "\(region) of \(bytes): seed \(seed) (TEXTROTOR_SEED)")
        if got != want { return }
        start = Int.random(in: start...end, using: &r)
      }
    }
  }

  @Test(
    "accepted patterns go to RE2",
    arguments: [
      "(a+)+$", "(a|aa)*b", "(x+x+)+y", #"(\s*,)*\s*$"#, #"\w+@\w+\.\w+"#, #"\p{Lu}\p{Ll}+ing"#, "[A-Z][a-z]+ed",
      #"struct \w+"#, "^$", "", "a|", "(?:ab|cd){2,5}?", "[^\\]x-z\\d[:alpha:]]", #"\x{e9}\u00e9\x41\t\."#, "a{0}",
      "(a?)?b", ".*", "[[:^alpha:]]", #"\P{L}\S\W\D"#,
    ])
  func accepted(pattern: String) throws {
    #expect(try onRE2(.regex(pattern)), "\(RE2Translation.of(pattern, ignoreCase: false))")
  }

  @Test(
    "refused patterns stay on ICU, with the reason in the search path",
    arguments: [
      #"(a)\1"#, "a(?=b)", "(?<=a)b", #"\bfoo"#, #"foo\B"#, "(?i)a", "a*+", "(?>a+)", "(a|)*", "(a*)+", "(a?){2,}",
      #"\Qa.b\E"#, #"\Afoo"#, #"foo\z"#, "[a-z&&[aeiou]]", "[a-z--[aeiou]]", "[[a-b][c]]", #"\N{LATIN SMALL LETTER A}"#,
      "a{1001}", #"\x{D800}"#, #"\r"#, #"\R"#, #"\X"#, #"\h"#, #"\cA"#, #"\0101"#, "(?<name>a)", "(?#c)a", "(?m)^a",
      "[a-]", "[:alpha:]+", "[:^digit:]",
    ])
  func refused(pattern: String) throws {
    let p = Pattern.regex(pattern)
    #expect(try !onRE2(p))
    let path = try PatternMatcher(p).searchPath
    #expect(path.contains("ICU, not RE2"), "\(path)")
  }

  @Test("a set [:name:] at the top level is a property in ICU (not RE2's class of its characters)")
  func topLevelPropertySet() throws {
    let bytes = ByteStorage("b 12\n:::\n")
    for source in ["[:alpha:]", "[:digit:]+", "[:^alpha:]"] {
      let p = Pattern.regex(source)
      #expect(
        try PatternMatcher(p).matches(in: bytes) == PatternMatcher(p, strategy: .icu).matches(in: bytes), "\(source)")
    }
  }

  @Test("several -e literals and -x (Pattern.anyOf: quoted literals, an alternation between ^ and $) go to RE2")
  func alternatives() throws {
    let bytes = ByteStorage("a b.c\nx+y\na b.c x+y\n(a b.c)\n")
    for wholeLine in [false, true] {
      let p = Pattern.anyOf(["a b.c", "x+y", "(a"], syntax: .literal, wholeLine: wholeLine)
      #expect(try onRE2(p), "\(p)")
      #expect(try PatternMatcher(p).matches(in: bytes) == PatternMatcher(p, strategy: .icu).matches(in: bytes))
    }
    // Literals joined by `|` (what anyOf makes of literals) take RE2 past the program size that
    // keeps other patterns on ICU; nothing else does.
    #expect(RegexEngine.isLiteralAlternation(Pattern.anyOf(["a b.c", "x+y", "(a", "é|"], syntax: .literal).text))
    #expect(!RegexEngine.isLiteralAlternation("abc"), "one literal is not an alternation")
    for other in ["ab\\w|c", "a.b|c", "(?:a)|c", "a+|c", "a|b\\", "[a]|b", "^a|b", "a b|c", "a\\d|b", "a\\Qb|c"] {
      #expect(!RegexEngine.isLiteralAlternation(other), "\(other)")
    }
    // Many literals are searched together by an Aho-Corasick automaton; their alternation on RE2
    // (`.wholeText`, no automaton) still finds the same.
    let many = Pattern.anyOf((0..<12_000).map { "w\($0)x\($0 * 7)" }, syntax: .literal)
    if case .literals = try PatternMatcher(many).engine {
    } else {
      Issue.record("12,000 literals: not searched together")
    }
    #expect(try onRE2(many, strategy: .wholeText), "12,000 literals, no automaton: on RE2")
    #expect(
      try PatternMatcher(many, strategy: .wholeText).matches(in: ByteStorage("w17x119 w18x1 w11999x83993\n")) == [
        0..<7, 14..<26,
      ])
    let text = ByteStorage("w17x119 w18x1 w11999x83993\n")
    #expect(try PatternMatcher(many).matches(in: text) == [0..<7, 14..<26])
  }

  @Test("-i goes to RE2 as ICU's case-closed sets; a pattern spelling ß or ﬁ, or a negated set in a set, stays on ICU")
  func ignoreCase() throws {
    // With a literal, the windows around its case variants are ICU's (compiling RE2's case-closed
    // sets costs more there); without one, RE2's.
    #expect(try onRE2(.regex("ab+c", ignoreCase: true), strategy: .wholeText))
    #expect(try !onRE2(.regex("ab+c", ignoreCase: true)))
    #expect(try PatternMatcher(.regex("ab+c", ignoreCase: true)).searchPath.contains("ICU regex on windows"))
    #expect(try onRE2(.regex("[a-z]{12,}", ignoreCase: true)))
    #expect(try PatternMatcher(.regex("[a-z]+", ignoreCase: true)).searchPath.contains("RE2 regex"))
    for refused in ["straße", "[ﬁx]+", #"\x{df}"#, "[a-ß]", #"[a\W]"#, #"[x\P{L}]"#, "[[:^alpha:]x]"] {
      #expect(try !onRE2(.regex(refused, ignoreCase: true), strategy: .wholeText), "\(refused)")
      let bytes = ByteStorage("STRASSE straße ﬁx FIX fix a-b\n")
      let p = Pattern.regex(refused, ignoreCase: true)
      #expect(try PatternMatcher(p).matches(in: bytes) == PatternMatcher(p, strategy: .icu).matches(in: bytes))
    }
    // Text holding ß, ﬁ or another character whose folding is several characters: ICU's (it
    // matches `ss` in `ß`); the other regions RE2's.
    for (pattern, text) in [("s+", "a ß b SS c"), ("fi", "ﬁ FI"), ("[a-z]+", "xﬀy ſK"), ("i", "İ i")] {
      let p = Pattern.regex(pattern, ignoreCase: true)
      #expect(try onRE2(p, strategy: .wholeText))
      let bytes = ByteStorage(text + "\n" + text.uppercased() + "\nplain\n")
      let reference = try PatternMatcher(p, strategy: .icu).matches(in: bytes)
      #expect(try PatternMatcher(p, strategy: .wholeText).matches(in: bytes) == reference, "\(pattern)")
      #expect(try PatternMatcher(p).matches(in: bytes) == reference, "\(pattern)")
    }
  }

  /// Every code point but surrogates, LF, CR and those whose full case folding is several
  /// characters (whose regions RE2 leaves to ICU), on one line.
  static let allCodePointsFoldingToOne: ByteStorage = {
    var s = String.UnicodeScalarView()
    for v in UInt32(0)...0x10FFFF
    where v != 0x0A && v != 0x0D && !(0xD800...0xDFFF).contains(v) && !CaseClasses.foldedToSeveral.contains(v) {
      s.append(Unicode.Scalar(v)!)
    }
    return ByteStorage(String(s))
  }()

  @Test(
    "without case, each character and class matches exactly the code points ICU's does",
    arguments: [
      "k", "s", "σ", "Ω", "i", "ǆ", "é", "[k]", "[^k]", "[a-z]", "[^a-z]", #"\p{Lu}"#, #"\P{Ll}"#, #"\P{Lu}"#,
      "[^a-z\\d]", #"\w"#, #"\W"#, ".", "[[:lower:]]", "[^[:upper:]]", #"\p{Greek}"#, "[é-ü]", "[^é-ü]", "[α-ω]",
      #"\x{212A}"#, "[ſ]",
    ])
  func caselessClassesEqualICU(atom: String) throws {
    let p = Pattern.regex(atom, ignoreCase: true)
    #expect(try onRE2(p, strategy: .wholeText), "\(RE2Translation.of(atom, ignoreCase: true))")
    let bytes = Self.allCodePointsFoldingToOne
    let fast = try PatternMatcher(p, strategy: .wholeText).matches(in: bytes)
    let plain = try PatternMatcher(p, strategy: .icu).matches(in: bytes)
    #expect(fast.count == plain.count, "\(atom): \(fast.count) RE2 matches, \(plain.count) ICU")
    if let k = zip(fast, plain).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset {
      Issue.record("\(atom): first difference at match \(k): RE2 \(fast[k]), ICU \(plain[k])")
    }
  }

  /// Every code point but surrogates, LF and CR, on one line.
  static let allCodePoints: ByteStorage = {
    var s = String.UnicodeScalarView()
    for v in UInt32(0)...0x10FFFF where v != 0x0A && v != 0x0D && !(0xD800...0xDFFF).contains(v) {
      s.append(Unicode.Scalar(v)!)
    }
    return ByteStorage(String(s))
  }()

  @Test(
    "each class matches exactly the code points ICU's does",
    arguments: [
      #"\w"#, #"\W"#, #"\s"#, #"\S"#, #"\d"#, #"\D"#, ".", "[[:alpha:]]", "[[:^alpha:]]", #"\p{L}"#, #"\p{Greek}"#,
      #"\P{Lu}"#, "[^a-z\\d]", #"\p{Alphabetic}"#, #"[\p{Nd}\s_]"#, #"\p{Script=Cyrillic}"#, #"[\x{10000}-\x{10FFFF}]"#,
      "[é-ü]", #"\p{Any}"#, #"\p{ASCII}"#,
    ])
  func classesEqualICU(atom: String) throws {
    let p = Pattern.regex(atom)
    #expect(try onRE2(p))
    let bytes = Self.allCodePoints
    let fast = try PatternMatcher(p).matches(in: bytes)
    let plain = try PatternMatcher(p, strategy: .icu).matches(in: bytes)
    #expect(fast.count == plain.count, "\(atom): \(fast.count) RE2 matches, \(plain.count) ICU")
    if let k = zip(fast, plain).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset {
      Issue.record("\(atom): first difference at match \(k): RE2 \(fast[k]), ICU \(plain[k])")
    }
  }

  /// The corpora: every small one, and up to 256 KB of the generated English when present.
  static let corpora: [(String, ByteStorage)] = {
    var out: [(String, ByteStorage)] = []
    let root = Fixtures.path("")
    let names = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).sorted()
    for name in names where name.hasSuffix(".txt") || name.hasSuffix(".bin") {
      // A 63 KB line: ICU's backtracking over it is quadratic for many random patterns (a few
      // seconds each); its first 4 KB are kept.
      guard let b = try? Fixtures.bytes(name) else { continue }
      let n = Swift.min(b.count, 4096)
      out.append((name, n == b.count ? b : b.withUnsafeBytes { ByteStorage(Array($0[0..<n])) }))
    }
    if let big = try? ByteStorage.contentsOf(path: Fixtures.path("generated/english-1mb.txt")) {
      let n = Swift.min(big.count, TestScale.count(16 << 10))
      let slice = big.withUnsafeBytes { ByteStorage(Array($0[0..<n])) }
      out.append(("generated/english-1mb.txt (first \(n) bytes)", slice))
    }
    // Line terminators only ICU knows, ill-formed UTF-8, CRLF, around anchors.
    let special =
      "ab\u{2028}ba\u{0B}b a\u{0C}\u{85}b\r\nab\rba\r\n\u{2029}x a b\n"
    var bytes = Array(special.utf8)
    bytes += [0x61, 0xFF, 0x62, 0x0A, 0x61, 0xE2, 0x80, 0x62, 0x20, 0xC3, 0x0A, 0xED, 0xA0, 0x80, 0x61, 0x0A]
    out.append(("special", ByteStorage(bytes)))
    return out
  }()

  /// A random pattern over the accepted subset (and a little past it: nullable repeated groups).
  static func randomPattern(_ r: inout SeededRandom, depth: Int = 0) -> String {
    let atoms = [
      "e", "t", "a", " ", "s", "th", "in", "о", "é", "的", "ε", "\\.", ",", "\\w", "\\W", "\\s", "\\S", "\\d", "\\D",
      ".",
      "[a-z]", "[^aeiou ]", "[A-Z]", "\\p{L}", "\\p{Lu}", "\\p{Ll}", "[[:alpha:]]", "[^\\s\\d]", "\\x{e9}", "[аео]",
      "\\p{Han}", "[,.;:]", "\\t", "[^x]",
    ]
    let quantifiers = ["", "", "", "*", "+", "?", "{1,3}", "{2}", "{0,2}", "*?", "+?", "??", "{1,}"]
    let terms = Int.random(in: 1...4, using: &r)
    var out = ""
    for _ in 0..<terms {
      let roll = Int.random(in: 0..<20, using: &r)
      var atom: String
      if roll < 3 && depth < 3 {
        var inner = randomPattern(&r, depth: depth + 1)
        if Bool.random(using: &r) { inner += "|" + randomPattern(&r, depth: depth + 1) }
        atom = (Bool.random(using: &r) ? "(" : "(?:") + inner + ")"
      } else if roll == 3 {
        out += Bool.random(using: &r) ? "^" : "$"
        continue
      } else {
        atom = atoms.randomElement(using: &r)!
      }
      out += atom + quantifiers.randomElement(using: &r)!
    }
    if depth == 0 && Int.random(in: 0..<6, using: &r) == 0 { out += "|" + randomPattern(&r, depth: 1) }
    return out
  }

  @Test(
    "random patterns: RE2's path finds what ICU's line-by-line path finds, on every corpus",
    arguments: [false, true])
  func randomPatterns(ignoreCase: Bool) throws {
    let seed = SeededRandom.seedFromEnvironment()
    var r = SeededRandom(seed: seed)
    var linear = 0
    let rounds = TestScale.count(120)
    for _ in 0..<rounds {
      let text = Self.randomPattern(&r)
      var pattern = Pattern.regex(text, ignoreCase: ignoreCase, wholeWord: Int.random(in: 0..<5, using: &r) == 0)
      pattern.timeLimit = 20
      // Without case, a pattern with a literal is ICU's on windows: RE2 is checked on every line.
      let strategy: PatternMatcher.Strategy = ignoreCase ? .wholeText : .automatic
      let isLinear = try onRE2(pattern, strategy: strategy)
      if isLinear { linear += 1 }
      let fast = try PatternMatcher(pattern, strategy: strategy)
      let plain = try PatternMatcher(pattern, strategy: .icu)
      for (name, bytes) in Self.corpora {
        let reference = Result { () throws(ICUError) -> [Range<Int>] in try plain.matches(in: bytes) }
        guard case .success(let expected) = reference else { continue }  // ICU past its time limit
        let result = Result { () throws(ICUError) -> [Range<Int>] in try fast.matches(in: bytes) }
        // ICU may time out on the fast path's regions (a pattern left on ICU, or a region RE2
        // leaves to ICU); RE2 throws nothing.
        guard case .success(let got) = result else { continue }
        #expect(got == expected, "\(pattern) on \(name): \(fast.searchPath); seed \(seed) (TEXTROTOR_SEED)")
        if got != expected { return }
      }
    }
    #expect(linear * 2 > rounds, "only \(linear) of \(rounds) random patterns went to RE2; seed \(seed)")
  }

  @Test(
    "catastrophic patterns finish on RE2 where ICU runs past its time limit",
    arguments: [
      ("(a+)+$", "a", "!"), ("(a|aa)*b", "a", "c"), ("(x+x+)+y", "x", "z"), (#"(\s*,)*\s*$"#, " ,", " x"),
      (#"^(\w+\s?)*$"#, "ab ", "!"),
    ])
  func catastrophic(pattern: String, unit: String, tail: String) throws {
    var p = Pattern.regex(pattern)
    p.timeLimit = 20
    #expect(try onRE2(p))
    for size in [1_000, 10_000, 100_000] {
      let line = String(repeating: unit, count: size / unit.utf8.count) + tail
      let bytes = ByteStorage(line + "\n" + line)
      let matches = try PatternMatcher(p).matches(in: bytes)
      // The plain path, on a short line, is the reference; on long lines ICU gives up.
      let short = ByteStorage(String(repeating: unit, count: 12) + tail)
      #expect(try PatternMatcher(p).matches(in: short) == PatternMatcher(p, strategy: .icu).matches(in: short))
      if pattern == "(a+)+$" || pattern == "(x+x+)+y" {
        #expect(matches.isEmpty, "\(pattern) on \(size) bytes")
      }
      if size == 100_000 {
        #expect(throws: ICUError.self, "ICU alone times out on \(pattern)") {
          try PatternMatcher(p, strategy: .icu).matches(in: bytes)
        }
      }
    }
  }

  @Test("regions RE2 would read differently go to ICU: ill-formed UTF-8, ICU-only line terminators, CR")
  func fallbackRegions() throws {
    let cases: [(String, [UInt8])] = [
      ("a.b", [0x61, 0xFF, 0x62, 0x0A, 0x61, 0x62, 0x62]),
      ("[^x]+", [0x61, 0xE2, 0x80, 0x62, 0x0A]),
      ("^b", Array("a\u{2028}b\nb\u{0B}b\u{0C}b\u{85}b".utf8)),
      ("a$", Array("a\u{2029}a\r\na\ra\u{0B}".utf8)),
      ("^a$", Array("a\r\na\r\n\ra".utf8)),
      ("$", Array("x\u{2028}\r\ny".utf8)),
    ]
    for (pattern, bytes) in cases {
      let p = Pattern.regex(pattern)
      #expect(try onRE2(p))
      let storage = ByteStorage(bytes)
      let fast = try PatternMatcher(p).matches(in: storage)
      #expect(fast == (try PatternMatcher(p, strategy: .icu).matches(in: storage)), "\(pattern) on \(bytes)")
      // And from every start offset, in a sub-range.
      for start in 0..<bytes.count where bytes[start] & 0xC0 != 0x80 {
        let range = start..<bytes.count
        #expect(
          try PatternMatcher(p).matches(in: storage, range: range)
            == PatternMatcher(p, strategy: .icu).matches(in: storage, range: range), "\(pattern) from \(start)")
      }
    }
  }

  @Test("empty matches advance as ICU's do (one character, UTF-8 aware)")
  func emptyMatches() throws {
    for pattern in ["", "a*", "(?:é|)", "x?", "^", "$", "é*?"] {
      for text in ["bab", "éaé", "", "a\nb\r\nc\r", "日本é"] {
        let p = Pattern.regex(pattern)
        #expect(try onRE2(p), "\(pattern)")
        let bytes = ByteStorage(text)
        #expect(
          try PatternMatcher(p).matches(in: bytes) == PatternMatcher(p, strategy: .icu).matches(in: bytes),
          "\(pattern) on \(text.debugDescription)")
      }
    }
  }

  /// Patterns past what RE2 does well (a big program: slow DFA states, then its NFA at KB/s; a
  /// long chain of characters: DFA memory as its square; a translation of many MB: RE2's parser
  /// takes GBs) stay on ICU, with the reason in the search path, and find what ICU finds. Before,
  /// every one went to RE2 (`\w|\w|…`, 100 KB, ran out of memory).
  @Test(
    "patterns past RE2's budget stay on ICU, with the reason",
    .timeLimit(.minutes(2)),
    arguments: [
      (#"\w{40}"#, "its RE2 program has 55724 instructions, over the 50000"),
      (#"\w{1000}"#, "over 200000 instructions (estimated"),
      (#"(\w{100}){100}"#, "over 200000 instructions (estimated"),
      (#"(?:.{1000}){1000}"#, "over 200000 instructions (estimated"),
      ("[a-z]{600}[a-z]{600}", "over 1000 characters in a row"),
      ("(?:ab{10}){101}", "over 1000 characters in a row"),
      (Array(repeating: #"\w"#, count: 33_000).joined(separator: "|"), "an RE2 translation over 1 MB"),
    ])
  func pastBudget(pattern: String, reason: String) throws {
    let p = Pattern.regex(pattern)
    #expect(try !onRE2(p))
    let path = try PatternMatcher(p).searchPath
    #expect(path.contains("ICU, not RE2") && path.contains(reason), "\(path.suffix(300))")
    let bytes = ByteStorage(
      String(repeating: "a", count: 2100) + "\n" + String(repeating: "ab", count: 700) + "\nx é\n")
    #expect(try PatternMatcher(p).matches(in: bytes) == PatternMatcher(p, strategy: .icu).matches(in: bytes))
  }

  @Test("patterns just inside RE2's budget stay on RE2")
  func insideBudget() throws {
    for pattern in [#"\w{30}"#, "[a-z]{1000}", "(?:ab){500}", #"(?:\w+\s){20}"#, #"\w+|\d+|\s+|\p{L}+|[a-z]+"#] {
      let path = try PatternMatcher(.regex(pattern)).searchPath
      #expect(try onRE2(.regex(pattern)), "\(pattern): \(path.suffix(200))")
    }
  }
}
