import TextRotorICU

/// One entry of a system rotor found in a file's bytes.
public struct LocatedSegment: Equatable, Sendable {
  /// 0-based index of the element holding the entry.
  public var element: Int
  /// UTF-8 offsets in the bytes (file offsets).
  public var range: Range<Int>
  public var status: SegmentStatus

  public init(element: Int, range: Range<Int>, status: SegmentStatus) {
    self.element = element
    self.range = range
    self.status = status
  }
}

/// "Next" and "previous" on a system rotor straight from a file's bytes and its elements, without
/// indexing it: a binary search finds the element, then `Segmenter.entry(after:in:element:rotor:)`
/// segments only the lines around the offset. Cost: O(log elements + the bytes of the lines
/// around the answer), plus the empty elements skipped.
public enum FileNavigation {
  /// The first entry of `rotor` (in document order) whose start is greater than `offset`, with
  /// its element's index, or nil. `elements`: sorted disjoint byte ranges
  /// (``ElementKind/ranges(in:)``).
  public static func entry(
    after offset: Int, rotor: SystemRotor, in bytes: ByteStorage, elements: [Range<Int>],
    segmenter: Segmenter = Segmenter()
  ) throws(ICUError) -> LocatedSegment? {
    var e = firstElement(elements) { $0.upperBound > offset }
    while e < elements.count {
      if let line = emptyLine(elements, e, rotor) {
        if line.lowerBound > offset { return LocatedSegment(element: e, range: line, status: .none) }
        e += 1
        continue
      }
      if let s = try segmenter.entry(after: offset, in: bytes, element: elements[e], rotor: rotor) {
        return LocatedSegment(element: e, range: s.range, status: s.status)
      }
      e += 1
    }
    return nil
  }

  /// The last entry of `rotor` whose start is less than `offset`, with its element's index, or nil.
  public static func entry(
    before offset: Int, rotor: SystemRotor, in bytes: ByteStorage, elements: [Range<Int>],
    segmenter: Segmenter = Segmenter()
  ) throws(ICUError) -> LocatedSegment? {
    var e = firstElement(elements) { $0.lowerBound >= offset } - 1
    while e >= 0 {
      if let line = emptyLine(elements, e, rotor) {
        if line.lowerBound < offset { return LocatedSegment(element: e, range: line, status: .none) }
        e -= 1
        continue
      }
      if let s = try segmenter.entry(before: offset, in: bytes, element: elements[e], rotor: rotor) {
        return LocatedSegment(element: e, range: s.range, status: s.status)
      }
      e -= 1
    }
    return nil
  }

  /// Element `e` as an empty line of the `lines` rotor: among several elements (the lines of
  /// `--elements lines`), an empty element is an empty line, as `--elements whole` lists it. A lone
  /// empty element is an empty text, which has no lines.
  static func emptyLine(_ elements: [Range<Int>], _ e: Int, _ rotor: SystemRotor) -> Range<Int>? {
    rotor == .lines && elements.count > 1 && elements[e].isEmpty ? elements[e] : nil
  }

  /// The first index whose element satisfies a predicate monotonic in element order.
  private static func firstElement(_ elements: [Range<Int>], _ holds: (Range<Int>) -> Bool) -> Int {
    var lo = 0
    var hi = elements.count
    while lo < hi {
      let mid = (lo + hi) / 2
      if holds(elements[mid]) { hi = mid } else { lo = mid + 1 }
    }
    return lo
  }
}
