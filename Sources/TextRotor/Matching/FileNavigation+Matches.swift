import TextRotorICU

extension FileNavigation {
  /// The first match of `matcher` in `range` (by default all of `bytes`) whose start is greater
  /// than `offset`. Matches never span a line, so the search starts at the line holding `offset`
  /// and stops at the first hit: no full scan of the text.
  public static func match(
    after offset: Int, of matcher: PatternMatcher, in bytes: ByteStorage, range: Range<Int>? = nil
  ) throws(ICUError) -> Range<Int>? {
    let range = range ?? 0..<bytes.count
    guard offset < range.upperBound else { return nil }
    let start = Segmenter.lineStart(bytes, at: Swift.max(offset, range.lowerBound), in: range)
    var found: Range<Int>? = nil
    try matcher.forEachMatch(in: bytes, range: start..<range.upperBound) { m in
      guard m.lowerBound > offset else { return true }
      found = m
      return false
    }
    return found
  }

  /// The last match of `matcher` in `range` whose start is less than `offset`: searches windows of
  /// whole lines backwards from `offset`, doubling their size, until one holds a match.
  public static func match(
    before offset: Int, of matcher: PatternMatcher, in bytes: ByteStorage, range: Range<Int>? = nil
  ) throws(ICUError) -> Range<Int>? {
    let range = range ?? 0..<bytes.count
    guard offset > range.lowerBound else { return nil }
    let limit = Swift.min(offset, range.upperBound)
    var end =
      limit == range.upperBound ? limit : LineScanner.nextLineStart(in: bytes, from: limit, end: range.upperBound)
    var size = 4096
    while end > range.lowerBound {
      let start = Segmenter.lineStart(
        bytes, at: Swift.max(range.lowerBound, Swift.min(limit - 1, end - size)), in: range)
      var last: Range<Int>? = nil
      try matcher.forEachMatch(in: bytes, range: start..<end) { m in
        guard m.lowerBound < offset else { return false }
        last = m
        return true
      }
      if let last { return last }
      end = start
      size *= 2
    }
    return nil
  }
}
