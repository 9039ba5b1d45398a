import CTextRotorShim
import Testing

@testable import TextRotorICU

/// The native rule machine's tables, as read from ICU's compiled rules.
@Suite struct RuleTablesTests {
  @Test(
    "the BMP category table holds the trie's value of every code point (renumbered), every rule set, several locales")
  func bmpTableIsTheTrie() throws {
    var loaded = 0
    for kind in [BreakKind.character, .word, .sentence, .line] {
      for locale in ["", "en", "sv", "ja", "zh", "th", "de@lb=strict"] {
        guard let rules = BreakRules.load(from: try BreakIterator(kind, locale: locale)) else { continue }
        loaded += 1
        var wrong: [Int] = []
        for c in 0..<0x10000 where rules.bmp[c] != rules.permutation[Int(cicu_trie_get(rules.trie, Int32(c)))] {
          wrong.append(c)
        }
        #expect(
          wrong.isEmpty,
          "\(kind) '\(locale)': \(wrong.count) code points differ, the first U+\(String(wrong.first ?? 0, radix: 16))")
      }
    }
    #expect(loaded >= 20)
  }
}
