import Testing

@testable import TextRotor

@Suite("UTF-8 validation")
struct UTF8ValidationTests {
  @Test("the parallel check finds the same first invalid byte as the sequential one")
  func parallelEqualsSequential() {
    let seed = SeededRandom.seedFromEnvironment()
    var rng = SeededRandom(seed: seed)
    // 9 MiB of valid mixed text (1-4 byte sequences), so the parallel path runs.
    let unit = Array("ab é 中 😀 ".utf8)
    var base: [UInt8] = []
    while base.count < 9 << 20 { base += unit }
    #expect(TextFacts.firstInvalidUTF8(ByteStorage(base), threads: 2) == nil)
    // Defects that are invalid whatever surrounds them (an overlong lead, a surrogate, past
    // U+10FFFF, a byte never used), so that every round has an error to find.
    let bad: [[UInt8]] = [[0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xFF], [0xF5]]
    for round in 0..<TestScale.count(12) {
      var bytes = base
      // One or two defects, often near the middle where the pieces are cut.
      for _ in 0..<Int.random(in: 1...2, using: &rng) {
        let at =
          Bool.random(using: &rng)
          ? bytes.count / 2 + Int.random(in: -8...8, using: &rng) : Int.random(in: 0..<bytes.count - 4, using: &rng)
        let defect = bad.randomElement(using: &rng)!
        bytes.replaceSubrange(at..<at + defect.count, with: defect)
      }
      let storage = ByteStorage(bytes)
      let sequential = storage.firstInvalidUTF8(in: 0..<bytes.count)
      #expect(sequential != nil)
      #expect(TextFacts.firstInvalidUTF8(storage, threads: 2) == sequential, "seed \(seed) round \(round)")
      #expect(TextFacts.firstInvalidUTF8(storage, threads: 3) == sequential, "seed \(seed) round \(round)")
    }
  }
}
