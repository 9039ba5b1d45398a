import TextRotorICU

/// The islands of a span: ranges from a safe point to a safe point that hold every non-ASCII byte
/// of the span (and the ASCII around them that a rule could join to them). Between islands the
/// text is pure ASCII. Islands closer than ``mergeDistance`` bytes are merged: restarting ICU costs
/// more than letting it segment a few ASCII bytes (32 measured best on English prose, between 0
/// and 1024).
struct Islands<S: AsciiSegmenter>: Sequence, IteratorProtocol {
  static var mergeDistance: Int { 32 }

  private let text: UnsafeBufferPointer<UInt8>
  private var position: Int
  private let end: Int

  init(_ text: UnsafeBufferPointer<UInt8>, span: Range<Int>) {
    self.text = text
    self.position = span.lowerBound
    self.end = span.upperBound
  }

  mutating func next() -> Range<Int>? {
    guard let first = Self.firstNonASCII(text, from: position, to: end) else {
      position = end
      return nil
    }
    let start = S.lastSafePoint(text, floor: position, limit: first)
    var stop = S.nextSafePoint(text, after: first, end: end)
    while stop < end, let more = Self.firstNonASCII(text, from: stop, to: Swift.min(end, stop + Self.mergeDistance)) {
      stop = S.nextSafePoint(text, after: more, end: end)
    }
    position = stop
    return start..<stop
  }

  /// The offset of the first byte ≥ 0x80 in `from..<to`, eight bytes at a time.
  @inline(__always)
  static func firstNonASCII(_ text: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> Int? {
    guard let base = text.baseAddress else { return nil }
    var i = from
    while i + 8 <= to {
      let word = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
      let high = word & 0x8080_8080_8080_8080
      if high != 0 { return i + high.trailingZeroBitCount / 8 }
      i += 8
    }
    while i < to {
      if base[i] >= 0x80 { return i }
      i += 1
    }
    return nil
  }
}

/// Segments islands with ICU: `setText` on the island alone. An island starts at a boundary of
/// the whole text, and ICU's iteration from a boundary depends only on the text after it, so its
/// boundaries and statuses are those of the whole text.
struct IslandSegmenter {
  let iterator: BreakIterator
  let bytes: ByteStorage
  let withStatus: Bool
  private var batch: BoundaryBatch

  init(iterator: BreakIterator, bytes: ByteStorage, withStatus: Bool) {
    self.iterator = iterator
    self.bytes = bytes
    self.withStatus = withStatus
    self.batch = BoundaryBatch(capacity: 1024, wantsStatus: withStatus)
  }

  mutating func segment(_ island: Range<Int>, into chunk: inout SegmentStore.Chunk) throws(ICUError) {
    guard !island.isEmpty else { return }
    try iterator.setText(bytes, range: island)
    var previous = island.lowerBound
    let base = island.lowerBound
    while iterator.nextBatch(&batch) {
      for k in 0..<batch.count {
        let end = base + Int(batch.offsets[k])
        let status = withStatus ? SegmentStatus(icuWordStatus: Int(batch.statuses[k])) : .none
        chunk.append(start: previous, end: end, status: status)
        previous = end
      }
    }
  }
}
