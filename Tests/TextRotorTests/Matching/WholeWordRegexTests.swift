import Testing
import TextRotorICU

@testable import TextRotor

/// `-w` with a regex against its definition: the matches of `(?w:\b)(?:P)(?w:\b)` (ICU's UAX #29
/// word boundaries) in each line, the line its own text. The engine searches the pattern and
/// checks each candidate's boundaries; a rejected candidate's line is searched by ICU with the
/// boundaries inside the pattern, and the engine goes on from the next line.
@Suite("Matching: whole-word regexes against their definition")
struct WholeWordRegexTests {
  static let patterns = [
    "[a-z]+", "[A-Z][a-z]+", #"\w+ing"#, "cat|category", "a+", #"\d+"#, "[a-z]+s", "the|de", #"(?:the|and)\w*"#,
    "[a-zé]+", #"\p{L}+"#, #"x\w*"#, #"[a-z]+'[a-z]+"#, #"\w+\.\w+"#, "[^ ]+",
  ]
  static let tokens = [
    "cat", "category", "Element", "the", "and", "de", "x1", "has_words", "don't", "3.5", "a", "aaa", "café", "Ünïcode",
    "日本語", "ภาษาไทย", "ing", "testing", "Bring", "e.g.", "x", "42", "über", "naïve", "ab'cd", "A.B", "éa",
  ]
  static let separators = [" ", " ", " ", ", ", ". ", "-", "(", ")", "'", ":", "\t", "@", "  ", "/", "\u{A0}"]

  /// Every match of `(?w:\b)(?:pattern)(?w:\b)` in each line of `bytes`, the line its own text.
  static func reference(_ pattern: Pattern, _ bytes: ByteStorage) throws -> [Range<Int>] {
    var options: RegularExpression.Options = [.multiline]
    if pattern.ignoreCase { options.insert(.caseInsensitive) }
    let regex = try RegularExpression("(?w:\\b)(?:" + pattern.text + ")(?w:\\b)", options: options)
    var found: [Range<Int>] = []
    for line in LineScanner(bytes, range: 0..<bytes.count) where !line.content.isEmpty {
      try regex.setText(bytes, exactly: line.content)
      try regex.setRegion(line.content)
      try regex.forEachMatch { m in
        found.append(m)
        return true
      }
    }
    return found
  }

  @Test(arguments: [PatternMatcher.Strategy.automatic, .icu])
  func randomTextsMatchTheDefinition(strategy: PatternMatcher.Strategy) throws {
    let seed = SeededRandom.seedFromEnvironment()
    var r = SeededRandom(seed: seed)
    for _ in 0..<TestScale.count(150) {
      var text = ""
      for _ in 0..<Int.random(in: 1...4, using: &r) {
        // Short lines and lines of a few thousand tokens.
        let n =
          Int.random(in: 0..<3, using: &r) == 0
          ? Int.random(in: 500...3000, using: &r) : Int.random(in: 0...30, using: &r)
        for _ in 0..<n {
          text += Self.tokens.randomElement(using: &r)! + Self.separators.randomElement(using: &r)!
        }
        text += "\n"
      }
      let bytes = ByteStorage(text)
      let source = Self.patterns.randomElement(using: &r)!
      let pattern = Pattern.regex(source, ignoreCase: Int.random(in: 0..<3, using: &r) == 0, wholeWord: true)
      let want = try Self.reference(pattern, bytes)
      let got = try PatternMatcher(pattern, strategy: strategy).matches(in: bytes)
      #expect(got == want, "\(pattern) on \(bytes.count) bytes: seed \(seed) (TEXTROTOR_SEED)")
      if got != want { return }
    }
  }
}
