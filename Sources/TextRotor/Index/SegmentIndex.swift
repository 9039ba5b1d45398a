/// The index of a system rotor: its compact ``SegmentStore`` chunks, viewed as pieces that each
/// show a run of one chunk's entries moved by a `delta`. Entries are sorted and disjoint (as a
/// segmentation is), so every query is a binary search over pieces, then one inside a chunk; no
/// entry is ever materialised until asked for.
///
/// An edit re-segments a window and replaces the entries starting in it: the pieces around the
/// window are cut (a cut is a new view of the same immutable chunk, no re-encoding), one piece is
/// inserted for the window, and later pieces move by changing their `delta`: O(pieces).
///
/// Complexity (n entries, P pieces): `subscript`, `firstIndex(startingAfter:)`,
/// `firstIndex(endingAfter:)`: O(log P + log n) plus decoding at most 64 varints; overlap
/// queries: the same plus O(k); `replace`: O(P + window).
struct SegmentIndex: Sendable {
  struct Piece: Sendable {
    var chunk: SegmentStore.Chunk
    /// The run of the chunk's entries shown: `lo..<hi`.
    var lo: Int
    var hi: Int
    /// Added to the chunk's offsets.
    var delta: Int
    /// The first entry's start, the last entry's start and end, without `delta`.
    var rawFirstStart: Int
    var rawLastStart: Int
    var rawLastEnd: Int

    init(chunk: SegmentStore.Chunk, lo: Int, hi: Int, delta: Int) {
      self.chunk = chunk
      self.lo = lo
      self.hi = hi
      self.delta = delta
      let first = chunk.segment(at: lo)
      let last = chunk.segment(at: hi - 1)
      rawFirstStart = first.start
      rawLastStart = last.start
      rawLastEnd = last.end
    }

    var count: Int { hi - lo }
    var lastStart: Int { rawLastStart + delta }
    var lastEnd: Int { rawLastEnd + delta }
    var firstStart: Int { rawFirstStart + delta }

    func segment(at k: Int) -> SegmentStore.Segment {
      var s = chunk.segment(at: lo + k)
      s.start += delta
      s.end += delta
      return s
    }
  }

  private(set) var pieces: [Piece] = []
  /// `prefix[i]` = entries before piece `i`.
  private var prefix: [Int] = [0]

  init() {}

  /// The entries of `store`, moved by `delta`.
  init(_ store: SegmentStore, delta: Int = 0) {
    pieces = Self.pieces(store, delta: delta)
    rebuildPrefix()
  }

  static func pieces(_ store: SegmentStore, delta: Int) -> [Piece] {
    store.chunks.filter { $0.count > 0 }.map { Piece(chunk: $0, lo: 0, hi: $0.count, delta: delta) }
  }

  private mutating func rebuildPrefix() {
    prefix = [0]
    prefix.reserveCapacity(pieces.count + 1)
    for p in pieces { prefix.append(prefix[prefix.count - 1] + p.count) }
  }

  var count: Int { prefix[prefix.count - 1] }

  /// (piece, index in piece) of entry `i`, `i < count`.
  private func locate(_ i: Int) -> (Int, Int) {
    var lo = 0
    var hi = pieces.count
    while hi - lo > 1 {
      let mid = (lo + hi) / 2
      if prefix[mid] <= i { lo = mid } else { hi = mid }
    }
    return (lo, i - prefix[lo])
  }

  subscript(i: Int) -> SegmentStore.Segment {
    precondition(i >= 0 && i < count, "index \(i) out of 0..<\(count)")
    let (p, k) = locate(i)
    return pieces[p].segment(at: k)
  }

  /// Calls `body` for entries `indices` in order until it returns false.
  func forEach(in indices: Range<Int>, _ body: (SegmentStore.Segment) -> Bool) {
    guard !indices.isEmpty else { return }
    var (p, k) = locate(indices.lowerBound)
    var remaining = indices.count
    while remaining > 0 {
      let piece = pieces[p]
      let take = Swift.min(piece.count - k, remaining)
      let delta = piece.delta
      let going = piece.chunk.forEach(from: piece.lo + k, to: piece.lo + k + take) { s in
        body(SegmentStore.Segment(start: s.start + delta, end: s.end + delta, status: s.status))
      }
      if !going { return }
      remaining -= take
      p += 1
      k = 0
    }
  }

  /// The index of the first entry whose start is greater than `offset` (`count` if none).
  func firstIndex(startingAfter offset: Int) -> Int {
    search(firstPiece: { $0.lastStart > offset }) { piece in
      piece.chunk.firstIndex(startingAfter: offset - piece.delta)
    }
  }

  /// The index of the first entry whose end is greater than `offset` (`count` if none).
  func firstIndex(endingAfter offset: Int) -> Int {
    search(firstPiece: { $0.lastEnd > offset }) { piece in
      piece.chunk.firstIndex(endingAfter: offset - piece.delta)
    }
  }

  private func search(firstPiece holds: (Piece) -> Bool, inChunk: (Piece) -> Int) -> Int {
    var lo = 0
    var hi = pieces.count
    while lo < hi {
      let mid = (lo + hi) / 2
      if holds(pieces[mid]) { hi = mid } else { lo = mid + 1 }
    }
    guard lo < pieces.count else { return count }
    let piece = pieces[lo]
    // The chunk is sorted as a whole, so a search over all of it, clamped to the run, is exact.
    let k = Swift.min(Swift.max(inChunk(piece), piece.lo), piece.hi)
    return prefix[lo] + (k - piece.lo)
  }

  /// The entries overlapping `query` as `IntervalIndex.forEach(overlapping:)` defines it: for
  /// sorted disjoint entries they are one run of indices.
  func indices(overlapping query: Range<Int>) -> Range<Int> {
    let a = query.lowerBound
    let hi = Swift.max(query.upperBound, a + 1)
    let lower = Swift.min(firstIndex(endingAfter: a), firstIndex(startingAfter: a - 1))
    let upper = firstIndex(startingAfter: hi - 1)
    return lower..<Swift.max(lower, upper)
  }

  // MARK: Editing

  /// Removes the entries whose start lies in `old`, moves every later entry by `delta`, and puts
  /// `store`'s entries (moved by `storeDelta`) in their place.
  mutating func replace(startingIn old: Range<Int>, movingLaterBy delta: Int, with store: SegmentStore, storeDelta: Int)
  {
    let i0 = firstIndex(startingAfter: old.lowerBound - 1)
    let i1 = firstIndex(startingAfter: old.upperBound - 1)
    var result: [Piece] = []
    result.reserveCapacity(pieces.count + 2 + store.chunks.count)
    var p = 0
    // Pieces wholly before i0.
    while p < pieces.count && prefix[p + 1] <= i0 {
      result.append(pieces[p])
      p += 1
    }
    // The part of the piece holding i0 that comes before it.
    if p < pieces.count && prefix[p] < i0 {
      var head = pieces[p]
      head.hi = head.lo + (i0 - prefix[p])
      result.append(Piece(chunk: head.chunk, lo: head.lo, hi: head.hi, delta: head.delta))
    }
    result.append(contentsOf: Self.pieces(store, delta: storeDelta))
    // Skip to the piece holding i1; keep its part from i1 on, and everything after, moved.
    while p < pieces.count && prefix[p + 1] <= i1 { p += 1 }
    if p < pieces.count {
      var tail = pieces[p]
      let k = i1 - prefix[p]
      if k > 0 {
        tail = Piece(chunk: tail.chunk, lo: tail.lo + k, hi: tail.hi, delta: tail.delta)
      }
      tail.delta += delta
      result.append(tail)
      p += 1
      while p < pieces.count {
        var moved = pieces[p]
        moved.delta += delta
        result.append(moved)
        p += 1
      }
    }
    pieces = result
    compactSmallPieces()
    rebuildPrefix()
  }

  /// Moves every entry whose start is at least `offset` by `delta`.
  mutating func shift(startingAtLeast offset: Int, by delta: Int) {
    replace(startingIn: offset..<offset, movingLaterBy: delta, with: SegmentStore(), storeDelta: 0)
  }

  /// Keeps the number of pieces in check after many edits: runs of small neighbouring pieces are
  /// re-encoded into one chunk.
  private mutating func compactSmallPieces() {
    let small = 256
    guard pieces.count > 8 else { return }
    var result: [Piece] = []
    result.reserveCapacity(pieces.count)
    var i = 0
    while i < pieces.count {
      var j = i
      var total = 0
      while j < pieces.count && pieces[j].count < small && total + pieces[j].count < 4096 {
        total += pieces[j].count
        j += 1
      }
      if j - i >= 2 {
        var chunk = SegmentStore.Chunk(origin: pieces[i].firstStart)
        for piece in pieces[i..<j] {
          let delta = piece.delta
          _ = piece.chunk.forEach(from: piece.lo, to: piece.hi) { s in
            chunk.append(start: s.start + delta, end: s.end + delta, status: s.status)
            return true
          }
        }
        result.append(Piece(chunk: chunk, lo: 0, hi: chunk.count, delta: 0))
        i = j
      } else {
        result.append(pieces[i])
        i += 1
      }
    }
    pieces = result
  }

  /// All entries, in order.
  var segments: [SegmentStore.Segment] {
    var result: [SegmentStore.Segment] = []
    result.reserveCapacity(count)
    forEach(in: 0..<count) {
      result.append($0)
      return true
    }
    return result
  }

  /// Bytes held by the chunks (a chunk shared by several pieces counted once per piece).
  var memoryBytes: Int { pieces.reduce(prefix.capacity * 8) { $0 + $1.chunk.memoryBytes + 64 } }
}
