import Testing

@testable import TextRotor

/// A ByteSource that hands out its bytes a few at a time (a slow pipe).
final class TrickleSource: ByteSource {
  var bytes: [UInt8]
  let step: Int
  init(_ bytes: [UInt8], step: Int) {
    self.bytes = bytes
    self.step = step
  }
  func read(into buffer: inout [UInt8], maximum: Int) throws(FileError) -> Int {
    let n = min(step, maximum, bytes.count)
    buffer += bytes.prefix(n)
    bytes.removeFirst(n)
    return n
  }
  var hasDataReady: Bool { bytes.count % 3 != 1 }
}

/// `UTF16Transcoder` against Swift's own UTF-16 decoding (which reads an unpaired surrogate as
/// U+FFFD too), on random code units read in pieces of every size.
@Suite("Files: UTF-16 read as UTF-8")
struct UTF16TranscoderTests {
  static func drain(_ source: ByteSource, maximum: Int) throws -> [UInt8] {
    var out: [UInt8] = []
    while try source.read(into: &out, maximum: maximum) > 0 {}
    return out
  }

  @Test func randomUnitsMatchSwiftsDecoding() throws {
    var rng = SeededRandom(seed: SeededRandom.seedFromEnvironment())
    let palette: [UInt16] = [0x41, 0x0A, 0x0D, 0xE9, 0x3042, 0xD83D, 0xDE00, 0xD800, 0xDC00, 0xDBFF, 0xDFFF, 0xFFFD, 0]
    for round in 0..<TestScale.count(400) {
      let units = (0..<Int(rng.next() % 40)).map { _ in palette[Int(rng.next() % UInt64(palette.count))] }
      let odd = rng.next() % 4 == 0
      let want = Array(String(decoding: units, as: UTF16.self).utf8) + (odd ? [0xEF, 0xBF, 0xBD] : [])
      for bigEndian in [false, true] {
        var bytes: [UInt8] = bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]
        for u in units { bytes += bigEndian ? [UInt8(u >> 8), UInt8(u & 0xFF)] : [UInt8(u & 0xFF), UInt8(u >> 8)] }
        if odd { bytes.append(0x41) }
        #expect(UTF16Transcoder.byteOrder(bytes) == bigEndian)
        let maximum = 2 + Int(rng.next() % 9)
        let whole = try Self.drain(UTF16Transcoder(ByteStorage(bytes)), maximum: maximum)
        #expect(whole == want, "round \(round) seed \(rng.seed) \(units) odd \(odd) max \(maximum)")
        let step = 1 + Int(rng.next() % 5)
        let first = Array(bytes.prefix(2 + Int(rng.next() % 3)))
        let streamed = try Self.drain(
          UTF16Transcoder(first: first, then: TrickleSource(Array(bytes.dropFirst(first.count)), step: step)),
          maximum: maximum)
        #expect(streamed == want, "round \(round) seed \(rng.seed) streamed, step \(step) max \(maximum)")
      }
    }
    #expect(UTF16Transcoder.byteOrder([0xEF, 0xBB, 0xBF]) == nil && UTF16Transcoder.byteOrder([0xFF]) == nil)
  }
}
