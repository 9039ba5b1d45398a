import Testing

@testable import TextRotor

/// `ByteStorage.firstInvalidUTF8(in:)` runs a vectorised check (AVX2) where the CPU has it; these
/// compare it with the byte-at-a-time reference on texts built to put defects everywhere, block
/// edges (32 bytes) included.
@Suite("UTF-8 validation, vectorised")
struct UTF8ValidationSIMDTests {
  /// Lead and continuation bytes that matter to the rules (every boundary value), and others.
  static let interesting: [UInt8] = [
    0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xEC, 0xED, 0xEE, 0xEF,
    0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xF8, 0xFE, 0xFF,
  ]

  static func check(_ bytes: [UInt8], _ note: @autoclosure () -> String) {
    let storage = ByteStorage(bytes)
    for range in [0..<bytes.count, min(1, bytes.count)..<bytes.count, 0..<max(0, bytes.count - 1)] {
      let expected = storage.firstInvalidUTF8Reference(in: range)
      let found = storage.firstInvalidUTF8(in: range)
      #expect(found == expected, "\(note()) range \(range)")
    }
  }

  @Test("every sequence of up to four interesting bytes, at every offset around a block edge")
  func shortSequencesAtBlockEdges() {
    let valid = Array("aé中😀".utf8)  // 1 + 2 + 3 + 4 bytes
    var base: [UInt8] = []
    while base.count < 80 { base += valid }
    let all = Self.interesting
    var sequences: [[UInt8]] = []
    for a in all {
      for b in all {
        sequences.append([a, b])
        for c in [0x80, 0xBF, 0x41, 0xC2] as [UInt8] {
          sequences.append([a, b, c])
          sequences.append([a, b, c, 0x80])
        }
      }
    }
    for sequence in sequences {
      for at in [0, 1, 28, 29, 30, 31, 32, 33, 62, 63, 64 - sequence.count] {
        var bytes = Array(repeating: UInt8(0x61), count: 70)
        bytes.replaceSubrange(at..<at + sequence.count, with: sequence)
        Self.check(bytes, "\(sequence) at \(at) in ASCII")
        var mixed = base
        mixed.replaceSubrange(at..<at + sequence.count, with: sequence)
        Self.check(mixed, "\(sequence) at \(at) in mixed text")
      }
    }
  }

  @Test("random texts of every sequence length with random defects")
  func randomTexts() {
    let seed = SeededRandom.seedFromEnvironment()
    var rng = SeededRandom(seed: seed)
    let units: [[UInt8]] = ["a", " ", "\n", "é", "ж", "中", "한", "😀", "𝔸"].map { Array($0.utf8) }
    for round in 0..<20_000 {
      var bytes: [UInt8] = []
      let length = Int.random(in: 0...300, using: &rng)
      while bytes.count < length { bytes += units.randomElement(using: &rng)! }
      for _ in 0..<Int.random(in: 0...2, using: &rng) where !bytes.isEmpty {
        let at = Int.random(in: 0..<bytes.count, using: &rng)
        bytes[at] =
          Bool.random(using: &rng)
          ? Self.interesting.randomElement(using: &rng)! : UInt8.random(in: 0...255, using: &rng)
      }
      if Bool.random(using: &rng) && !bytes.isEmpty {
        bytes.removeLast(Int.random(in: 0...min(3, bytes.count), using: &rng))
      }
      Self.check(bytes, "seed \(seed) round \(round) bytes \(bytes)")
    }
  }
}
