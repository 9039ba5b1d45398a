import Foundation
import Testing
import TextRotorICU

@testable import TextRotor

/// The line and UTF-16 counting kernels (`cicu_count_lines`, `cicu_count_text`: AVX2 intrinsics
/// where the CPU has them, a portable loop elsewhere) against a byte-by-byte count, on random
/// texts full of CR, LF, CR LF and multi-byte UTF-8, at unaligned starts: the vector rounds of 128
/// and 32 bytes, the CR LF pairs that straddle two vectors or rounds, the last byte (whose LF is
/// outside the range), and the 8-bit lanes flushed before they wrap.
@Suite("Counting kernels")
struct TextCountKernelTests {
  /// Every LF, CR, CR LF pair with both bytes in `range`, lead byte and 4-byte lead, one by one.
  static func reference(_ bytes: [UInt8], _ range: Range<Int>) -> TextCounts {
    var r = TextCounts()
    for i in range {
      let b = bytes[i]
      if b == 0x0A { r.lineFeeds += 1 }
      if b == 0x0D {
        r.carriageReturns += 1
        if i + 1 < range.upperBound && bytes[i + 1] == 0x0A { r.crlfPairs += 1 }
      }
      if b & 0xC0 != 0x80 { r.leadBytes += 1 }
      r.utf16Units += (b & 0xC0 != 0x80 ? 1 : 0) + (b >= 0xF0 ? 1 : 0)
    }
    return r
  }

  static let pieces: [[UInt8]] =
    ["a", "word ", "\n", "\r", "\r\n", "\r\r\n", "\n\r", "é", "中文", "😀", "𝔸\n", "\r\n\r\n"].map { Array($0.utf8) }
    + [[0x80], [0xFF], [0xF0, 0x90], [0x0D, 0x0D, 0x0D], [0x0A, 0x0A, 0x0A, 0x0A]]

  /// Random pieces (some runs of one piece, so that whole vectors are CR, LF or 4-byte text).
  static func randomText(_ rng: inout SeededRandom, length: Int) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(length + 8)
    while bytes.count < length {
      let piece = pieces.randomElement(using: &rng)!
      let repeats = Int.random(in: 0..<8, using: &rng) == 0 ? Int.random(in: 1...80, using: &rng) : 1
      for _ in 0..<repeats { bytes += piece }
    }
    return Array(bytes.prefix(length))
  }

  static func check(_ bytes: [UInt8], _ storage: ByteStorage, _ range: Range<Int>, _ note: @autoclosure () -> String) {
    let expected = reference(bytes, range)
    var lines = expected
    lines.utf16Units = 0
    lines.leadBytes = 0
    for portable in [false, true] {
      let text = storage.kernelCounts(in: range, linesOnly: false, portable: portable)
      #expect(text == expected, "\(note()) \(range) portable \(portable)")
      let onlyLines = storage.kernelCounts(in: range, linesOnly: true, portable: portable)
      #expect(onlyLines == lines, "\(note()) \(range) lines only, portable \(portable)")
    }
    #expect(storage.lineBreaks(in: range) == expected.lineBreaks, "\(note()) \(range) lineBreaks")
  }

  @Test("random texts of 0...5000 bytes at unaligned starts: the kernels equal a byte loop")
  func randomTexts() {
    let seed = SeededRandom.seedFromEnvironment()
    var rng = SeededRandom(seed: seed)
    for round in 0..<TestScale.count(3000) {
      let length = Int.random(in: 0...5000, using: &rng)
      let start = Int.random(in: 0..<64, using: &rng)
      let bytes = Self.randomText(&rng, length: start + length + Int.random(in: 0...3, using: &rng))
      let storage = ByteStorage(bytes)
      Self.check(bytes, storage, start..<(start + length), "seed \(seed) round \(round)")
      // A range ending just before an LF: the CR before it pairs with nothing inside the range.
      if let lf = bytes.indices.last(where: { $0 > start && bytes[$0] == 0x0A }) {
        Self.check(bytes, storage, start..<lf, "seed \(seed) round \(round), up to an LF")
      }
    }
  }

  @Test("every lane full: runs of one byte class long enough to flush the 8-bit lanes")
  func fullLanes() {
    // A 128-byte round adds up to 4 to a lane, flushed every 63 rounds (8,064 bytes); the
    // portable loop flushes every 255 rounds of 16. Lengths around both, every byte counted.
    let lengths = [127, 128, 129, 160, 4079, 4080, 4081, 8063, 8064, 8065, 8192, 8193, 16_129, 20_000]
    for fill: [UInt8] in [
      [0x0A], [0x0D], [0x0D, 0x0A], [0x0A, 0x0D], [0xF0], [0xC3, 0xA9], [0xF0, 0x9F, 0x98, 0x80],
    ] {
      for length in lengths {
        var bytes: [UInt8] = []
        while bytes.count < length + 2 { bytes += fill }
        let storage = ByteStorage(bytes)
        for range in [0..<length, 1..<(length + 1), 2..<(length + 2)] {
          Self.check(bytes, storage, range, "fill \(fill) length \(length)")
        }
      }
    }
  }

  /// A large mapped file counted on two threads is read with `pread`, a block (``ByteStorage/countBlock``)
  /// at a time: the counts must equal those of the same bytes in memory, with CR LF pairs, characters
  /// and ill-formed sequences at the blocks' seams, and after the file shrank (the rest read through
  /// the mapping, the missing pages as zeros).
  @Test("a large file read with pread on two threads counts as the same bytes in memory, also after it shrank")
  func readFileCounts() throws {
    let seed = SeededRandom.seedFromEnvironment()
    var rng = SeededRandom(seed: seed)
    let period = Self.randomText(&rng, length: 999_983)  // not a divisor of the block size
    var bytes: [UInt8] = []
    bytes.reserveCapacity(34 << 20)
    while bytes.count < (33 << 20) + 12_345 { bytes += period }
    // At and around the first blocks' seams (parts start at 0 and at half the range).
    let block = ByteStorage.countBlock
    for (k, piece) in [Array("\r\n".utf8), Array("😀".utf8), [0xE4, 0xB8], [0x80, 0x80, 0x80, 0x80], [0x0D, 0x0D]]
      .enumerated()
    {
      for shift in [-2, -1, 0, 1] {
        let at = block * (k * 4 + shift + 10) + shift
        bytes.replaceSubrange(at..<(at + piece.count), with: piece)
      }
    }
    let path = NSTemporaryDirectory() + "textrotor-readcounts-\(UUID().uuidString).txt"
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let mapped = try ByteStorage.contentsOf(path: path)
    let memory = ByteStorage(bytes)
    let n = bytes.count
    for range in [0..<n, 1..<(n - 1), (block - 1)..<(n - block - 3), 7..<(33 << 20)] {
      let expected = memory.textCounts(in: range, threads: 1)
      #expect(mapped.textCounts(in: range, threads: 2) == expected, "seed \(seed) \(range)")
      #expect(mapped.lineBreaks(in: range, threads: 2) == expected.lineBreaks, "seed \(seed) \(range)")
    }
    // Shrunk in the middle of a block of the second part, before its pages were read.
    let newSize = (20 << 20) + block / 2 + 3
    #expect(truncate(path, off_t(newSize)) == 0)
    let shrunk = try ByteStorage.contentsOf(path: path)
    #expect(shrunk.count == newSize)
    let zeros = ByteStorage(Array(bytes[0..<newSize]) + [UInt8](repeating: 0, count: n - newSize))
    let expected = zeros.textCounts(in: 0..<n, threads: 1)
    #expect(mapped.textCounts(in: 0..<n, threads: 2) == expected, "seed \(seed)")
    #expect(mapped.lineBreaks(in: 0..<n, threads: 2) == expected.lineBreaks, "seed \(seed)")
  }
}
