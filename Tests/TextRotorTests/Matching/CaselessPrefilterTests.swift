import Testing
import TextRotorICU

@testable import TextRotor

@Suite("-i non-ASCII literals: prefiltered by case variants")
struct CaselessPrefilterTests {
  @Test("the case classes agree with ICU's full folding for every code point up to U+1FFFF")
  func classesAgreeWithICU() throws {
    let folding = try CaseFolding()
    var checked = 0
    for value in UInt32(0x80)..<0x20000 {
      guard let scalar = Unicode.Scalar(value),
        scalar.properties.changesWhenCaseFolded
          || CaseClasses.classOf[value] != nil
      else { continue }
      let folded = Array(try folding.fold(String(scalar)).unicodeScalars).map(\.value)
      checked += 1
      if folded.count == 1 {
        #expect(CaseClasses.fold(value) == folded[0], "U+\(String(value, radix: 16)) folds to \(folded)")
      } else {
        #expect(CaseClasses.foldedToSeveral.contains(value), "U+\(String(value, radix: 16)) → \(folded)")
        for f in folded {
          #expect(CaseClasses.insideMultiScalarFoldings.contains(f), "U+\(String(value, radix: 16)) → \(folded)")
        }
      }
    }
    #expect(checked > 1000)
  }

  static let alphabet = [
    "а", "А", "ф", "Ф", "σ", "ς", "Σ", "κ", "Κ", "ϰ", "ι", "Ι", "\u{345}", "ᾳ", "α", "ΐ", "µ", "μ", "Μ", "K", "k",
    "ſ", "s", "ß", "ss", " ", "\n", "ω", "Ω", "Ω", "x", "é", "É", "i", "İ",
  ]

  @Test("case folding without ICU: same matches as ICU line by line, with and without -w")
  func caselessSearchSameAsICU() throws {
    let seed = SeededRandom.seedFromEnvironment()
    var rng = SeededRandom(seed: seed)
    var checked = 0
    let alphabet =
      Self.alphabet + ["фа", "ФАЙЛ", "файл", "Σύστημα", "\r\n", "\u{1C80}", "в", "В", "ϐ", "β", "ﬁ", "fi", "ﬀ"]
    for round in 0..<1500 {
      let text = (0..<Int.random(in: 0...30, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! }.joined()
      let needle = (0..<Int.random(in: 1...4, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! }
        .joined().filter { $0 != "\n" && $0 != "\r\n" && $0 != "\r" }
      guard needle.unicodeScalars.count >= 2, !needle.unicodeScalars.allSatisfy(\.isASCII) else { continue }
      let word = round % 3 == 0
      let pattern = Pattern.literal(needle, ignoreCase: true, wholeWord: word)
      let matcher = try PatternMatcher(pattern)
      guard case .caseless = matcher.engine else { continue }
      checked += 1
      // Ill-formed bytes now and then (ICU reads them as U+FFFD).
      var utf8 = Array(text.utf8)
      if round % 5 == 0, !utf8.isEmpty {
        utf8.insert(
          [0x80, 0xE2, 0xD1, 0xFF].randomElement(using: &rng)!, at: Int.random(in: 0...utf8.count, using: &rng))
      }
      let bytes = ByteStorage(utf8)
      let fast = try matcher.matches(in: bytes)
      let icu = try PatternMatcher(pattern, strategy: .icu).matches(in: bytes)
      #expect(fast == icu, "seed \(seed), round \(round): '\(needle)' -w \(word) in \(utf8)")
      if fast != icu { return }
      #expect(try matcher.count(in: bytes) == icu.count)
    }
    #expect(checked > 200, "seed \(seed): only \(checked) patterns took the case-folding path")
  }

  @Test("same matches as ICU line by line on random text and patterns")
  func sameAsICU() throws {
    let seed = SeededRandom.seedFromEnvironment()
    var rng = SeededRandom(seed: seed)
    var prefiltered = 0
    for _ in 0..<400 {
      let text = (0..<Int.random(in: 0...40, using: &rng)).map { _ in Self.alphabet.randomElement(using: &rng)! }
        .joined()
      let needle = (0..<Int.random(in: 1...3, using: &rng)).map { _ in Self.alphabet.randomElement(using: &rng)! }
        .joined().filter { $0 != "\n" }
      guard !needle.isEmpty, !needle.unicodeScalars.allSatisfy(\.isASCII) else { continue }
      if CaseClasses.needles(for: needle) != nil { prefiltered += 1 }
      let bytes = ByteStorage(text)
      let fast = try PatternMatcher(.literal(needle, ignoreCase: true)).matches(in: bytes)
      let icu = try PatternMatcher(.literal(needle, ignoreCase: true), strategy: .icu).matches(in: bytes)
      #expect(fast == icu, "seed \(seed): '\(needle)' in \(Array(text.utf8))")
      if fast != icu { return }
    }
    #expect(prefiltered > 50)
  }
}

@Suite("Regex prefiltered by one rare symbol")
struct SymbolPrefilterTests {
  @Test("\\w+@\\w+\\.\\w+ is searched only on lines holding @, with ICU's matches")
  func atSign() throws {
    #expect(PatternMatcher.worthPrefiltering("@"))
    #expect(!PatternMatcher.worthPrefiltering("."))
    #expect(!PatternMatcher.worthPrefiltering("e"))
    let text = "mail me: a@b.c or x_y@host.org.\nno at here\n@@ a@.b c@d.e@f.g\nü@ö.ä\n"
    let pattern = Pattern.regex(#"\w+@\w+\.\w+"#)
    let fast = try PatternMatcher(pattern)
    guard case .regex(let search) = fast.engine, case .anchored = search.mode else {
      Issue.record("not searched around @")
      return
    }
    let bytes = ByteStorage(text)
    #expect(try fast.matches(in: bytes) == PatternMatcher(pattern, strategy: .icu).matches(in: bytes))
    #expect(try fast.matches(in: bytes).count == 4)
  }
}
