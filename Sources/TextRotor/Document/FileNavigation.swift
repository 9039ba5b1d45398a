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

/// One entry of a system rotor found by local navigation, with its element's byte range.
public struct LocalSegment: Equatable, Sendable {
  /// The element holding the entry (UTF-8 offsets in the bytes).
  public var element: Range<Int>
  /// UTF-8 offsets in the bytes (file offsets).
  public var range: Range<Int>
  public var status: SegmentStatus

  public init(element: Range<Int>, range: Range<Int>, status: SegmentStatus) {
    self.element = element
    self.range = range
    self.status = status
  }
}

/// "Next" and "previous" on a system rotor straight from a file's bytes and its elements, without
/// indexing it: a binary search finds the element, then `Segmenter.entry(after:in:element:rotor:)`
/// segments only the lines around the offset. Cost: O(log elements + the bytes of the lines
/// around the answer), plus the empty elements skipped. The `elements: ElementKind` forms need no
/// list of elements: they read the elements from the lines around the offset.
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

  /// The first entry of `rotor` whose start is greater than `offset`, with its element, found
  /// without listing the elements of `kind`: the elements are read from the lines around `offset`
  /// (``LocalElements``), and each only as far as the answer needs. The same answer as
  /// ``entry(after:rotor:in:elements:segmenter:)`` over `kind.ranges(in: bytes)`; the element's
  /// index, when output needs it, is ``elementIndex(of:kind:in:threads:)``.
  public static func entry(
    after offset: Int, rotor: SystemRotor, in bytes: ByteStorage, elements kind: ElementKind,
    segmenter: Segmenter = Segmenter()
  ) throws(ICUError) -> LocalSegment? {
    let walk = LocalElements(bytes, kind: kind)
    var next = walk.first(endingAfter: offset)
    while let element = next {
      if rotor == .lines && element.range.isEmpty && !walk.isOnly(element) {
        if element.range.lowerBound > offset {
          return LocalSegment(element: element.range, range: element.range, status: .none)
        }
      } else if let s = try segmenter.entry(after: offset, in: bytes, element: element.range, rotor: rotor) {
        return LocalSegment(element: element.range, range: s.range, status: s.status)
      }
      next = walk.after(element)
    }
    return nil
  }

  /// The last entry of `rotor` whose start is less than `offset`, with its element, found without
  /// listing the elements of `kind` (as ``entry(after:rotor:in:elements:segmenter:)``).
  public static func entry(
    before offset: Int, rotor: SystemRotor, in bytes: ByteStorage, elements kind: ElementKind,
    segmenter: Segmenter = Segmenter()
  ) throws(ICUError) -> LocalSegment? {
    let walk = LocalElements(bytes, kind: kind)
    var previous = walk.last(startingBefore: offset)
    while let element = previous {
      if rotor == .lines && element.range.isEmpty && !walk.isOnly(element) {
        if element.range.lowerBound < offset {
          return LocalSegment(element: element.range, range: element.range, status: .none)
        }
      } else if let s = try segmenter.entry(before: offset, in: bytes, element: element.range, rotor: rotor) {
        return LocalSegment(element: element.range, range: s.range, status: s.status)
      }
      previous = walk.before(element)
    }
    return nil
  }

  /// The element of `kind` holding all of `range` (a match, say), or nil when none does (a match
  /// on a blank line between paragraphs), found from the lines around it.
  public static func element(holding range: Range<Int>, kind: ElementKind, in bytes: ByteStorage) -> Range<Int>? {
    LocalElements(bytes, kind: kind).element(holding: range)?.range
  }

  /// The index of `element` (an element of `kind`) in `kind.ranges(in: bytes)`: the line breaks
  /// before it, or the paragraphs before it, counted by vectorised kernels on `threads`.
  /// `lineOfEntry`: the 1-based line number of an entry in `element`, when the caller has counted
  /// it: a line's index is then that number less one, without counting again.
  public static func elementIndex(
    of element: Range<Int>, kind: ElementKind, in bytes: ByteStorage, threads: Int = 1, lineOfEntry: Int? = nil
  ) -> Int {
    if kind == .lines, let lineOfEntry { return lineOfEntry - 1 }
    let walk = LocalElements(bytes, kind: kind)
    return walk.index(of: LocalElements.Element(range: element, next: element.upperBound), threads: threads)
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
