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

/// Segments ranges that start at a boundary of the whole text: with the native ``RuleMachine``
/// (ICU's own compiled rules run over the UTF-8) when there is one, and with ICU (`setText` on the
/// range alone) for what the machine leaves to ICU: from the boundary where it met a dictionary
/// character (unless the machine's native Chinese/Japanese dictionary divides that segment as ICU
/// would, `RuleMachine.dictionarySegment`) or ill-formed UTF-8 up to the end of that hard line (every rule set breaks after a
/// hard line break), or the range's end. ICU's iteration from a boundary depends only on the text
/// after it, so both give the boundaries and statuses of the whole text.
struct IslandSegmenter {
  let iterator: BreakIterator
  let bytes: ByteStorage
  let rotor: SystemRotor
  let counting: Bool
  let countsWords: Bool
  let machine: RuleMachine?
  private let withStatus: Bool
  /// Made when ICU is first needed (most windows of an edit never need it), no larger than that.
  private var batch: BoundaryBatch? = nil

  init(
    iterator: BreakIterator, bytes: ByteStorage, rotor: SystemRotor, counting: Bool, countsWords: Bool = true,
    rules: BreakRules?, machine: RuleMachine? = nil
  ) {
    self.iterator = iterator
    self.bytes = bytes
    self.rotor = rotor
    self.counting = counting
    self.countsWords = countsWords
    self.machine = machine ?? rules.map { RuleMachine($0) }
    // Statuses tell words apart, and hard line breaks in a stored index.
    self.withStatus = (rotor == .words && (!counting || countsWords)) || (rotor == .linebreaks && !counting)
  }

  /// The entry status of a segment whose ICU rule status is `icu`.
  @inline(__always) private func status(_ icu: Int32) -> SegmentStatus {
    counting && rotor == .linebreaks ? .none : SegmentStatus(icuStatus: icu, of: rotor)
  }

  /// Segments `range` of `text` (the bytes' buffer) into `chunk`.
  mutating func segment(_ text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, into chunk: inout SegmentStore.Chunk)
    throws(ICUError)
  {
    guard let machine, let base = text.baseAddress else { return try segmentWithICU(range, into: &chunk) }
    var position = range.lowerBound
    let end = range.upperBound
    let ends = machine.ends
    let statuses = machine.statuses
    while position < end {
      let (n, declined) = machine.run(base, from: position, end: end)
      if chunk.layout == .counting {
        // Only the numbers: of segments, and of words among them.
        if n > 0 {
          var words = 0
          if rotor == .words && countsWords {
            // ICU's word statuses: numbers 100..<200, letters, kana, ideographs up to 500.
            for k in 0..<n { words &+= UInt32(bitPattern: statuses[k] &- 100) < 400 ? 1 : 0 }
          }
          chunk.addCounted(n, words: words, through: ends[n - 1])
          position = ends[n - 1]
        }
      } else if withStatus {
        for k in 0..<n {
          chunk.append(start: position, end: ends[k], status: status(statuses[k]))
          position = ends[k]
        }
      } else {
        for k in 0..<n {
          chunk.append(start: position, end: ends[k])
          position = ends[k]
        }
      }
      if declined {
        // A segment ICU's Chinese/Japanese dictionary divides, natively; else ICU.
        if let (n, icu) = machine.dictionarySegment(base, from: position, end: end),
          let found = machine.dictionaryEnds
        {
          let segmentStatus = withStatus ? status(icu) : .none
          for k in 0..<n {
            chunk.append(start: position, end: found[k], status: segmentStatus)
            position = found[k]
          }
          continue
        }
        let stop = Self.hardLineEnd(text, from: position, end: end)
        try segmentWithICU(position..<stop, into: &chunk)
        position = stop
      }
    }
  }

  /// Just after the first LF, or CR not followed by LF, at or after `start`; or `end`.
  static func hardLineEnd(_ text: UnsafeBufferPointer<UInt8>, from start: Int, end: Int) -> Int {
    var i = start
    while i < end {
      let c = text[i]
      if c == 0x0A { return i + 1 }
      if c == 0x0D { return i + 1 < end && text[i + 1] == 0x0A ? i + 2 : i + 1 }
      i += 1
    }
    return end
  }

  /// Segments `range` with ICU.
  mutating func segmentWithICU(_ range: Range<Int>, into chunk: inout SegmentStore.Chunk) throws(ICUError) {
    guard !range.isEmpty else { return }
    try iterator.setText(bytes, range: range)
    var previous = range.lowerBound
    let base = range.lowerBound
    var batch = self.batch ?? BoundaryBatch(capacity: Swift.min(1024, range.count + 2), wantsStatus: withStatus)
    defer { self.batch = batch }
    while iterator.nextBatch(&batch) {
      if chunk.layout == .counting && !withStatus {
        previous = base + Int(batch.offsets[batch.count - 1])
        chunk.addCounted(batch.count, through: previous)
        continue
      }
      for k in 0..<batch.count {
        let end = base + Int(batch.offsets[k])
        chunk.append(start: previous, end: end, status: withStatus ? status(batch.statuses[k]) : .none)
        previous = end
      }
    }
  }
}
