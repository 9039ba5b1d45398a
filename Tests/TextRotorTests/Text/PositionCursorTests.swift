import Testing

@testable import TextRotor

@Suite("PositionCursor")
struct PositionCursorTests {
  /// The naive model: walk the text byte by byte.
  static func model(_ bytes: [UInt8], _ target: Int, _ encoding: PositionEncoding) -> TextLocation {
    var line = 1
    var lineStart = 0
    var i = 0
    while i < target {
      if bytes[i] == 0x0A || (bytes[i] == 0x0D && !(i + 1 < bytes.count && bytes[i + 1] == 0x0A)) {
        line += 1
        lineStart = i + 1
      }
      i += 1
    }
    let prefix = String(decoding: bytes[0..<target], as: UTF8.self)
    let linePrefix = String(decoding: bytes[lineStart..<target], as: UTF8.self)
    let column: Int
    switch encoding {
    case .utf8: column = target - lineStart
    case .utf16: column = linePrefix.utf16.count
    case .utf32: column = linePrefix.unicodeScalars.count
    case .grapheme: column = linePrefix.count
    }
    return TextLocation(line: line, column: column + 1, utf16Offset: prefix.utf16.count)
  }

  static let pieces = ["a", "bc ", "\n", "\r", "\r\n", "é", "😀", "中文", " ", "\r\n\r\n", "🇩🇪", "x\u{301}"]

  @Test("random texts and scalar-boundary offsets, forwards and backwards, match the naive model")
  func randomModel() {
    let seed = SeededRandom.seedFromEnvironment()
    var rng = SeededRandom(seed: seed)
    for round in 0..<300 {
      var text = ""
      // Long enough to cross the 16-byte vector blocks and the 4080-byte accumulator blocks.
      let length = Int.random(in: 0...(round % 10 == 0 ? 2000 : 60), using: &rng)
      for _ in 0..<length { text += Self.pieces.randomElement(using: &rng)! }
      let bytes = Array(text.utf8)
      let storage = ByteStorage(bytes)
      // Offsets at grapheme starts (where entries start), so grapheme columns are well defined.
      var offsets = [0]
      var position = 0
      for character in text {
        position += character.utf8.count
        offsets.append(position)
      }
      for encoding in PositionEncoding.allCases {
        var cursor = PositionCursor(storage, encoding: encoding)
        var targets = (0..<20).map { _ in offsets.randomElement(using: &rng)! }
        if Bool.random(using: &rng) { targets.sort() }
        for target in targets {
          let expected = Self.model(bytes, target, encoding)
          // Line-and-column queries (which count no UTF-16 units) mixed with full ones: a later
          // full query still gets the right UTF-16 offset.
          let got =
            Bool.random(using: &rng)
            ? cursor.locate(target)
            : {
              let (line, column) = cursor.lineAndColumn(of: target)
              return TextLocation(line: line, column: column, utf16Offset: expected.utf16Offset)
            }()
          #expect(
            got == expected, "seed \(seed) round \(round) \(encoding) target \(target) text \(text.debugDescription)")
          if got != expected { return }
        }
      }
    }
  }

  @Test("long runs of line feeds and multibyte text: counters never wrap (every length up to 9000 bytes)")
  func longRuns() {
    // The vectorised counter keeps 8-bit lanes per block of 4080 bytes plus a tail; every length
    // here exercises a different tail, with up to all 255 counts of a lane already used.
    for length in TestScale.sample(Array(stride(from: 4000, through: 9000, by: 7))) {
      for fill: [UInt8] in [[0x0A], [0xC3, 0xA9], [0xF0, 0x9F, 0x98, 0x80], [0x0D, 0x0A]] {
        var bytes: [UInt8] = []
        while bytes.count + fill.count <= length { bytes += fill }
        bytes += Array("word".utf8)
        let storage = ByteStorage(bytes)
        var cursor = PositionCursor(storage)
        let target = bytes.count - 4
        #expect(cursor.locate(target) == Self.model(bytes, target, .utf8), "length \(length) fill \(fill)")
        let counts = storage.textCounts(in: 0..<bytes.count)
        #expect(counts.lineFeeds == bytes.filter { $0 == 0x0A }.count, "length \(length) fill \(fill)")
        #expect(storage.lineBreaks(in: 0..<bytes.count) == counts.lineBreaks, "length \(length) fill \(fill)")
        #expect(storage.lineBreaks(in: 1..<bytes.count) == storage.textCounts(in: 1..<bytes.count).lineBreaks)
        #expect(
          counts.utf16Units == String(decoding: bytes, as: UTF8.self).utf16.count, "length \(length) fill \(fill)")
      }
    }
  }

  @Test("counting over 32 MiB in parallel gives the sequential result, CR LF split at the seam")
  func parallelCounts() {
    var bytes = [UInt8](repeating: 0x61, count: 33 << 20)
    let half = bytes.count / 2
    bytes[half - 1] = 0x0D
    bytes[half] = 0x0A
    for i in stride(from: 100, to: bytes.count, by: 997) { bytes[i] = i % 3 == 0 ? 0x0D : 0x0A }
    bytes[bytes.count - 7] = 0xF0
    let storage = ByteStorage(bytes)
    let one = storage.textCounts(in: 0..<bytes.count, threads: 1)
    let two = storage.textCounts(in: 0..<bytes.count, threads: 2)
    #expect(one == two)
    #expect(storage.lineBreaks(in: 0..<bytes.count, threads: 2) == one.lineBreaks)
    #expect(storage.lineBreaks(in: 0..<bytes.count, threads: 1) == one.lineBreaks)
    #expect(one.lineFeeds == bytes.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) })
  }
}
