/// The compact storage of a system rotor: sorted, non-overlapping UTF-8 byte ranges with a 3-bit
/// status each, about one byte per short segment.
///
/// Entries are kept in chunks (one per segmented piece of text, so chunks can be built in parallel
/// and replaced after an edit). Inside a chunk each entry is a LEB128 varint head, in one of three
/// layouts chosen by what the rotor needs (``Chunk/Layout``): `length` (segments that cover the
/// text and carry no status: characters, sentences), `length << 3 | status` (words, line-break
/// segments) or `length << 4 | status << 1 | hasGap` followed by a varint gap (bytes skipped since
/// the previous entry's end) when `hasGap` is set (lines, paragraphs, anything else). So a
/// grapheme or a short word takes one byte. Every 32nd entry has a checkpoint (its position,
/// relative to the chunk's origin, and its byte offset) so that random access decodes at most 31
/// entries.
public struct SegmentStore: Sendable {
  public struct Segment: Equatable, Hashable, Sendable {
    public var start: Int
    public var end: Int
    /// The ``SegmentStatus`` of the segment (words: letters / numbers / kana / ideographs / none).
    public var status: SegmentStatus
    public var range: Range<Int> { start..<end }

    public init(start: Int, end: Int, status: SegmentStatus = .none) {
      self.start = start
      self.end = end
      self.status = status
    }
  }

  /// One independently built piece.
  public struct Chunk: Sendable {
    /// How entries are encoded (see ``SegmentStore``).
    public enum Layout: UInt8, Sendable {
      /// Contiguous segments without status: the head is the length.
      case plain
      /// Contiguous segments with a status: `length << 3 | status`.
      case status
      /// Anything: `length << 4 | status << 1 | hasGap`, then the gap.
      case general
      /// Nothing is stored: the chunk only counts its entries (and those tagged as words), for
      /// callers that want the number and not the index.
      case counting
    }

    static let blockSize = 32
    public let layout: Layout
    fileprivate(set) var encoded: [UInt8] = []
    /// Per block of 32 entries after the first, two values side by side: the end of the entry
    /// before the block (the block's base) relative to `origin`, and where its first entry starts
    /// in `encoded`. The first block's are implied (`origin` and 0), so a chunk of at most 32
    /// entries (an edit's window) allocates one buffer, not three. 32-bit values: blocks of 32
    /// entries cost what blocks of 64 did with 64-bit ones (a quarter of a byte per entry), and a
    /// lookup decodes half as many entries. A chunk spanning 4 GiB or more keeps each value as
    /// two (`wideBlocks`: low half, then high half), in the same array: a second array made every
    /// copy of a chunk cost one more reference.
    fileprivate(set) var blocks: [UInt32] = []
    fileprivate(set) var wideBlocks = false
    public fileprivate(set) var count = 0
    /// Entries whose status ``SegmentStatus/isWord``.
    public fileprivate(set) var wordCount = 0
    /// Where decoding starts (the lower bound of the text this chunk covers).
    public let origin: Int
    /// End of the last entry (or `origin`).
    public fileprivate(set) var lastEnd: Int
    /// Start of the last entry (or `origin`; not kept by a counting chunk), so that a piece ending
    /// with the chunk knows where its last entry starts without decoding a block.
    public fileprivate(set) var lastStart: Int

    public init(origin: Int, layout: Layout = .general) {
      self.origin = origin
      self.lastEnd = origin
      self.lastStart = origin
      self.layout = layout
    }

    /// Appends a segment; segments must come in order and must not overlap. In the `plain` and
    /// `status` layouts they must also be contiguous (`start == lastEnd`), and `plain` keeps no status.
    ///
    /// Inlined (segmenters call it once per segment): a counting chunk only counts; the encoding
    /// is out of line.
    @inline(__always)
    public mutating func append(start: Int, end: Int, status: SegmentStatus = .none) {
      precondition(start >= lastEnd && end >= start, "segments must be sorted and disjoint")
      if layout == .counting {
        count &+= 1
        wordCount &+= status.isWord ? 1 : 0
        lastEnd = end
        return
      }
      appendEncoded(start: start, end: end, status: status)
    }

    @inline(never)
    mutating func appendEncoded(start: Int, end: Int, status: SegmentStatus) {
      if count % Self.blockSize == 0 && count > 0 { appendBlock() }
      let length = UInt64(end - start)
      switch layout {
      case .plain:
        precondition(start == lastEnd && status == .none, "a plain chunk holds contiguous segments without status")
        Self.putVarint(length, into: &encoded)
      case .status:
        precondition(start == lastEnd, "a status chunk holds contiguous segments")
        Self.putVarint(length << 3 | UInt64(status.rawValue), into: &encoded)
      case .counting: break
      case .general:
        let gap = start - lastEnd
        Self.putVarint(length << 4 | UInt64(status.rawValue) << 1 | (gap > 0 ? 1 : 0), into: &encoded)
        if gap > 0 { Self.putVarint(UInt64(gap), into: &encoded) }
      }
      lastStart = start
      lastEnd = end
      count += 1
    }

    /// Counts `entries` more contiguous segments ending at `end`, in a counting chunk.
    mutating func addCounted(_ entries: Int, words: Int = 0, through end: Int) {
      precondition(layout == .counting && end >= lastEnd)
      count += entries
      wordCount += words
      lastEnd = end
    }

    /// Appends one-byte segments covering `range` (ASCII graphemes) in one pass.
    public mutating func appendSingleByteSegments(_ range: Range<Int>) {
      guard !range.isEmpty else { return }
      if layout == .counting {
        count += range.count
        lastEnd = range.upperBound
        return
      }
      if range.lowerBound != lastEnd {
        append(start: range.lowerBound, end: range.lowerBound + 1)
      }
      var remaining = range.upperBound - lastEnd
      let head: UInt8 =
        switch layout {
        case .plain: 1
        case .status: 1 << 3
        case .general: 1 << 4
        case .counting: 0
        }
      reserve(remaining)
      while remaining > 0 {
        let inBlock = count % Self.blockSize
        if inBlock == 0 && count > 0 { appendBlock() }
        let take = Swift.min(remaining, Self.blockSize - inBlock)
        encoded.append(contentsOf: repeatElement(head, count: take))
        count += take
        lastEnd += take
        remaining -= take
      }
      lastStart = lastEnd - 1
    }

    /// Starts a block at the next entry: its base and where it starts in `encoded`.
    private mutating func appendBlock() {
      let base = lastEnd - origin
      let cursor = encoded.count
      if !wideBlocks && base <= UInt32.max && cursor <= UInt32.max {
        blocks.append(UInt32(base))
        blocks.append(UInt32(cursor))
        return
      }
      func split(_ value: Int) -> [UInt32] {
        [UInt32(truncatingIfNeeded: value), UInt32(truncatingIfNeeded: value >> 32)]
      }
      if !wideBlocks {
        blocks = blocks.flatMap { split(Int($0)) }
        wideBlocks = true
      }
      blocks += split(base) + split(cursor)
    }

    /// Blocks after the first.
    private var laterBlocks: Int { blocks.count / (wideBlocks ? 4 : 2) }

    /// Value `k` of a wide chunk's blocks.
    @inline(__always) private func wide(_ k: Int) -> Int { Int(blocks[2 * k]) | Int(blocks[2 * k + 1]) << 32 }

    /// The base of block `b` (the end of the entry before it) and where it starts in `encoded`.
    @inline(__always) func block(_ b: Int) -> (base: Int, cursor: Int) {
      if b == 0 { return (origin, 0) }
      if wideBlocks { return (origin + wide(2 * b - 2), wide(2 * b - 1)) }
      return (origin + Int(blocks[2 * b - 2]), Int(blocks[2 * b - 1]))
    }

    /// Room for `entries` more entries of one or two bytes each (a merge of small pieces: it grew
    /// its buffer four or five times, a tenth of the merge).
    mutating func reserveCapacity(forEntries entries: Int) {
      if layout != .counting { reserve(2 * entries + 4) }
    }

    /// Room for `more` bytes in `encoded`, growing it at least twofold when it must grow:
    /// `reserveCapacity` alone allocates just what it is asked for, so a reserve before each run
    /// of ASCII graphemes copied the whole buffer each time (the characters rotor of one 100 MB
    /// line: 18 s, half of it copying).
    private mutating func reserve(_ more: Int) {
      let needed = encoded.count + more
      if needed > encoded.capacity { encoded.reserveCapacity(Swift.max(needed, 2 * encoded.capacity)) }
    }

    /// Reserves room for the entries of about `bytes` bytes of text (at most 4 KB ahead: a
    /// window's chunk then grows its buffer once, a large chunk doubles as usual).
    mutating func reserveCapacity(forTextBytes bytes: Int) {
      if layout != .counting { encoded.reserveCapacity(Swift.min(bytes, 4096) + 8) }
    }

    @inline(__always) static func putVarint(_ value: UInt64, into bytes: inout [UInt8]) {
      var v = value
      while v >= 0x80 {
        bytes.append(UInt8(truncatingIfNeeded: v) | 0x80)
        v >>= 7
      }
      bytes.append(UInt8(v))
    }

    @inline(__always) static func getVarint(_ bytes: UnsafeBufferPointer<UInt8>, _ i: inout Int) -> UInt64 {
      // Most heads are one or two bytes (a line's length takes two): no loop for them.
      let first = bytes[i]
      if first < 0x80 {
        i += 1
        return UInt64(first)
      }
      let second = bytes[i + 1]
      if second < 0x80 {
        i += 2
        return UInt64(first & 0x7F) | UInt64(second) << 7
      }
      return getLongVarint(bytes, &i)
    }

    @inline(never) static func getLongVarint(_ bytes: UnsafeBufferPointer<UInt8>, _ i: inout Int) -> UInt64 {
      var result: UInt64 = 0
      var shift: UInt64 = 0
      while true {
        let b = bytes[i]
        i += 1
        result |= UInt64(b & 0x7F) << shift
        if b < 0x80 { return result }
        shift += 7
      }
    }

    /// Decodes the entry at `cursor` whose predecessor ended at `position`: moves `position` to the
    /// entry's start (past its gap) and `cursor` past it; returns its length and raw status.
    @inline(__always) static func decodeEntry(
      _ bytes: UnsafeBufferPointer<UInt8>, _ layout: Layout, _ cursor: inout Int, _ position: inout Int
    ) -> (length: Int, rawStatus: UInt8) {
      switch layout {
      case .plain: PlainEntries.decode(bytes, &cursor, &position)
      case .status: StatusEntries.decode(bytes, &cursor, &position)
      case .general: GeneralEntries.decode(bytes, &cursor, &position)
      case .counting: preconditionFailure("a counting chunk stores no entries")
      }
    }

    /// One layout's entry decoding (see ``decodeEntry``), for loops compiled once per layout.
    fileprivate protocol EntryDecoding {
      static func decode(_ bytes: UnsafeBufferPointer<UInt8>, _ cursor: inout Int, _ position: inout Int)
        -> (length: Int, rawStatus: UInt8)
    }

    fileprivate enum PlainEntries: EntryDecoding {
      @inline(__always) static func decode(
        _ bytes: UnsafeBufferPointer<UInt8>, _ cursor: inout Int, _ position: inout Int
      )
        -> (length: Int, rawStatus: UInt8)
      { (Int(getVarint(bytes, &cursor)), 0) }
    }

    fileprivate enum StatusEntries: EntryDecoding {
      @inline(__always) static func decode(
        _ bytes: UnsafeBufferPointer<UInt8>, _ cursor: inout Int, _ position: inout Int
      )
        -> (length: Int, rawStatus: UInt8)
      {
        let head = getVarint(bytes, &cursor)
        return (Int(head >> 3), UInt8(truncatingIfNeeded: head) & 7)
      }
    }

    fileprivate enum GeneralEntries: EntryDecoding {
      @inline(__always) static func decode(
        _ bytes: UnsafeBufferPointer<UInt8>, _ cursor: inout Int, _ position: inout Int
      )
        -> (length: Int, rawStatus: UInt8)
      {
        let head = getVarint(bytes, &cursor)
        if head & 1 != 0 { position += Int(getVarint(bytes, &cursor)) }
        return (Int(head >> 4), UInt8(truncatingIfNeeded: head >> 1) & 7)
      }
    }

    /// Decodes entries `from..<to` (indices inside this chunk), calling `body` for each.
    func forEach(from: Int, to: Int, _ body: (Segment) throws -> Bool) rethrows -> Bool {
      guard from < to else { return true }
      let block = from / Self.blockSize
      var (position, cursor) = self.block(block)
      var index = block * Self.blockSize
      return try encoded.withUnsafeBufferPointer { bytes in
        while index < to {
          let (length, rawStatus) = Self.decodeEntry(bytes, layout, &cursor, &position)
          let end = position + length
          if index >= from {
            let status = SegmentStatus(rawValue: rawStatus) ?? .none
            if try !body(Segment(start: position, end: end, status: status)) { return false }
          }
          position = end
          index += 1
        }
        return true
      }
    }

    func segment(at i: Int) -> Segment {
      precondition(i >= 0 && i < count, "entry \(i) outside 0..<\(count)")
      let block = i / Self.blockSize
      let (base, cursor) = self.block(block)
      let skip = i - block * Self.blockSize
      return encoded.withUnsafeBufferPointer { bytes in
        switch layout {
        case .plain: Self.segment(PlainEntries.self, bytes, skip, base, cursor)
        case .status: Self.segment(StatusEntries.self, bytes, skip, base, cursor)
        case .general: Self.segment(GeneralEntries.self, bytes, skip, base, cursor)
        case .counting: preconditionFailure("a counting chunk stores no entries")
        }
      }
    }

    /// The entry after `skip` others from `cursor` (a block's start, whose base is `position`):
    /// one loop per layout, the layout's test out of it.
    @inline(__always) private static func segment<D: EntryDecoding>(
      _: D.Type, _ bytes: UnsafeBufferPointer<UInt8>, _ skip: Int, _ position: Int, _ cursor: Int
    ) -> Segment {
      var position = position
      var cursor = cursor
      for _ in 0..<skip {
        position += D.decode(bytes, &cursor, &position).length
      }
      let (length, raw) = D.decode(bytes, &cursor, &position)
      return Segment(start: position, end: position + length, status: SegmentStatus(rawValue: raw) ?? .none)
    }

    /// The index of the first entry whose end is greater than `offset`, or `count`.
    func firstIndex(endingAfter offset: Int) -> Int {
      firstIndex(offset, byEnd: true)
    }

    /// The index of the first entry whose start is greater than `offset`, or `count`.
    func firstIndex(startingAfter offset: Int) -> Int {
      firstIndex(offset, byEnd: false)
    }

    /// The first index whose entry's start (or end, `byEnd`) is greater than `offset`. A block's
    /// base is the end of the entry before it and at most its first entry's start, so with `b` the
    /// last block whose base is at most `offset`, every entry before block `b` fails and the first
    /// entry of block `b + 1` passes: a search over the bases (``blockIndex(_:)``, no decoding), then one
    /// block's varints decoded in a tight loop.
    private func firstIndex(_ offset: Int, byEnd: Bool) -> Int {
      guard count > 0 else { return 0 }
      let block = blockIndex(offset)
      let stop = min(count, (block + 1) * Self.blockSize)
      let (base, cursor) = self.block(block)
      let first = block * Self.blockSize
      return encoded.withUnsafeBufferPointer { bytes in
        switch layout {
        case .plain: Self.firstIndex(PlainEntries.self, bytes, first, stop, base, cursor, offset, byEnd)
        case .status: Self.firstIndex(StatusEntries.self, bytes, first, stop, base, cursor, offset, byEnd)
        case .general: Self.firstIndex(GeneralEntries.self, bytes, first, stop, base, cursor, offset, byEnd)
        case .counting: preconditionFailure("a counting chunk stores no entries")
        }
      }
    }

    /// ``firstIndex(startingAfter:)`` of `x` and of `y >= x`, with one search and one decoding
    /// pass when both answers lie in one block (the two cuts around a short element or a small
    /// deletion).
    func firstIndices(startingAfter x: Int, _ y: Int) -> (Int, Int) {
      guard count > 0 else { return (0, 0) }
      let block = blockIndex(x)
      // The next block's base past `y`: `y`'s block is this one too.
      guard block + 1 > laterBlocks || self.block(block + 1).base > y else {
        return (firstIndex(x, byEnd: false), firstIndex(y, byEnd: false))
      }
      let stop = min(count, (block + 1) * Self.blockSize)
      let (base, cursor) = self.block(block)
      let first = block * Self.blockSize
      return encoded.withUnsafeBufferPointer { bytes in
        switch layout {
        case .plain: Self.firstIndices(PlainEntries.self, bytes, first, stop, base, cursor, x, y)
        case .status: Self.firstIndices(StatusEntries.self, bytes, first, stop, base, cursor, x, y)
        case .general: Self.firstIndices(GeneralEntries.self, bytes, first, stop, base, cursor, x, y)
        case .counting: preconditionFailure("a counting chunk stores no entries")
        }
      }
    }

    @inline(__always) private static func firstIndices<D: EntryDecoding>(
      _: D.Type, _ bytes: UnsafeBufferPointer<UInt8>, _ first: Int, _ stop: Int, _ position: Int, _ cursor: Int,
      _ x: Int, _ y: Int
    ) -> (Int, Int) {
      var position = position
      var cursor = cursor
      var index = first
      var i = -1
      while index < stop {
        let length = D.decode(bytes, &cursor, &position).length
        if i < 0 && position > x { i = index }
        if position > y { return (i, index) }
        position += length
        index += 1
      }
      return (i < 0 ? stop : i, stop)
    }

    /// The last block whose base is at most `offset` (block 0's, `origin`, is at most every
    /// offset asked for). Entries are spread about evenly over a chunk's text, so the search starts
    /// where `offset` falls in proportion to the chunk's span, gallops out from there to bracket the
    /// answer, and ends with a binary search inside the bracket: a handful of probes near one
    /// another. A binary search over all the bases of a large chunk (some 6,000 blocks, 50 KB, in
    /// a chunk of 1 MB of text) probed thirteen places far apart, most of them cache misses in a
    /// chunk not read lately (every chunk, in a 1 GB document).
    private func blockIndex(_ offset: Int) -> Int {
      let n = laterBlocks
      guard n > 0 else { return 0 }
      // Relative to the origin without overflowing (an offset of Int.min asks for the first).
      let (difference, overflow) = offset.subtractingReportingOverflow(origin)
      let relative = overflow ? (offset < origin ? -1 : .max) : difference
      let span = lastEnd - origin
      guard relative >= 0 else { return 0 }
      guard relative < span else { return n }
      return blocks.withUnsafeBufferPointer { blocks in
        let wide = wideBlocks
        // The base of block `b` (1...n), relative to the origin.
        @inline(__always) func base(_ b: Int) -> Int {
          wide ? self.wide(2 * b - 2) : Int(blocks[2 * b - 2])
        }
        // The answer is the last b in 0...n with base(b) <= relative (base(0) counts as -infinity).
        let guess = Swift.min(n, Int((Double(relative) / Double(span) * Double(n)).rounded(.down)))
        var lo: Int
        var hi: Int
        if guess > 0 && base(guess) > relative {
          // Below the guess: gallop down until a base is at most `relative`.
          hi = guess - 1
          lo = 0
          var step = 1
          while true {
            let probe = guess - step
            if probe <= 0 { break }
            if base(probe) <= relative {
              lo = probe
              break
            }
            hi = probe - 1
            step *= 2
          }
        } else {
          // At or above the guess: gallop up until a base is past `relative`.
          lo = guess
          hi = n
          var step = 1
          while true {
            let probe = guess + step
            if probe > n { break }
            if base(probe) > relative {
              hi = probe - 1
              break
            }
            lo = probe
            step *= 2
          }
        }
        // base(lo) <= relative (or lo == 0) and the answer is in lo...hi.
        while lo < hi {
          let mid = (lo + hi + 1) / 2
          if base(mid) <= relative { lo = mid } else { hi = mid - 1 }
        }
        return lo
      }
    }

    @inline(__always) private static func firstIndex<D: EntryDecoding>(
      _: D.Type, _ bytes: UnsafeBufferPointer<UInt8>, _ first: Int, _ stop: Int, _ position: Int, _ cursor: Int,
      _ offset: Int, _ byEnd: Bool
    ) -> Int {
      var position = position
      var cursor = cursor
      var index = first
      while index < stop {
        let length = D.decode(bytes, &cursor, &position).length
        if (byEnd ? position + length : position) > offset { return index }
        position += length
        index += 1
      }
      return stop
    }

    /// Bytes of memory this chunk holds (its buffers' capacities).
    var memoryBytes: Int { encoded.capacity + blocks.capacity * 4 }

    /// Drops the spare capacity of the buffers (`Array(array)` would share the old buffer, so copy
    /// through a buffer pointer) when it is worth it: more than 1 KB and a sixteenth spare (a
    /// window's small chunk keeps its buffer).
    mutating func shrink() {
      func exact<T>(_ a: inout [T]) {
        let spare = (a.capacity - a.count) * MemoryLayout<T>.stride
        if spare > 1024 && spare > a.count * MemoryLayout<T>.stride / 16 {
          a = a.withUnsafeBufferPointer { Array($0) }
        }
      }
      exact(&encoded)
      exact(&blocks)
    }
  }

  public private(set) var chunks: [Chunk] = []
  /// `entryOffsets[i]` = entries before chunk `i`, kept once there are two chunks (a store of one
  /// chunk, an edit's window, allocates nothing for it).
  private var entryOffsets: [Int] = []
  public private(set) var count = 0

  public init() {}

  public init(chunks: some Sequence<Chunk>) {
    for chunk in chunks { append(chunk) }
  }

  /// Appends a chunk that starts at or after the end of the last one.
  public mutating func append(_ chunk: Chunk) {
    guard chunk.count > 0 else { return }
    var chunk = chunk
    chunk.shrink()
    if chunks.count == 1 { entryOffsets = [0] }
    if !chunks.isEmpty { entryOffsets.append(count) }
    chunks.append(chunk)
    count += chunk.count
  }

  /// Entries before chunk `c`.
  private func entriesBefore(_ c: Int) -> Int { c == 0 ? 0 : entryOffsets[c] }

  /// Entries tagged as words (letters, numbers, kana, ideographs).
  public var wordCount: Int { chunks.reduce(0) { $0 + $1.wordCount } }

  /// Bytes of memory held by the store.
  public var memoryBytes: Int { chunks.reduce(entryOffsets.capacity * 8) { $0 + $1.memoryBytes } }

  /// (chunk, index in chunk) of entry `i`.
  private func locate(_ i: Int) -> (Int, Int) {
    var lo = 0
    var hi = chunks.count - 1
    while lo < hi {
      let mid = (lo + hi + 1) / 2
      if entryOffsets[mid] <= i { lo = mid } else { hi = mid - 1 }
    }
    return (lo, i - entriesBefore(lo))
  }

  public subscript(i: Int) -> Segment {
    precondition(i >= 0 && i < count, "index \(i) out of 0..<\(count)")
    let (c, k) = locate(i)
    return chunks[c].segment(at: k)
  }

  /// Calls `body` for the entries in `indices` in order until it returns false.
  public func forEach(in indices: Range<Int>? = nil, _ body: (Segment) throws -> Bool) rethrows {
    let range = indices ?? 0..<count
    guard !range.isEmpty else { return }
    var (c, k) = locate(range.lowerBound)
    var remaining = range.count
    while remaining > 0 {
      let chunk = chunks[c]
      let take = min(chunk.count - k, remaining)
      if try !chunk.forEach(from: k, to: k + take, body) { return }
      remaining -= take
      c += 1
      k = 0
    }
  }

  /// All entries, in order.
  public var segments: [Segment] {
    var result: [Segment] = []
    result.reserveCapacity(count)
    forEach {
      result.append($0)
      return true
    }
    return result
  }

  /// The index of the first entry whose start is greater than `offset` (`count` if none).
  public func firstIndex(startingAfter offset: Int) -> Int {
    firstIndex(offset) { $0.firstIndex(startingAfter: offset) }
  }

  /// The index of the first entry whose end is greater than `offset` (`count` if none).
  public func firstIndex(endingAfter offset: Int) -> Int {
    firstIndex(offset) { $0.firstIndex(endingAfter: offset) }
  }

  private func firstIndex(_ offset: Int, _ inChunk: (Chunk) -> Int) -> Int {
    // First chunk whose last end is greater than offset: earlier chunks hold no candidate.
    var lo = 0
    var hi = chunks.count
    while lo < hi {
      let mid = (lo + hi) / 2
      if chunks[mid].lastEnd > offset { hi = mid } else { lo = mid + 1 }
    }
    var c = lo
    while c < chunks.count {
      let k = inChunk(chunks[c])
      if k < chunks[c].count { return entriesBefore(c) + k }
      c += 1
    }
    return count
  }
}

/// ICU's rule status of a segment, reduced to its class.
public enum SegmentStatus: UInt8, Sendable, Hashable, CaseIterable {
  /// Spaces, punctuation, symbols (ICU `UBRK_WORD_NONE`), and every segment of rotors without status.
  case none = 0
  case number = 1
  case letter = 2
  case kana = 3
  case ideograph = 4
  /// A line-break opportunity forced by a hard line break (ICU `UBRK_LINE_HARD`).
  case hardBreak = 5

  /// Maps ICU's word or line-break rule status.
  init(icuWordStatus status: Int) {
    switch status {
    case 100..<200: self = .number
    case 200..<300: self = .letter
    case 300..<400: self = .kana
    case 400..<500: self = .ideograph
    default: self = .none
    }
  }

  /// The status an entry of `rotor` keeps for ICU's rule status `icu`: the kind of a word, a hard
  /// line break.
  init(icuStatus icu: Int32, of rotor: SystemRotor) {
    switch rotor {
    case .words: self.init(icuWordStatus: Int(icu))
    case .linebreaks: self = icu >= 100 ? .hardBreak : .none
    default: self = .none
    }
  }

  /// Whether ICU tags the segment as a word (letters, numbers, kana or ideographs).
  @inline(__always) public var isWord: Bool { rawValue &- 1 < 4 }  // number, letter, kana, ideograph
}
