import Foundation
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

  /// Lines and paragraphs are counted by the line-break and paragraph-start kernels, with no
  /// entry stored: the count must be the stored entries', on texts dense in every terminator
  /// (a lone CR too), blank lines of spaces and tabs, and empty elements.
  @Test("lines and paragraphs counted without an index equal the stored ones")
  func linesAndParagraphsCounted() throws {
    let seed = SeededRandom.seedFromEnvironment()
    var rng = SeededRandom(seed: seed)
    let pieces = ["\n", "\r", "\r\n", " ", "\t", "a", "é", "\n\n", " \t\n", "word", "\r\r"]
    for round in 0..<TestScale.count(400) {
      var text = ""
      for _ in 0..<Int.random(in: 0...60, using: &rng) { text += pieces.randomElement(using: &rng)! }
      let bytes = ByteStorage(text)
      let kind = ElementKind.allCases.randomElement(using: &rng)!
      let elements = kind.ranges(in: bytes)
      let segmenter = Segmenter(threads: Int.random(in: 1...2, using: &rng))
      for rotor in [SystemRotor.lines, .paragraphs] {
        let stored = try segmenter.segment(bytes, elements: elements, rotor: rotor).count
        let counted = try segmenter.count(bytes, elements: elements, rotor: rotor).entries
        #expect(counted == stored, "seed \(seed) round \(round) \(rotor) \(kind) \(text.debugDescription)")
      }
    }
  }

  /// Ill-formed pieces, a lone lead byte before a line break among them (a piece ends there).
  static let illFormed: [[UInt8]] = [[0x80], [0xFF], [0xC3, 0x28], [0xE2, 0x82], [0xE2, 0x0A], [0xF0, 0x9F, 0x98]]

  @Test(
    "checkingUTF8: the first ill-formed byte is the one a whole-text check finds, counted or stored, any threads and piece size"
  )
  func checkingUTF8FindsTheFirstIllFormedByte() throws {
    let seed = SeededRandom.seedFromEnvironment()
    var rng = SeededRandom(seed: seed)
    for round in 0..<TestScale.count(60) {
      var raw: [UInt8] = []
      for _ in 0..<Int.random(in: 0...300, using: &rng) {
        if Int.random(in: 0..<40, using: &rng) == 0 {
          raw += Self.illFormed.randomElement(using: &rng)!
        } else {
          raw += Array(Self.pieces.randomElement(using: &rng)!.utf8)
        }
      }
      let bytes = ByteStorage(raw)
      let elements = ElementKind.allCases.randomElement(using: &rng)!.ranges(in: bytes)
      let expected = Segmenter.firstInvalidUTF8(bytes, elements: elements)
      var segmenter = Segmenter(
        threads: Int.random(in: 1...2, using: &rng), pieceSize: Int.random(in: 8...512, using: &rng))
      segmenter.useFastPaths = Bool.random(using: &rng)
      for rotor in SystemRotor.allCases {
        let plain = try segmenter.count(bytes, elements: elements, rotor: rotor)
        let counted = try segmenter.count(
          bytes, elements: elements, rotor: rotor, checkingUTF8: true, lastRead: Bool.random(using: &rng))
        let stored = try segmenter.segment(bytes, elements: elements, rotor: rotor, checkingUTF8: true)
        let unchecked = try segmenter.count(bytes, elements: elements, rotor: rotor, checkingUTF8: false)
        #expect(counted.firstInvalidUTF8 == expected, "seed \(seed) round \(round) \(rotor)")
        #expect(stored.firstInvalidUTF8 == expected, "seed \(seed) round \(round) \(rotor)")
        #expect(unchecked.firstInvalidUTF8 == nil, "seed \(seed) round \(round) \(rotor)")
        #expect(counted.entries == plain.entries && counted.words == plain.words, "seed \(seed) round \(round)")
        #expect(stored.store.count == plain.entries, "seed \(seed) round \(round) \(rotor)")
      }
      // The whole-text check, here over the elements, is what a file's check finds when the
      // elements are the whole file.
      if elements == [0..<bytes.count] {
        #expect(expected == TextFacts.firstInvalidUTF8(bytes, threads: 2), "seed \(seed) round \(round)")
      }
    }
  }

  @Test(
    "checkingUTF8 on ICU's path: the check after each batch of boundaries reaches every byte of a long span, one ill-formed byte anywhere"
  )
  func checkingUTF8InsideICUsLoop() throws {
    let seed = SeededRandom.seedFromEnvironment()
    var rng = SeededRandom(seed: seed)
    // One line of ~40,000 graphemes (ICU's loop takes 4,096 boundaries a batch), no line break, so
    // one span: the ill-formed byte falls into any batch, or after the last boundary of one.
    var raw: [UInt8] = []
    while raw.count < 60_000 {
      raw += Array(Self.pieces.filter { !$0.utf8.contains(0x0A) }.randomElement(using: &rng)!.utf8)
    }
    for round in 0..<TestScale.count(12) {
      var bytes = raw
      // A lead byte where a character starts (so the rest stays well-formed), or a stray byte.
      var at = Int.random(in: 0..<bytes.count, using: &rng)
      while bytes[at] & 0xC0 == 0x80 { at -= 1 }
      let bad = Self.illFormed.filter { !$0.contains(0x0A) }.randomElement(using: &rng)!
      bytes.insert(contentsOf: bad, at: at)
      let storage = ByteStorage(bytes)
      let elements = [0..<storage.count]
      let expected = Segmenter.firstInvalidUTF8(storage, elements: elements)
      #expect(expected != nil, "seed \(seed) round \(round)")
      var segmenter = Segmenter(threads: Int.random(in: 1...2, using: &rng), pieceSize: 1 << 20)
      segmenter.useFastPaths = false
      for rotor in [SystemRotor.characters, .words, .sentences, .linebreaks] {
        let counted = try segmenter.count(storage, elements: elements, rotor: rotor, checkingUTF8: true)
        let stored = try segmenter.segment(storage, elements: elements, rotor: rotor, checkingUTF8: true)
        #expect(counted.firstInvalidUTF8 == expected, "seed \(seed) round \(round) \(rotor) at \(at)")
        #expect(stored.firstInvalidUTF8 == expected, "seed \(seed) round \(round) \(rotor) at \(at)")
      }
      // And well-formed: nothing found.
      let clean = ByteStorage(raw)
      let found = try segmenter.count(clean, elements: [0..<clean.count], rotor: .characters, checkingUTF8: true)
      #expect(found.firstInvalidUTF8 == nil, "seed \(seed) round \(round)")
    }
  }

  @Test("lastRead hands a mapped file's counted pages back; the bytes stay readable and the same")
  func lastReadKeepsTheBytes() throws {
    var text = ""
    for k in 0..<40_000 { text += "Line \(k): naïve café, 中文 text.\n" }
    let path = NSTemporaryDirectory() + "textrotor-lastread-\(UUID().uuidString).txt"
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let bytes = try ByteStorage.contentsOf(path: path)
    let elements = ElementKind.whole.ranges(in: bytes)
    let segmenter = Segmenter(threads: 2, pieceSize: 64 << 10)
    let expected = try segmenter.count(bytes, elements: elements, rotor: .words)
    let counted = try segmenter.count(bytes, elements: elements, rotor: .words, checkingUTF8: true, lastRead: true)
    #expect(counted.entries == expected.entries && counted.words == expected.words)
    #expect(counted.firstInvalidUTF8 == nil)
    // Read again after the pages were handed back: the same bytes, the same count.
    #expect(bytes.string(0..<bytes.count) == text)
    let again = try segmenter.count(bytes, elements: elements, rotor: .words, checkingUTF8: true, lastRead: true)
    #expect(again.entries == expected.entries)
  }

  @Test(
    "parallel units: each taken once; a worker takes its own share in order, then the far end of the largest share left"
  )
  func workersTakeTheirSharesThenSteal() {
    let seed = SeededRandom.seedFromEnvironment()
    var rng = SeededRandom(seed: seed)
    for round in 0..<TestScale.count(200) {
      let count = Int.random(in: 0...40, using: &rng)
      let workers = Int.random(in: 1...5, using: &rng)
      let results = ParallelResults(count: count, workers: workers)
      let bounds = (0...workers).map { count * $0 / workers }
      // The model: what is left of each share.
      var left = (0..<workers).map { bounds[$0]..<bounds[$0 + 1] }
      var taken: [Int] = []
      var active = Array(0..<workers)
      while !active.isEmpty {
        let k = active.randomElement(using: &rng)!
        guard let i = results.claim(k) else {
          let unitsLeft = left.reduce(0) { $0 + $1.count }
          #expect(unitsLeft == 0, "seed \(seed) round \(round): worker \(k) stopped with units left")
          active.removeAll { $0 == k }
          continue
        }
        taken.append(i)
        if !left[k].isEmpty {
          #expect(i == left[k].lowerBound, "seed \(seed) round \(round): worker \(k) took \(i) out of order")
          left[k] = (left[k].lowerBound + 1)..<left[k].upperBound
        } else {
          let most = left.map(\.count).max()!
          let from = left.firstIndex { $0.count == most }!
          #expect(i == left[from].upperBound - 1, "seed \(seed) round \(round): worker \(k) stole \(i)")
          left[from] = left[from].lowerBound..<(left[from].upperBound - 1)
        }
      }
      #expect(taken.sorted() == Array(0..<count), "seed \(seed) round \(round)")
    }
  }
}
