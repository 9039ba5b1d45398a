import Testing

@testable import TextRotor

/// `ByteStorage.firstEscape(in:or:_:)` scans 16 bytes at a time (SSE2); these compare it with a
/// byte-at-a-time scan at every start and end around the blocks' edges.
@Suite("escape scan, vectorised")
struct EscapeScanTests {
  static func reference(_ bytes: [UInt8], _ range: Range<Int>, _ a: UInt8, _ b: UInt8) -> Int? {
    range.first { bytes[$0] < 0x20 || bytes[$0] == a || bytes[$0] == b }
  }

  @Test("each byte value alone, at every offset of a 70-byte text and every range around it")
  func everyByteEverywhere() {
    let plain = Array(String(repeating: "aé中 ", count: 12).utf8.prefix(70))
    let pairs: [(UInt8, UInt8)] = [(0x22, 0x5C), (0x7F, 0x7F)]
    // One expectation for all (143,000 cases): the first few that differ.
    var wrong: [String] = []
    for value in 0...255 {
      for at in stride(from: 0, to: plain.count, by: 7) {
        var bytes = plain
        bytes[at] = UInt8(value)
        let storage = ByteStorage(bytes)
        for (a, b) in pairs {
          for lower in [0, 1, at, min(at + 1, bytes.count)] {
            for upper in [at, at + 1, 16, 31, 32, 33, bytes.count] where upper >= lower && upper <= bytes.count {
              let range = lower..<upper
              if storage.firstEscape(in: range, or: a, b) != Self.reference(bytes, range, a, b), wrong.count < 5 {
                wrong.append("byte \(value) at \(at), range \(range), pair \(a) \(b)")
              }
            }
          }
        }
      }
    }
    #expect(wrong.isEmpty, "\(wrong)")
  }

  @Test("random texts dense in escapes, every start")
  func randomTexts() {
    var seed: UInt64 = 0x5EED_E5C4
    func next() -> UInt64 {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return seed >> 33
    }
    for round in 0..<200 {
      let count = Int(next() % 90)
      let bytes = (0..<count).map { _ in
        next() % 8 == 0 ? UInt8(next() % 0x20) : [0x41, 0x22, 0x5C, 0x7F, 0x80, 0xE4, 0xFF, 0x20][Int(next() % 8)]
      }
      let storage = ByteStorage(bytes)
      for lower in 0...count {
        #expect(
          storage.firstEscape(in: lower..<count, or: 0x22, 0x5C) == Self.reference(bytes, lower..<count, 0x22, 0x5C),
          "round \(round) from \(lower): \(bytes)")
        #expect(
          storage.firstEscape(in: lower..<count, or: 0x7F, 0x7F) == Self.reference(bytes, lower..<count, 0x7F, 0x7F),
          "round \(round) from \(lower): \(bytes)")
      }
    }
  }
}
