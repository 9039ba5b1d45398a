import Testing

@testable import TextRotor

/// `SegmentStore` against a plain array of segments, on thousands of random lists.
@Suite struct SegmentStoreModelTests {
  typealias Segment = SegmentStore.Segment

  /// `appendSingleByteSegments` reserved room for exactly its run before each run (Swift's
  /// `reserveCapacity` does not grow geometrically), so a chunk built of many runs (the ASCII
  /// between the non-ASCII islands of a long line) copied its whole buffer once a run: the
  /// characters rotor of one 100 MB line took 7–18 s, half of it copying. The buffer must grow
  /// geometrically now, and the chunk hold the same segments.
  @Test func runsGrowTheBufferGeometrically() {
    var chunk = SegmentStore.Chunk(origin: 0, layout: .plain)
    var model: [Segment] = []
    var position = 0
    var capacities: Set<Int> = []
    for k in 0..<3000 {
      let run = 500 + k % 700
      chunk.appendSingleByteSegments(position..<(position + run))
      model += (position..<(position + run)).map { Segment(start: $0, end: $0 + 1, status: .none) }
      position += run
      // An island's segment between runs.
      chunk.append(start: position, end: position + 3)
      model.append(Segment(start: position, end: position + 3, status: .none))
      position += 3
      capacities.insert(chunk.encoded.capacity)
    }
    #expect(capacities.count <= 40, "the buffer was reallocated \(capacities.count) times for 3,000 runs")
    #expect(chunk.count == model.count)
    #expect((0..<chunk.count).allSatisfy { chunk.segment(at: $0) == model[$0] })
  }

  /// A random list of sorted, disjoint segments (with gaps, empty segments and every status), cut
  /// into random chunks (some empty). Now and then a segment or a gap of 5 GB, so that a chunk
  /// spans more than 32-bit block offsets hold (`Chunk.wideBlocks`).
  static func randomStore(_ rng: inout SeededRandom) -> (SegmentStore, [Segment]) {
    let sizes = [0, 1, 2, 31, 32, 33, 63, 64, 65, 127, 128, 129]
    let count: Int
    switch rng.next() % 8 {
    case 0: count = sizes[Int(rng.next() % UInt64(sizes.count))]
    case 1: count = rng.next() % 4 == 0 ? Int(rng.next() % 3000) : Int(rng.next() % 700)
    default: count = Int(rng.next() % 300)
    }
    let origin = Int(rng.next() % 1000)
    // The compact layouts hold contiguous segments (plain: without status).
    let layouts: [SegmentStore.Chunk.Layout] = [.general, .status, .plain]
    let layout = layouts[Int(rng.next() % 3)]
    var position = origin
    var model: [Segment] = []
    for _ in 0..<count {
      let gapKind = rng.next() % 10
      let huge = rng.next() % 300 == 0 ? 5_000_000_000 : 0
      var gap = gapKind < 6 ? 0 : gapKind < 9 ? Int(rng.next() % 20) : Int(rng.next() % 100_000) + huge
      if layout != .general { gap = 0 }
      let lengthKind = rng.next() % 10
      let length =
        lengthKind == 0 ? 0 : lengthKind < 8 ? Int(rng.next() % 12) : Int(rng.next() % 50_000) + huge
      var status = SegmentStatus.allCases[Int(rng.next() % UInt64(SegmentStatus.allCases.count))]
      if layout == .plain { status = .none }
      let start = position + gap
      model.append(Segment(start: start, end: start + length, status: status))
      position = start + length
    }
    // Runs of one-byte segments without status sometimes go in with the bulk append.
    if rng.next() % 2 == 0 {
      for _ in 0..<Int(rng.next() % 4) {
        let at = model.isEmpty ? 0 : Int(rng.next() % UInt64(model.count + 1))
        let start = at == 0 ? origin : model[at - 1].end
        let run = Int(rng.next() % 200)
        let inserted = (0..<run).map { Segment(start: start + $0, end: start + $0 + 1) }
        for k in at..<model.count {
          model[k].start += run
          model[k].end += run
        }
        model.insert(contentsOf: inserted, at: at)
      }
    }
    var chunks: [SegmentStore.Chunk] = []
    var chunk = SegmentStore.Chunk(origin: origin, layout: layout)
    var i = 0
    while i < model.count {
      if rng.next() % 40 == 0 {
        chunks.append(chunk)
        // Sometimes an empty chunk, which the store must skip.
        if rng.next() % 3 == 0 { chunks.append(SegmentStore.Chunk(origin: chunk.lastEnd, layout: layout)) }
        chunk = SegmentStore.Chunk(origin: chunk.lastEnd, layout: layout)
      }
      // A run of one-byte segments without status: append it in bulk.
      var j = i
      while j < model.count && model[j].end - model[j].start == 1 && model[j].status == .none
        && (j == i || model[j].start == model[j - 1].end)
      {
        j += 1
      }
      if j - i > 1 && rng.next() % 2 == 0 {
        chunk.appendSingleByteSegments(model[i].start..<model[j - 1].end)
        i = j
        continue
      }
      let segment = model[i]
      chunk.append(start: segment.start, end: segment.end, status: segment.status)
      i += 1
    }
    chunks.append(chunk)
    return (SegmentStore(chunks: chunks), model)
  }

  @Test func matchesArrayModel() {
    let base: UInt64 = 0x5EED_0000
    for iteration in 0..<TestScale.count(2000) {
      let seed = base + UInt64(iteration)
      var rng = SeededRandom(seed: seed)
      let (store, model) = Self.randomStore(&rng)
      var failed = false
      func check(_ ok: Bool, _ what: @autoclosure () -> String) {
        if !ok && !failed {
          failed = true
          Issue.record("seed \(seed) (\(model.count) segments): \(what())")
        }
      }
      check(store.count == model.count, "count \(store.count)")
      check(store.segments == model, "segments")
      for i in 0..<model.count where store[i] != model[i] {
        check(false, "store[\(i)] = \(store[i]), model \(model[i])")
      }
      // forEach over random ranges, and stopping early.
      for _ in 0..<8 where !model.isEmpty {
        let a = Int(rng.next() % UInt64(model.count + 1))
        let b = a + Int(rng.next() % UInt64(model.count - a + 1))
        var seen: [Segment] = []
        store.forEach(in: a..<b) {
          seen.append($0)
          return true
        }
        check(seen == Array(model[a..<b]), "forEach(in: \(a)..<\(b))")
        let stop = Int(rng.next() % 5) + 1
        var taken: [Segment] = []
        store.forEach(in: a..<b) {
          taken.append($0)
          return taken.count < stop
        }
        check(taken == Array(model[a..<b].prefix(stop)), "forEach(in: \(a)..<\(b)) stopping after \(stop)")
      }
      // firstIndex for random offsets, and for every boundary and its neighbours.
      let last = model.last?.end ?? 0
      var offsets = (0..<40).map { _ in Int(rng.next() % UInt64(last + 3)) - 1 }
      for s in model.prefix(100) { offsets += [s.start - 1, s.start, s.end, s.end + 1] }
      offsets += [-1, 0, last, last + 1, Int.max / 2, Int.min, Int.max]
      for x in offsets {
        let after = model.firstIndex { $0.start > x } ?? model.count
        check(
          store.firstIndex(startingAfter: x) == after,
          "firstIndex(startingAfter: \(x)) = \(store.firstIndex(startingAfter: x)), model \(after)")
        let ending = model.firstIndex { $0.end > x } ?? model.count
        check(
          store.firstIndex(endingAfter: x) == ending,
          "firstIndex(endingAfter: \(x)) = \(store.firstIndex(endingAfter: x)), model \(ending)")
      }
      if failed { return }
    }
  }

  /// Lookups in chunks of thousands of blocks (a segmenter's chunk of 1 MB of text), whose search
  /// starts where the offset falls in proportion to the chunk's span and gallops from there: even
  /// entries, entries bunched into a dense part and a sparse one (the guess far from the answer,
  /// either way), empty entries and gaps, against a binary search of the model. A search that
  /// ignores the proportion's error (an answer taken from the guess's block) fails here.
  @Test func lookupsInLargeChunksEqualTheModel() {
    for iteration in 0..<TestScale.count(24) {
      let seed = 0x1A26_0000 + UInt64(iteration)
      var rng = SeededRandom(seed: seed)
      let count = 20_000 + Int(rng.next() % 60_000)
      let shape = iteration % 3  // 0: even; 1: dense first part; 2: dense last part
      var chunk = SegmentStore.Chunk(origin: 0, layout: .general)
      var model: [Segment] = []
      var position = 0
      for k in 0..<count {
        let dense = shape == 0 || (shape == 1) == (k < count / 2)
        let gap = rng.next() % 7 == 0 ? Int(rng.next() % 3) : 0
        let length = rng.next() % 10 == 0 ? 0 : dense ? 1 + Int(rng.next() % 8) : 200 + Int(rng.next() % 2000)
        let start = position + gap
        chunk.append(start: start, end: start + length)
        model.append(Segment(start: start, end: start + length, status: .none))
        position = start + length
      }
      let store = SegmentStore(chunks: [chunk])
      func expected(_ x: Int, byEnd: Bool) -> Int {
        var lo = 0
        var hi = model.count
        while lo < hi {
          let mid = (lo + hi) / 2
          if (byEnd ? model[mid].end : model[mid].start) > x { hi = mid } else { lo = mid + 1 }
        }
        return lo
      }
      var offsets = (0..<400).map { _ in Int(rng.next() % UInt64(position + 3)) - 1 }
      for _ in 0..<200 {
        let s = model[Int(rng.next() % UInt64(model.count))]
        offsets += [s.start - 1, s.start, s.end - 1, s.end]
      }
      for x in offsets {
        let starting = store.firstIndex(startingAfter: x)
        let ending = store.firstIndex(endingAfter: x)
        #expect(starting == expected(x, byEnd: false), "seed \(seed): startingAfter \(x)")
        #expect(ending == expected(x, byEnd: true), "seed \(seed): endingAfter \(x)")
        if starting != expected(x, byEnd: false) || ending != expected(x, byEnd: true) { return }
      }
    }
  }

  /// A chunk whose block bases pass 4 GiB keeps them as 64-bit values: every entry and every
  /// lookup past the switch still answers right.
  @Test func chunkSpanningMoreThan4GiB() {
    var chunk = SegmentStore.Chunk(origin: 7, layout: .general)
    var model: [Segment] = []
    var position = 7
    for k in 0..<200 {
      let start = position + (k == 50 ? 3_000_000_000 : k % 3)
      let end = start + (k == 120 ? 2_000_000_000 : k % 5)
      chunk.append(start: start, end: end)
      model.append(Segment(start: start, end: end, status: .none))
      position = end
    }
    let store = SegmentStore(chunks: [chunk])
    #expect(store.segments == model)
    for s in model {
      for x in [s.start - 1, s.start, s.end - 1, s.end] {
        #expect(store.firstIndex(startingAfter: x) == (model.firstIndex { $0.start > x } ?? model.count))
        #expect(store.firstIndex(endingAfter: x) == (model.firstIndex { $0.end > x } ?? model.count))
      }
    }
  }

  @Test func emptyStore() {
    let store = SegmentStore()
    #expect(store.count == 0)
    #expect(store.segments.isEmpty)
    #expect(store.firstIndex(startingAfter: 5) == 0)
    #expect(store.firstIndex(endingAfter: -1) == 0)
    var called = false
    store.forEach { _ in
      called = true
      return true
    }
    #expect(!called)
  }
}

/// The library's `LineScanner` and `ElementKind` against ``LineModel``.
@Suite struct LineScannerTests {
  /// Each line as [content start, content end, next line's start].
  static func lines(_ text: String) -> [[Int]] {
    let bytes = ByteStorage(text)
    return Self.lines(bytes, 0..<bytes.count)
  }

  static func lines(_ bytes: ByteStorage, _ range: Range<Int>) -> [[Int]] {
    LineScanner(bytes, range: range).map { [$0.content.lowerBound, $0.content.upperBound, $0.next] }
  }

  @Test func knownCases() {
    #expect(Self.lines("").isEmpty)
    #expect(Self.lines("a") == [[0, 1, 1]])
    #expect(Self.lines("a\n") == [[0, 1, 2]])
    #expect(Self.lines("a\r\nb") == [[0, 1, 3], [3, 4, 4]])
    #expect(Self.lines("\r\r\n\n") == [[0, 0, 1], [1, 1, 3], [3, 3, 4]])
    #expect(Self.lines("a\rb\n\rc") == [[0, 1, 2], [2, 3, 4], [4, 4, 5], [5, 6, 6]])
    #expect(Self.lines("é\u{2028}x") == [[0, 6, 6]], "only LF, CRLF and CR end a line")
    let one = ByteStorage("x\n")
    #expect(Array(LineScanner(one, range: 0..<2)).first?.hasTerminator == true)
    #expect(Array(LineScanner(one, range: 0..<1)).first?.hasTerminator == false)
    // A range that ends between CR and LF: the CR alone ends the line.
    let bytes = ByteStorage("ab\r\ncd")
    #expect(Self.lines(bytes, 0..<3) == [[0, 2, 3]])
    #expect(Self.lines(bytes, 3..<6) == [[3, 3, 4], [4, 6, 6]])
  }

  @Test func blankLinesWithSpacesAndTabs() {
    let text = "a\n \t\nb\nb2\n\n\n  c  \n\t\n \n"
    let bytes = ByteStorage(text)
    #expect(
      ElementKind.lines.ranges(in: bytes) == [0..<1, 2..<4, 5..<6, 7..<9, 10..<10, 11..<11, 12..<17, 18..<19, 20..<21])
    #expect(ElementKind.paragraphs.ranges(in: bytes) == [0..<1, 5..<9, 12..<17])
    #expect(ElementKind.whole.ranges(in: bytes) == [0..<bytes.count])
    let crlf = ByteStorage("one\r\n\t \r\ntwo\r\nthree\r\n")
    #expect(ElementKind.paragraphs.ranges(in: crlf) == [0..<3, 9..<19])
    #expect(ElementKind.paragraphs.ranges(in: ByteStorage(" \t \n\n")).isEmpty)
  }

  /// Random texts over a small alphabet rich in line ends: scanner, elements and
  /// `nextLineStart` against the model.
  @Test func randomTexts() {
    let alphabet: [UInt8] = [0x61, 0x62, 0x0D, 0x0A, 0x20, 0x09, 0xC3, 0xA9]
    for seed in UInt64(1)...2000 {
      var rng = SeededRandom(seed: seed)
      let n = Int(rng.next() % 40)
      let raw = (0..<n).map { _ in alphabet[Int(rng.next() % UInt64(alphabet.count))] }
      let bytes = ByteStorage(raw)
      let lo = n == 0 ? 0 : Int(rng.next() % UInt64(n + 1))
      let hi = lo + Int(rng.next() % UInt64(n - lo + 1))
      let scanned = Array(LineScanner(bytes, range: lo..<hi))
      let model = LineModel.lines(raw, lo..<hi)
      guard scanned.map(\.content) == model else {
        Issue.record("seed \(seed): \(raw) \(lo)..<\(hi): \(scanned.map(\.content)) vs \(model)")
        return
      }
      // Each line's `next` is the next line's start (or the range's end).
      for (k, line) in scanned.enumerated() {
        let expected = k + 1 < scanned.count ? scanned[k + 1].content.lowerBound : hi
        if line.next != expected && !(k + 1 == scanned.count && line.next <= hi) {
          Issue.record("seed \(seed): line \(k) next \(line.next), expected \(expected)")
        }
      }
      #expect(scanned.last.map { $0.next == hi } ?? true, "seed \(seed): the last line ends the range")
      #expect(LineModel.paragraphs(raw, 0..<n) == ElementKind.paragraphs.ranges(in: bytes), "seed \(seed)")
      // nextLineStart: the end of the first terminator at or after the offset.
      for offset in lo...hi {
        var i = offset
        var expected = hi
        while i < hi {
          if raw[i] == 0x0A { expected = i + 1; break }
          if raw[i] == 0x0D { expected = i + 1 < hi && raw[i + 1] == 0x0A ? i + 2 : i + 1; break }
          i += 1
        }
        let found = LineScanner.nextLineStart(in: bytes, from: offset, end: hi)
        if found != expected {
          Issue.record(
            "seed \(seed): nextLineStart(from: \(offset), end: \(hi)) = \(found), expected \(expected) in \(raw)")
          return
        }
      }
    }
  }
}
