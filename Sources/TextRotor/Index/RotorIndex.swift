/// What every rotor's index answers, whatever backs it (a system rotor's compact segments, a pattern
/// rotor's matches, a custom rotor's entries): entries sorted by start, positions as document
/// offsets, each query O(log n) (plus the entries returned). ``Rotor`` navigates through this alone.
protocol RotorIndex {
  var count: Int { get }
  /// The document range of entry `i`.
  func range(at i: Int) -> Range<Int>
  /// The index of the first entry whose start is at least `offset` (`count` if none).
  func firstIndex(startingAtLeast offset: Int) -> Int
  /// Indices of the entries overlapping `query` (an empty query is a caret), in order.
  func indices(overlappingRange query: Range<Int>) -> [Int]
  /// Calls `body` with the index and range of entries `indices`, in order, until it returns false.
  func forEachRange(in indices: Range<Int>, _ body: (Int, Range<Int>) -> Bool)
}

extension SegmentIndex: RotorIndex {
  func range(at i: Int) -> Range<Int> { self[i].range }
  func firstIndex(startingAtLeast offset: Int) -> Int { firstIndex(startingAfter: offset - 1) }
  func indices(overlappingRange query: Range<Int>) -> [Int] { Array(indices(overlapping: query)) }
  func forEachRange(in indices: Range<Int>, _ body: (Int, Range<Int>) -> Bool) {
    var i = indices.lowerBound
    forEach(in: indices) { s in
      defer { i += 1 }
      return body(i, s.range)
    }
  }
}

extension IntervalIndex: RotorIndex {
  func indices(overlappingRange query: Range<Int>) -> [Int] { indices(overlapping: query) }
  func forEachRange(in indices: Range<Int>, _ body: (Int, Range<Int>) -> Bool) {
    forEach(in: indices) { i, r, _ in body(i, r) }
  }
}
