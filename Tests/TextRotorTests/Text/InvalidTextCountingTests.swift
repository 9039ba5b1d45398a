import Testing
import TextRotorICU

@testable import TextRotor

/// Issue 9, items 3 and 4: UTF-16/UTF-32 counts of ill-formed UTF-8 follow the U+FFFD substitution
/// of maximal subparts (as `String(decoding:as:)`), and grapheme columns do not count a cluster
/// twice when an entry boundary falls inside it.
@Suite("Counting ill-formed text and grapheme columns")
struct InvalidTextCountingTests {
  /// Pieces of ill-formed and tricky UTF-8: stray continuations, bytes C0/C1/F5-FF, overlongs,
  /// surrogates, truncated sequences, prepended marks, ZWJ, regional indicators.
  static let pieces: [[UInt8]] = [
    [0x61], [0x80], [0xBF], [0xFF], [0xF8], [0xC0, 0x80], [0xC1, 0xBF], [0xE0, 0x80, 0x80], [0xE0, 0xA0],
    [0xED, 0xA0, 0x80], [0xF0, 0x90, 0x80], [0xF0, 0x8F, 0xBF, 0xBF], [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80],
    [0xC3], [0xC3, 0xA9], [0xF0, 0x9F, 0x98, 0x80], [0xE4, 0xB8, 0xAD], [0x0A], [0x0D], [0x0D, 0x0A], [0x20],
    Array("\u{6DD}".utf8), Array(")".utf8), Array("\u{200D}".utf8), Array("🇩🇪".utf8), Array("e\u{301}".utf8),
    Array("👨‍👩‍👧".utf8), Array("\u{FE0F}".utf8), Array("bb".utf8),
  ]

  static func randomBytes(_ rng: inout SeededRandom, maxPieces: Int) -> [UInt8] {
    (0..<Int.random(in: 0...maxPieces, using: &rng)).flatMap { _ in pieces.randomElement(using: &rng)! }
  }

  @Test("the issue's example: a\\x80b\\xFFc\\xE0\\x80\\x80d ends at UTF-16 offset 10")
  func issueExample() {
    let bytes = ByteStorage([0x61, 0x80, 0x62, 0xFF, 0x63, 0xE0, 0x80, 0x80, 0x64, 0x0A] as [UInt8])
    #expect(bytes.utf16Count(in: 0..<10) == 10)
    #expect(bytes.scalarCount(in: 0..<10) == 10)
    #expect(bytes.textCounts(in: 0..<10).utf16Units == 10)
    var cursor = PositionCursor(bytes, encoding: .utf16)
    #expect(cursor.locate(10).utf16Offset == 10)
    #expect(cursor.locate(9).column == 10)
    // A truncated 4-byte sequence is one U+FFFD; a complete one is a surrogate pair.
    #expect(ByteStorage([0xF0, 0x90, 0x80, 0x41] as [UInt8]).utf16Count(in: 0..<4) == 2)
    #expect(ByteStorage([0xF0, 0x90, 0x80, 0x80] as [UInt8]).utf16Count(in: 0..<4) == 2)
    #expect(ByteStorage([0xF0, 0x90, 0x80, 0x80] as [UInt8]).scalarCount(in: 0..<4) == 1)
  }

  @Test("UTF-16 and scalar counts equal String(decoding:as:) on random ill-formed bytes, any range")
  func countsEqualSwiftDecoding() {
    let seed = SeededRandom.seedFromEnvironment()
    var rng = SeededRandom(seed: seed)
    for round in 0..<400 {
      // Some long enough for the vector lanes and their 127-round flushes.
      let bytes = Self.randomBytes(&rng, maxPieces: round % 20 == 0 ? 3000 : 40)
      let storage = ByteStorage(bytes)
      for _ in 0..<4 {
        let a = Int.random(in: 0...bytes.count, using: &rng)
        let b = Int.random(in: a...bytes.count, using: &rng)
        let text = String(decoding: bytes[a..<b], as: UTF8.self)
        #expect(storage.utf16Count(in: a..<b) == text.utf16.count, "seed \(seed), bytes \(bytes), \(a)..<\(b)")
        #expect(
          storage.scalarCount(in: a..<b) == text.unicodeScalars.count, "seed \(seed), bytes \(bytes), \(a)..<\(b)")
        #expect(
          storage.textCounts(in: a..<b).utf16Units == text.utf16.count, "seed \(seed), bytes \(bytes), \(a)..<\(b)")
      }
    }
  }

  @Test("UTF-16 counts of long well-formed text with a few ill-formed bytes equal String(decoding:as:)")
  func sparseInvalidBytes() {
    // The well-formed runs between the ill-formed bytes are counted by the vectorised kernel, the
    // bytes around each ill-formed sequence one by one: the two must add up to the exact count.
    let seed = SeededRandom.seedFromEnvironment()
    var rng = SeededRandom(seed: seed)
    let good = Self.pieces.filter { String(validating: $0, as: UTF8.self) != nil }
    let bad = Self.pieces.filter { String(validating: $0, as: UTF8.self) == nil }
    for _ in 0..<60 {
      var bytes: [UInt8] = []
      for _ in 0..<Int.random(in: 100...3000, using: &rng) {
        bytes +=
          Int.random(in: 0..<40, using: &rng) == 0 ? bad.randomElement(using: &rng)! : good.randomElement(using: &rng)!
      }
      let storage = ByteStorage(bytes)
      for _ in 0..<4 {
        let a = Int.random(in: 0...bytes.count, using: &rng)
        let b = Int.random(in: a...bytes.count, using: &rng)
        let text = String(decoding: bytes[a..<b], as: UTF8.self)
        #expect(storage.textCounts(in: a..<b).utf16Units == text.utf16.count, "seed \(seed), \(a)..<\(b)")
      }
    }
  }

  @Test("counting on several threads does not split a character between two parts")
  func parallelCountsKeepCharactersWhole() {
    // 32 MB of "é" (C3 A9): halving it at an odd offset falls between C3 and A9. Each half was then
    // ill-formed (a truncated sequence, a stray continuation byte): one UTF-16 unit too many, and
    // both halves counted byte by byte.
    let n = (1 << 24) + 1
    var bytes = [UInt8](repeating: 0xA9, count: 2 * n)
    for i in stride(from: 0, to: 2 * n, by: 2) { bytes[i] = 0xC3 }
    let storage = ByteStorage(bytes)
    let counts = storage.textCounts(in: 0..<(2 * n), threads: 2)
    #expect(counts.utf16Units == n)
    #expect(counts.isWellFormed)
    #expect(counts.leadBytes == n)
  }

  @Test("large ranges, validated and counted block by block, equal the exact counts at every block edge")
  func blockwiseCountsEqualExact() {
    // Ranges over two blocks are validated and counted a block at a time (cut where a character
    // starts): multi-byte characters, CR LF pairs and ill-formed bytes placed on the cuts must
    // count as in one piece.
    let seed = SeededRandom.seedFromEnvironment()
    var rng = SeededRandom(seed: seed)
    let block = ByteStorage.countBlock
    let good = Self.pieces.filter { String(validating: $0, as: UTF8.self) != nil }
    let bad = Self.pieces.filter { String(validating: $0, as: UTF8.self) == nil }
    let edges: [[UInt8]] = [[0x0D, 0x0A], [0xF0, 0x9F, 0x98, 0x80], [0xE4, 0xB8, 0xAD], [0xC3, 0xA9]]
    for round in 0..<12 {
      // Well-formed text with a piece laid over each of the first two block edges of ranges that
      // start at `a` (a CR LF pair or a character cut in two there), and, in odd rounds, an
      // ill-formed piece in the third block.
      let a = Int.random(in: 0...64, using: &rng)
      var bytes: [UInt8] = []
      bytes.reserveCapacity(3 * block + 64)
      func fill(to target: Int) {
        while bytes.count < target - 32 { bytes += good.randomElement(using: &rng)! }
        while bytes.count < target { bytes.append(0x61) }
      }
      for k in 1...2 {
        let piece = edges[(round + k) % edges.count]
        fill(to: a + k * block - 1 - (round / 4) % (piece.count - 1))
        bytes += piece
      }
      if round % 2 == 1 {
        fill(to: a + 2 * block + Int.random(in: 0..<(block / 2), using: &rng))
        bytes += bad.randomElement(using: &rng)!
      }
      fill(to: a + 3 * block)
      let storage = ByteStorage(bytes)
      for _ in 0..<3 {
        let b = bytes.count - Int.random(in: 0...64, using: &rng)
        let slice = Array(bytes[a..<b])
        let text = String(decoding: slice, as: UTF8.self)
        let counts = storage.textCounts(in: a..<b)
        let lineFeeds = slice.count { $0 == 0x0A }
        let crs = slice.count { $0 == 0x0D }
        let pairs = zip(slice, slice.dropFirst()).count { $0 == 0x0D && $1 == 0x0A }
        #expect(counts.utf16Units == text.utf16.count, "seed \(seed), round \(round), \(a)..<\(b)")
        #expect(
          counts.lineFeeds == lineFeeds && counts.carriageReturns == crs && counts.crlfPairs == pairs,
          "seed \(seed), round \(round), \(a)..<\(b)")
        #expect(counts.isWellFormed == (String(validating: slice, as: UTF8.self) != nil), "seed \(seed)")
      }
    }
  }

  /// The offsets where a scalar (or a maximal subpart of an ill-formed sequence) starts.
  static func scalarBoundaries(_ bytes: [UInt8]) -> [Int] {
    var result = [0]
    var iterator = bytes.makeIterator()
    var parser = Unicode.UTF8.ForwardParser()
    var offset = 0
    while true {
      switch parser.parseScalar(from: &iterator) {
      case .valid(let s): offset += s.count
      case .error(let length): offset += length
      case .emptyInput: return result
      }
      result.append(offset)
    }
  }

  @Test("the cursor equals the model at ascending scalar boundaries, in every encoding")
  func cursorEqualsModel() {
    let seed = SeededRandom.seedFromEnvironment()
    var rng = SeededRandom(seed: seed)
    for _ in 0..<300 {
      let bytes = Self.randomBytes(&rng, maxPieces: 30)
      let boundaries = Self.scalarBoundaries(bytes)
      let targets = boundaries.filter { _ in Bool.random(using: &rng) }
      for encoding in [PositionEncoding.utf16, .utf32, .grapheme] {
        var cursor = PositionCursor(ByteStorage(bytes), encoding: encoding)
        for t in targets {
          let model = PositionCursorTests.model(bytes, t, encoding)
          #expect(cursor.locate(t) == model, "seed \(seed), \(encoding), bytes \(bytes), offset \(t)")
        }
      }
    }
  }

  @Test("a word boundary inside a grapheme cluster does not count the cluster twice")
  func graphemeColumnAfterSplitCluster() {
    // U+06DD prepends to ")": one cluster, two words.
    let bytes = ByteStorage(Array("a\u{6DD})bb".utf8))
    var cursor = PositionCursor(bytes, encoding: .grapheme)
    #expect(cursor.locate(0).column == 1)
    #expect(cursor.locate(3).column == 3)
    #expect(cursor.locate(4).column == 3)
    var fresh = PositionCursor(bytes, encoding: .grapheme)
    #expect(fresh.locate(4).column == 3)
  }
}
