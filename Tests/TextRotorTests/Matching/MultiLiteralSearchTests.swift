import Testing
import TextRotorICU

@testable import TextRotor

@Suite("many literals at once: an Aho-Corasick automaton")
struct MultiLiteralSearchTests {
  static let alphabet = ["a", "b", "c", "ab", "é", "日", "🙂", " ", "-", "\n", "\r\n", "x"]

  /// The leftmost-first matches of `literals` in `text`, by brute force: at each position, in
  /// order, the first literal (in the list's order) found there; the search goes on after it.
  static func model(_ literals: [[UInt8]], _ text: [UInt8]) -> [Range<Int>] {
    var result: [Range<Int>] = []
    var i = 0
    while i < text.count {
      if let l = literals.first(where: { i + $0.count <= text.count && Array(text[i..<(i + $0.count)]) == $0 }) {
        result.append(i..<(i + l.count))
        i += l.count
      } else {
        i += 1
      }
    }
    return result
  }

  @Test("same matches as a brute-force model and as ICU line by line, with and without -w; the seed is printed")
  func sameAsModelAndICU() throws {
    let seed = SeededRandom.seedFromEnvironment()
    var rng = SeededRandom(seed: seed)
    for round in 0..<TestScale.count(600) {
      let count = Int.random(in: PatternMatcher.manyLiterals...(PatternMatcher.manyLiterals + 40), using: &rng)
      let literals = (0..<count).map { _ in
        (0..<Int.random(in: 1...4, using: &rng)).map { _ in Self.alphabet.randomElement(using: &rng)! }.joined()
          .filter { $0 != "\n" && $0 != "\r\n" }
      }.map { $0.isEmpty ? "x" : $0 }
      let text = (0..<Int.random(in: 0...80, using: &rng)).map { _ in Self.alphabet.randomElement(using: &rng)! }
        .joined()
      let bytes = ByteStorage(text)
      let word = round % 3 == 0
      let pattern = Pattern.anyOf(literals, syntax: .literal, wholeWord: word)
      let matcher = try PatternMatcher(pattern)
      guard case .literals = matcher.engine else {
        Issue.record("seed \(seed), round \(round): \(count) literals not searched together")
        return
      }
      let found = try matcher.matches(in: bytes)
      let icu = try PatternMatcher(pattern, strategy: .icu).matches(in: bytes)
      #expect(found == icu, "seed \(seed), round \(round): \(literals) -w \(word) in \(text.debugDescription)")
      if !word {
        let expected = Self.model(literals.map { Array($0.utf8) }, Array(text.utf8))
        #expect(found == expected, "seed \(seed), round \(round): \(literals) in \(text.debugDescription)")
      }
      #expect(try matcher.count(in: bytes) == icu.count, "seed \(seed), round \(round)")
      if found != icu { return }
    }
  }

  @Test("the first literal given wins at a start; a later longer one only where the first is not there")
  func leftmostFirst() throws {
    let filler = (0..<PatternMatcher.manyLiterals).map { "zz\($0)q" }
    let bytes = ByteStorage("category cat catalog")
    let shortFirst = try PatternMatcher(.anyOf(["cat", "category"] + filler, syntax: .literal))
    #expect(try shortFirst.matches(in: bytes) == [0..<3, 9..<12, 13..<16])
    let longFirst = try PatternMatcher(.anyOf(["category", "cat"] + filler, syntax: .literal))
    #expect(try longFirst.matches(in: bytes) == [0..<8, 9..<12, 13..<16])
    // -w: at a start the first literal that is a whole word there (rg: `-w -e cat -e category`).
    let words = try PatternMatcher(.anyOf(["cat", "category"] + filler, syntax: .literal, wholeWord: true))
    #expect(try words.matches(in: bytes) == [0..<8, 9..<12])
  }

  @Test("-i, ASCII literals: same matches as ICU, lines holding K, ſ, ß or ﬁ (folded to ASCII) included")
  func caselessSameAsICU() throws {
    let seed = SeededRandom.seedFromEnvironment()
    var rng = SeededRandom(seed: seed)
    let letters = ["a", "A", "b", "B", "k", "K", "s", "S", "ss", "f", "i", "fi", " ", "-", "1"]
    let text = letters + ["\n", "\u{212A}", "\u{17F}", "ß", "ﬁ", "é", "É"]
    for round in 0..<TestScale.count(400) {
      let count = Int.random(in: PatternMatcher.manyLiterals...(PatternMatcher.manyLiterals + 20), using: &rng)
      let literals = (0..<count).map { _ in
        (0..<Int.random(in: 1...3, using: &rng)).map { _ in letters.randomElement(using: &rng)! }.joined()
      }
      let haystack = (0..<Int.random(in: 0...60, using: &rng)).map { _ in text.randomElement(using: &rng)! }.joined()
      let bytes = ByteStorage(haystack)
      let word = round % 4 == 0
      let pattern = Pattern.anyOf(literals, syntax: .literal, ignoreCase: true, wholeWord: word)
      let matcher = try PatternMatcher(pattern)
      guard case .literals = matcher.engine else {
        Issue.record("seed \(seed), round \(round): not searched together")
        return
      }
      let found = try matcher.matches(in: bytes)
      let icu = try PatternMatcher(pattern, strategy: .icu).matches(in: bytes)
      #expect(found == icu, "seed \(seed), round \(round): \(literals) -w \(word) in \(haystack.debugDescription)")
      if found != icu { return }
    }
  }

  @Test("an empty literal, or a non-ASCII literal without case, stays on the regex engines")
  func fallsBack() throws {
    let filler = (0..<PatternMatcher.manyLiterals).map { "w\($0)" }
    for pattern in [
      Pattern.anyOf(filler + [""], syntax: .literal), Pattern.anyOf(filler + ["é"], syntax: .literal, ignoreCase: true),
      Pattern.anyOf(filler, syntax: .literal, wholeLine: true),
    ] {
      let matcher = try PatternMatcher(pattern)
      if case .literals = matcher.engine { Issue.record("\(pattern) searched by the automaton") }
    }
    #expect(MultiLiteralSearch([Array("a".utf8), []]) == nil)
  }

  /// Each thread of a search makes its own matcher (ICU's handles are not shared); the automaton
  /// of 100,000 words is 84 MB, and was built again by each (262 MB for a search on 2 threads).
  @Test("every matcher of a pattern, on any thread, shares one automaton, built once; -i too")
  func oneAutomatonForEveryThread() async throws {
    let words = (0..<500).map { "w\($0)q" }
    let text = ByteStorage((0..<2000).map { "w\($0 % 700)q " }.joined() + "\nW12Q end\n")
    for ignoreCase in [false, true] {
      let pattern = Pattern.anyOf(words, syntax: .literal, ignoreCase: ignoreCase)
      let expected = try PatternMatcher(pattern, strategy: .icu).matches(in: text)
      let found = try await withThrowingTaskGroup(of: ([Range<Int>], Int?).self) { group in
        for _ in 0..<8 {
          // A copy of the pattern, as each thread of `find` gets.
          let copy = pattern
          group.addTask {
            let matcher = try PatternMatcher(copy)
            guard case .literals(let search) = matcher.engine else { return ([], nil) }
            return (try matcher.matches(in: text), search.tablesIdentity)
          }
        }
        var all: [([Range<Int>], Int?)] = []
        for try await result in group { all.append(result) }
        return all
      }
      let first = try #require(found.first?.1, "the automaton runs (ignoreCase: \(ignoreCase))")
      for (matches, automaton) in found {
        #expect(matches == expected, "ignoreCase: \(ignoreCase)")
        #expect(automaton == first, "ignoreCase: \(ignoreCase)")
      }
      // A pattern made again from the same words builds its own.
      let again = try PatternMatcher(Pattern.anyOf(words, syntax: .literal, ignoreCase: ignoreCase))
      guard case .literals(let other) = again.engine else {
        Issue.record("the automaton runs")
        continue
      }
      #expect(other.tablesIdentity != first)
    }
  }

}
