import Testing
import TextRotor

@Suite("Viewport entries")
struct ViewportEntriesTests {
  static let pieces = ["One", " ", "two.", " ", "Three", "\n", "\n", "é", "😀", "中文", "4.5", "\r\n", "x"]

  @Test("entries(from:to:) equals the entries at indices(from:to:), for every system rotor and random viewports")
  func entriesEqualIndexedEntries() throws {
    let seed = SeededRandom.seedFromEnvironment()
    var rng = SeededRandom(seed: seed)
    for round in 0..<40 {
      let elements = (0..<Int.random(in: 1...4, using: &rng)).map { k -> TextElement<Int> in
        var text = ""
        for _ in 0..<Int.random(in: 0...60, using: &rng) { text += Self.pieces.randomElement(using: &rng)! }
        return TextElement(id: k, text: text)
      }
      let document = try RotorDocument(elements: elements)
      for kind in SystemRotor.allCases {
        let rotor = try document.rotor(kind)
        for _ in 0..<10 {
          let a = Int.random(in: 0..<elements.count, using: &rng)
          let b = Int.random(in: a..<elements.count, using: &rng)
          // A random scalar boundary (an offset inside a UTF-8 sequence is an error).
          let scalars = elements[a].text.unicodeScalars
          let k = scalars.index(scalars.startIndex, offsetBy: Int.random(in: 0...scalars.count, using: &rng))
          let start = try document.position(
            in: a, utf8Offset: elements[a].text.utf8.distance(from: scalars.startIndex, to: k))
          let end = try document.position(in: b, utf8Offset: elements[b].text.utf8.count)
          let expected = rotor.indices(from: start, to: end).map { rotor[$0] }
          let got = rotor.entries(from: start, to: end)
          #expect(got.map(\.label) == expected.map(\.label), "seed \(seed) round \(round) \(kind)")
          #expect(got.map(\.textRange) == expected.map(\.textRange), "seed \(seed) round \(round) \(kind)")
          #expect(got.map(\.id) == expected.map(\.id), "seed \(seed) round \(round) \(kind)")
        }
      }
    }
  }
}
