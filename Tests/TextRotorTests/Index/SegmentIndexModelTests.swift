import Testing

@testable import TextRotor

/// `SegmentIndex` (pieces over compact chunks) against a plain array, with random window
/// replacements and shifts, as edits make them.
@Suite struct SegmentIndexModelTests {
  typealias Segment = SegmentStore.Segment

  static func store(_ segments: [Segment], rng: inout SeededRandom) -> SegmentStore {
    var store = SegmentStore()
    var chunk = SegmentStore.Chunk(origin: segments.first?.start ?? 0)
    for s in segments {
      if rng.next() % 50 == 0 {
        store.append(chunk)
        chunk = SegmentStore.Chunk(origin: chunk.lastEnd)
      }
      chunk.append(start: s.start, end: s.end, status: s.status)
    }
    store.append(chunk)
    return store
  }

  /// `segments` moved by `d` bytes.
  static func shifted(_ segments: some Sequence<Segment>, by d: Int) -> [Segment] {
    segments.map { Segment(start: $0.start + d, end: $0.end + d, status: $0.status) }
  }

  static func segments(from start: Int, to end: Int, _ rng: inout SeededRandom) -> [Segment] {
    var result: [Segment] = []
    var p = start
    while p < end {
      let gap = rng.next() % 5 == 0 ? Int(rng.next() % 4) : 0
      let length = rng.next() % 10 == 0 ? 0 : 1 + Int(rng.next() % 9)
      let s = p + gap
      guard s + length <= end else { break }
      result.append(Segment(start: s, end: s + length, status: SegmentStatus(rawValue: UInt8(rng.next() % 5))!))
      p = s + length
    }
    return result
  }

  static func check(_ index: SegmentIndex, _ model: [Segment], _ rng: inout SeededRandom, seed: UInt64) {
    let segments = index.segments
    #expect(segments.count == model.count, "seed \(seed)")
    if let bad = zip(segments, model).enumerated().first(where: { $0.element.0 != $0.element.1 }) {
      Issue.record("seed \(seed): entry \(bad.offset) is \(bad.element.0), expected \(bad.element.1)")
      return
    }
    let top = (model.last?.end ?? 0) + 10
    for _ in 0..<10 {
      let x = Int(rng.next() % UInt64(top + 5)) - 3
      #expect(index.firstIndex(startingAfter: x) == (model.firstIndex { $0.start > x } ?? model.count), "seed \(seed)")
      #expect(index.firstIndex(endingAfter: x) == (model.firstIndex { $0.end > x } ?? model.count), "seed \(seed)")
      let q = x..<(x + (rng.next() % 3 == 0 ? 0 : Int(rng.next() % 50)))
      let expected = model.indices.filter { IntervalIndexModelTests.overlaps(model[$0].range, q) }
      #expect(Array(index.indices(overlapping: q)) == expected, "seed \(seed) overlapping \(q)")
      if !model.isEmpty {
        let i = Int(rng.next() % UInt64(model.count))
        #expect(index[i] == model[i], "seed \(seed)")
      }
    }
  }

  @Test func randomReplacementsAndShifts() {
    var seeds = SeededRandom(seed: 0x5E6)
    for _ in 0..<TestScale.count(400) {
      let seed = seeds.next()
      var rng = SeededRandom(seed: seed)
      var model = Self.segments(from: 0, to: Int(rng.next() % 3000), &rng)
      var index = SegmentIndex(Self.store(model, rng: &rng), width: (model.last?.end ?? 0) + 100)
      Self.check(index, model, &rng, seed: seed)
      for _ in 0..<12 {
        let top = (model.last?.end ?? 0) + 5
        // A window between segment boundaries: lo at a segment start (or past the end), hi likewise.
        var i0 = Int(rng.next() % UInt64(model.count + 1))
        var i1 = min(model.count, i0 + Int(rng.next() % 40))
        // Window bounds are starts: take the first of the entries sharing one.
        while i0 > 0 && i0 < model.count && model[i0 - 1].start == model[i0].start { i0 -= 1 }
        while i1 > i0 && i1 < model.count && model[i1 - 1].start == model[i1].start { i1 -= 1 }
        let lo = i0 < model.count ? model[i0].start : top
        let hi = i1 < model.count ? model[i1].start : max(lo, top)
        let newLength = Int(rng.next() % 60)
        let delta = newLength - (hi - lo)
        let fresh = Self.segments(from: lo, to: lo + newLength, &rng)
        // The new window's segments, stored relative to 0 and moved by `lo`.
        let relative = Self.shifted(fresh, by: -lo)
        var tail = Array(model[i1...])
        tail = Self.shifted(tail, by: delta)
        model = Array(model[..<i0]) + fresh + tail
        index.replace(
          startingIn: lo..<hi, movingLaterBy: delta, with: Self.store(relative, rng: &rng), storeDelta: lo)
        index.invariantCheck()
        Self.check(index, model, &rng, seed: seed)
      }
    }
  }

  /// Many small edits (as typing and deleting make) on one index: it matches the model after each,
  /// and the edits do not fragment it: small pieces are merged, so the pieces stay within
  /// 2 n / 16 of what the build made (without merging, each edit left two more pieces for good).
  @Test func manySmallEditsDoNotFragment() {
    var seeds = SeededRandom(seed: 0xF4A6)
    for _ in 0..<TestScale.count(20) {
      let seed = seeds.next()
      var rng = SeededRandom(seed: seed)
      var model = Self.segments(from: 0, to: 2000 + Int(rng.next() % 3000), &rng)
      var index = SegmentIndex(Self.store(model, rng: &rng), width: (model.last?.end ?? 0) + 100)
      let built = index.tree.count
      for step in 0..<600 {
        // A window of one to three entries, or an insertion point, replaced by a few new ones.
        let i0 = Int(rng.next() % UInt64(model.count + 1))
        let i1 = min(model.count, i0 + Int(rng.next() % 4))
        let top = (model.last?.end ?? 0) + 5
        guard i0 == model.count || i0 == 0 || model[i0 - 1].start != model[i0].start else { continue }
        guard i1 == i0 || i1 == model.count || model[i1 - 1].start != model[i1].start else { continue }
        let lo = i0 < model.count ? model[i0].start : top
        let hi = i1 < model.count ? model[i1].start : max(lo, top)
        let newLength = (hi - lo) + Int(rng.next() % 5) - 2
        guard newLength >= 0 else { continue }
        let delta = newLength - (hi - lo)
        let fresh = Self.segments(from: lo, to: lo + newLength, &rng)
        let relative = Self.shifted(fresh, by: -lo)
        let tail = Self.shifted(model[i1...], by: delta)
        model = Array(model[..<i0]) + fresh + tail
        index.replace(
          startingIn: lo..<hi, movingLaterBy: delta, with: Self.store(relative, rng: &rng), storeDelta: lo)
        index.invariantCheck()
        if step % 50 == 49 { Self.check(index, model, &rng, seed: seed) }
        let bound = built + 2 * model.count / SegmentIndex.smallPiece + 4
        #expect(
          index.tree.count <= bound,
          "seed \(seed) step \(step): \(index.tree.count) pieces for \(model.count) entries (built: \(built))")
        if index.tree.count > bound { return }
      }
      Self.check(index, model, &rng, seed: seed)
    }
  }

  /// Moving a run of entries (as moving an element does): the entries starting in `lo..<hi` and
  /// their bytes are cut out, their pieces kept as views, and put back at another place, against
  /// the model's entries moved the same way.
  /// `Chunk.firstIndices(startingAfter:_:)` (both cuts of a piece with one search) equals two
  /// `firstIndex(startingAfter:)` calls, on random chunks (32-entry blocks, wide ones past 4 GiB
  /// included) and pairs of offsets in one block, in neighbouring blocks and far apart.
  @Test func pairedCutsEqualTwoSearches() {
    for iteration in 0..<TestScale.count(400) {
      let seed = 0xC075_0000 + UInt64(iteration)
      var rng = SeededRandom(seed: seed)
      let (store, model) = SegmentStoreModelTests.randomStore(&rng)
      for chunk in store.chunks where chunk.count > 0 {
        let lo = chunk.origin - 2
        let hi = chunk.lastEnd + 2
        var offsets = (0..<12).map { _ in lo + Int(rng.next() % UInt64(hi - lo + 1)) }
        for s in model.prefix(200) where s.start >= lo && s.start <= hi { offsets += [s.start - 1, s.start] }
        for _ in 0..<60 {
          let x = offsets[Int(rng.next() % UInt64(offsets.count))]
          let y = Swift.max(x, offsets[Int(rng.next() % UInt64(offsets.count))])
          let want = (chunk.firstIndex(startingAfter: x), chunk.firstIndex(startingAfter: y))
          let got = chunk.firstIndices(startingAfter: x, y)
          #expect(got == want, "seed \(seed): firstIndices(\(x), \(y)) = \(got), want \(want)")
          if got != want { return }
        }
      }
    }
  }

  @Test func movedPiecesMatchTheModel() {
    var seeds = SeededRandom(seed: 0x3A0E)
    for _ in 0..<TestScale.count(300) {
      let seed = seeds.next()
      var rng = SeededRandom(seed: seed)
      var model = Self.segments(from: 0, to: 100 + Int(rng.next() % 3000), &rng)
      guard model.count > 2 else { continue }
      var index = SegmentIndex(Self.store(model, rng: &rng), width: model.last!.end + 20)
      for _ in 0..<10 {
        // A block from one entry start to a later one (the first of entries sharing a start).
        var i0 = Int(rng.next() % UInt64(model.count))
        var i1 = min(model.count, i0 + 1 + Int(rng.next() % 60))
        while i0 > 0 && model[i0 - 1].start == model[i0].start { i0 -= 1 }
        while i1 < model.count && i1 > i0 && model[i1 - 1].start == model[i1].start { i1 -= 1 }
        guard i1 > i0 else { continue }
        let lo = model[i0].start
        let hi = i1 < model.count ? model[i1].start : index.width
        guard hi > lo else { continue }
        let (indices, pieces) = index.cut(lo..<hi)
        index.invariantCheck()
        #expect(indices == i0..<i1, "seed \(seed)")
        #expect(pieces.reduce(0) { $0 + $1.count } == i1 - i0, "seed \(seed)")
        let block = Self.shifted(model[i0..<i1], by: -lo)
        let width = hi - lo
        var rest =
          Array(model[..<i0])
          + Self.shifted(model[i1...], by: -width)
        // Back in at an entry start of what is left (the first of those sharing it) or at the end.
        var k = Int(rng.next() % UInt64(rest.count + 1))
        while k > 0 && k < rest.count && rest[k - 1].start == rest[k].start { k -= 1 }
        let y = k < rest.count ? rest[k].start : index.width
        let k0 = rest.firstIndex { $0.start >= y } ?? rest.count
        index.replace(startingIn: y..<y, movingLaterBy: width, withPieces: pieces)
        index.invariantCheck()
        rest =
          Array(rest[..<k0]) + Self.shifted(block, by: y)
          + Self.shifted(rest[k0...], by: width)
        model = rest
        Self.check(index, model, &rng, seed: seed)
        if index.segments != model { return }
      }
    }
  }
}
