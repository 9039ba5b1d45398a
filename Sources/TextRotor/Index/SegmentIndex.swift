/// What a run of segment pieces sums up to: the bytes it spans and its entries.
struct PieceSummary: TreeSummary {
  var bytes = 0
  var count = 0
  static var zero: PieceSummary { PieceSummary() }
  mutating func add(_ next: PieceSummary) {
    bytes += next.bytes
    count += next.count
  }
}

/// A run of one compact chunk's entries (`lo..<hi`) placed in the document: the piece spans
/// `width` bytes, and the chunk's offset `rawStart` sits at the piece's start, so an entry's
/// position is the piece's position (a prefix sum) plus its offset from `rawStart`.
struct SegmentPiece: TreeItem, Sendable {
  /// The chunk, boxed: a piece is copied whenever a tree path is, and one reference costs one
  /// retain where the chunk's three buffers cost three.
  final class Box: Sendable {
    let chunk: SegmentStore.Chunk
    init(_ chunk: SegmentStore.Chunk) { self.chunk = chunk }
  }

  let box: Box
  var chunk: SegmentStore.Chunk { box.chunk }
  let lo: Int
  let hi: Int
  let rawStart: Int
  let width: Int

  var count: Int { hi - lo }
  var summary: PieceSummary { PieceSummary(bytes: width, count: hi - lo) }

  init(box: Box, lo: Int, hi: Int, rawStart: Int, width: Int) {
    self.box = box
    self.lo = lo
    self.hi = hi
    self.rawStart = rawStart
    self.width = width
  }

  init(chunk: SegmentStore.Chunk, lo: Int, hi: Int, rawStart: Int, width: Int) {
    self.init(box: Box(chunk), lo: lo, hi: hi, rawStart: rawStart, width: width)
  }

  private static let empty = Box(SegmentStore.Chunk(origin: 0))

  static func gap(_ width: Int) -> SegmentPiece { SegmentPiece(box: empty, lo: 0, hi: 0, rawStart: 0, width: width) }

  /// Entry `k` of the piece (0-based), relative to the piece's start.
  func segment(at k: Int) -> SegmentStore.Segment {
    var s = chunk.segment(at: lo + k)
    s.start -= rawStart
    s.end -= rawStart
    return s
  }

  /// Where the piece's last entry starts, relative to the piece (`count > 0`): known without
  /// decoding when the piece ends with its chunk (a window's new chunk, a tail piece).
  var lastStart: Int { hi == chunk.count ? chunk.lastStart - rawStart : segment(at: count - 1).start }

  /// Whether the piece's last entry starts at or past its end (see ``SegmentIndex/normalize``).
  /// A piece that stops before its chunk's end was cut by ``prefix(upTo:)``, which keeps only
  /// entries starting before the cut: no decoding needed for it.
  var lastStartsAtItsEnd: Bool {
    guard count > 0 else { return false }
    guard hi == chunk.count else {
      assert(segment(at: count - 1).start < width, "a cut piece with an entry at its end")
      return false
    }
    return chunk.lastStart - rawStart >= width
  }

  /// The part of the piece from `offset` (relative to its start) on: entries starting there or later.
  func suffix(from offset: Int) -> SegmentPiece {
    let k = firstIndex(startingAtLeast: offset)
    return SegmentPiece(box: box, lo: k, hi: hi, rawStart: rawStart + offset, width: width - offset)
  }

  /// The index (in the chunk, within `lo...hi`) of the piece's first entry starting at or after
  /// `offset` (relative to the piece): where the piece is cut there.
  private func firstIndex(startingAtLeast offset: Int) -> Int {
    Swift.min(Swift.max(chunk.firstIndex(startingAfter: rawStart + offset - 1), lo), hi)
  }

  /// The parts before and from `offset` (``prefix(upTo:)`` and ``suffix(from:)``), the chunk
  /// searched once.
  func split(at offset: Int) -> (SegmentPiece, SegmentPiece) {
    let k = firstIndex(startingAtLeast: offset)
    return (
      SegmentPiece(box: box, lo: lo, hi: k, rawStart: rawStart, width: offset),
      SegmentPiece(box: box, lo: k, hi: hi, rawStart: rawStart + offset, width: width - offset)
    )
  }

  /// ``prefix(upTo:)`` `a` and ``suffix(from:)`` `b` (`a <= b`), the chunk searched once.
  func parts(before a: Int, from b: Int) -> (SegmentPiece, SegmentPiece) {
    let (i, j) = chunk.firstIndices(startingAfter: rawStart + a - 1, rawStart + b - 1)
    return (
      SegmentPiece(box: box, lo: lo, hi: Swift.min(Swift.max(i, lo), hi), rawStart: rawStart, width: a),
      SegmentPiece(box: box, lo: Swift.min(Swift.max(j, lo), hi), hi: hi, rawStart: rawStart + b, width: width - b)
    )
  }

  /// The part of the piece before `offset`: entries starting before it.
  func prefix(upTo offset: Int) -> SegmentPiece {
    let k = firstIndex(startingAtLeast: offset)
    return SegmentPiece(box: box, lo: lo, hi: k, rawStart: rawStart, width: offset)
  }
}

/// The index of a system rotor: its compact ``SegmentStore`` chunks, viewed as pieces in a
/// ``SumTree`` whose nodes sum the bytes spanned and the entries held. Entries are sorted and
/// disjoint (as a segmentation is); positions are prefix sums, so an edit replaces the pieces
/// around the re-segmented window and nothing after it is ever shifted or rebuilt. No entry is
/// materialised until asked for.
///
/// Complexity (n entries, P pieces): `subscript`, `firstIndex(startingAfter:)`,
/// `firstIndex(endingAfter:)`: O(log P) plus decoding at most 64 varints; overlap queries: the same
/// plus O(k); `replace`: O(log P + window).
struct SegmentIndex: Sendable {
  private(set) var tree: SumTree<SegmentPiece>

  /// No entries over `width` bytes.
  init(width: Int = 0) { tree = SumTree([SegmentPiece.gap(width)]) }

  /// The entries of `stores` (each moved by its delta, in document order) over `width` bytes.
  init(_ stores: [(SegmentStore, delta: Int)], width: Int) {
    var pieces: [SegmentPiece] = []
    Self.appendPieces(of: stores, from: 0, to: width, into: &pieces)
    Self.normalize(&pieces)
    tree = SumTree(pieces)
  }

  /// The entries of `store` moved by `delta`, over `width` bytes.
  init(_ store: SegmentStore, delta: Int = 0, width: Int) { self.init([(store, delta)], width: width) }

  /// Pieces covering `from..<to` for the chunks of `stores` (their entries moved by each delta
  /// into `from...to`).
  private static func appendPieces(
    of stores: [(SegmentStore, delta: Int)], from: Int, to: Int, into pieces: inout [SegmentPiece]
  ) {
    var cursor = PieceCursor(position: from)
    for (store, delta) in stores { cursor.add(store, delta: delta, into: &pieces) }
    cursor.finish(from: from, to: to, into: &pieces)
  }

  /// ``appendPieces(of:from:to:into:)`` for one store (an edit's window: no array of stores made).
  private static func appendPieces(
    of store: SegmentStore, delta: Int, from: Int, to: Int, into pieces: inout [SegmentPiece]
  ) {
    var cursor = PieceCursor(position: from)
    cursor.add(store, delta: delta, into: &pieces)
    cursor.finish(from: from, to: to, into: &pieces)
  }

  /// The chunk waiting for its width (known when the next chunk's first entry is), while pieces
  /// are appended. A struct, not an optional tuple: the tuple's copies and destruction went
  /// through the runtime's generic value witnesses.
  private struct PieceCursor {
    var position: Int
    /// Not an optional either (its copies went through the generic witnesses too): `hasChunk`.
    var chunk = SegmentStore.Chunk(origin: 0)
    var hasChunk = false
    var start = 0
    var rawStart = 0

    init(position: Int) { self.position = position }

    mutating func add(_ store: SegmentStore, delta: Int, into pieces: inout [SegmentPiece]) {
      for next in store.chunks where next.count > 0 {
        let first = next.segment(at: 0).start + delta
        if hasChunk {
          pieces.append(SegmentPiece(chunk: chunk, lo: 0, hi: chunk.count, rawStart: rawStart, width: first - start))
        } else if first > position {
          pieces.append(.gap(first - position))
        }
        chunk = next
        hasChunk = true
        start = first
        rawStart = first - delta
        position = first
      }
    }

    func finish(from: Int, to: Int, into pieces: inout [SegmentPiece]) {
      if hasChunk {
        pieces.append(SegmentPiece(chunk: chunk, lo: 0, hi: chunk.count, rawStart: rawStart, width: to - start))
      } else {
        pieces.append(.gap(to - from))
      }
    }
  }

  var count: Int { tree.summary.count }
  var width: Int { tree.summary.bytes }

  subscript(i: Int) -> SegmentStore.Segment {
    precondition(i >= 0 && i < count, "index \(i) out of 0..<\(count)")
    let (_, before, piece) = tree.find { $0.count > i }
    var s = piece!.segment(at: i - before.count)
    s.start += before.bytes
    s.end += before.bytes
    return s
  }

  /// Calls `body` for entries `indices` in order until it returns false.
  func forEach(in indices: Range<Int>, _ body: (SegmentStore.Segment) -> Bool) {
    guard !indices.isEmpty else { return }
    let (p, before) = tree.seek { $0.count > indices.lowerBound }
    var k = indices.lowerBound - before.count
    var remaining = indices.count
    tree.forEach(from: p) { _, before, piece in
      let take = Swift.min(piece.count - k, remaining)
      let shift = before.bytes - piece.rawStart
      let going = piece.chunk.forEach(from: piece.lo + k, to: piece.lo + k + take) { s in
        body(SegmentStore.Segment(start: s.start + shift, end: s.end + shift, status: s.status))
      }
      remaining -= take
      k = 0
      return going && remaining > 0
    }
  }

  /// The piece whose span holds `offset` (the last one at or past the end) and the summary before it.
  /// A struct, not a tuple: copies of a tuple holding the piece went through the runtime's
  /// generic tuple witnesses (a metadata lookup each).
  private func piece(holding offset: Int) -> PieceLocation {
    let found = tree.find { $0.bytes > offset }
    if let piece = found.item { return PieceLocation(index: found.index, before: found.before, piece: piece) }
    let last = tree.last
    return PieceLocation(index: last.index, before: last.before, piece: last.item)
  }

  private struct PieceLocation {
    let index: Int
    let before: PieceSummary
    let piece: SegmentPiece
  }

  /// The index of the first entry whose start is greater than `offset` (`count` if none).
  func firstIndex(startingAfter offset: Int) -> Int {
    if offset < 0 { return 0 }
    let found = piece(holding: offset)
    let (before, piece) = (found.before, found.piece)
    let k = piece.chunk.firstIndex(startingAfter: piece.rawStart + offset - before.bytes)
    return before.count + Swift.min(Swift.max(k, piece.lo), piece.hi) - piece.lo
  }

  /// The last entry starting at or before `offset` (nil if none): one descent.
  func entry(startingAtOrBefore offset: Int) -> SegmentStore.Segment? {
    guard offset >= 0 else { return nil }
    let found = piece(holding: offset)
    let (before, piece) = (found.before, found.piece)
    let k = piece.chunk.firstIndex(startingAfter: piece.rawStart + offset - before.bytes)
    let local = Swift.min(Swift.max(k, piece.lo), piece.hi) - piece.lo
    guard local > 0 else {
      // Every entry of this piece starts after `offset`: the entry is the one before the piece.
      return before.count > 0 ? self[before.count - 1] : nil
    }
    var s = piece.segment(at: local - 1)
    s.start += before.bytes
    s.end += before.bytes
    return s
  }

  /// The index of the first entry whose end is greater than `offset` (`count` if none).
  func firstIndex(endingAfter offset: Int) -> Int {
    let found = piece(holding: Swift.max(offset, 0))
    let (before, piece) = (found.before, found.piece)
    let k = piece.chunk.firstIndex(endingAfter: piece.rawStart + offset - before.bytes)
    let i = before.count + Swift.min(Swift.max(k, piece.lo), piece.hi) - piece.lo
    // Ends are sorted: only the entry just before (in an earlier piece) can also end after it.
    if i > 0 && i == before.count && self[i - 1].end > offset { return i - 1 }
    return i
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

  /// The bytes `old` became `old.count + delta` bytes: removes the entries starting in `old`,
  /// moves every later entry by `delta` (by changing the widths of the pieces around the edit:
  /// nothing after it is touched), and puts `store`'s entries (moved by `storeDelta`, inside the
  /// new window) in their place. O(log P + window). Returns the indices (before the edit) of the
  /// entries removed: those starting in `old`.
  /// With `coalescing` (text edits), small pieces around the edit are merged (``mergeSmall(_:)``).
  /// Element inserts and removes skip it: they cut pieces only at element boundaries, so the small
  /// pieces they leave are bounded by the number of elements, not by the number of edits.
  @discardableResult
  mutating func replace(
    startingIn old: Range<Int>, movingLaterBy delta: Int, with store: SegmentStore, storeDelta: Int,
    coalescing: Bool = true
  ) -> Range<Int> {
    #if DEBUG
      store.forEach { segment in
        precondition(
          segment.start + storeDelta >= old.lowerBound && segment.end + storeDelta <= old.upperBound + delta,
          "entry \(segment.range) (+\(storeDelta)) outside the new window \(old.lowerBound)..<\(old.upperBound + delta)"
        )
        return true
      }
    #endif
    return replace(startingIn: old, movingLaterBy: delta, coalescing: coalescing, adding: store.chunks.count) {
      pieces, from, to in
      Self.appendPieces(of: store, delta: storeDelta, from: from, to: to, into: &pieces)
    }
  }

  /// ``replace(startingIn:movingLaterBy:with:storeDelta:coalescing:)`` with pieces in place of a
  /// store: `moved` (from ``cut(_:)``, spanning exactly `old.count + delta` bytes) are
  /// put in as they are, views of the chunks they hold, so that an element moved elsewhere keeps
  /// its entries without being segmented again or re-encoded: O(log P + its pieces), whatever its
  /// size.
  @discardableResult
  mutating func replace(startingIn old: Range<Int>, movingLaterBy delta: Int, withPieces moved: [SegmentPiece])
    -> Range<Int>
  {
    precondition(moved.reduce(0) { $0 + $1.width } == old.count + delta, "moved pieces of another width")
    return replace(startingIn: old, movingLaterBy: delta, coalescing: false, adding: moved.count) { pieces, from, to in
      if moved.isEmpty { pieces.append(.gap(to - from)) } else { pieces.append(contentsOf: moved) }
    }
  }

  /// Removes the entries starting in `old` and its bytes, as `replace` with an empty store and a
  /// shift of `-old.count` does, and returns those entries' indices and the pieces that held them:
  /// views of their chunks spanning `old` (their widths add up to `old.count`), for
  /// ``replace(startingIn:movingLaterBy:withPieces:)`` to put elsewhere. Nothing is decoded
  /// beyond the two cuts the removal makes anyway.
  mutating func cut(_ old: Range<Int>) -> (indices: Range<Int>, pieces: [SegmentPiece]) {
    var taken: [SegmentPiece]? = []
    // Nothing is added: the window after the cut is empty (a gap of no width would only make
    // `foldGaps` rewrite the pieces; it adds one when no piece is left).
    let indices = replace(startingIn: old, movingLaterBy: -old.count, coalescing: false, adding: 0, taking: &taken) {
      _, _, _ in
    }
    return (indices, taken!)
  }

  /// The splice both `replace` methods make: `add` appends the new pieces covering `from..<to`
  /// (the window after the edit) between the cut ends.
  @inline(__always)
  private mutating func replace(
    startingIn old: Range<Int>, movingLaterBy delta: Int, coalescing: Bool, adding count: Int,
    _ add: (inout [SegmentPiece], Int, Int) -> Void
  ) -> Range<Int> {
    var none: [SegmentPiece]? = nil
    return replace(startingIn: old, movingLaterBy: delta, coalescing: coalescing, adding: count, taking: &none, add)
  }

  /// The splice, and with `taken` not nil the pieces removed (see ``cut(_:)``).
  @inline(__always)
  private mutating func replace(
    startingIn old: Range<Int>, movingLaterBy delta: Int, coalescing: Bool, adding count: Int,
    taking taken: inout [SegmentPiece]?, _ add: (inout [SegmentPiece], Int, Int) -> Void
  ) -> Range<Int> {
    let at0 = piece(holding: old.lowerBound)
    // A range inside one piece (an element or a small edit, mostly) needs no second descent.
    let at1 =
      old.isEmpty || old.upperBound < at0.before.bytes + at0.piece.width ? at0 : piece(holding: old.upperBound)
    let (p0, before0, first) = (at0.index, at0.before, at0.piece)
    let (p1, before1, last) = (at1.index, at1.before, at1.piece)
    // One buffer for the new pieces, gaps folded and entries normalised in place.
    var pieces: [SegmentPiece] = []
    pieces.reserveCapacity(count + 3)
    // An insertion point (an empty range) cuts its piece once; a range inside one piece cuts it
    // twice with one search of its chunk.
    let a0 = old.lowerBound - before0.bytes
    let b0 = Swift.min(old.upperBound - before0.bytes, first.width)
    let (head, cutTail): (SegmentPiece, SegmentPiece?) =
      old.isEmpty && a0 <= first.width
      ? first.split(at: a0) : p0 == p1 && a0 <= b0 ? first.parts(before: a0, from: b0) : (first.prefix(upTo: a0), nil)
    if head.width > 0 { pieces.append(head) }
    let newEnd = old.upperBound + delta
    add(&pieces, old.lowerBound, newEnd)
    let tail = cutTail ?? last.suffix(from: Swift.min(old.upperBound - before1.bytes, last.width))
    if tail.width > 0 || p1 == tree.count - 1 && tail.count > 0 { pieces.append(tail) }
    if taken != nil && !old.isEmpty {
      // The removed entries' pieces: the part of `first` past `head`, the pieces between, the part
      // of `last` before `tail`, spanning `old`.
      let lo0 = old.lowerBound - before0.bytes
      if p0 == p1 {
        taken!.append(
          SegmentPiece(box: first.box, lo: head.hi, hi: tail.lo, rawStart: first.rawStart + lo0, width: old.count))
      } else {
        taken!.append(
          SegmentPiece(
            box: first.box, lo: head.hi, hi: first.hi, rawStart: first.rawStart + lo0, width: first.width - lo0))
        if p1 > p0 + 1 {
          tree.forEach(from: p0 + 1) { p, _, piece in
            guard p < p1 else { return false }
            taken!.append(piece)
            return true
          }
        }
        taken!.append(
          SegmentPiece(
            box: last.box, lo: last.lo, hi: tail.lo, rawStart: last.rawStart, width: old.upperBound - before1.bytes))
      }
    }
    // A window with no entries leaves a gap piece: fold it into a neighbour's span.
    Self.foldGaps(&pieces)
    Self.normalize(&pieces)
    // Small pieces next to each other are re-encoded into one chunk, the tree's neighbours
    // included when the new pieces end with a small one, so that edits do not fragment the index.
    var replaced = p0..<(p1 + 1)
    if !coalescing {
      tree.replaceSubrange(replaced, with: pieces)
      return (before0.count + head.count)..<(before1.count + last.count - tail.count)
    }
    if pieces.first!.count < Self.smallPiece && p0 > 0 {
      let previous = tree[p0 - 1]
      if previous.count < Self.smallPiece {
        pieces.insert(previous, at: 0)
        replaced = (p0 - 1)..<replaced.upperBound
      }
    }
    if pieces.last!.count < Self.smallPiece && p1 + 1 < tree.count {
      let next = tree[p1 + 1]
      if next.count < Self.smallPiece {
        pieces.append(next)
        replaced = replaced.lowerBound..<(p1 + 2)
      }
    }
    Self.mergeSmall(&pieces)
    tree.replaceSubrange(replaced, with: pieces)
    return (before0.count + head.count)..<(before1.count + last.count - tail.count)
  }

  /// A piece with fewer entries than this is small: text edits leave no two small pieces side by
  /// side (see ``mergeSmall(_:)``), so what they add stays within 2n / 16 pieces for n entries
  /// however long the editing goes on. Without it each edit left two more pieces and a chunk for
  /// good: a 1 MB document held 28 MB, then 129 MB after 200,000 one-character inserts and
  /// deletes at random places with six rotors held; with it, 55 MB. 16, not 32: a merge
  /// re-encodes the run (up to 2 × this many entries), which a keystroke pays for.
  static let smallPiece = 16

  /// Re-encodes each run of neighbouring small pieces into one chunk, in place: a run grows while it
  /// holds fewer than ``smallPiece`` entries and the next piece is small, so no two small pieces
  /// are left side by side and no run re-encodes more than `2 * smallPiece` entries.
  private static func mergeSmall(_ pieces: inout [SegmentPiece]) {
    guard pieces.count > 1 else { return }
    var w = 0
    var r = 0
    while r < pieces.count {
      var end = r + 1
      var total = pieces[r].count
      while end < pieces.count && total < smallPiece && pieces[end].count < smallPiece {
        total += pieces[end].count
        end += 1
      }
      if end - r == 1 {
        pieces[w] = pieces[r]
      } else if total == 0 {
        pieces[w] = .gap(pieces[r..<end].reduce(0) { $0 + $1.width })
      } else {
        pieces[w] = merged(pieces[r..<end])
      }
      w += 1
      r = end
    }
    pieces.removeSubrange(w...)
  }

  /// One piece with the entries of `run` (neighbouring pieces, in order) in a new chunk.
  private static func merged(_ run: ArraySlice<SegmentPiece>) -> SegmentPiece {
    var chunk = SegmentStore.Chunk(origin: 0)
    var shift = 0
    var started = false
    for piece in run {
      // Decoded in one pass (`segment(at:)` would decode from its block's start for each entry).
      let moveBy = shift - piece.rawStart
      _ = piece.chunk.forEach(from: piece.lo, to: piece.hi) { s in
        if !started {
          chunk = SegmentStore.Chunk(origin: s.start + moveBy)
          chunk.reserveCapacity(forEntries: run.reduce(0) { $0 + $1.count })
          started = true
        }
        chunk.append(start: s.start + moveBy, end: s.end + moveBy, status: s.status)
        return true
      }
      shift += piece.width
    }
    return SegmentPiece(chunk: chunk, lo: 0, hi: chunk.count, rawStart: 0, width: shift)
  }

  /// Makes every piece's entries start strictly inside its span (an entry exactly at a piece's end,
  /// as an empty element's empty line at the end of a window, takes one byte from the next piece;
  /// entries sharing a start across two chunks are re-encoded into one), so that the piece holding
  /// an offset is the only one to search.
  private static func normalize(_ pieces: inout [SegmentPiece]) {
    // Most windows need nothing: read first, so that the array is not written (each write of a
    // piece retains and releases its chunk's box).
    guard pieces.dropLast().contains(where: { $0.lastStartsAtItsEnd }) else { return }
    // In place: `pieces[..<w]` is the result so far (never longer than the pieces read).
    var w = 0
    for r in pieces.indices {
      var piece = pieces[r]
      guard w > 0, case let last = pieces[w - 1], last.lastStartsAtItsEnd
      else {
        pieces[w] = piece
        w += 1
        continue
      }
      if piece.count == 0 || piece.segment(at: 0).start > 0 {
        pieces[w - 1] = SegmentPiece(
          box: last.box, lo: last.lo, hi: last.hi, rawStart: last.rawStart, width: last.width + 1)
        piece = SegmentPiece(
          box: piece.box, lo: piece.lo, hi: piece.hi, rawStart: piece.rawStart + 1, width: piece.width - 1)
        if piece.width > 0 || piece.count > 0 {
          pieces[w] = piece
          w += 1
        }
        continue
      }
      // A shared start: one chunk for both.
      pieces[w - 1] = merged([last, piece][...])
    }
    pieces.removeSubrange(w...)
  }

  /// Merges empty pieces into the piece before them (or, at the start, the one after), in place.
  private static func foldGaps(_ pieces: inout [SegmentPiece]) {
    // Most windows have no gap: read first (see ``normalize(_:)``).
    guard pieces.isEmpty || pieces.contains(where: { $0.count == 0 }) else { return }
    var w = 0
    var pending = 0
    for r in pieces.indices {
      let piece = pieces[r]
      if piece.count == 0 {
        if w > 0 {
          let last = pieces[w - 1]
          pieces[w - 1] = SegmentPiece(
            box: last.box, lo: last.lo, hi: last.hi, rawStart: last.rawStart, width: last.width + piece.width)
        } else {
          pending += piece.width
        }
        continue
      }
      if pending > 0 {
        pieces[w] = SegmentPiece(
          box: piece.box, lo: piece.lo, hi: piece.hi, rawStart: piece.rawStart - pending, width: piece.width + pending)
        pending = 0
      } else {
        pieces[w] = piece
      }
      w += 1
    }
    if pending > 0 || w == 0 {
      // Every piece was a gap (there is at least one): one gap of their width.
      if w < pieces.count {
        pieces[w] = .gap(pending)
      } else {
        pieces.append(.gap(pending))
      }
      w += 1
    }
    pieces.removeSubrange(w...)
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

  /// Bytes held by the chunks (a chunk shared by several pieces counted once per piece) and the tree.
  var memoryBytes: Int {
    var total = 0
    tree.forEach { _, _, piece in
      total += piece.chunk.memoryBytes + 64
      return true
    }
    return total
  }

  /// Checks the tree and that every piece's entries start inside its span (debug builds).
  func invariantCheck() {
    #if DEBUG
      tree.invariantCheck()
      let n = tree.count
      tree.forEach { p, _, piece in
        if piece.count > 0 {
          precondition(piece.segment(at: 0).start >= 0, "piece entry before its span")
          let lastStart = piece.segment(at: piece.count - 1).start
          precondition(piece.lastStart == lastStart, "chunk's last start out of date")
          precondition(lastStart < piece.width || (p == n - 1 && lastStart <= piece.width), "piece entry past its span")
        }
        return true
      }
    #endif
  }
}
