import Testing

@testable import TextRotor

#if canImport(Glibc)
  import Glibc
#endif

/// Pattern rotors of literals in long lines: an edit is matched again from before it only until
/// the new matches fall in step with the old ones (`RotorDocument.convergentMatches`), not over
/// the whole line. After every random edit each pattern rotor must equal a rebuild's, and its
/// change report must account for the difference.
@Suite struct LongLinePatternEditTests {
  /// Literals whose matches overlap themselves (a typed `a` moves every later `aa` match of a
  /// run), that full case folding lengthens or shortens (`SS` matches `ß`, `ſs`, `ẞ`), non-ASCII
  /// ones, alternations searched by ICU (the longer of `abab` and `ab` first: a piece of text cut
  /// in a run of `ab` finds `ab` where the whole text has `abab`) and one of 42 literals searched by
  /// the automaton.
  static let patterns: [Pattern] = [
    .literal("aa"), .literal("aba"), .literal("SS", ignoreCase: true), .literal("straße", ignoreCase: true),
    .literal("日本"), .literal("é"),
    .anyOf(["ab", "abab", "b a"], syntax: .literal), .anyOf(["abab", "ab"], syntax: .literal),
    .anyOf(["ß", "ss", "a b"], syntax: .literal, ignoreCase: true),
    .anyOf((0..<40).map { "w\($0)" } + ["ab", "ba"], syntax: .literal),
  ]

  static let pieces = [
    "a", "b", "aa", "ab", " ", "a b", "ß", "S", "s", "ſ", "ẞ", "straße", "STRASSE", "日本", "日", "本", "é",
    "e\u{301}", "w1", "w12", "w3", "😀",
  ]

  /// Each pattern rotor's entries: element and UTF-8 range (one element: the labels follow).
  static func patternSnapshots(_ document: RotorDocument<Int>) -> [String: [Range<Int>]] {
    var all: [String: [Range<Int>]] = [:]
    for name in document.rotorNames {
      let rotor = document.rotor(named: name)!
      all[name] = rotor.indices.map { rotor.location(at: $0)!.utf8Range }
    }
    return all
  }

  /// Makes each edit (UTF-8 range of element 0, typed text, and how many entries the rotor of
  /// `pattern` then holds) in turn, checking that rotor against a rebuild's after each.
  static func scriptedEdits(
    _ document: RotorDocument<Int>, _ pattern: Pattern, _ edits: [(Range<Int>, String, Int)],
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let name = "matches: \(pattern)"
    for (range, typed, count) in edits {
      try document.replace(utf8Range: range, in: 0, with: typed)
      let rebuilt = try RotorDocument(elements: document.elements)
      _ = try rebuilt.rotor(matching: pattern)
      let got = patternSnapshots(document)[name]
      #expect(
        got == patternSnapshots(rebuilt)[name], "\(range) \(typed.debugDescription)", sourceLocation: sourceLocation)
      #expect(got?.count == count, "\(range) \(typed.debugDescription)", sourceLocation: sourceLocation)
    }
  }

  /// Makes the edit, then checks each pattern rotor against a rebuild holding `patterns`, and its
  /// report against the counts before and after (the old count less the removed entries plus the
  /// added ones). The edit's change, or nil after a difference (recorded as an issue).
  static func replaceMatchingRebuild(
    _ document: RotorDocument<Int>, _ range: Range<String.Index>, with inserted: String, patterns: [Pattern],
    _ description: String, sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> DocumentChange<Int>? {
    let counts = Dictionary(uniqueKeysWithValues: document.rotorNames.map { ($0, document.rotor(named: $0)!.count) })
    let change = try document.replace(range, in: 0, with: inserted)
    let rebuilt = try RotorDocument(elements: document.elements)
    for pattern in patterns { _ = try rebuilt.rotor(matching: pattern) }
    let got = patternSnapshots(document)
    let want = patternSnapshots(rebuilt)
    for name in document.rotorNames {
      #expect(got[name] == want[name], "\(description): \(name)", sourceLocation: sourceLocation)
      guard got[name] == want[name] else { return nil }
      let reported = try #require(
        change.named[name], "\(description): no report for \(name)", sourceLocation: sourceLocation)
      #expect(
        counts[name]! - reported.removed.count + reported.added.count == want[name]!.count,
        "\(description): \(name) reported \(reported)", sourceLocation: sourceLocation)
    }
    return change
  }

  /// `TestScale.count(texts)` texts of `length` random `pieces` (seeded from `seed`), with rare
  /// line breaks and runs of one of `runs` (a count of times from its range), as one element in
  /// lines that are long (`longLineThreshold` 48); `steps` random edits each, every pattern rotor
  /// checked against a rebuild after each (``replaceMatchingRebuild``), each change handed to
  /// `changed`. The convergent updates and the edits made (it stops at the first difference,
  /// recorded as an issue).
  static func randomLongLineEdits(
    patterns: [Pattern], pieces: [String], runs: [(String, Range<Int>)], seed: UInt64, texts: Int = 10,
    length: Range<Int> = 500..<1000, steps: Int = 40, changed: (DocumentChange<Int>) -> Void = { _ in },
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> (updates: Int, edits: Int) {
    var seeds = SeededRandom(seed: seed)
    var updates = 0
    var edits = 0
    for _ in 0..<TestScale.count(texts) {
      let seed = seeds.next()
      var rng = SeededRandom(seed: seed)
      var text = ""
      for _ in 0..<(length.lowerBound + Int(rng.next() % UInt64(length.count))) {
        let k = Int(rng.next() % 100)
        switch k {
        case 0: text += "\n"
        case 1...runs.count:
          let (run, times) = runs[k - 1]
          text += String(repeating: run, count: times.lowerBound + Int(rng.next() % UInt64(times.count)))
        default: text += pieces[Int(rng.next() % UInt64(pieces.count))]
        }
      }
      let document = try RotorDocument(elements: [TextElement(id: 0, text: text)])
      document.longLineThreshold = 48
      for pattern in patterns { _ = try document.rotor(matching: pattern) }
      for step in 0..<steps {
        let current = try document.text(of: 0)
        let (range, inserted) = DocumentEditModelTests.randomEdit(
          in: current, typed: pieces, pieces: pieces, lineBreaks: true, &rng)
        let u8 = current.utf8
        let description =
          "seed \(seed) step \(step): replace \(u8.distance(from: u8.startIndex, to: range.lowerBound))..<\(u8.distance(from: u8.startIndex, to: range.upperBound)) with \(inserted.debugDescription)"
        let before = document.convergentMatchUpdates
        guard
          let change = try replaceMatchingRebuild(
            document, range, with: inserted, patterns: patterns, description, sourceLocation: sourceLocation)
        else { return (updates, edits) }
        updates += document.convergentMatchUpdates - before
        edits += 1
        changed(change)
      }
    }
    return (updates, edits)
  }

  /// Literals in long lines with rare line breaks and runs of `a` and of `ab` (a match every two
  /// or four bytes, all of which a typed letter moves, across the pieces the text is read in).
  @Test func randomEditsMatchRebuild() throws {
    var small = 0
    let (updates, edits) = try Self.randomLongLineEdits(
      patterns: Self.patterns, pieces: Self.pieces, runs: [("a", 100..<700), ("ab", 50..<350)], seed: 0xC0_4E,
      texts: 16, length: 600..<1200, steps: 50
    ) { change in
      small += Self.patterns.filter { (change.named["matches: \($0)"]?.removed.count ?? 20) < 20 }.count
    }
    // The path is taken (most edits lie in lines longer than the lowered threshold), and most
    // updates replace a few matches, not a line's.
    #expect(updates > edits * Self.patterns.count / 2, "\(updates) convergent updates in \(edits) edits")
    #expect(small > edits * Self.patterns.count * 3 / 4, "\(small) small reports in \(edits) edits")
  }

  /// Regexes of bounded length without context (``Pattern/regexReach``): greedy and lazy counted
  /// repeats, `.`, alternations in groups, optional parts, case folding that matches `ß` with `ss`;
  /// and one unbounded regex (matched again over its runs of `a` and `b`). After every random edit
  /// in a long line each pattern rotor equals a rebuild's and its report accounts for the
  /// difference.
  @Test func boundedRegexesMatchRebuild() throws {
    let bounded: [Pattern] = [
      .regex(#"\d{2,3}"#), .regex(#"\d{1,2}?x"#), .regex("a.b"), .regex("(ab|ba){1,2}"), .regex("colou?r"),
      .regex("[ab]{3}"), .regex("w1x?|w12"), .regex("(?:s|ß){2}", ignoreCase: true),
      .regex("STRASSE", ignoreCase: true), .regex(#"\w{2}\d"#), .regex(#"e\x{301}|é"#),
    ]
    for pattern in bounded { #expect(pattern.matchReach != nil, "\(pattern)") }
    let patterns = bounded + [.regex("a+b")]
    let pieces = [
      "a", "b", "ab", "ba", "1", "12", "123", "x", " ", "colour", "color", "ß", "s", "S", "STRASSE", "straße", "é",
      "e\u{301}", "w1", "w12", "日本", "😀",
    ]
    let (updates, edits) = try Self.randomLongLineEdits(
      patterns: patterns, pieces: pieces, runs: [("ab", 20..<220), ("1", 20..<220)], seed: 0x4E_6E)
    #expect(updates > edits * bounded.count / 2, "\(updates) convergent updates in \(edits) edits")
  }

  /// Regexes of any length without context (``Pattern/matchAlphabet``): in a long line an edit is
  /// matched again from the last separator before it (an ASCII character no match holds) until the
  /// new matches fall in step with the old ones. Greedy, lazy and possessive repeats, alternations
  /// that run across runs of their own characters, sets without case (which fold simply: `[a-z]`
  /// matches `ſ` and the Kelvin sign, not `ß`), separators that are rare (`[^ ]+`, a match of
  /// hundreds of bytes), typed, deleted (two runs joined) and pasted; against a rebuild after every
  /// edit, and each report against the counts.
  @Test func unboundedRegexesMatchRebuild() throws {
    let patterns: [Pattern] = [
      .regex("a+b"), .regex(#"\d+"#), .regex("[a-z]+ing"), .regex(#"\w+"#), .regex("(ab|ba)+"), .regex("x[0-9]*?y"),
      .regex("[a-z]+", ignoreCase: true), .regex("s+t", ignoreCase: true), .regex("[^ ]+"), .regex(#"\p{L}++"#),
      .regex("(?:ß|ss)+x"), .regex("a{2,}|b{3,}"), .regex(#"[^\d\s]+\d"#),
    ]
    for pattern in patterns {
      guard case .runs(_, readsBehind: false) = pattern.convergentReach else {
        Issue.record("\(pattern) is not matched by runs")
        return
      }
    }
    // Without case a literal `ß` or `ﬀ`, or a set of one such character, matches `ss`, `ff` or
    // `i` and a combining dot: no runs (an `s` may be in a match), matched again over the line,
    // beside the others.
    let caseless: [Pattern] = [
      .regex("ß+x", ignoreCase: true), .regex(#"x\x{FB00}+"#, ignoreCase: true), .regex("[ﬀ]+", ignoreCase: true),
      .regex("x[İ]+", ignoreCase: true),
    ]
    for pattern in caseless { #expect(pattern.convergentReach == nil, "\(pattern)") }
    let pieces = [
      "a", "b", "ab", "ba", "aab", " ", " ", "1", "12", "x", "y", "x1y", "ing", "sing", "ſ", "\u{212A}", "ß", "ss", "S",
      "t", "T", "é", "日本", "😀", "_", "-", ",", "\t", "ssx", "xff", "FF", "f", "xi\u{307}", "i",
    ]
    let (updates, edits) = try Self.randomLongLineEdits(
      patterns: patterns + caseless, pieces: pieces, runs: [("ab", 20..<220), ("1", 20..<220), ("sing", 20..<220)],
      seed: 0x5E_9A)
    #expect(updates > edits * patterns.count / 2, "\(updates) convergent updates in \(edits) edits")
  }

  /// An unbounded regex reads only the runs around an edit: in a line of 200,000 bytes of words,
  /// deleting the space between two words (they become one match), typing inside a word and
  /// typing a space inside a word (it becomes two) are each matched again over a few bytes, which
  /// the change reports name (one match removed, one or two added); the rotor equals a rebuild's.
  @Test func unboundedRegexReadsOnlyTheRunsAroundAnEdit() throws {
    let words = (0..<20_000).map { "w\($0 % 97)" }.joined(separator: " ")
    let document = try RotorDocument(elements: [TextElement(id: 0, text: words)])
    let pattern = Pattern.regex("[a-z][a-z0-9]+")
    _ = try document.rotor(matching: pattern)
    let name = "matches: \(pattern)"
    let middle = words.utf8.count / 2
    let space = words.utf8[words.utf8.index(words.utf8.startIndex, offsetBy: middle)...].firstIndex(of: 0x20)!
    let at = words.utf8.distance(from: words.utf8.startIndex, to: space)
    // (edit, matches removed, matches added)
    for (range, typed, removed, added) in [
      (at..<at + 1, "", 2, 1), (at - 1..<at - 1, "q", 1, 1), (at - 1..<at - 1, " ", 1, 2),
    ] {
      let change = try document.replace(utf8Range: range, in: 0, with: typed)
      let rebuilt = try RotorDocument(elements: document.elements)
      _ = try rebuilt.rotor(matching: pattern)
      #expect(Self.patternSnapshots(document)[name] == Self.patternSnapshots(rebuilt)[name], "\(range) \(typed)")
      let report = try #require(change.named[name])
      #expect(report.removed.count == removed && report.added.count == added, "\(range) \(typed): \(report)")
    }
    #expect(document.convergentMatchUpdates == 3)
  }

  /// Regexes with ICU's default word assertions (`\b`, `\B`, `(?<!\w)`, `(?!\w)`) are matched by
  /// runs too, their alphabet holding every word character: a scan starts and stops next to an
  /// ASCII non-word character, where an assertion reads what it reads at the edge of the text.
  /// Bounded and unbounded ones, without case, next to digits, `_`, combining marks (which `\b`
  /// passes over, and before which it never holds), a soft hyphen and a zero-width joiner (format
  /// characters, passed over too), non-ASCII letters and punctuation (which never separate);
  /// against a rebuild after every edit, and each report against the counts.
  @Test func wordAssertionRegexesMatchRebuild() throws {
    let patterns: [Pattern] = [
      .regex(#"\bthe\b"#), .regex(#"\b\w+ing\b"#), .regex(#"\Ba+"#), .regex(#"(?<!\w)ab"#), .regex(#"b(?!\w)"#),
      .regex(#"\b[a-z]+\b"#, ignoreCase: true), .regex(#"\bé"#), .regex(#"x\b"#), .regex(#"\b\d+\B"#),
      .regex(#"(\ba)+"#), .regex(#"\b(?:ab|ba)\b"#),
    ]
    for pattern in patterns {
      guard case .runs(let alphabet, readsBehind: true) = pattern.convergentReach else {
        Issue.record("\(pattern) is not matched by runs")
        return
      }
      #expect(alphabet.contains(UInt8(ascii: "q")) && alphabet.contains(UInt8(ascii: "_")), "\(pattern)")
    }
    let pieces = [
      "a", "b", "ab", "ba", " ", " ", " ", "the", "The", "then", "sing", "ing", "x", "1", "12", "_", ",", ".", "-", "é",
      "e\u{301}", "\u{301}", "\u{AD}", "\u{200D}", "日本", "—", "😀", "\t", "b a", "ß", "K",
    ]
    let (updates, edits) = try Self.randomLongLineEdits(
      patterns: patterns, pieces: pieces, runs: [("ab ", 20..<220), ("a", 20..<220), ("the ", 20..<120)],
      seed: 0xB0_0B)
    #expect(updates > edits * patterns.count / 2, "\(updates) convergent updates in \(edits) edits")
  }

  /// Whole-word regexes and alternations are matched by runs too (a rejected candidate's line is
  /// searched again between ICU's word boundaries, so a scan must see what a search of the whole
  /// line sees): their alphabet holds every word character and the punctuation next to which a
  /// boundary reads further (`'`, `.`, `,`, `;`, `:`, `"`), so that every ASCII character outside it
  /// cuts the line's boundaries in two (``WordBoundaries/separatesWords(_:)``), and each piece is
  /// matched from the separator before it. Whole-word literals whose candidates need ICU (`%s`,
  /// next to marks, ideographs, Thai, Hebrew quotes) fall back to the same runs. Against a rebuild
  /// after every random edit, and each report against the counts.
  @Test func wholeWordRegexesMatchRebuild() throws {
    let patterns: [Pattern] = [
      .regex("ab", wholeWord: true), .regex(#"\w+ing"#, wholeWord: true),
      .anyOf(["a", "ab", "the", "日本"], syntax: .literal, wholeWord: true),
      .regex("[a-z]+s", ignoreCase: true, wholeWord: true), .regex(#"\d+"#, wholeWord: true),
      .regex("é|e", wholeWord: true), .regex(#"\bthe|b$"#, wholeWord: true), .regex("^ab", wholeWord: true),
      .regex("a-b", wholeWord: true), .regex(#"\p{Thai}+"#, wholeWord: true), .regex("[%@]s", wholeWord: true),
    ]
    let literals: [Pattern] = [
      .literal("%s", wholeWord: true), .literal("日本", wholeWord: true), .literal("ab", wholeWord: true),
    ]
    for pattern in patterns + literals {
      let reach = pattern.convergentReach
      let runs = literals.contains(pattern) ? pattern.matchRuns : reach
      guard case .words = reach, literals.contains(pattern) else {
        guard case .runs(let alphabet, readsBehind: true) = runs else {
          Issue.record("\(pattern) is not matched by runs read behind")
          return
        }
        for c in UInt8(0)..<0x80 where !alphabet.contains(c) {
          #expect(WordBoundaries.separatesWords(c), "\(pattern): \(c) separates")
        }
        #expect(!alphabet.contains(UInt8(ascii: " ")) && alphabet.contains(UInt8(ascii: "'")), "\(pattern)")
        continue
      }
      guard case .runs(_, readsBehind: true) = runs else {
        Issue.record("\(pattern) falls back to no runs")
        return
      }
    }
    let pieces = [
      "a", "b", "ab", "ba", " ", " ", " ", "the", "The", "sing", "ing", "1", "1,000", "12", "_", ",", ".", ":", ";",
      "'", "\"", "@", "-", "a-b", "%s", "%", "é", "e\u{301}", "\u{301}", "\u{AD}", "\u{200D}", "日本", "本", "ภาษา",
      "ไทย", "א", "\u{5D0}\"\u{5D1}", "\u{1F1E9}", "😀", "\t", "\u{0B}", "ß", "K",
    ]
    let (updates, edits) = try Self.randomLongLineEdits(
      patterns: patterns + literals, pieces: pieces,
      runs: [("ab ", 20..<220), ("a", 20..<220), ("the ", 20..<120), ("%s ", 10..<60)], seed: 0x30_7D)
    #expect(
      updates > edits * (patterns.count + literals.count) / 2, "\(updates) convergent updates in \(edits) edits")
  }

  /// Regexes with look-around are matched by runs too, what a look-around reads joining the
  /// alphabet (`(?<=\$)\w+`: `$` is no separator), so that it never reads past a separator; they
  /// read behind, each piece matched from the separator before it. Look-behind and look-ahead,
  /// positive and negative, of literals, sets and lengths over one character, nested, beside word
  /// assertions, without case; against a rebuild after every random edit, and each report against
  /// the counts.
  @Test func lookAroundRegexesMatchRebuild() throws {
    let patterns: [Pattern] = [
      .regex(#"(?<=\$)\w+"#), .regex(#"\w+(?=\()"#), .regex(#"(?<!-)\b[a-z]+"#), .regex("a(?!b)"),
      .regex("(?<=a b)c+"), .regex(#"(?<![a-z])\d+"#), .regex("(?<=x)a+(?=y)"), .regex("(?<=é|ab)b"),
      .regex(#"b+(?=[a-c]{2}\b)"#), .regex("(?<=(?<!x)a)b", ignoreCase: true), .regex("a+(?=b)"),
      .regex(#"(?<=\w)a+"#),
    ]
    for pattern in patterns {
      guard case .runs(_, readsBehind: true) = pattern.convergentReach else {
        Issue.record("\(pattern) is not matched by runs read behind")
        return
      }
    }
    let alphabet = try #require(Pattern.regex(#"(?<=\$)\w+"#).matchAlphabet)
    #expect(alphabet.contains(UInt8(ascii: "$")) && !alphabet.contains(UInt8(ascii: " ")))
    let pieces = [
      "a", "b", "ab", "ba", "c", " ", " ", " ", "$", "$x", "(", "f(", "-", "-ab", "a b", "a bc", "x", "y", "xay", "1",
      "12", "a1", "é", "éb", "K", "A", "_", ",", ".", "日本", "\u{301}", "\t", "\u{0B}",
    ]
    let (updates, edits) = try Self.randomLongLineEdits(
      patterns: patterns, pieces: pieces, runs: [("ab ", 20..<220), ("a", 20..<220), ("$x(y) ", 20..<120)],
      seed: 0x100C)
    #expect(updates > edits * patterns.count / 2, "\(updates) convergent updates in \(edits) edits")
  }

  /// A long line is read in pieces that end on a character's start: `a|ab` as whole words finds
  /// `ab` only by searching a rejected candidate's line again (`a` is tried first), which it does
  /// not do in a line holding an ill-formed byte, and a piece cut inside a character held one
  /// (every `ab` in the piece was lost: found by `wholeWordRegexesMatchRebuild`). A `.` typed
  /// before each of six `ab`, whose pieces of 256 bytes from there end inside a `€`.
  @Test func piecesEndOnACharacter() throws {
    let pattern = Pattern.anyOf(["a", "ab"], syntax: .literal, wholeWord: true)
    let document = try RotorDocument(elements: [TextElement(id: 0, text: String(repeating: "ab €€ ", count: 2000))])
    document.longLineThreshold = 48
    _ = try document.rotor(matching: pattern)
    // "ab €€ " is 10 bytes; the piece read from a `.` typed before `ab` holds the `.` and 255
    // bytes after it, and 255 is 5 more than a multiple of 10: it ends after the first byte of
    // the second `€`. Each `.` shifts the later `ab` by one; a match stays one.
    try Self.scriptedEdits(document, pattern, (0..<6).map { k in (10_000 + 11 * k..<10_000 + 11 * k, ".", 2000) })
    #expect(document.convergentMatchUpdates == 6)
  }

  /// Regexes with `^` and `$` are matched by runs too, each piece with the separator before it in
  /// view: inside a long line they match after and before ICU's other line terminators (VT, FF,
  /// NEL, LS, PS), at the element's edges, and nowhere else (a piece's start is no line's start).
  /// So are `\A` and `\z` (each line a text of its own: they match at the long line's edges only;
  /// not `\Z`, which matches before a VT ending the text, and so reads two characters; nor a
  /// look-around holding it: `a+(?=\Z)` kept a match before a VT that a typed `b` no longer let
  /// end the text, found by review: ``endBeforeATerminatorIsNotLocal``). Anchors alone and with word assertions, alternated with characters, without case;
  /// against a rebuild after every random edit, and each report against the counts.
  @Test func lineAnchorRegexesMatchRebuild() throws {
    let patterns: [Pattern] = [
      .regex(#"^\w+"#), .regex(#"\w+$"#), .regex("^a+|b+$"), .regex("(?:^|x)ab"), .regex("ab(?:$|,)"),
      .regex(#"^\d+\b"#), .regex("^[a-z]+$", ignoreCase: true), .regex(#"\b[ab]+$"#), .regex(#"\Aa+"#),
      .regex(#"b+\z"#), .regex(#"\Aab|b\z"#),
    ]
    for pattern in patterns {
      guard case .runs(_, readsBehind: true) = pattern.convergentReach else {
        Issue.record("\(pattern) is not matched by runs read behind")
        return
      }
    }
    let pieces = [
      "a", "b", "ab", "ba", " ", " ", "x", "1", "12", ",", "\u{0B}", "\u{0C}", "\u{85}", "\u{2028}", "\u{2029}", "é",
      "\u{301}", "A", "B", "日本", "_",
    ]
    let (updates, edits) = try Self.randomLongLineEdits(
      patterns: patterns, pieces: pieces, runs: [("ab ", 20..<220), ("a", 20..<220), ("\u{0B}ab", 10..<60)],
      seed: 0xA7_C0)
    #expect(updates > edits * patterns.count / 2, "\(updates) convergent updates in \(edits) edits")
  }

  /// `\Z` reads two characters (it matches before a VT that ends the text), also inside a
  /// look-around: typing `b` after `aaa` and a VT at the element's end makes the VT no longer end
  /// it, and deleting the `b` makes it end it again; each edit equals a rebuild.
  @Test func endBeforeATerminatorIsNotLocal() throws {
    let text = String(repeating: "c ", count: 40) + "aaa\u{0B}"
    for pattern: Pattern in [.regex(#"a+(?=\Z)"#), .regex(#"a+(?!\Z)"#), .regex(#"a+\Z"#)] {
      #expect(pattern.convergentReach == nil, "\(pattern)")
      let document = try RotorDocument(elements: [TextElement(id: 0, text: text)])
      document.longLineThreshold = 48
      _ = try document.rotor(matching: pattern)
      let end = text.utf8.count
      // `a+(?!\Z)` matches `aaa` or, before a VT that ends the text, `aa`.
      let typed = pattern.text == #"a+(?!\Z)"# ? 1 : 0
      try Self.scriptedEdits(document, pattern, [(end..<end, "b", typed), (end..<(end + 1), "", 1)])
    }
  }

  /// Why a word assertion's alphabet holds every word character: in `x the`, deleting the space
  /// makes `xthe`, where `\bthe\b` no longer matches. With the alphabet `t`, `h`, `e` alone, `x`
  /// would separate, the scan would start at `t` and read no word character before it. Typing `_`
  /// or `1` before a match removes it the same way; a mark typed after `the` removes it too
  /// (`\b` never holds before a mark), and typing a space brings each back. Each edit is matched
  /// again locally in a line of 100,000 bytes, and equals a rebuild.
  @Test func wordAssertionsReadTheWordCharacterBeforeARun() throws {
    let filler = String(repeating: "word ", count: 10_000)
    let document = try RotorDocument(elements: [TextElement(id: 0, text: filler + "x the " + filler)])
    let pattern = Pattern.regex(#"\bthe\b"#)
    _ = try document.rotor(matching: pattern)
    let at = filler.utf8.count + 1
    try Self.scriptedEdits(
      document, pattern,
      [
        (at..<at + 1, "", 0), (at..<at, " ", 1), (at + 1..<at + 1, "_", 0), (at + 1..<at + 2, "1", 0),
        (at + 1..<at + 2, "", 1), (at + 4..<at + 4, "\u{301}", 0), (at + 4..<at + 6, "", 1),
      ])
    #expect(document.convergentMatchUpdates == 7)
  }

  /// Patterns that read the bytes around a match (`\b`, `^`, `$`, whole words, look-around), in
  /// elements of several chunks: an edit that removes bytes keeps the chunk's storage, whose
  /// bytes beside the chunk are then not the text's. The lines matched again after deleting the
  /// byte before `the` at the element's start, after a line break and in a line, and the byte
  /// after it at a line's end and the element's, in short lines and in long ones; each equals a
  /// rebuild. (`\bthe\b` found nothing after `1` was deleted from `1the` at the element's start:
  /// ICU read the deleted `1`.)
  @Test func patternsReadOnlyTheTextAroundAChunk() throws {
    let filler = String(repeating: "word ", count: 1000)
    let patterns: [Pattern] = [
      .regex(#"\bthe\b"#), .regex("^the"), .regex("the$"), .regex(#"the\b"#), .regex(#"\Bhe"#), .regex(#"(?<!\w)the"#),
      .regex(#"\bthe"#, wholeWord: true), .literal("the", wholeWord: true), .regex("(?m)^the|the$"),
    ]
    let cases = [
      ("1the " + filler, 0), (filler + "\n1the x", filler.utf8.count + 1), (filler + "x 1the x", filler.utf8.count + 2),
      (filler + "x the1\n" + filler, filler.utf8.count + 5), (filler + "x the1", filler.utf8.count + 5),
    ]
    for pattern in patterns {
      for (text, at) in cases {
        for threshold in [16, 1 << 30] {
          let document = try RotorDocument(elements: [TextElement(id: 0, text: text)])
          document.longLineThreshold = threshold
          _ = try document.rotor(matching: pattern)
          try document.replace(utf8Range: at..<(at + 1), in: 0, with: "")
          let rebuilt = try RotorDocument(elements: document.elements)
          _ = try rebuilt.rotor(matching: pattern)
          let name = "matches: \(pattern)"
          #expect(
            Self.patternSnapshots(document)[name] == Self.patternSnapshots(rebuilt)[name],
            "\(pattern) at \(at) of \(text.utf8.count), threshold \(threshold)")
        }
      }
    }
    // Random edits in texts of several chunks (short lines and long ones): every pattern rotor
    // against a rebuild after each.
    let pieces = ["the", "the ", " ", "1", "x", "_", "\n", "\n", "é", "\u{301}", ",", "ab", "日本"]
    _ = try Self.randomLongLineEdits(
      patterns: patterns, pieces: pieces, runs: [("the ", 20..<200), ("word ", 100..<400)], seed: 0xC4_0E,
      texts: 6, length: 1500..<3000, steps: 30)
  }

  /// An element is matched as a rebuild reads it, followed by its gap (a line break): `^` after a
  /// line terminator that ends it (VT, FF, NEL, LS: the element's last line is empty) matches at
  /// its end, in the last element too. An edit of the element (in a short line and in a long
  /// one) and the insertion of a copy of it found nothing there (found by review); each equals a
  /// rebuild now.
  @Test func lineStartAfterATerminatorAtTheElementsEnd() throws {
    for pattern in [Pattern.regex("^"), .regex("^$"), .regex(#"^\s*$"#), .regex(#"^\w*"#)] {
      for threshold in [4, 1 << 30] {
        for texts in [["a\u{0B}", "b"], ["a\u{0B}"], ["b", "a\u{0C}"], ["a\u{85}", "", "b"], ["xa\u{2028}"]] {
          let document = try RotorDocument(
            elements: texts.enumerated().map { TextElement(id: $0.offset, text: $0.element) })
          document.longLineThreshold = threshold
          _ = try document.rotor(matching: pattern)
          let name = "matches: \(pattern)"
          try document.replace(utf8Range: 0..<1, in: 0, with: "c")
          try document.insert(TextElement(id: 99, text: try document.text(of: 0)), at: 0)
          let rebuilt = try RotorDocument(elements: document.elements)
          _ = try rebuilt.rotor(matching: pattern)
          let rotor = try #require(document.rotor(named: name))
          let want = try #require(rebuilt.rotor(named: name))
          #expect(
            rotor.map { $0.id } == want.map { $0.id }
              && rotor.indices.map { rotor.location(at: $0)!.utf8Range }
                == want.indices.map {
                  want.location(at: $0)!.utf8Range
                },
            "\(pattern) \(texts) threshold \(threshold)")
          // The edited element, when it ends with its terminator: `^` matched there.
          guard texts[0].unicodeScalars.last!.properties.isWhitespace else { continue }
          let end = try document.utf8Count(of: 0)
          #expect(
            want.indices.contains { want[$0].id == 0 && want.location(at: $0)!.utf8Range == end..<end },
            "\(pattern) \(texts)")
        }
      }
    }
  }

  /// A file whose last element ends the file with VT, FF, NEL, LS or PS (no final line break):
  /// opened, its pattern rotors read that element followed by a line break, as an edit reads it
  /// and as a document built from the same elements does (`^` matches at its end). The unedited
  /// file matched nothing there, and an edit that left the text as it was added a match (found by
  /// review).
  @Test func aFilesLastElementReadsAsAfterAnEdit() throws {
    for (text, kind) in [
      ("x\na\u{0B}", ElementKind.whole), ("x\na\u{0B}", .lines), ("x\n\na\u{2028}", .paragraphs),
      ("a\u{85}", .whole), ("x\na\u{0C}\n", .lines),
    ] {
      let path = "/tmp/textrotor-last-element-\(UInt64.random(in: 0...UInt64.max)).txt"
      try writeFile(path, text)
      defer { unlink(path) }
      for pattern in [Pattern.regex("^$"), .regex("^"), .regex(#"\s^"#)] {
        let document = try RotorDocument(contentsOf: path, elements: kind)
        let name = "matches: \(pattern)"
        func snapshot(_ d: RotorDocument<Int>) -> [String] {
          let rotor = d.rotor(named: name)!
          return rotor.indices.map { "\(rotor[$0].id!):\(rotor.location(at: $0)!.utf8Range)" }
        }
        _ = try document.rotor(matching: pattern)
        let fresh = snapshot(document)
        let built = try RotorDocument(elements: document.elements)
        _ = try built.rotor(matching: pattern)
        #expect(fresh == snapshot(built), "\(text.debugDescription) \(kind) \(pattern)")
        let last = document.elementIDs.last!
        let end = try document.utf8Count(of: last)
        let final = String(try document.text(of: last).unicodeScalars.last!)
        try document.replace(utf8Range: (end - final.utf8.count)..<end, in: last, with: final)
        #expect(fresh == snapshot(document), "\(text.debugDescription) \(kind) \(pattern) after an edit")
      }
    }
  }

  /// An element over 16 MB is matched in windows (`forEachBatch`): its last window, when it lies
  /// in one chunk, was that chunk's storage, whose byte before the window was a deleted one (`1`
  /// of `1the`: `^the` and `\bthe\b` lost their match; found by an audit), and nothing followed
  /// the element's end, where a small element has its gap (`^$` after a final VT found nothing).
  @Test func windowsOfALongElementReadOnlyTheText() throws {
    let limit = 16 << 20
    var text = String(repeating: "abcdefghi\n", count: limit / 10)
    text += String(repeating: "x", count: limit + 600 - text.utf8.count) + "\n"
    let q = text.utf8.count  // the last line's start, inside the last chunk
    text += "1the end " + String(repeating: "word ", count: 150) + "the\u{0B}"
    #expect(text.utf8.count < limit + 2048)
    let document = try RotorDocument(elements: [TextElement(id: 0, text: text)])
    try document.replace(utf8Range: q..<(q + 1), in: 0, with: "")
    let rebuilt = try RotorDocument(elements: document.elements)
    for pattern: Pattern in [.regex("^the"), .regex(#"\bthe\b"#), .literal("the", wholeWord: true), .regex("^$")] {
      let got = try document.rotor(matching: pattern)
      let want = try rebuilt.rotor(matching: pattern)
      let g = got.indices.map { got.location(at: $0)!.utf8Range }.filter { $0.lowerBound >= limit }
      let w = want.indices.map { want.location(at: $0)!.utf8Range }.filter { $0.lowerBound >= limit }
      #expect(g == w, "\(pattern)")
      #expect(!g.isEmpty, "\(pattern)")
    }
    let end = text.utf8.count - 1
    let blank = try document.rotor(matching: .regex("^$"))
    #expect(blank.indices.last.map { blank.location(at: $0)!.utf8Range } == end..<end)
  }

  /// Whole-word literals (``MatchReach/words(_:)``): in a long line an edit is matched again from
  /// the literal's reach and a character before it, each candidate's boundaries decided from the
  /// characters next to it as a search of the whole line decides them
  /// (``PatternMatcher/localWholeWordMatches(in:range:context:)``), or the line is matched when
  /// one needs ICU (next to `.`, `,`, `'`, a mark, an ideograph). Letters, digits, `_`, spaces,
  /// punctuation, combining marks, case folding (`SS` as a whole word: `ß`, `ſs`), words typed
  /// into, split and joined; against a rebuild after every edit, and each report against the
  /// counts.
  @Test func wholeWordLiteralsMatchRebuild() throws {
    let patterns: [Pattern] = [
      .literal("ab", wholeWord: true), .literal("the", wholeWord: true), .literal("a", wholeWord: true),
      .literal("SS", ignoreCase: true, wholeWord: true), .literal("x1", wholeWord: true),
      .literal("é", wholeWord: true),
      .literal("1", wholeWord: true), .literal("日本", wholeWord: true), .literal("b a", wholeWord: true),
    ]
    for pattern in patterns {
      guard case .words = pattern.convergentReach else {
        Issue.record("\(pattern) is not matched as whole words")
        return
      }
    }
    let pieces = [
      "a", "b", "ab", "ba", " ", " ", " ", "the", "The", "then", "x1", "1", "12", "_", ",", ".", "'", ":", "-", "é",
      "e\u{301}", "\u{301}", "ß", "ss", "SS", "ſs", "日本", "本", "😀", "\t", "b a",
    ]
    let (updates, edits) = try Self.randomLongLineEdits(
      patterns: patterns, pieces: pieces, runs: [("ab ", 20..<220), ("a", 20..<220)], seed: 0x3D_17)
    // The text is dense with characters next to which ICU decides (`.`, `,`, `'`, marks,
    // ideographs): a third of the updates stay local here.
    #expect(updates > edits * patterns.count / 4, "\(updates) convergent updates in \(edits) edits")
  }

  /// A whole word's boundaries are read from the characters beside it, also across the edges of
  /// the text matched again: `ab` typed right after a space, right before one, after `x` (not a
  /// whole word), then the `x` deleted (now one), in a line of 100,000 bytes; each is matched
  /// again over a few bytes and equals a rebuild.
  @Test func wholeWordBoundariesAcrossTheScannedText() throws {
    let filler = String(repeating: "word ", count: 20_000)
    let document = try RotorDocument(elements: [TextElement(id: 0, text: filler + filler)])
    let pattern = Pattern.literal("ab", wholeWord: true)
    _ = try document.rotor(matching: pattern)
    let name = "matches: \(pattern)"
    let at = filler.utf8.count
    try Self.scriptedEdits(
      document, pattern,
      [(at..<at, "ab ", 1), (at + 3..<at + 3, "xab ", 1), (at + 3..<at + 4, "", 2), (at..<at + 6, "", 0)])
    #expect(document.convergentMatchUpdates == 4)
    // At the element's end, where the scan cannot go 8 bytes past the inserted ones: the end
    // agrees (the scan doubled its pieces there until the size overflowed, a trap).
    let end = try document.utf8Count(of: 0)
    for (range, typed) in [(end..<end, "x"), (end..<(end + 1), ""), (end - 1..<end, " ab"), (end..<end, "c")] {
      try document.replace(utf8Range: range, in: 0, with: typed)
      let rebuilt = try RotorDocument(elements: document.elements)
      _ = try rebuilt.rotor(matching: pattern)
      #expect(Self.patternSnapshots(document)[name] == Self.patternSnapshots(rebuilt)[name], "end: \(range) \(typed)")
    }
    #expect(document.convergentMatchUpdates == 8)
    // Whole-word regexes and alternations are matched by runs (``wholeWordRegexesMatchRebuild``).
    #expect(Pattern.regex("ab", wholeWord: true).convergentReach == Pattern.regex("ab", wholeWord: true).matchRuns)
    #expect(Pattern.literal("ab", wholeWord: true).convergentReach == .words(2))
    #expect(Pattern.literal("", wholeWord: true).convergentReach == nil)
  }

  /// Whole-word candidates that ICU decides, after deletes at the start of the text: a deletion at
  /// a chunk's start keeps its storage (the deleted bytes before the new range), and ICU's text
  /// for the previous search of the same storage, cut in the old range, was reused, so a line's
  /// start read the deleted bytes (`the，` after two deletes: the soft hyphen before it was still
  /// there to ICU, no boundary, no match; found by review).
  @Test func icuWordBoundariesAfterDeletesAtTheStart() throws {
    for (text, literal, ignoreCase) in [
      (String(repeating: "ab\u{AD}the， ", count: 120), "the", false),
      ("kＡД，\n" + String(repeating: "x", count: 600), "д", true),
    ] {
      let document = try RotorDocument(elements: [TextElement(id: 0, text: text)])
      document.longLineThreshold = 48
      let pattern = Pattern.literal(literal, ignoreCase: ignoreCase, wholeWord: true)
      _ = try document.rotor(matching: pattern)
      let name = "matches: \(pattern)"
      for range in [0..<1, 0..<3] {
        try document.replace(utf8Range: range, in: 0, with: "")
        let rebuilt = try RotorDocument(elements: document.elements)
        _ = try rebuilt.rotor(matching: pattern)
        #expect(Self.patternSnapshots(document)[name] == Self.patternSnapshots(rebuilt)[name], "\(literal) \(range)")
      }
    }
  }

  /// A separator that is far (`[^,]+` in a line without commas): past 64 KB before or after the
  /// edit the update gives up and the line is matched once, instead of searching back to the
  /// line's start and matching in pieces from there (2–3 times the line's matching); near, it
  /// stays local. Equal to a rebuild either way.
  @Test func farSeparatorsMatchTheLine() throws {
    let pattern = Pattern.regex("[^,]+")
    for (text, local) in [
      (String(repeating: "word ", count: 40_000), false),
      (String(repeating: "word, ", count: 40_000), true),
      (String(repeating: "w", count: 100_000) + "," + String(repeating: "w", count: 80_000), false),
    ] {
      let document = try RotorDocument(elements: [TextElement(id: 0, text: text)])
      _ = try document.rotor(matching: pattern)
      let at = text.utf8.count - 1_000
      try document.replace(utf8Range: at..<at, in: 0, with: "x")
      let rebuilt = try RotorDocument(elements: document.elements)
      _ = try rebuilt.rotor(matching: pattern)
      let name = "matches: \(pattern)"
      #expect(Self.patternSnapshots(document)[name] == Self.patternSnapshots(rebuilt)[name])
      #expect(document.convergentMatchUpdates == (local ? 1 : 0), "\(text.prefix(12))")
    }
  }

  /// Which regexes are matched again by runs (``Pattern/matchAlphabet``): the separators are the
  /// ASCII characters outside the alphabet; a pattern that may match empty, reads context, holds
  /// U+FFFD, or whose alphabet holds every printable ASCII character (`.+`) has none; without
  /// case, nor has a pattern with a literal character outside ASCII or spelled by code point (full
  /// case folding: `ß` matches `ss`).
  @Test func runsOnlyForContextFreePatternsWithSeparators() throws {
    let word = try #require(Pattern.regex(#"\w+ing"#).matchAlphabet)
    #expect(word.contains(UInt8(ascii: "a")) && word.contains(UInt8(ascii: "_")) && word.contains(UInt8(ascii: "7")))
    #expect(!word.contains(UInt8(ascii: " ")) && !word.contains(UInt8(ascii: "-")) && !word.contains(0x0A))
    let runs = MatchReach.runs(word, readsBehind: false)
    #expect(runs.separates(UInt8(ascii: ",")) && !runs.separates(UInt8(ascii: "q")) && !runs.separates(0xC3))
    #expect(!MatchReach.bytes(4).separates(UInt8(ascii: " ")))
    let digits = try #require(Pattern.regex("[0-9]+").matchAlphabet)
    #expect(digits.contains(UInt8(ascii: "5")) && !digits.contains(UInt8(ascii: "a")))
    let caseless = try #require(Pattern.regex("k+", ignoreCase: true).matchAlphabet)
    #expect(caseless.contains(UInt8(ascii: "K")) && caseless.contains(0xE2))  // the Kelvin sign's lead byte
    for text in ["a+", "(ab|c)*d", "[a-z]{2,}", #"\d+?x"#, "[ß]+", "ß+", "[^x]+"] {
      #expect(Pattern.regex(text).matchAlphabet != nil, "\(text)")
    }
    #expect(Pattern.regex("[ß]+", ignoreCase: true).matchAlphabet != nil)
    // Bounded patterns keep their reach in bytes; past 1 KB they are matched by runs.
    #expect(Pattern.regex("ab").convergentReach == .bytes(12))
    #expect(
      Pattern.regex("[a-z]{300}").convergentReach
        == Pattern.regex("[a-z]{300}").matchAlphabet.map { .runs($0, readsBehind: false) })
    let none = [
      ".+", #"[\s\S]+"#, "a*", #"(a)\1+"#, #"a+\Z"#, #"a+(?=\Z)"#, #"a+(?!\Z)"#, #"a(?=(?:x|\Z))"#, "(?i)a+", "a+|",
      "\u{FFFD}+", #"\X+"#,
      #"\b"#, #"(?w)\ba+"#, #"\b{w}a+"#, #"\b.+"#, #"(?<=.)a+"#, #"a+(?=\X)"#, #"a+(?!(a)\1)"#, #"(?=a)"#,
    ]
    for text in none { #expect(Pattern.regex(text).matchAlphabet == nil, "\(text)") }
    for text in [
      "ß+", #"\x{DF}+"#, #"\u00DF+"#, #"\N{LATIN SMALL LETTER SHARP S}+"#, "[ﬀ]+", #"[\x{FB00}]+"#, "[İ]+",
      #"\p{Name=LATIN SMALL LIGATURE FF}+"#, "a+ǰ",
    ] {
      #expect(Pattern.regex(text, ignoreCase: true).matchAlphabet == nil, "\(text)")
    }
    // Sets of several code points fold simply; characters that fold to one keep their alphabet.
    for text in ["[ﬁﬂ]+", "(?:é|a)+", "[a-z]+", #"\w+"#, "k+"] {
      #expect(Pattern.regex(text, ignoreCase: true).matchAlphabet != nil, "\(text)")
    }
    // Line anchors read the character beside them: runs read behind, the alphabet as it is.
    for text in ["^a+", "a+$", "(?:^|x)a+"] {
      let alphabet = try #require(Pattern.regex(text).matchAlphabet, "\(text)")
      #expect(!alphabet.contains(UInt8(ascii: "q")), "\(text)")
      #expect(Pattern.regex(text).convergentReach == .runs(alphabet, readsBehind: true), "\(text)")
    }
    // Word assertions: the alphabet holds every word character besides.
    for text in [#"\ba+"#, #"\bthe\b"#, #"\Bx+"#, #"(?<!\w)ab"#, #"ab(?!\w)"#] {
      let alphabet = try #require(Pattern.regex(text).matchAlphabet, "\(text)")
      #expect(alphabet.contains(UInt8(ascii: "Z")) && alphabet.contains(UInt8(ascii: "9")), "\(text)")
      #expect(!alphabet.contains(UInt8(ascii: " ")) && !alphabet.contains(UInt8(ascii: ".")), "\(text)")
    }
    #expect(Pattern.regex(#"\bthe\b"#).regexReach == nil)
    // A whole word reads its neighbours: every word character and the punctuation next to which
    // a boundary reads further (``wholeWordRegexesMatchRebuild``).
    let whole = try #require(Pattern.regex("a+", wholeWord: true).matchAlphabet)
    #expect(whole.contains(UInt8(ascii: "Z")) && whole.contains(UInt8(ascii: ".")) && !whole.contains(0x20))
    #expect(Pattern.literal("a+").matchAlphabet == nil)
    // Why: `x` typed after `ss` in a long line makes a match of `ß+x` that starts at the first `s`,
    // which runs of `x` (and of what is not ASCII) cut by `s` would not read.
    for (pattern, text, want) in [
      (Pattern.regex("ß+x", ignoreCase: true), "ss", 0..<3), (.regex(#"\x{FB00}+x"#, ignoreCase: true), "FF", 0..<3),
      (.regex("[ﬀ]+x", ignoreCase: true), "fF", 0..<3),
    ] {
      let filler = String(repeating: "a", count: 100)
      let document = try RotorDocument(elements: [TextElement(id: 0, text: filler + " " + text + " " + filler)])
      document.longLineThreshold = 16
      _ = try document.rotor(matching: pattern)
      let at = filler.utf8.count + 1 + text.utf8.count
      try document.replace(utf8Range: at..<at, in: 0, with: "x")
      let rotor = try #require(document.rotor(named: "matches: \(pattern)"))
      #expect(
        rotor.indices.map { rotor.location(at: $0)!.utf8Range } == [
          (want.lowerBound + at - 2)..<(want.upperBound + at - 2)
        ],
        "\(pattern)")
    }
  }

  /// A regex's reach counts bytes, four a character: typing `Z` after `日😀😀` makes a match of
  /// `日..Z` that starts 11 bytes before the edit (a reach of one byte a character would start the
  /// scan inside the emoji and miss it), and deleting it again removes it; likewise at the end of
  /// the scan, for a match that the edit moves.
  @Test func regexReachCountsBytes() throws {
    let filler = String(repeating: "word ", count: 40)
    let document = try RotorDocument(elements: [TextElement(id: 0, text: filler + "日😀😀" + filler + "日😀😀Z" + filler)])
    document.longLineThreshold = 16
    let pattern = Pattern.regex("日..Z")
    _ = try document.rotor(matching: pattern)
    let name = "matches: \(pattern)"
    let at = filler.utf8.count + "日😀😀".utf8.count
    for (range, typed) in [(at..<at, "Z"), (at..<(at + 1), ""), (0..<0, "😀😀")] {
      try document.replace(utf8Range: range, in: 0, with: typed)
      let rebuilt = try RotorDocument(elements: document.elements)
      _ = try rebuilt.rotor(matching: pattern)
      #expect(Self.patternSnapshots(document)[name] == Self.patternSnapshots(rebuilt)[name], "\(range) \(typed)")
    }
    #expect(document.convergentMatchUpdates == 3)
  }

  /// Documents of one to three elements (some empty) at several long-line thresholds: edits at
  /// any scalar boundary of any element (often its start or end), pattern rotors and every system
  /// rotor compared with a rebuild, and each pattern rotor's report checked against the counts.
  @Test func severalElementsMatchRebuild() throws {
    let patterns: [Pattern] = [
      .literal("aa"), .literal("aba"), .literal("ss", ignoreCase: true), .literal("K", ignoreCase: true),
      .anyOf(["b", "abab"], syntax: .literal), .anyOf(["ſ", "st"], syntax: .literal, ignoreCase: true),
    ]
    let pieces = ["a", "b", "ab", " ", "ß", "s", "S", "ſ", "st", "ﬆ", "k", "\u{212A}", "é", "日本", "\n", "\r\n", "\t"]
    var seeds = SeededRandom(seed: 0x5E_7E)
    var convergent = 0
    for _ in 0..<TestScale.count(20) {
      let seed = seeds.next()
      var rng = SeededRandom(seed: seed)
      let texts = (0..<(1 + Int(rng.next() % 3))).map { _ in
        rng.next() % 5 == 0
          ? ""
          : (0..<(20 + Int(rng.next() % 150))).map { _ in
            rng.next() % 20 == 0
              ? String(repeating: "a", count: 10 + Int(rng.next() % 60))
              : pieces[Int(rng.next() % UInt64(pieces.count))]
          }.joined()
      }
      let document = try RotorDocument(
        elements: texts.enumerated().map { TextElement(id: $0.offset, text: $0.element) })
      document.longLineThreshold = [4, 16, 48][Int(rng.next() % 3)]
      for kind in SystemRotor.allCases { _ = try document.rotor(kind) }
      for pattern in patterns { _ = try document.rotor(matching: pattern) }
      defer { convergent += document.convergentMatchUpdates }
      for step in 0..<40 {
        let id = Int(rng.next() % UInt64(texts.count))
        let current = try document.text(of: id)
        var a = DocumentEditModelTests.randomIndex(in: current, &rng)
        if rng.next() % 4 == 0 { a = rng.next() % 2 == 0 ? current.startIndex : current.endIndex }
        let scalars = current.unicodeScalars
        let b =
          rng.next() % 3 == 0
          ? scalars.index(a, offsetBy: Int(rng.next() % 4), limitedBy: scalars.endIndex) ?? scalars.endIndex : a
        let inserted = (0..<Int(rng.next() % 3)).map { _ in pieces[Int(rng.next() % UInt64(pieces.count))] }.joined()
        let description =
          "seed \(seed) step \(step): element \(id), replace \(current.utf8.distance(from: current.startIndex, to: a))..<\(current.utf8.distance(from: current.startIndex, to: b)) with \(inserted.debugDescription)"
        let counts = Dictionary(
          uniqueKeysWithValues: document.rotorNames.map { ($0, document.rotor(named: $0)!.count) })
        let change = try document.replace(a..<b, in: id, with: inserted)
        let rebuilt = try RotorDocument(elements: document.elements)
        for pattern in patterns { _ = try rebuilt.rotor(matching: pattern) }
        let got = try DocumentEditModelTests.rotorSnapshots(document)
        let want = try DocumentEditModelTests.rotorSnapshots(rebuilt)
        for (name, entries) in want {
          #expect(got[name] == entries, "\(description): \(name)")
          guard got[name] == entries else { return }
          guard let old = counts[name], let reported = change.named[name], !reported.rebuilt else { continue }
          #expect(
            old - reported.removed.count + reported.added.count == entries.count,
            "\(description): \(name) reported \(reported)")
        }
      }
    }
    #expect(convergent > TestScale.count(20) * 25, "\(convergent) convergent pattern updates")
  }

  /// The scan's start is moved to its character's start before an old match holding it is looked
  /// for: `reach` bytes before the edit is a stray continuation byte right after the match `ab`,
  /// and stepping back over it after the check started the scan inside that match, which then
  /// found `b` again, overlapping it (found by review; ill-formed bytes reach an element only
  /// through the engine's own initializers, files are repaired to U+FFFD).
  @Test func scanStartsOutsideOldMatchesInIllFormedText() throws {
    let bytes: [UInt8] = Array("ab".utf8) + [0x80] + Array("cdefghij".utf8)
    let table = try DocumentText<Int>(elements: [
      (0, TextRope(ByteStorage(bytes), 0..<bytes.count), ElementItem.virtualGap)
    ])
    let document = RotorDocument<Int>(table: table, source: nil, segmenter: Segmenter())
    document.longLineThreshold = 1
    let pattern = Pattern.anyOf(["ab", "b"], syntax: .literal)
    #expect(pattern.matchReach == 2)
    _ = try document.rotor(matching: pattern)
    let change = try document.replace(utf8Range: 4..<4, in: 0, with: "x")
    #expect(document.convergentMatchUpdates == 1)
    let name = "matches: \(pattern)"
    let rotor = try #require(document.rotor(named: name))
    #expect(rotor.indices.map { rotor.location(at: $0)!.utf8Range } == [0..<2])
    // One match before the edit and after it: the report removes and adds as many.
    let reported = try #require(change.named[name])
    #expect(reported.removed.count == reported.added.count, "\(reported)")
  }

  /// Patterns whose matches depend on the text around them, may be empty, or have no bound have no
  /// reach in bytes (``Pattern/matchReach``): whole-word patterns, regexes with anchors, word
  /// boundaries, look-around, back-references, flags or unbounded repeats, a pattern of U+FFFD.
  /// (Some of them are matched by runs instead: ``runsOnlyForContextFreePatternsWithSeparators``.)
  @Test func boundedReachOnlyForContextFreePatterns() {
    #expect(Pattern.literal("ab").matchReach == 2)
    #expect(Pattern.literal("日本").matchReach == 6)
    #expect(Pattern.literal("SS", ignoreCase: true).matchReach == 24)
    #expect(Pattern.anyOf(["a", "abc"], syntax: .literal).matchReach == 3)
    #expect(Pattern.literal("ab", wholeWord: true).matchReach == nil)
    #expect(Pattern.anyOf(["a", "b"], syntax: .literal, wholeLine: true).matchReach == nil)
    #expect(Pattern.literal("\u{FFFD}").matchReach == nil)
    #expect(Pattern.literal("").matchReach == nil)
    // Regexes: 4 bytes a character (12 without case) and the character after.
    #expect(Pattern.regex("ab").matchReach == 12)
    #expect(Pattern.regex("ab", ignoreCase: true).matchReach == 28)
    #expect(Pattern.anyOf(["a", "b"], syntax: .regex).matchReach == 8)
    #expect(Pattern.regex(#"\d{4}-\d{2}"#).matchReach == 7 * 4 + 4)
    #expect(Pattern.regex("colou?r|(ab|c){1,2}").matchReach == 6 * 4 + 4)
    #expect(Pattern.regex("(ab|cde){1,2}|x").matchReach == 6 * 4 + 4)
    #expect(Pattern.regex("x{2,5}?[a-z]").matchReach == 6 * 4 + 4)
    let unbounded = [
      "a+", "a*b", "[a-z]{2,}", "^a", "a$", #"\bab"#, #"a\B"#, "(?=a)b", "a(?!b)", "(?<=a)b", #"(a)\1"#, "(?i)a",
      #"\Aa"#, #"\X"#, #"\R"#, "a|", "(?:)", "x{0}", "a??", #"\x{FFFD}"#, "\u{FFFD}", "[a", "(a",
      #"\N{REPLACEMENT CHARACTER}"#,
      // Past Int.max: counts that ICU takes, nested (the sums and products do not overflow).
      "(((a{100000}){100000}){100000}){100000}",
      "(((a{100000}){100000}){100000}){9000}(((b{100000}){100000}){100000}){9000}",
    ]
    for text in unbounded { #expect(Pattern.regex(text).matchReach == nil, "\(text)") }
    #expect(Pattern.regex("a{70000}").matchReach == 70000 * 4 + 4)
    // A regex search of such a pattern reads its shape too (required literals): no overflow there.
    #expect(throws: Never.self) { _ = try? PatternMatcher(.regex("(?:(((a{100000}){100000}){100000}){100000})")) }
    #expect(Pattern.regex("ab", wholeWord: true).matchReach == nil)
    #expect(Pattern.anyOf(["a", "b"], syntax: .regex, wholeLine: true).matchReach == nil)
  }
}

/// Line breaks typed into long lines, deleted, CR and LF brought together or apart: the lines and
/// paragraphs rotors are updated from the bytes around the edit (`lineBreakUpdate`), not by
/// segmenting the lines it touches, and every rotor must equal a rebuild after each edit.
@Suite struct LineBreakEditTests {
  @Test func lineBreaksMatchRebuild() throws {
    let pieces = ["word", " ", "a", "Hello, world. ", "é", "日本", "  ", "\t", "x"]
    let breaks = ["\n", "\r\n", "\r", "\n\n", " \n", "\n\t\n", "\r\r\n"]
    var seeds = SeededRandom(seed: 0x1B_7E)
    var edits = 0
    var updates = 0
    for _ in 0..<TestScale.count(10) {
      let seed = seeds.next()
      var rng = SeededRandom(seed: seed)
      var text = ""
      for _ in 0..<(200 + Int(rng.next() % 400)) {
        text +=
          rng.next() % 40 == 0
          ? breaks[Int(rng.next() % UInt64(breaks.count))] : pieces[Int(rng.next() % UInt64(pieces.count))]
      }
      let document = try RotorDocument(elements: [TextElement(id: 0, text: text)])
      for kind in SystemRotor.allCases { _ = try document.rotor(kind) }
      let before = document.lineBreakUpdates
      for step in 0..<40 {
        let current = try document.text(of: 0)
        let bytes = Array(current.utf8)
        var a = DocumentEditModelTests.randomIndex(in: current, &rng)
        // Often at the end, after a line break, or next to a CR or an LF.
        switch rng.next() % 6 {
        case 0: a = current.endIndex
        case 1:
          if let k = bytes.indices.filter({ bytes[$0] == 0x0A || bytes[$0] == 0x0D }).randomElement(using: &rng) {
            a = current.utf8.index(current.startIndex, offsetBy: k + Int(rng.next() % 2))
          }
        default: break
        }
        var b = a
        let inserted: String
        if rng.next() % 3 == 0 {
          // Delete one to three scalars (a line break among them, often).
          let scalars = current.unicodeScalars
          b = scalars.index(a, offsetBy: 1 + Int(rng.next() % 3), limitedBy: scalars.endIndex) ?? scalars.endIndex
          inserted = rng.next() % 2 == 0 ? "" : breaks[Int(rng.next() % UInt64(breaks.count))]
        } else {
          inserted = breaks[Int(rng.next() % UInt64(breaks.count))]
        }
        let description =
          "seed \(seed) step \(step): replace \(current.utf8.distance(from: current.startIndex, to: a))..<\(current.utf8.distance(from: current.startIndex, to: b)) with \(inserted.debugDescription)"
        try document.replace(a..<b, in: 0, with: inserted)
        edits += 1
        guard try DocumentEditModelTests.matchesRebuild(document, description) else { return }
      }
      updates += document.lineBreakUpdates - before
    }
    // Lines and paragraphs are two updates an edit; paragraphs fall back where a blank line
    // comes or goes.
    #expect(updates > edits, "\(updates) line-break updates in \(edits) edits")
  }

  /// Line breaks typed into a minified JSON line (one sentence of kilobytes, no old boundary near
  /// any edit): the sentences, words and line-break segments come from the rule machine's
  /// re-synchronization (the new run begins a pass after the line break, inside the old run's
  /// pass), and every rotor must equal a rebuild.
  @Test func lineBreaksInLongSentencesMatchRebuild() throws {
    var records = ""
    for r in 0..<120 {
      records +=
        "{\"id\":\(r),\"name\":\"Element \(r) has a few words. e.g. U.S. (see) x.\",\"tags\":[\"a\",\"b\"],\"score\":\(r % 97).5},"
    }
    var rng = SeededRandom(seed: 0x75_0E)
    var edits = 0
    let document = try RotorDocument(elements: [TextElement(id: 0, text: records)])
    document.longLineThreshold = 48
    document.boundaryReach = 0  // no old boundary looked for: the machine's re-synchronization
    document.runEdits = false
    for kind in SystemRotor.allCases { _ = try document.rotor(kind) }
    for step in 0..<TestScale.count(60) {
      let current = try document.text(of: 0)
      let bytes = Array(current.utf8)
      let a = Int(rng.next() % UInt64(bytes.count + 1))
      let typed = ["\n", "\r\n", "\r", " \n", ".\n", "\nA"][Int(rng.next() % 6)]
      let description = "step \(step): \(typed.debugDescription) at \(a)"
      try document.replace(utf8Range: a..<a, in: 0, with: typed)
      // Deleted again half of the time (the line joined, a CR LF maybe brought together).
      if rng.next() % 2 == 0 { try document.replace(utf8Range: a..<(a + typed.utf8.count), in: 0, with: "") }
      edits += 1
      guard try DocumentEditModelTests.matchesRebuild(document, description) else { return }
    }
    #expect(document.resynchronized > edits, "\(document.resynchronized) re-synchronized updates in \(edits) edits")
  }
}
