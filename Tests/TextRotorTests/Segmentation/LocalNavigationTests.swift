import Testing

@testable import TextRotor

@Suite("Local navigation (next/prev without a full index)")
struct LocalNavigationTests {
  static let pieces = [
    "Hello", " ", "world", ". ", "\n", "\r\n", "\r", "\n\n", "  \n", "Mr. Smith", "3.14", "😀", "👨‍👩‍👧", "中文",
    "สวัสดี", "e\u{301}", "?! ", "\t", "word-break", "\"Quoted.\" ",
  ]

  static let longLinePieces = [
    "Hello", " ", "world", ". ", "Mr. Smith", "3.14", "a_b", "x@y", "can't", "e\u{301}", "😀", "中文", "  ", "\t", "-",
    "\r\n",
  ]

  @Test("entry(after:) and entry(before:) equal the full segmentation's answer at every offset")
  func matchesFullSegmentation() throws {
    let seed = SeededRandom.seedFromEnvironment()
    var rng = SeededRandom(seed: seed)
    var segmenter = Segmenter()
    // Tiny windows on long lines half the time, so that narrowing to safe points is exercised.
    for round in 0..<TestScale.count(120) {
      segmenter.narrowing = round % 2 == 0 ? 1 << 16 : Int.random(in: 1...12, using: &rng)
      var text = ""
      // Odd rounds: long lines (few line breaks) of mostly ASCII words.
      let pieces = round % 2 == 0 ? Self.pieces : Self.longLinePieces
      for _ in 0..<Int.random(in: 0...60, using: &rng) { text += pieces.randomElement(using: &rng)! }
      let bytes = ByteStorage(text)
      // Sometimes a smaller element inside the text, to check element limits are respected.
      var element = 0..<bytes.count
      if round % 3 == 0 && bytes.count > 4 {
        let scalarStarts = (0...bytes.count).filter { $0 == bytes.count || bytes[$0] & 0xC0 != 0x80 }
        let a = scalarStarts.randomElement(using: &rng)!
        let b = scalarStarts.randomElement(using: &rng)!
        element = min(a, b)..<max(a, b)
      }
      for rotor in SystemRotor.allCases {
        let store = try segmenter.segment(bytes, elements: [element], rotor: rotor)
        let all = store.segments
        for offset in -1...(bytes.count + 1) {
          let after = all.first { $0.start > offset }
          let before = all.last { $0.start < offset }
          let gotAfter = try segmenter.entry(after: offset, in: bytes, element: element, rotor: rotor)
          let gotBefore = try segmenter.entry(before: offset, in: bytes, element: element, rotor: rotor)
          #expect(
            gotAfter?.range == after?.range,
            "seed \(seed) round \(round) \(rotor) after \(offset) in \(element) of \(text.debugDescription)")
          #expect(
            gotBefore?.range == before?.range,
            "seed \(seed) round \(round) \(rotor) before \(offset) in \(element) of \(text.debugDescription)")
          if gotAfter?.range != after?.range || gotBefore?.range != before?.range { return }
        }
      }
    }
  }
}
