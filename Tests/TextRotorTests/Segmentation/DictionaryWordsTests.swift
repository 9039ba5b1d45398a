import Glibc
import Testing
import TextRotorICU

@testable import TextRotor

/// ICU's Chinese/Japanese dictionary engine run natively (`RuleMachine.dictionarySegment`, the
/// shim's `cjk.cpp`) gives ICU's words exactly: the same text segmented with the fast paths and by
/// ICU alone (`FastPathTests.compare`), over texts made for the engine's corners (long runs past
/// its 20-unit words, katakana runs past its 20-character groups, the prolonged sound mark, kana
/// iteration marks, supplementary ideographs, text NFKC changes, Hangul and Thai beside Han, full-
/// width forms, ill-formed bytes) under the locales that use it.
@Suite struct DictionaryWordsTests {
  static let locales = ["", "zh", "zh_Hant_TW", "ja", "ko", "th", "en", "ja@lw=phrase"]

  /// Pieces of Chinese and Japanese text, and their neighbours.
  static let pieces: [String] = [
    "中文", "中华人民共和国", "我们", "的", "是", "一个", "测试", "工具", "服务器", "性能", "你好世界", "北京大学生",
    "研究生命起源", "日本語", "東京都", "私は", "学生です", "ひらがな", "の", "を", "に", "は", "ありがとう", "こんにちは",
    "カタカナ", "コンピューター", "ソフトウェア", "アイスクリーム", "ー", "ｰ", "ｶﾀｶﾅ", "ﾞ", "ﾟ", "ｺﾝﾋﾟｭｰﾀｰ",
    "々", "人々", "〆", "ヶ", "ゝ", "ゞ", "ヽ", "ヾ", "・", "ヿ", "ゟ", "𠀀", "𪚲", "𠮷野家", "\u{F900}", "\u{FA30}",
    "\u{2F00}", "\u{3231}", "\u{32FF}", "㍻", "が", "か\u{3099}", "\u{3099}", "\u{309A}", "\u{302A}",
    "한국어", "ภาษาไทย", "ສະບາຍດີ", "မြန်မာ", "ខ្មែរ", "ａｂｃ", "１２３", "Ｕｎｉｃｏｄｅ", "abc", "x86", "123", "3.14",
    "。", "、", "「", "」", "（", "）", "！", "？", "：", "\u{3000}", " ", " ", "\n", "\r\n", "'", ".", "-", "_",
  ]
  /// Long runs: past the engine's longest word (20 UTF-16 units) and katakana group (20).
  static let long: [String] = [
    String(repeating: "中华人民共和国", count: 5), String(repeating: "カ", count: 25), String(repeating: "ア", count: 19),
    String(repeating: "ア", count: 20), String(repeating: "ア", count: 21), String(repeating: "ー", count: 30),
    String(repeating: "𠀀", count: 12), String(repeating: "の", count: 40), "アイスクリームとコンピューターとソフトウェアとデータベース",
  ]

  static func randomText(_ rng: inout SeededRandom) -> [UInt8] {
    var text: [UInt8] = []
    for _ in 0..<Int.random(in: 1...60, using: &rng) {
      let piece =
        Int.random(in: 0..<12, using: &rng) == 0 ? long.randomElement(using: &rng)! : pieces.randomElement(using: &rng)!
      text += Array(piece.utf8)
      if Int.random(in: 0..<50, using: &rng) == 0 { text.append(UInt8.random(in: 0x80...0xFF, using: &rng)) }
      if Int.random(in: 0..<80, using: &rng) == 0 { text += [0xE4, 0xB8] }  // a truncated ideograph
    }
    return text
  }

  @Test func randomTexts() throws {
    var rng = SeededRandom(seed: SeededRandom.seedFromEnvironment())
    let seed = rng.seed
    var failures = 0
    for round in 0..<TestScale.count(3000) where failures < 5 {
      let text = Self.randomText(&rng)
      let locale = Self.locales[round % Self.locales.count]
      let pieceSize = round % 7 == 0 ? 8 : 1 << 20
      let context = "random CJK text \(round) (TEXTROTOR_SEED=\(seed))"
      if try !FastPathTests.compare(
        text, [0..<text.count], .words, locale: locale, context: context, pieceSize: pieceSize)
      {
        failures += 1
      }
    }
  }

  /// All strings of up to three characters over the engine's kinds of characters and their
  /// neighbours.
  @Test func exhaustiveShortStrings() throws {
    let alphabet =
      ["中", "文", "日", "の", "カ", "ー", "ｶ", "ﾞ", "々", "𠀀", "\u{F900}", "한", "ไ", "a", " ", "。", "１"]
      .map { Array($0.utf8) } + [[0xE4, 0xB8]]
    let (text, elements) = FastPathTests.allStrings(alphabet, upTo: 3)
    for locale in ["", "ja", "zh"] {
      try FastPathTests.compare(
        text, TestScale.sample(elements), .words, locale: locale, context: "CJK strings up to 3")
    }
  }

  /// The counts (`segment --count`) through the native engine, with and without words.
  @Test func counts() throws {
    var rng = SeededRandom(seed: SeededRandom.seedFromEnvironment())
    let seed = rng.seed
    var text: [UInt8] = []
    while text.count < 300_000 { text += Self.randomText(&rng) + [0x0A] }
    let bytes = ByteStorage(text)
    let icu = try FastPathTests.segments(bytes, [0..<text.count], .words, locale: "", fast: false)
    var segmenter = Segmenter(locale: "", threads: 2, pieceSize: 1 << 14)
    segmenter.useFastPaths = true
    let counted = try segmenter.count(bytes, elements: [0..<text.count], rotor: .words)
    #expect(counted.entries == icu.count, "TEXTROTOR_SEED=\(seed)")
    #expect(counted.words == icu.filter { $0.status.isWord }.count, "TEXTROTOR_SEED=\(seed)")
  }

  /// The engine is used (not declined) for plain Chinese and Japanese (a segment that starts with
  /// the prolonged sound mark included), and declines what ICU would do otherwise: Thai beside Han
  /// in one rule segment, halfwidth katakana (NFKC changes it), phrase breaking.
  @Test func declines() throws {
    func native(_ string: String, locale: String = "") throws -> [Int]? {
      let rules = try #require(IteratorCache.shared.rules(.word, locale: locale))
      let machine = RuleMachine(rules)
      let bytes = Array(string.utf8)
      return bytes.withUnsafeBufferPointer { buffer -> [Int]? in
        guard let (n, _) = machine.dictionarySegment(buffer.baseAddress!, from: 0, end: bytes.count) else { return nil }
        return (0..<n).map { machine.dictionaryEnds![$0] }
      }
    }
    let chinese = try #require(try native("中华人民共和国成立了"))
    #expect(chinese.last == "中华人民共和国成立了".utf8.count && chinese.count > 1)
    #expect(try native("コンピューター") != nil)
    #expect(try native("ｶﾀｶﾅ") == nil)
    #expect(try native("ーカ") == ["ーカ".utf8.count])
    let marks = String(repeating: "ー", count: 30) + "の"
    let marksWords = try native(marks)
    let icuMarks = try Self.boundaries(BreakIterator(.word), marks)
    #expect(marksWords != nil && marksWords == icuMarks)
    #expect(try native(Self.prolonged) == nil)  // ﾞ: NFKC changes it
    #expect(try native("中文", locale: "ja@lw=phrase") == nil)
    #expect(try native("ภาษาไทย") == nil)
    // A combining mark in the rule segment, or an underscore before katakana: ICU's boundaries at
    // the runs' starts and ends there depend on the runs ("日本\u{302A}語" is 日本\u{302A}|語, but
    // "ア\u{302A}ア" one word).
    #expect(try native("日本\u{302A}語") == nil)
    #expect(try native("_ヽ") == nil)
    #expect(try native("abc") == ["abc".utf8.count])
  }

  /// A run the engine divides only if ICU gives it the run: 30 prolonged sound marks (script
  /// Common, so ICU loads no engine for them) and のﾞ.
  static let prolonged = String(repeating: "ー", count: 30) + "のﾞ"
  /// ICU's words for it with the engine loaded: each ー alone (the run is past the engine's
  /// 20-character katakana groups and ー starts no dictionary word), then のﾞ.
  static let prolongedWords = Array(stride(from: 3, through: 90, by: 3)) + [96]

  static func boundaries(_ iterator: BreakIterator, _ string: String) throws -> [Int] {
    let bytes = ByteStorage(Array(string.utf8))
    try iterator.setText(bytes, range: 0..<bytes.count)
    iterator.first()
    var found: [Int] = []
    while let b = iterator.next() { found.append(b) }
    return found
  }

  /// Regression (TEXTROTOR_SEED=16713329048309734554): ICU's own words for a run of prolonged sound
  /// marks depended on the iterator's history. ICU keeps its dictionary engines in a list per
  /// iterator, filled as characters need them, and a character of script Common such as ー goes to
  /// the Chinese/Japanese engine only if it is already loaded (in the iterator, or else in the
  /// process); otherwise to ICU's "unhandled" engine, which took over the whole script after ゛
  /// (also Common, in no engine) and divides nothing: one word of 96 bytes. textrotor's iterators
  /// load the engine before their first text, so the words are the same after anything.
  @Test func prolongedSoundMarkWhateverCameBefore() throws {
    for before in [nil, "中文", "゛゛", "ᨠᨠ", "မြန်မာ", "ไทย"] {
      for locale in ["", "ja"] {
        let fresh = try BreakIterator(.word, locale: locale)
        let prototype = try BreakIterator(.word, locale: locale)
        _ = try Self.boundaries(prototype, "中文")
        for iterator in [fresh, try prototype.copy()] {
          if let before { _ = try Self.boundaries(iterator, before) }
          #expect(
            try Self.boundaries(iterator, Self.prolonged) == Self.prolongedWords,
            "after \(before ?? "nothing"), '\(locale)'")
        }
      }
    }
  }

  /// The same through the fast path, whose native engine divides Chinese and Japanese without ICU
  /// ever loading its engine: in every order it agrees with ICU alone, and both divide the run.
  @Test func prolongedSoundMarkFastPath() throws {
    let p = Self.prolonged
    let texts = [
      "中文\n\n" + p + "\n", "中文\n゛゛\n" + p + "\n", "゛゛\n中文\n" + p, "\n「မြန်မာ" + p, p + "\n中文", "ᨠᨠ\n" + p, "ーカ\n" + p,
    ]
    for text in texts {
      let bytes = Array(text.utf8)
      let start = bytes.count - p.utf8.count - (text.hasSuffix("\n") ? 1 : 0)
      let at = text.hasPrefix(p) ? 0 : start
      for locale in ["", "ja"] {
        #expect(try FastPathTests.compare(bytes, [0..<bytes.count], .words, locale: locale, context: text))
        let fast = try FastPathTests.segments(ByteStorage(bytes), [0..<bytes.count], .words, locale: locale, fast: true)
        let ends = fast.map(\.end).filter { $0 > at && $0 <= at + p.utf8.count }.map { $0 - at }
        #expect(ends == Self.prolongedWords, "\(text) '\(locale)'")
      }
    }
  }

  /// The generated multilingual corpus's lines with dictionary scripts, whole (when generated).
  @Test func multilingualCorpus() throws {
    let path = Fixtures.packageRoot + "/Corpora/generated/multilingual-20mb.txt"
    guard access(path, R_OK) == 0 else { return }
    let file = try ByteStorage.contentsOf(path: path)
    let size = TestScale.isReduced ? 2 << 20 : file.count
    let text = file.copyBytes(0..<min(file.count, size))
    for locale in ["", "ja", "zh"] {
      try FastPathTests.compare(text, [0..<text.count], .words, locale: locale, context: path, pieceSize: 1 << 18)
    }
  }
}
