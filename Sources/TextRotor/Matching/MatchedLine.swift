import TextRotorICU

/// A line holding matches, as grep-style output shows it: the line's content (without its
/// terminator), where the next line starts, and the matches on it in order.
public struct MatchedLine: Equatable, Sendable {
  /// The line's bytes, without the terminator.
  public var content: Range<Int>
  /// Where the next line starts (after the terminator; `content.upperBound` at the end of the text).
  public var next: Int
  /// The matches on this line, sorted.
  public var matches: [Range<Int>]

  /// The line with its terminator.
  public var withTerminator: Range<Int> { content.lowerBound..<next }
}

extension PatternMatcher {
  /// Calls `body` with each line holding matches in `range` (all of `bytes` by default), in order,
  /// until it returns false.
  public func forEachMatchedLine(
    in bytes: ByteStorage, range: Range<Int>? = nil, _ body: (MatchedLine) -> Bool
  ) throws(ICUError) {
    try forEachMatchedLine(in: bytes, range: range, keeping: .max) { line, _ in body(line) }
  }

  /// ``forEachMatchedLine(in:range:_:)`` keeping at most `keeping` matches of each line (its first
  /// ones) in `matches`; `body` also gets how many the line holds in all. What only counts lines
  /// or matches (`-c`, `-l`, `-q`, `--count -m`) keeps one: a 50 MB line of 50,000,000 matches then
  /// costs no memory for them (it cost 16 bytes each).
  ///
  /// With `countingAll` false, the search leaves a line at its first match: `matches` holds that
  /// one and the count is 1 (what `-c` and printing lines without colour need: a line of common
  /// words is not searched to its end).
  public func forEachMatchedLine(
    in bytes: ByteStorage, range: Range<Int>? = nil, keeping: Int, countingAll: Bool = true,
    _ body: (MatchedLine, Int) -> Bool
  ) throws(ICUError) {
    let range = range ?? 0..<bytes.count
    // The line being gathered. Its matches are appended in place (never to a copy), so a line with
    // n matches costs O(n), not O(n²).
    var current: MatchedLine? = nil
    var count = 0
    var floor = range.lowerBound
    var stopped = false
    try forEachMatch(in: bytes, range: range) { (m) -> MatchVisit in
      if current != nil, m.lowerBound <= current!.content.upperBound {
        if count < keeping { current!.matches.append(m) }
        count += 1
        return .next
      }
      if let line = current {
        current = nil
        if !body(line, count) {
          stopped = true
          return .stop
        }
        floor = line.next
      }
      count = 1
      // Not past the end of a mapped file that shrank while it was read.
      let limit = Swift.max(m.upperBound, Swift.min(range.upperBound, bytes.availableCount))
      let start = LineBounds.start(of: m.lowerBound, in: bytes, floor: floor)
      let end = LineBounds.end(of: m.lowerBound, in: bytes, limit: limit)
      let next = LineBounds.nextStart(after: end, in: bytes, limit: limit)
      current = MatchedLine(content: start..<end, next: next, matches: [m])
      // The next line, unless the rest of this one is wanted (or the match runs to its end).
      return countingAll || next <= m.upperBound ? .next : .resume(next)
    }
    if !stopped, let line = current { _ = body(line, count) }
  }
}
