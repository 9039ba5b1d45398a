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
    let range = range ?? 0..<bytes.count
    var current: MatchedLine? = nil
    var floor = range.lowerBound
    var stopped = false
    try forEachMatch(in: bytes, range: range) { m in
      if var line = current, m.lowerBound <= line.content.upperBound {
        line.matches.append(m)
        current = line
        return true
      }
      if let line = current {
        if !body(line) {
          stopped = true
          current = nil
          return false
        }
        floor = line.next
      }
      let start = LineBounds.start(of: m.lowerBound, in: bytes, floor: floor)
      let end = LineBounds.end(of: m.lowerBound, in: bytes, limit: range.upperBound)
      let next = LineBounds.nextStart(after: end, in: bytes, limit: range.upperBound)
      current = MatchedLine(content: start..<end, next: next, matches: [m])
      return true
    }
    if !stopped, let line = current { _ = body(line) }
  }
}
