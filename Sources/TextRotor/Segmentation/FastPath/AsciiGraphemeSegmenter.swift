import Glibc

/// Extended grapheme clusters of ASCII text: every byte is a cluster, except CR LF (GB3).
///
/// Safe points: an offset between two ASCII bytes that are not CR LF (no ASCII character is
/// Extend, ZWJ, SpacingMark, Prepend, Regional_Indicator or Hangul, so GB999 breaks there), and an
/// offset after an ASCII control other than a CR followed by LF (GB4 breaks after Control, CR and
/// LF whatever follows). An offset between an ASCII letter and a non-ASCII byte is not safe: a
/// combining mark (GB9) joins the letter.
enum AsciiGraphemeSegmenter: AsciiSegmenter {
  /// The first offset of `byte` in `range` of `text` (memchr).
  @inline(__always) private static func memchrIndex(
    _ text: UnsafeBufferPointer<UInt8>, _ byte: UInt8, _ range: Range<Int>
  ) -> Int? {
    guard let base = text.baseAddress, !range.isEmpty,
      let hit = memchr(base + range.lowerBound, Int32(byte), range.count)
    else { return nil }
    return UnsafeRawPointer(hit) - UnsafeRawPointer(base)
  }

  static var hasStatus: Bool { false }

  @inline(__always) private static func isControl(_ c: UInt8) -> Bool { c < 0x20 || c == 0x7F }

  static func lastSafePoint(_ text: UnsafeBufferPointer<UInt8>, floor: Int, limit: Int) -> Int {
    if limit == floor || isControl(text[limit - 1]) { return limit }
    return limit - 1 > floor ? limit - 1 : floor
  }

  static func nextSafePoint(_ text: UnsafeBufferPointer<UInt8>, after offset: Int, end: Int) -> Int {
    var q = offset + 1
    while q < end {
      let previous = text[q - 1]
      let current = text[q]
      if previous < 0x80 && !(previous == 0x0D && current == 0x0A) && (current < 0x80 || isControl(previous)) {
        return q
      }
      q += 1
    }
    return end
  }

  static func segment(_ text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, into chunk: inout SegmentStore.Chunk) {
    var i = range.lowerBound
    let end = range.upperBound
    // Runs without CR are one segment per byte, appended in bulk; a CR LF pair is one segment (a
    // pair never straddles `end`: ends are safe points or span ends).
    while i < end {
      let cr = memchrIndex(text, 0x0D, i..<end) ?? end
      chunk.appendSingleByteSegments(i..<cr)
      guard cr < end else { break }
      let length = cr + 1 < end && text[cr + 1] == 0x0A ? 2 : 1
      chunk.append(start: cr, end: cr + length)
      i = cr + length
    }
  }
}
