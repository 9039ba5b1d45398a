import Testing

@testable import TextRotor

@Suite("Matching: regular expressions")
struct RegexMatchingTests {
  @Test("matches are byte ranges and never cross lines")
  func lineOriented() throws {
    let text = "foo12 bar\r\nfoo3\rxfoo\nnaïve foo45"
    #expect(try matches(.regex(#"foo\d+"#), text) == [0..<5, 11..<15, 28..<33])
    // \s would match the terminators: a line-oriented search keeps each match inside its line.
    #expect(try matches(.regex(#"o\s+\w"#), "foo \nbar foo  x\n") == [11..<15])
    #expect(try matches(.regex(#"^\w+$"#), "ab\ncd ef\r\ngh") == [0..<2, 10..<12])
    #expect(try matches(.regex("x$"), "ax\r\nbx\rcx") == [1..<2, 5..<6, 8..<9])
  }

  @Test(
    "fast paths (whole text, literal prefilter) equal the plain ICU path",
    arguments: [
      #"foo\d+"#, #"o\s+\w"#, #"\bfo+\b"#, "^", "$", "", #"\s"#, "(ab|cd)+", "a*", #"[^x]+"#, #"ba(r|z)\d?"#,
      #"x(?=\s)"#, #"(?<=\s)b"#, #"b\w{2,}z"#, "é+", #"foo\.bar"#, #"\p{L}+"#, #"(?i)FOO"#,
      // Prefiltered by the literal of a look-around: lines without it hold no match.
      #"[a-z]+(?=bar\b)"#, #"(?<=foo\.)\w+"#, #"(?<=o )[a-z]+"#, #"\w(?=ba)z?"#, #"(?<=a\.)b+"#,
    ])
  func fastPathsEqualICU(regex: String) throws {
    var random = SeededRandom(seed: SeededRandom.seedFromEnvironment())
    let pieces = ["foo", "12", " ", "\n", "\r\n", "\r", "bar", "baz", "x", "é", "ab", "cd", "foo.bar", "z", "\t"]
    for _ in 0..<40 {
      let text = (0..<Int.random(in: 0..<40, using: &random)).map { _ in pieces.randomElement(using: &random)! }
        .joined()
      for ignoreCase in [false, true] {
        for word in [false, true] {
          let p = Pattern.regex(regex, ignoreCase: ignoreCase, wholeWord: word)
          let fast = try matches(p, text)
          let plain = try matches(p, text, strategy: .icu)
          #expect(fast == plain, "\(p) on \(text.debugDescription), seed \(random.seed)")
          // Whole-text mode in tiny line-aligned chunks.
          let chunked = try PatternMatcher(p)
          if case .regex(let search) = chunked.engine { search.chunkSize = 3 }
          #expect(try chunked.matches(in: ByteStorage(text)) == plain, "chunked \(p) on \(text.debugDescription)")
        }
      }
    }
  }

  @Test(
    "the required literal of a pattern",
    arguments: [
      (#"foo\d+"#, "foo"), (#"a?bcd"#, "bcd"), (#"ab+c"#, "ab"), ("(foo)bar", "bar"), ("a|b", nil),
      (#"\x41BC"#, "BC"), ("x{0,3}yz", "yz"), (#"[abc]+def"#, "def"), ("(?i)abc", nil), (#"\Qabc\E"#, nil),
      (#"foo\.bar"#, "foo.bar"), ("a{2}bc", "bc"),
      // Positive look-arounds of literal characters count; one that could match a line terminator
      // (a class, a set, a quantifier), a negative one, or an optional one does not.
      (#"[a-z]+(?=ing\b)"#, "ing"), (#"(?<=, )[a-z]+"#, ", "), (#"(?<=foo\.)bar"#, "foo."), (#"(?<=,\s)[a-z]+"#, nil),
      (#"(?<!foo)bar"#, "bar"), (#"x(?!abcd)"#, "x"), ("(?=abc)?de", "de"), ("(?=ab[c])de", "de"),
      ("(?<=a.c)de", "de"), (#"\w+(?=\bxyz\b)"#, "xyz"), ("a(?=bcd)", "bcd"),
      // U+FFFD is what ICU reads for an ill-formed byte: never part of a literal.
      ("ab\u{FFFD}c", "ab"), ("x(?<=\u{FFFD}y)", "x"), ("z(?=ab\u{FFFD}cde)", "cde"),
      // `\c)` and `\Q)\E` hide a `)` from the group scan, a `(?x)` comment in a group too: none.
      (#"x(?:\c)(?=abc))?"#, nil), (#"x(?!\c)(?=abc))"#, nil), (#"x(?:(\Q)\E)(?=abc))?"#, nil),
      (#"x(?:\c)abc)?"#, nil), ("x(?:(?x)#)\r(?=abc))?", nil), (#"ab\\cd"#, "ab\\cd"),
    ] as [(String, String?)])
  func requiredLiteral(pattern: String, literal: String?) {
    #expect(RequiredLiteral.of(pattern) == literal)
  }

  @Test("a catastrophic pattern ends with a time-out error instead of hanging")
  func catastrophic() throws {
    // On ICU (look-ahead; RE2 takes (a+)+$, RE2EngineTests). The line holds an `ac`: RE2,
    // searching the pattern without its look-ahead, gives it to ICU (``RegexRelaxation``).
    let text = String(repeating: "a", count: 40) + "b ac\n"
    var pattern = Pattern.regex("(a+)+(?=c)")
    pattern.timeLimit = 50
    let matcher = try PatternMatcher(pattern)
    let clock = ContinuousClock()
    let start = clock.now
    do {
      _ = try matcher.matches(in: ByteStorage(text))
      Issue.record("expected a time-out")
    } catch {
      #expect(error.isTimeOut || error.isStackOverflow)
      #expect(error.description.contains("time limit"))
    }
    #expect(clock.now - start < .seconds(10))
  }

  /// ICU's time limit counts the steps of its matcher since the region was last set, over every
  /// match found since: a whole-word regex searched a rejected candidate's line again in one
  /// region, so a long line with many matches (100 MB of minified JSON, `-w [a-z]+`) ran past the
  /// limit, though no match took long. The search sets its region again every few matches: with a
  /// limit of 20 steps, a line of 1 MB gives the matches it gives with the default limit.
  @Test("a whole-word regex over a long line with many matches stays under the time limit")
  func wholeWordsOfALongLine() throws {
    // No byte outside the pattern's alphabet (letters, `,` and `;`, which a word boundary reads
    // past): ICU searches the whole line for whole words after its first rejected candidate.
    let text = String(repeating: "Element,has,a,few,words;", count: 40_000)
    var pattern = Pattern.regex("[a-z]+", wholeWord: true)
    let want = try PatternMatcher(pattern).matches(in: ByteStorage(text))
    pattern.timeLimit = 20
    let matcher = try PatternMatcher(pattern)
    let got = try matcher.matches(in: ByteStorage(text))
    #expect(got == want)
    #expect(want.count == 40_000 * 4)
    // Each match found once: the region is set again where a batch of ICU's ends.
    #expect(matcher.wholeWordRegex?.matchesFound == got.count, "\(matcher.wholeWordRegex?.matchesFound ?? -1)")
  }

  /// The same for a regex ICU searches (look-behind, each line its own text; a back-reference,
  /// over the whole text): with a limit of 20 steps, a line of 1 MB gives every match, as with the
  /// default limit (the search sets its region again every ``RegexSearch/matchesPerRegion``
  /// matches), also when the visitor resumes further on (`-m`, `--count` per line).
  @Test("an ICU regex over a long line with many matches stays under the time limit")
  func manyMatchesOfALongLine() throws {
    let text = String(repeating: "Element has a few words. ", count: 40_000)
    for source in [#"(?<![a-z])[a-z]+"#, #"([a-z])\1|[a-z]+"#] {
      var pattern = Pattern.regex(source)
      let want = try PatternMatcher(pattern).matches(in: ByteStorage(text))
      pattern.timeLimit = 20
      do {
        let matcher = try PatternMatcher(pattern)
        let got = try matcher.matches(in: ByteStorage(text))
        #expect(got == want, "\(source)")
        // Each match found once: setting the region again inside one of ICU's batches found the
        // rest of the batch again (4 times the steps with a batch of 256 and a reset every 64).
        if case .regex(let search) = matcher.engine {
          #expect(search.regex.icu.matchesFound == got.count, "\(source): \(search.regex.icu.matchesFound)")
        } else {
          Issue.record("\(source): not a regex engine")
        }
      } catch {
        Issue.record("\(source): \(error)")
      }
      #expect(want.count >= 40_000 * 4, "\(source)")
    }
  }

  /// The region is set again once it has found ``RegexSearch/matchesPerRegion`` matches, at the
  /// first non-empty one: when every other match is empty (`a*` on `axax`), the one at a multiple of
  /// the batch was always empty, and a 100 KB line ran past a limit of 5 steps.
  @Test(arguments: [#"(?<!b)a*"#, "a*+"])
  func emptyMatchesAtBatchEnds(source: String) throws {
    var pattern = Pattern.regex(source)
    pattern.timeLimit = 5
    let text = ByteStorage(String(repeating: "ax", count: 50_000))
    #expect(try PatternMatcher(pattern).count(in: text) == 50_001)
  }

  /// The time limit counts the steps of ``RegexSearch/matchesPerRegion`` (64) matches, not 256:
  /// matches that each take many steps (`(?<!b)a+x` tries every run of `a`) fit under a limit of 80
  /// 64 at a time, not 256 at a time.
  @Test func theLimitCountsAFewMatches() throws {
    var pattern = Pattern.regex(#"(?<!b)a+x"#)
    pattern.timeLimit = 80
    let part = String(repeating: String(repeating: "a", count: 30) + " ", count: 20) + "ax "
    let text = ByteStorage(String(repeating: part, count: 600))
    #expect(try PatternMatcher(pattern).count(in: text) == 600)
  }

  /// A visitor that needs a line's first match only (plain output, `-c`) resumes at the next line:
  /// the rest of a long line's matches are skipped, and skipping them in one region counted them
  /// all against ICU's time limit. The skip ends once the region has found its matches, and the
  /// search starts again at the next line.
  @Test func skippingTheRestOfALongLine() throws {
    var pattern = Pattern.regex(#"(?<![a-z])[a-z]+"#)
    pattern.timeLimit = 20
    let line = String(repeating: "Element has a few words. ", count: 40_000)
    let bytes = ByteStorage(line + "\nsecond line\n")
    let firstLineEnd = line.utf8.count + 1
    var seen: [Range<Int>] = []
    try PatternMatcher(pattern).forEachMatch(in: bytes) { m in
      seen.append(m)
      return m.lowerBound < firstLineEnd ? .resume(firstLineEnd) : .next
    }
    #expect(seen.count == 3)
    #expect(seen.map { bytes.string($0) } == ["lement", "second", "line"])
  }

  @Test("an invalid pattern says where it is wrong")
  func invalid() throws {
    do {
      _ = try PatternMatcher(.regex("ab(c"))
      Issue.record("expected an error")
    } catch {
      #expect(error.icuError != nil)
      #expect(error.description.contains("column"), "\(error)")
      #expect(error.description.contains("U_REGEX_MISMATCHED_PAREN"), "\(error)")
    }
  }

  @Test("offsets are UTF-8 bytes over a 64-bit UText, in a sub-range too")
  func subRange() throws {
    let text = "ééé foo1 ééé foo2"
    let bytes = ByteStorage(text)
    let matcher = try PatternMatcher(.regex(#"foo\d"#))
    #expect(try matcher.matches(in: bytes) == [7..<11, 19..<23])
    #expect(try matcher.matches(in: bytes, range: 8..<bytes.count) == [19..<23])
    #expect(try matcher.count(in: bytes) == 2)
  }
}

@Suite("Matching: the matches rotor")
struct MatchesRotorTests {
  @Test("rotor(matching:) lists the matches of every element in document order")
  func documentRotor() throws {
    let document = try RotorDocument(elements: [
      TextElement(id: "a", text: "An Important note, not important."),
      TextElement(id: "b", text: "Nothing here"),
      TextElement(id: "c", text: "IMPORTANT\nimportant!"),
    ])
    let rotor = try document.rotor(matching: .literal("important", ignoreCase: true))
    #expect(rotor.count == 4)
    #expect(rotor.map(\.label) == ["Important", "important", "IMPORTANT", "important"])
    let words = try document.rotor(matching: .regex(#"\bno\w*"#), named: "no")
    #expect(words.count == 2)
  }
}

/// `\A`, `\z`, `\Z`, `\G` and look-around: each line is searched as its own text (ripgrep's
/// meaning), so what they find does not depend on how much text a search is given.
@Suite("Matching: patterns that would read past their line")
struct LineLocalRegexTests {
  @Test(
    "which patterns read past their line",
    arguments: [
      (#"\Afoo"#, true), (#"foo\z"#, true), (#"foo\Z"#, true), (#"\Gx"#, true), ("a(?=b)", true),
      ("a(?!b)", true), ("(?<=a)b", true), ("(?<!a)b", true), (#"(?<name>a)\k<name>"#, false), ("(?:a)", false),
      (#"\\A"#, false), (#"\QA\z\E"#, false), (#"\Q\Ez"#, false), (#"\w+\b"#, false), ("(?i)abc", false),
      (#"[\A]"#, true),  // a false alarm: only slower
      ("(?-m)a$", true), ("(?i-m:^a)", true), ("(?m)^a", false), ("(?i)a$", false), ("(?-i)a", false),
    ] as [(String, Bool)])
  func detection(pattern: String, reads: Bool) {
    #expect(PatternMatcher.readsPastLine(pattern) == reads)
  }

  @Test("the lines of a text, each searched alone, as ripgrep searches them")
  func eachLineAlone() throws {
    let text = "ab\nb\r\nxa\rbx\n"
    #expect(try matches(.regex(#"\Ab"#), text) == [3..<4, 9..<10])
    #expect(try matches(.regex(#"b\z"#), text) == [1..<2, 3..<4])
    #expect(try matches(.regex(#"a\Z"#), text) == [7..<8])
    #expect(try matches(.regex("(?<=a)b"), text) == [1..<2])
    #expect(try matches(.regex(#"(?<=a\r)b"#), text) == [])
    #expect(try matches(.regex(#"x(?=a)"#), text) == [6..<7])
    #expect(try matches(.regex(#"x(?!a)"#), text) == [10..<11])
    // Multi-line mode off: `^` and `$` are the line's edges too.
    #expect(try matches(.regex("(?-m)b$"), text) == [1..<2, 3..<4])
    #expect(try matches(.regex("(?-m:^b)"), text) == [3..<4, 9..<10])
    // With -w and -i too, and the same on the reference path and over the whole text.
    for strategy: PatternMatcher.Strategy in [.automatic, .icu, .wholeText, .lineLocal] {
      #expect(try matches(.regex(#"\AB"#, ignoreCase: true, wholeWord: true), text, strategy: strategy) == [3..<4])
    }
  }

  @Test("a line searched alone finds what the whole text finds, for any other pattern")
  func falseAlarmsChangeNothing() throws {
    var random = SeededRandom(seed: SeededRandom.seedFromEnvironment())
    // No VT, FF, NEL, LS or PS: ICU's `^` matches after one that ends a line's text only when more
    // text follows (see `PatternMatcher.readsPastLine`).
    let pieces = [
      "foo", "12", " ", "\n", "\r\n", "\r", "bar", "baz", "x", "é", "ab", "cd", "foo.bar", "z", "\t", "\u{2028}a",
    ]
    let patterns = [
      #"foo\d+"#, #"o\s+\w"#, #"\bfo+\b"#, "^", "$", "", #"\s"#, "(ab|cd)+", "a*", #"[^x]+"#, #"\w+$"#, #"^\W*"#,
      #"\R"#, #"\X"#, "(?s).", #"\B"#, #"(?m)^b"#, "é+", #"\p{L}+"#,
    ]
    for _ in 0..<TestScale.count(30) {
      let text = (0..<Int.random(in: 0..<40, using: &random)).map { _ in pieces.randomElement(using: &random)! }
        .joined()
      for regex in patterns {
        for (ignoreCase, word) in [(false, false), (true, false), (false, true)] {
          let p = Pattern.regex(regex, ignoreCase: ignoreCase, wholeWord: word)
          #expect(
            try matches(p, text, strategy: .lineLocal) == matches(p, text, strategy: .icu),
            "\(p) on \(text.debugDescription), seed \(random.seed)")
        }
      }
    }
  }
}
