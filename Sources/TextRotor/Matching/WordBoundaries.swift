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
    if let answer = Self.obviousAnswer(match, in: bytes, range: range) { return answer }
    return try icuAccepts(match, in: bytes, range: range)
  }

  /// ICU's answer, always asked.
  func icuAccepts(_ match: Range<Int>, in bytes: ByteStorage, range: Range<Int>) throws(ICUError) -> Bool {
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

  /// The answer without ICU when the bytes around the match make it certain, else nil. Only for a
  /// match that starts and ends with an ASCII letter or digit, next to ASCII bytes:
  /// - next to a letter, digit or `_`, there is no boundary (UAX #29 WB5, WB8-WB10, WB13a/b);
  /// - next to a line edge, a space, or ASCII punctuation other than `'`, `.`, `:`, `,`, `;`
  ///   (the MidLetter/MidNum classes, which need more context: WB6/7, WB11/12) and `@` (ICU's
  ///   rules keep it inside a word), there is one. A test checks this against ICU on random text.
  /// Anything else (non-ASCII neighbours, combining marks, an empty match) is left to ICU.
  static func obviousAnswer(_ match: Range<Int>, in bytes: ByteStorage, range: Range<Int>) -> Bool? {
    guard !match.isEmpty else { return nil }
    guard let start = side(inner: bytes[match.lowerBound], outer: match.lowerBound - 1, bytes, range) else {
      return nil
    }
    if !start { return false }
    return side(inner: bytes[match.upperBound - 1], outer: match.upperBound, bytes, range)
  }

  private static func isAlnum(_ b: UInt8) -> Bool {
    (0x30...0x39).contains(b) || (0x41...0x5A).contains(b) || (0x61...0x7A).contains(b)
  }

  private static func side(inner: UInt8, outer: Int, _ bytes: ByteStorage, _ range: Range<Int>) -> Bool? {
    guard isAlnum(inner) else { return nil }
    guard outer >= range.lowerBound && outer < range.upperBound else { return true }
    let b = bytes[outer]
    if b >= 0x80 { return nil }
    if isAlnum(b) || b == 0x5F { return false }
    switch b {
    case 0x27, 0x2E, 0x3A, 0x2C, 0x3B, 0x40: return nil  // ' . : , ; and @ (ICU keeps it in a word)
    default: return true
    }
  }
}
