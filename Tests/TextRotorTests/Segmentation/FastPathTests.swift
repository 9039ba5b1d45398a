import Glibc
import Testing
import TextRotorICU

@testable import TextRotor

/// Differential proof that the fast paths (the native ASCII segmenters for words and characters,
/// and the native rule machine running ICU's compiled rules for all four rule sets) give ICU's
/// output: every test segments the same text twice, with `useFastPaths` on and off (the pure ICU
/// path), and requires the same boundaries and statuses.
@Suite struct FastPathTests {
  static let rotors: [SystemRotor] = [.words, .characters, .sentences, .linebreaks, .proseSentences]
  /// Locales the fast path is enabled for, each verified here (exhaustively for root).
  static let locales = [
    "", "en", "en_US", "en_GB", "de", "de_DE", "fr", "es", "it", "pt_BR", "nl", "ru", "uk", "pl",
    "el", "th", "ja", "zh", "zh_Hant_TW", "ko",
  ]

  /// One character each: every ASCII word-break class, and some non-ASCII kinds.
  static let asciiAlphabet: [[UInt8]] = [
    "a", "Z", "@", "1", "_", ".", ",", ":", ";", "'", "\"", " ", "\t", "-", "\r", "\n", "\u{0B}",
  ].map { Array($0.utf8) }
  static let otherAlphabet: [[UInt8]] = [
    "é",  // precomposed letter
    "\u{0301}",  // combining acute (Extend)
    "😀",  // Extended_Pictographic
    "中",  // Han (dictionary)
    "\u{00A0}",  // no-break space
    "\u{200D}",  // ZWJ
  ].map { Array($0.utf8) }

  /// Every category of each rule set's own table (read from ICU), in each UTF-8 length it has:
  /// all strings of up to three such characters. This reaches every column of the native machine
  /// (its ASCII loop, its 2- and 3-byte inner loop, its pair step, its general step) against ICU.
  @Test(arguments: rotors)
  func exhaustiveCategories(rotor: SystemRotor) throws {
    let rules = try #require(IteratorCache.shared.rules(rotor.breakKind!, locale: ""))
    var alphabet = rules.representatives().map { Array(String(Character(Unicode.Scalar($0)!)).utf8) }
    // Ill-formed UTF-8 too: a stray continuation byte and a truncated sequence.
    alphabet += [[0x80], [0xE4, 0xB8]]
    let (text, elements) = Self.allStrings(alphabet, upTo: 3)
    #expect(alphabet.count > 20)
    try Self.compare(text, elements, rotor, locale: "", context: "all category strings (\(alphabet.count) characters)")
  }

  /// Counting (`Segmenter.count`, what `segment --count` runs) takes its own paths: the ASCII
  /// word kernel of the shim (bit masks, 64 bytes at a time), the rule machine's counts per batch.
  /// Its numbers of segments and of words must be those of ICU's segments.
  @Test(arguments: rotors)
  func countsEqualICU(rotor: SystemRotor) throws {
    var cases: [(String, [UInt8], [Range<Int>])] = []
    let (short, elements) = Self.allStrings(Self.asciiAlphabet, upTo: 4)
    cases.append(("all ASCII strings up to length 4", short, elements))
    var rng = SeededRandom(seed: SeededRandom.seedFromEnvironment())
    let seed = rng.seed
    for round in 0..<300 {
      var text: [UInt8] = []
      for _ in 0..<Int.random(in: 1...8, using: &rng) { text += Self.randomText(&rng, asciiBias: round % 2 == 0) }
      cases.append(("random text \(round) (TEXTROTOR_SEED=\(seed))", text, [0..<text.count]))
    }
    for name in ["english-1mb.txt", "multilingual-20mb.txt"] {
      let path = Fixtures.packageRoot + "/Corpora/generated/" + name
      guard access(path, R_OK) == 0 else { continue }
      let file = try ByteStorage.contentsOf(path: path)
      let text = file.copyBytes(0..<min(file.count, 3 << 20))
      let end = text.lastIndex(of: 0x0A).map { $0 + 1 } ?? text.count
      cases.append((name, Array(text[..<end]), [0..<end]))
    }
    for (context, text, elements) in cases {
      let bytes = ByteStorage(text)
      let icu = try Self.segments(bytes, elements, rotor, locale: "", fast: false)
      var segmenter = Segmenter(locale: "", threads: 1)
      segmenter.useFastPaths = true
      let counted = try segmenter.count(bytes, elements: elements, rotor: rotor)
      #expect(counted.entries == icu.count, "\(context): \(rotor) entries")
      #expect(counted.words == icu.filter { $0.status.isWord }.count, "\(context): \(rotor) words")
      let plain = try segmenter.count(bytes, elements: elements, rotor: rotor, words: false)
      #expect(plain.entries == icu.count && plain.words == 0, "\(context): \(rotor) entries without words")
    }
  }

  /// Segments of `elements` of `bytes`, with or without the fast path.
  static func segments(
    _ bytes: ByteStorage, _ elements: [Range<Int>], _ rotor: SystemRotor, locale: String, fast: Bool,
    pieceSize: Int = 1 << 20
  ) throws -> [SegmentStore.Segment] {
    var segmenter = Segmenter(locale: locale, threads: 1, pieceSize: pieceSize)
    segmenter.useFastPaths = fast
    return try segmenter.segment(bytes, elements: elements, rotor: rotor).segments
  }

  static func escaped(_ bytes: ArraySlice<UInt8>) -> String {
    var s = ""
    for scalar in String(decoding: bytes, as: UTF8.self).unicodeScalars {
      if scalar.value < 0x20 || scalar.value >= 0x7F {
        s += "\\u{\(String(scalar.value, radix: 16))}"
      } else {
        s.unicodeScalars.append(scalar)
      }
    }
    return s
  }

  /// Compares the two paths over `elements`; on a difference records the first element that
  /// differs (its text and both segmentations). Returns whether they agreed.
  @discardableResult
  static func compare(
    _ text: [UInt8], _ elements: [Range<Int>], _ rotor: SystemRotor, locale: String, context: String,
    pieceSize: Int = 1 << 20
  ) throws -> Bool {
    let bytes = ByteStorage(text)
    let icu = try segments(bytes, elements, rotor, locale: locale, fast: false, pieceSize: pieceSize)
    let fast = try segments(bytes, elements, rotor, locale: locale, fast: true, pieceSize: pieceSize)
    if icu == fast { return true }
    let k = (0..<min(icu.count, fast.count)).first { icu[$0] != fast[$0] } ?? min(icu.count, fast.count)
    let at = k < icu.count ? icu[k].start : fast[k].start
    let element = elements.first { $0.contains(at) } ?? elements.first { $0.upperBound == at } ?? (0..<text.count)
    // A window of the element around the first difference.
    let window = max(element.lowerBound, at - 40)..<min(element.upperBound, at + 40)
    func show(_ list: [SegmentStore.Segment]) -> String {
      list.filter { window.contains($0.start) }
        .map { "[\(escaped(text[$0.start..<$0.end]))]\($0.status)" }.joined(separator: " ")
    }
    Issue.record(
      """
      \(context): \(rotor) locale '\(locale)' differs at \(at) in element \(element), around "\(escaped(text[window]))"
        ICU:  \(show(icu))
        fast: \(show(fast))
      """)
    return false
  }

  /// All strings of length `1...length` over `alphabet`, concatenated; one element each.
  static func allStrings(_ alphabet: [[UInt8]], upTo length: Int) -> ([UInt8], [Range<Int>]) {
    var text: [UInt8] = []
    var elements: [Range<Int>] = []
    var digits: [Int] = []
    for n in 1...length {
      digits = Array(repeating: 0, count: n)
      while true {
        let start = text.count
        for d in digits { text += alphabet[d] }
        elements.append(start..<text.count)
        var i = n - 1
        while i >= 0 {
          digits[i] += 1
          if digits[i] < alphabet.count { break }
          digits[i] = 0
          i -= 1
        }
        if i < 0 { break }
      }
    }
    return (text, elements)
  }

  @Test(arguments: rotors)
  func exhaustiveASCII(rotor: SystemRotor) throws {
    let (text, elements) = Self.allStrings(Self.asciiAlphabet, upTo: 5)
    #expect(elements.count == 1_508_597)
    try Self.compare(text, TestScale.sample(elements), rotor, locale: "", context: "all ASCII strings up to length 5")
  }

  /// Every ASCII byte, in all strings up to length 3.
  @Test(arguments: rotors)
  func exhaustiveAllASCIIBytes(rotor: SystemRotor) throws {
    let (text, elements) = Self.allStrings((0..<128).map { [UInt8($0)] }, upTo: 3)
    #expect(elements.count == 2_113_664)
    try Self.compare(
      text, TestScale.sample(elements), rotor, locale: "", context: "all ASCII byte strings up to length 3")
  }

  @Test(arguments: rotors)
  func exhaustiveMixed(rotor: SystemRotor) throws {
    let (text, elements) = Self.allStrings(Self.asciiAlphabet + Self.otherAlphabet, upTo: 4)
    #expect(elements.count == 292_560)
    try Self.compare(text, TestScale.sample(elements), rotor, locale: "", context: "all mixed strings up to length 4")
  }

  /// One character of every Grapheme_Cluster_Break, Word_Break, Sentence_Break and Line_Break value
  /// (ICU 72's), as far as one character can stand for several: controls and separators, marks,
  /// ZWJ, regional indicators, emoji and modifiers, Hangul syllables and jamo, Han, kana, Thai
  /// (dictionary), Hebrew, quotes and brackets of each class, terminators, numbers and affixes.
  static let propertyAlphabet: [[UInt8]] = [
    "a", "A", "1", ".", "!", "?", ",", ":", ";", "'", "\"", " ", "\t", "-", "/", "(", ")", "[", "}", "$", "%",
    "_", "@", "\r", "\n", "\u{0B}", "\u{01}",
    "\u{0085}",  // NEL: Sep, NL
    "\u{2029}",  // paragraph separator
    "\u{00AD}",  // soft hyphen: Format, BA
    "\u{0301}",  // Extend, CM
    "\u{0903}",  // SpacingMark
    "\u{0600}",  // Prepend
    "\u{200D}",  // ZWJ
    "\u{200B}",  // ZW
    "\u{2060}",  // WJ
    "\u{00A0}",  // GL
    "\u{2014}",  // B2
    "\u{00B4}",  // BB
    "\u{FFFC}",  // CB
    "\u{3001}",  // CL
    "\u{3002}",  // STerm, CL
    "\u{2026}",  // IN
    "\u{3005}",  // NS
    "\u{00A7}",  // AI
    "\u{3041}",  // CJ, Hiragana
    "\u{30A2}",  // Katakana
    "\u{4E2D}",  // Han: ID, OLetter
    "\u{AC00}", "\u{AC01}", "\u{1100}", "\u{1161}", "\u{11A8}",  // H2, H3, L, V, T
    "\u{05D0}",  // Hebrew_Letter
    "\u{0E01}",  // Thai: SA
    "\u{1F1E6}",  // Regional_Indicator
    "\u{1F466}", "\u{1F3FB}", "\u{2764}",  // EB, EM, Extended_Pictographic
    "\u{FF0E}",  // fullwidth full stop
    "\u{00BB}",  // QU (final)
    "\u{E000}",  // private use: XX
    "\u{0660}",  // Arabic-Indic digit
  ].map { Array($0.utf8) }

  @Test(arguments: rotors)
  func exhaustiveProperties(rotor: SystemRotor) throws {
    let (text, elements) = Self.allStrings(Self.propertyAlphabet, upTo: 3)
    let n = Self.propertyAlphabet.count
    #expect(n == 63 && elements.count == n + n * n + n * n * n)
    try Self.compare(
      text, TestScale.sample(elements), rotor, locale: "", context: "all property strings up to length 3")
  }

  /// The rule machine runs under any locale ICU has rule-based iterators for, those the ASCII
  /// segmenters do not cover included (their own rules come from ICU).
  @Test(arguments: ["sv", "fi", "en_US_POSIX", "ja@lb=strict", "ja@lw=phrase", "de@ss=standard", "xx", "zh", "th"])
  func otherLocales(locale: String) throws {
    let (text, elements) = Self.allStrings(Self.asciiAlphabet + Self.otherAlphabet, upTo: 3)
    for rotor in Self.rotors {
      try Self.compare(text, TestScale.sample(elements), rotor, locale: locale, context: "mixed strings up to length 3")
    }
  }

  /// The rules are read from the installed ICU for every rule set; a locale whose sentence
  /// iterator is not rule-based (abbreviation filtering) has none, and ICU segments it.
  @Test func rulesLoad() throws {
    for kind in [BreakKind.character, .word, .sentence, .line] {
      for locale in ["", "en", "ja", "th", "sv"] {
        #expect(IteratorCache.shared.rules(kind, locale: locale) != nil, "\(kind) \(locale)")
      }
    }
    #expect(IteratorCache.shared.rules(.sentence, locale: "en@ss=standard") == nil)
  }

  /// Hangul syllables are of a dictionary category of ICU's word rules, but ICU has no Korean
  /// dictionary (ICU 72), so ICU's own segments there are its rules' and the machine runs over
  /// them; Han, kana and Thai, which ICU's dictionaries segment, still go to ICU. (The identity
  /// with ICU over Korean text is proven by the tests above: "한국어" is one of the random pieces,
  /// the syllables are in the property alphabet, the multilingual corpus has Korean.)
  @Test func hangulRunsNatively() throws {
    let rules = try #require(IteratorCache.shared.rules(.word, locale: ""))
    let machine = RuleMachine(rules)
    func first(_ text: String) -> Int? {
      let bytes = Array(text.utf8)
      return bytes.withUnsafeBufferPointer { machine.next($0.baseAddress!, from: 0, end: bytes.count)?.end }
    }
    #expect(first("한국어 텍스트") == "한국어".utf8.count)
    #expect(first("中文") == nil)
    #expect(first("ひらがな") == nil)
    #expect(first("ภาษาไทย") == nil)
    // Line breaks and sentences have no Hangul dictionary category to begin with.
    let text = Array("안녕하세요. 반갑습니다! 한국어 문장입니다.".utf8)
    for rotor in Self.rotors {
      try Self.compare(text, [0..<text.count], rotor, locale: "ko", context: "Korean sentences")
    }
  }

  /// The vectorised search for the next word safe point (32 offsets at a time) finds what the
  /// byte-by-byte definition finds, from every offset of random texts over the bytes that matter.
  @Test func wordSafePointsMatchTheDefinition() {
    var rng = SeededRandom(seed: SeededRandom.seedFromEnvironment())
    let seed = rng.seed
    let bytes: [UInt8] = [0x0A, 0x0B, 0x0C, 0x0D, 0x20, 0x20, 0x20, 0x41, 0x2E, 0xD0, 0xBF, 0xE4, 0x80, 0xFF]
    var mismatches = 0
    for round in 0..<TestScale.count(300) where mismatches < 5 {
      // Mostly one byte repeated, so that safe points are sometimes far apart (past 32 bytes).
      let n = Int.random(in: 1...200, using: &rng)
      let common = bytes.randomElement(using: &rng)!
      let text = (0..<n).map { _ in Int.random(in: 0..<4, using: &rng) == 0 ? bytes.randomElement(using: &rng)! : common
      }
      text.withUnsafeBufferPointer { buffer in
        for offset in 0..<n {
          let end = Int.random(in: offset...n, using: &rng)
          let fast = AsciiWordSegmenter.nextSafePoint(buffer, after: offset, end: end)
          let slow = AsciiWordSegmenter.nextSafePointReference(buffer, after: offset, end: end)
          if fast != slow {
            mismatches += 1
            Issue.record("round \(round), offset \(offset), end \(end): \(fast) vs \(slow) (TEXTROTOR_SEED=\(seed))")
          }
        }
      }
    }
  }

  /// Every enabled locale, on shorter exhaustive strings.
  @Test(arguments: locales)
  func exhaustivePerLocale(locale: String) throws {
    let (ascii, asciiElements) = Self.allStrings(Self.asciiAlphabet, upTo: 4)
    let (mixed, mixedElements) = Self.allStrings(Self.asciiAlphabet + Self.otherAlphabet, upTo: 3)
    // ICU 72 has no locale tailoring of grapheme clusters: the shorter strings suffice for them.
    try Self.compare(
      ascii, TestScale.sample(asciiElements), .words, locale: locale, context: "ASCII strings up to length 4")
    for rotor in Self.rotors {
      try Self.compare(
        mixed, TestScale.sample(mixedElements), rotor, locale: locale, context: "mixed strings up to length 3")
    }
  }

  /// Pieces random texts are made of: ASCII words, numbers and punctuation, and non-ASCII text of
  /// many kinds (combining marks, emoji sequences, flags, CJK, Thai, Hebrew with quotes, Katakana).
  static let pieces: [String] = [
    "the", "Quick", "brown", "fox's", "U.S.A.", "e.g.", "can't", "snake_case", "_x", "__init__", "a1", "1a", "x86_64",
    "3.14", "1,000,000", "12;34", "1'000", "v1.2.3", "a.b.c", "a:b", "foo.", "'quoted'", "\"dq\"", "(", ")", "-", "--",
    "/", "http://example.com/a_b?c=1&d=2", "user@example.com", "@", "a@.b", "#", "$5", "100%", "...", ",", ";", ":",
    "!", "?", "'", "\"", "_", ".",
    " ", " ", " ", "  ", "    ", "\t", "\n", "\n", "\r\n", "\r", "\u{0B}", "\u{0C}", "\u{7F}", "\u{01}",
    "café", "cafe\u{0301}", "e\u{0301}\u{0302}", "\u{0301}", "naïve", "Straße", "Ελληνικά", "русский", "Ω",
    "😀", "👍🏽", "👨‍👩‍👧", "🇫🇷🇩🇪", "🇫", "\u{200D}", "\u{200B}", "\u{00AD}", "\u{FEFF}", "\u{2060}",
    "中文", "日本語", "ひらがな", "カタカナ", "ｶﾀｶﾅ", "한국어", "ภาษาไทย", "ສະບາຍດີ", "ཀ",
    "עברית", "ש\"ב", "א'", "مرحبا", "\u{00A0}", "\u{2009}", "\u{3000}", "\u{2019}", "\u{201C}", "\u{2014}",
    "１２３", "٣", "\u{FF0E}", "\u{FE55}", "\u{0085}", "\u{2028}", "\u{2029}", "\u{1F1E6}", "ǅ", "a\u{0308}",
    "\u{0915}\u{094D}\u{0937}", "\u{1100}\u{1161}\u{11A8}",
  ]

  static let firstNonASCIIPiece = pieces.firstIndex(of: "café")!

  static func randomText(_ rng: inout SeededRandom, asciiBias: Bool) -> [UInt8] {
    var text: [UInt8] = []
    let count = Int.random(in: 1...120, using: &rng)
    for _ in 0..<count {
      if asciiBias && Int.random(in: 0..<10, using: &rng) < 8 {
        // Mostly ASCII: a piece from the first part of the list.
        text += Array(pieces[Int.random(in: 0..<firstNonASCIIPiece, using: &rng)].utf8)
      } else {
        text += Array(pieces.randomElement(using: &rng)!.utf8)
      }
      if Int.random(in: 0..<40, using: &rng) == 0 {
        text.append(UInt8.random(in: 0x80...0xFF, using: &rng))  // ill-formed UTF-8
      }
    }
    return text
  }

  @Test func randomMixedTexts() throws {
    var rng = SeededRandom(seed: SeededRandom.seedFromEnvironment())
    let seed = rng.seed
    var failures = 0
    for round in 0..<TestScale.count(6000) where failures < 5 {
      let text = Self.randomText(&rng, asciiBias: round % 2 == 0)
      // Sometimes several elements, sometimes tiny pieces (many spans per work unit).
      var elements = [0..<text.count]
      if round % 3 == 1 && text.count > 2 {
        let cut = Int.random(in: 1..<text.count, using: &rng)
        elements = [0..<cut, cut..<text.count]
      }
      let pieceSize = round % 5 == 0 ? 8 : 1 << 20
      let locale = round % 4 == 0 ? Self.locales.randomElement(using: &rng)! : ""
      for rotor in Self.rotors {
        let context = "random text \(round) (TEXTROTOR_SEED=\(seed))"
        if try !Self.compare(text, elements, rotor, locale: locale, context: context, pieceSize: pieceSize) {
          failures += 1
        }
      }
    }
  }

  /// The sentence machine's run scan (`BreakRules.makeRunScans`) skips runs of letters, spaces,
  /// digits and ideographs with a byte scan and takes the state of the run's last character: runs
  /// of every length (past the 32-byte vector blocks) that end in every kind of character, ill-formed
  /// sequences (truncated, stray continuation bytes, C0, F5) and 4-byte characters among them and
  /// just before a full stop, where the state after an upper- or lower-case letter and after
  /// anything else differ.
  @Test func sentenceRunScan() throws {
    var rng = SeededRandom(seed: SeededRandom.seedFromEnvironment())
    let seed = rng.seed
    let runs: [[UInt8]] =
      [
        "a", "B", "x", "Я", "ж", "é", "Ω", "中", "文", "1", " ", " ", "\t", ",", ";", "(", ")", "\"", "'", "-",
        "\u{3001}", "\u{FF0C}", "\u{00A0}", "\u{0301}", "\u{00AD}", "\u{00D7}", "😀", "\u{10400}", "\u{FFFD}",
      ].map { Array($0.utf8) } + [
        [0x80], [0xBF], [0xC0], [0xC1], [0xF5], [0xFF], [0xD0], [0xE4, 0xB8], [0xE4], [0xED, 0xA0, 0x80], [0xF0, 0x9F],
        [0xE0, 0x80],
      ]
    let ends: [[UInt8]] = [
      ".", "!", "?", "\n", "\r\n", "\u{3002}", "\u{FF01}", "\u{2028}", "\u{0085}", ". ", ".) A", ". a", "! X",
      ".\u{0301} B", "\u{FF0E}",
    ].map { Array($0.utf8) }
    for round in 0..<TestScale.count(3000) {
      var text: [UInt8] = []
      for _ in 0..<Int.random(in: 1...12, using: &rng) {
        let length =
          Int.random(in: 0..<4, using: &rng) == 0
          ? Int.random(in: 30...200, using: &rng) : Int.random(in: 0...12, using: &rng)
        for _ in 0..<length {
          // Mostly letters, as in text; the rest anything.
          text +=
            Int.random(in: 0..<3, using: &rng) == 0
            ? runs.randomElement(using: &rng)! : runs[Int.random(in: 0..<8, using: &rng)]
        }
        text += ends.randomElement(using: &rng)!
      }
      if Bool.random(using: &rng) { text.removeLast(Int.random(in: 0...min(3, text.count - 1), using: &rng)) }
      try Self.compare(
        text, [0..<text.count], .sentences, locale: round % 5 == 0 ? "de" : "",
        context: "sentence runs \(round) (TEXTROTOR_SEED=\(seed))")
    }
  }

  /// Long random texts: a long ASCII stretch with islands far apart and close together.
  @Test func randomLongTexts() throws {
    var rng = SeededRandom(seed: SeededRandom.seedFromEnvironment())
    let seed = rng.seed
    for round in 0..<TestScale.count(20) {
      var text: [UInt8] = []
      while text.count < 200_000 {
        text += Self.randomText(&rng, asciiBias: true)
        if Int.random(in: 0..<4, using: &rng) == 0 {
          text += Array(repeating: UInt8(ascii: "x"), count: Int.random(in: 0..<600, using: &rng))
        }
      }
      for rotor in Self.rotors {
        try Self.compare(
          text, [0..<text.count], rotor, locale: "", context: "long random text \(round) (TEXTROTOR_SEED=\(seed))",
          pieceSize: 1 << 16)
      }
    }
  }

  /// Every file of Corpora/ (and the generated English 1 MB and multilingual corpora when built, but
  /// not at a reduced TestScale). At a reduced scale each file gets a share of the locales, in turn.
  @Test func corpora() throws {
    let root = Fixtures.packageRoot + "/Corpora"
    var paths = Self.files(in: root).map { root + "/" + $0 }
    for name in ["english-1mb.txt", "multilingual-20mb.txt"] where !TestScale.isReduced {
      let path = root + "/generated/" + name
      if access(path, R_OK) == 0 { paths.append(path) }
    }
    #expect(paths.count >= 20)
    for (n, path) in paths.enumerated() {
      let file = try ByteStorage.contentsOf(path: path)
      let text = file.copyBytes(0..<file.count)
      // Every enabled locale on the hand-written files; root for the generated megabytes.
      for locale in text.count > 100_000 ? [""] : TestScale.sample(Self.locales, rotation: n) {
        for rotor in Self.rotors {
          try Self.compare(text, [0..<text.count], rotor, locale: locale, context: path)
        }
      }
    }
  }

  static func files(in directory: String) -> [String] {
    guard let dir = opendir(directory) else { return [] }
    defer { closedir(dir) }
    var names: [String] = []
    while let entry = readdir(dir) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      if name.hasSuffix(".txt") || name.hasSuffix(".bin") { names.append(name) }
    }
    return names.sorted()
  }

  @Test func localePolicy() {
    for locale in Self.locales { #expect(FastPath.supports(locale: locale), "\(locale)") }
    for locale in [
      "en_US_POSIX", "en-US-POSIX", "en@lb=strict", "ja@lw=phrase", "de@ss=standard", "sv", "fi_FI", "en-u-ss-standard",
      "en_US.UTF-8", "xx", "POSIX",
    ] {
      #expect(!FastPath.supports(locale: locale), "\(locale)")
    }
    #expect(!FastPath.applies(to: .sentences, locale: ""))
    #expect(!FastPath.applies(to: .linebreaks, locale: ""))
  }

  /// The fast path is what segments by default, and ICU's statuses come through it.
  @Test func statuses() throws {
    let text = "a 1 _ __ a1 1a 1_ _1 a_ 1.5 a.b a12 1__ 1.5_ a_1 1.a a:b"
    let bytes = ByteStorage(text)
    let found = try Segmenter().segment(bytes, elements: [0..<bytes.count], rotor: .words).segments
      .filter { bytes[$0.start] != 0x20 }.map { "\(bytes.string($0.range)):\($0.status)" }
    #expect(
      found == [
        "a:letter", "1:number", "_:none", "__:letter", "a1:number", "1a:letter", "1_:number", "_1:number",
        "a_:letter", "1.5:number", "a.b:letter", "a12:number", "1__:letter", "1.5_:number", "a_1:number", "1:number",
        ".:none", "a:letter", "a:letter", "::none", "b:letter",
      ])
  }
}
