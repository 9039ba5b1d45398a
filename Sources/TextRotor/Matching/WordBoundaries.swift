import TextRotorICU

/// Whether a match starts and ends on an ICU word boundary (UAX #29) of its line. The word break
/// iterator is pointed at the line holding the match (or, for a line over 1 MiB, at a 64 KiB window
/// around the match) and reused while matches stay on that line.
final class WordBoundaries {
  private let iterator: BreakIterator
  private var bytes: ByteStorage?
  private var window: Range<Int> = 0..<0

  init() throws(ICUError) {
    iterator = try BreakIterator(.word)
  }

  func accepts(_ match: Range<Int>, in bytes: ByteStorage, range: Range<Int>) throws(ICUError) -> Bool {
    if self.bytes !== bytes || match.lowerBound < window.lowerBound || match.upperBound > window.upperBound {
      var start = LineBounds.start(of: match.lowerBound, in: bytes, floor: range.lowerBound)
      var end = LineBounds.end(of: match.upperBound, in: bytes, limit: range.upperBound)
      if end - start > 1 << 20 {
        start = max(start, match.lowerBound - (1 << 15))
        end = min(end, match.upperBound + (1 << 15))
      }
      try iterator.setText(bytes, range: start..<end)
      self.bytes = bytes
      window = start..<end
    }
    let base = window.lowerBound
    return iterator.isBoundary(match.lowerBound - base) && iterator.isBoundary(match.upperBound - base)
  }
}
