import Testing

@testable import TextRotor

@Suite("Counting without an index")
struct CountingTests {
  static let pieces = [
    "Hello", " ", "world", ". ", "\n", "\r\n", "3.14", "😀", "中文", "สวัสดี", "e\u{301}", "a_b", "\t", "x@y",
  ]

  @Test("count(...) equals the stored segmentation's count and word count, for every rotor and piece size")
  func countEqualsSegmentation() throws {
    let seed = SeededRandom.seedFromEnvironment()
    var rng = SeededRandom(seed: seed)
    for round in 0..<TestScale.count(80) {
      var text = ""
      for _ in 0..<Int.random(in: 0...300, using: &rng) { text += Self.pieces.randomElement(using: &rng)! }
      let bytes = ByteStorage(text)
      let elements = ElementKind.allCases.randomElement(using: &rng)!.ranges(in: bytes)
      var segmenter = Segmenter(
        threads: Int.random(in: 1...2, using: &rng), pieceSize: Int.random(in: 8...4096, using: &rng))
      segmenter.useFastPaths = Bool.random(using: &rng)
      for rotor in SystemRotor.allCases {
        let store = try segmenter.segment(bytes, elements: elements, rotor: rotor)
        let counted = try segmenter.count(bytes, elements: elements, rotor: rotor)
        let words = store.segments.filter(\.status.isWord).count
        #expect(counted.entries == store.count, "seed \(seed) round \(round) \(rotor)")
        #expect(counted.words == words, "seed \(seed) round \(round) \(rotor)")
      }
    }
  }
}
