import CTextRotorShim
import Foundation
import Testing
import TextRotorICU

@testable import TextRotor

/// `ByteStorage.paragraphStarts(in:threads:)` (the paragraph index of `next --elements paragraphs
/// --json`): the AVX2 kernel and the portable loop against the paragraphs that `ElementKind` cuts,
/// on random texts of blank lines, spaces, tabs, CR, LF and CR LF, at unaligned ranges; and a large
/// file read with `pread` on two threads, its parts cut inside runs of spaces and line breaks.
@Suite("Paragraph-start count")
struct ParagraphCountTests {
  static let pieces: [[UInt8]] =
    ["a", "word ", "\n", "\r", "\r\n", "\n\n", "\r\n\r\n", "  \n", "\t", " ", "\r\r", "\n \t\r\n", "é", "😀"].map {
      Array($0.utf8)
    } + [[0xFF], [0x0B], [0x00]]

  static func randomText(_ rng: inout SeededRandom, length: Int) -> [UInt8] {
    var bytes: [UInt8] = []
    while bytes.count < length {
      let piece = pieces.randomElement(using: &rng)!
      let repeats = Int.random(in: 0..<8, using: &rng) == 0 ? Int.random(in: 1...70, using: &rng) : 1
      for _ in 0..<repeats { bytes += piece }
    }
    return bytes
  }

  /// The paragraphs of the text starting at `range.lowerBound` whose first content byte (not a
  /// space or tab) is before `range.upperBound`.
  static func reference(_ storage: ByteStorage, _ range: Range<Int>) -> Int {
    ElementKind.paragraphs(in: storage, range: range.lowerBound..<storage.count).filter { p in
      let first = (p.lowerBound..<p.upperBound).first { storage[$0] != 0x20 && storage[$0] != 0x09 }!
      return first < range.upperBound
    }.count
  }

  @Test("the kernels count the paragraphs ElementKind cuts, from any start to any end")
  func kernelsMatchElements() {
    let seed = SeededRandom.seedFromEnvironment()
    var rng = SeededRandom(seed: seed)
    for round in 0..<TestScale.count(300) {
      let bytes = Self.randomText(&rng, length: Int.random(in: 0...600, using: &rng))
      let storage = ByteStorage(bytes)
      let s = Int.random(in: 0...bytes.count, using: &rng)
      let e = Int.random(in: s...bytes.count, using: &rng)
      let expected = Self.reference(storage, s..<e)
      #expect(storage.paragraphStarts(in: s..<e) == expected, "seed \(seed) round \(round) \(s)..<\(e) of \(bytes)")
      var state = cicu_paragraph_state(starts: 0, afterBreak: 1, afterBlank: 1)
      bytes.withUnsafeBufferPointer {
        let next: Int32 = e < bytes.count ? Int32(bytes[e]) : -1
        cicu_paragraph_starts_portable(&state, $0.baseAddress! + s, e - s, next)
      }
      #expect(Int(state.starts) == expected, "portable: seed \(seed) round \(round) \(s)..<\(e) of \(bytes)")
    }
  }

  @Test("a large file read with pread on two threads counts as the same bytes in memory")
  func readFileCounts() throws {
    let seed = SeededRandom.seedFromEnvironment()
    var rng = SeededRandom(seed: seed)
    let period = Self.randomText(&rng, length: 99_991)
    var bytes: [UInt8] = []
    bytes.reserveCapacity(34 << 20)
    while bytes.count < (33 << 20) + 4096 { bytes += period }
    // Ranges from 0 whose two parts meet at `mid`: there, the cases of a cut between two parts.
    let mid = (33 << 20) / 2 + 1000
    let cases: [[UInt8]] = ["x\r|\ny", "x\n|\ny", "x\n \t|  \ny", "x\n\n|  y", "x\r\r|\r\ny", "x\n|y", "x  |\n\ny"].map
    {
      Array($0.utf8)
    }
    let path = NSTemporaryDirectory() + "textrotor-paragraphs-\(UUID().uuidString).txt"
    defer { try? FileManager.default.removeItem(atPath: path) }
    for piece in cases {
      var text = bytes
      let cut = piece.firstIndex(of: UInt8(ascii: "|"))!
      var bare = piece
      bare.remove(at: cut)
      text.replaceSubrange((mid - cut)..<(mid - cut + bare.count), with: bare)
      try Data(text).write(to: URL(fileURLWithPath: path))
      let mapped = try ByteStorage.contentsOf(path: path)
      let memory = ByteStorage(text)
      for range in [0..<(2 * mid), 0..<(2 * mid - 1), 0..<text.count] {
        let expected = memory.paragraphStarts(in: range, threads: 1)
        #expect(mapped.paragraphStarts(in: range, threads: 2) == expected, "seed \(seed) \(piece) \(range)")
      }
    }
  }
}
