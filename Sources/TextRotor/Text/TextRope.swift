import TextRotorICU

/// What a run of text sums up to: its UTF-8 bytes, UTF-16 units, scalars and hard line breaks (LF,
/// CR LF, CR; a CR LF pair split between two runs counts once).
struct TextSummary: TreeSummary {
  var utf8 = 0
  var utf16 = 0
  var scalars = 0
  var lineBreaks = 0
  var firstIsLF = false
  var lastIsCR = false
  /// Whether some byte of the run is not well-formed UTF-8 (counted as U+FFFD, maximal subparts).
  var illFormed = false
  /// Set only on ``ElementItem/virtualGap``: the line feed after an element that no file holds (a
  /// document built from elements, a file's last line without a terminator). After the last
  /// element it is not part of the document's text.
  var isVirtualGap = false

  static var zero: TextSummary { TextSummary() }

  mutating func add(_ next: TextSummary) {
    if next.utf8 == 0 { return }
    if utf8 == 0 {
      self = next
      return
    }
    lineBreaks += next.lineBreaks - (lastIsCR && next.firstIsLF ? 1 : 0)
    utf8 += next.utf8
    utf16 += next.utf16
    scalars += next.scalars
    lastIsCR = next.lastIsCR
    illFormed = illFormed || next.illFormed
  }

  init() {}

  /// The summary of `range`; `knownWellFormed` skips the validation (a part of a well-formed chunk).
  init(_ storage: ByteStorage, _ range: Range<Int>, knownWellFormed: Bool = false) {
    guard !range.isEmpty else { return }
    let c = storage.chunkCounts(in: range, knownWellFormed: knownWellFormed)
    utf8 = range.count
    utf16 = c.utf16
    scalars = c.scalars
    lineBreaks = c.lineBreaks
    illFormed = !c.isWellFormed
    firstIsLF = storage[range.lowerBound] == 0x0A
    lastIsCR = storage[range.upperBound - 1] == 0x0D
  }

  /// The summary of the first `k` bytes of `chunk` (0 < k < its length), counting whichever side of
  /// `k` is shorter: UTF-16 units and scalars of well-formed text add up across any cut, and line
  /// breaks do but for a CR LF pair cut in two, counted once in the whole and once on each side.
  init(prefixOf chunk: TextChunk, _ k: Int) {
    let c = chunk.range
    let cut = c.lowerBound + k
    if chunk.summary.illFormed || k <= c.count / 2 {
      self.init(chunk.storage, c.lowerBound..<cut, knownWellFormed: !chunk.summary.illFormed)
      return
    }
    let suffix = TextSummary(chunk.storage, cut..<c.upperBound, knownWellFormed: true)
    let whole = chunk.summary
    self.init()
    utf8 = k
    utf16 = whole.utf16 - suffix.utf16
    scalars = whole.scalars - suffix.scalars
    lastIsCR = chunk.storage[cut - 1] == 0x0D
    lineBreaks = whole.lineBreaks - suffix.lineBreaks + (lastIsCR && suffix.firstIsLF ? 1 : 0)
    firstIsLF = whole.firstIsLF
  }

  /// The summary of `chunk`'s bytes from `k` on (0 < k < its length), from the prefix's: the
  /// whole less the prefix, a CR LF pair cut in two counted on each side.
  init(suffixOf chunk: TextChunk, from k: Int) {
    let c = chunk.range
    let cut = c.lowerBound + k
    if chunk.summary.illFormed {
      self.init(chunk.storage, cut..<c.upperBound)
      return
    }
    let prefix = TextSummary(prefixOf: chunk, k)
    let whole = chunk.summary
    self.init()
    utf8 = c.count - k
    utf16 = whole.utf16 - prefix.utf16
    scalars = whole.scalars - prefix.scalars
    firstIsLF = chunk.storage[cut] == 0x0A
    lastIsCR = whole.lastIsCR
    lineBreaks = whole.lineBreaks - prefix.lineBreaks + (prefix.lastIsCR && firstIsLF ? 1 : 0)
  }
}

/// A run of a text's bytes: a slice of a memory-mapped file, or of a small buffer of typed text.
struct TextChunk: TreeItem {
  let storage: ByteStorage
  let range: Range<Int>
  let summary: TextSummary

  init(_ storage: ByteStorage, _ range: Range<Int>) {
    self.storage = storage
    self.range = range
    self.summary = TextSummary(storage, range)
  }

  /// A chunk whose summary is known.
  private init(_ storage: ByteStorage, _ range: Range<Int>, summary: TextSummary) {
    self.storage = storage
    self.range = range
    self.summary = summary
  }

  /// The first `k` bytes of `chunk` (0 < k < its length): its summary from the whole's, counting
  /// the shorter side (``TextSummary/init(prefixOf:_:)``), where a new chunk counted all `k`.
  init(prefixOf chunk: TextChunk, _ k: Int) {
    self.init(
      chunk.storage, chunk.range.lowerBound..<(chunk.range.lowerBound + k), summary: TextSummary(prefixOf: chunk, k))
  }

  /// `chunk`'s bytes from `k` on (0 < k < its length), summed as ``init(prefixOf:_:)`` does.
  init(suffixOf chunk: TextChunk, from k: Int) {
    self.init(
      chunk.storage, (chunk.range.lowerBound + k)..<chunk.range.upperBound,
      summary: TextSummary(suffixOf: chunk, from: k))
  }

  var count: Int { range.count }
}

/// The text of one element: well-formed UTF-8 in chunks of at most ``maxChunk`` bytes, held in a
/// ``SumTree`` whose nodes sum bytes, UTF-16 units, scalars and line breaks. A file's text is taken
/// as slices of its mapped bytes (nothing copied); an edit splits the chunks around it and puts the
/// new bytes (with small neighbours merged in, so typing does not fragment the text) in their
/// place: O(log n + edit). Every conversion between UTF-8 offsets, UTF-16 offsets, scalar offsets
/// and lines is one descent plus a scan of one chunk: O(log n).
///
/// A value: copies are O(1) and share every chunk; an edit copies only the tree path it changes.
struct TextRope: Sendable {
  static var maxChunk: Int { 2048 }
  static var minChunk: Int { 512 }

  private(set) var tree: SumTree<TextChunk>

  init() { tree = SumTree() }

  init(_ string: String) {
    self.init()
    if !string.isEmpty { replace(0..<0, with: Array(string.utf8)) }
  }

  /// The bytes `range` of `storage` (well-formed UTF-8), not copied.
  init(_ storage: ByteStorage, _ range: Range<Int>) {
    tree = SumTree(Self.chunks(storage, range))
  }

  /// Cuts `range` into chunks of at most `maxChunk` bytes at scalar boundaries.
  private static func chunks(_ storage: ByteStorage, _ range: Range<Int>) -> [TextChunk] {
    var result: [TextChunk] = []
    result.reserveCapacity(range.count / maxChunk + 1)
    var start = range.lowerBound
    while start < range.upperBound {
      var end = Swift.min(start + maxChunk, range.upperBound)
      if end < range.upperBound {
        var cut = end
        while cut > start + 1 && storage[cut] & 0xC0 == 0x80 { cut -= 1 }
        end = cut
      }
      result.append(TextChunk(storage, start..<end))
      start = end
    }
    return result
  }

  var summary: TextSummary { tree.summary }
  var utf8Count: Int { tree.summary.utf8 }
  var utf16Count: Int { tree.summary.utf16 }
  var isEmpty: Bool { utf8Count == 0 }
  /// Lines: line breaks + 1.
  var lineCount: Int { tree.summary.lineBreaks + 1 }

  // MARK: Finding

  /// The chunk holding byte `offset` (the last chunk for `offset == utf8Count`) and the summary
  /// before it.
  func chunk(holding offset: Int) -> (index: Int, before: TextSummary) {
    let found = tree.seek { $0.utf8 > offset }
    if found.index == tree.count && found.index > 0 {
      let last = tree.count - 1
      return (last, tree.summary(before: last))
    }
    return found
  }

  /// The chunk holding byte `offset` (the last chunk for `offset == utf8Count`), its index and the
  /// summary before it: one descent (``chunk(holding:)`` and a subscript would make two).
  func chunkItem(holding offset: Int) -> (index: Int, before: TextSummary, chunk: TextChunk) {
    let found = tree.find { $0.utf8 > offset }
    if let c = found.item { return (found.index, found.before, c) }
    let last = tree.last
    return (last.index, last.before, last.item)
  }

  /// The byte at `offset`.
  func byte(at offset: Int) -> UInt8 {
    precondition(offset >= 0 && offset < utf8Count, "offset \(offset) outside 0..<\(utf8Count)")
    let (_, before, c) = chunkItem(holding: offset)
    return c.storage[c.range.lowerBound + offset - before.utf8]
  }

  /// Whether `offset` (in 0...utf8Count) is not inside a UTF-8 sequence.
  func isScalarBoundary(_ offset: Int) -> Bool {
    offset == 0 || offset == utf8Count || byte(at: offset) & 0xC0 != 0x80
  }

  /// `offset` moved back to the nearest scalar boundary, as Swift rounds a `String.Index`.
  func scalarBoundary(atOrBefore offset: Int) -> Int {
    var o = offset
    while !isScalarBoundary(o) { o -= 1 }
    return o
  }

  /// The summary of bytes `0..<offset`.
  /// The line breaks counted between the sums up to `range`'s bounds (a CR LF pair is counted at
  /// its CR). O(log n).
  func lineBreaks(in range: Range<Int>) -> Int {
    summary(upTo: range.upperBound).lineBreaks - summary(upTo: range.lowerBound).lineBreaks
  }

  func summary(upTo offset: Int) -> TextSummary {
    precondition(offset >= 0 && offset <= utf8Count, "offset \(offset) outside 0...\(utf8Count)")
    if offset == utf8Count { return summary }
    let (_, before, c) = chunkItem(holding: offset)
    let local = offset - before.utf8
    if local == 0 { return before }
    return before.adding(TextSummary(prefixOf: c, local))
  }

  /// The UTF-16 offset of UTF-8 offset `offset`.
  func utf16Offset(ofUTF8 offset: Int) -> Int { summary(upTo: offset).utf16 }

  /// The scalar offset of UTF-8 offset `offset`.
  func scalarOffset(ofUTF8 offset: Int) -> Int { summary(upTo: offset).scalars }

  /// The UTF-8 offset after `units` UTF-16 units (or scalars), rounded down to a scalar boundary;
  /// the end when the text is shorter.
  func utf8Offset(advancing units: Int, _ unit: ByteStorage.Unit) -> Int {
    guard units > 0 else { return 0 }
    let measure: (TextSummary) -> Int = unit == .utf16 ? { $0.utf16 } : { $0.scalars }
    guard units < measure(summary) else { return utf8Count }
    let (i, before) = tree.seek { measure($0) > units }
    let c = tree[i]
    let (end, _) = c.storage.advance(units - measure(before), unit, from: c.range.lowerBound, limit: c.range.upperBound)
    return before.utf8 + end - c.range.lowerBound
  }

  /// The 0-based line holding `offset` (a position between CR and LF is on the CR's line).
  func line(ofUTF8 offset: Int) -> Int { lineAndSummary(ofUTF8: offset).line }

  /// The 0-based line holding `offset` and the summary of the bytes before it.
  func lineAndSummary(ofUTF8 offset: Int) -> (line: Int, summary: TextSummary) {
    let s = summary(upTo: offset)
    if s.lastIsCR && offset < utf8Count && byte(at: offset) == 0x0A { return (s.lineBreaks - 1, s) }
    return (s.lineBreaks, s)
  }

  /// The 0-based line holding `offset`, where that line starts, the summary of the bytes before
  /// `offset` and the counts of the line's bytes before it (the column): one descent to `offset`'s
  /// chunk and a scan back in it for the line's start (a line that starts in an earlier chunk is
  /// found by ``lineStart(_:)``), where ``lineAndSummary(ofUTF8:)``, ``lineStart(_:)`` and
  /// ``counts(in:)`` made four descents.
  func lineStartAndSummary(ofUTF8 offset: Int) -> (line: Int, start: Int, summary: TextSummary, column: TextSummary) {
    precondition(offset >= 0 && offset <= utf8Count, "offset \(offset) outside 0...\(utf8Count)")
    guard offset < utf8Count else {
      let (line, sums) = lineAndSummary(ofUTF8: offset)
      let start = lineStart(line) ?? 0
      return (line, start, sums, counts(in: start..<offset))
    }
    let (_, before, c) = chunkItem(holding: offset)
    let local = offset - before.utf8
    let sums = local == 0 ? before : before.adding(TextSummary(prefixOf: c, local))
    let lower = c.range.lowerBound
    // Between a CR and its LF: on the CR's line (the CR is not the line's end yet).
    let betweenCRLF = sums.lastIsCR && c.storage[lower + local] == 0x0A
    let line = sums.lineBreaks - (betweenCRLF ? 1 : 0)
    let hi = lower + local - (betweenCRLF ? 1 : 0)
    let lf = c.storage.lastIndex(of: 0x0A, in: lower..<Swift.max(lower, hi))
    let cr = c.storage.lastIndex(of: 0x0D, in: (lf.map { $0 + 1 } ?? lower)..<Swift.max(lower, hi))
    guard let q = cr ?? lf else {
      let start = lineStart(line) ?? 0
      return (line, start, sums, counts(in: start..<offset))
    }
    let start = before.utf8 + q + 1 - lower
    let column =
      local == q + 1 - lower
      ? TextSummary() : TextSummary(c.storage, (q + 1)..<(lower + local), knownWellFormed: !c.summary.illFormed)
    return (line, start, sums, column)
  }

  /// The UTF-8 offset after `units` UTF-16 units (or scalars) from `start` (a scalar boundary),
  /// stopping at `limit`: rounded down to a scalar boundary as ``utf8Offset(advancing:_:)``.
  /// Walked in `start`'s chunk when the count ends there (a column in a line), else by the prefix
  /// sums.
  func utf8Offset(advancing units: Int, _ unit: ByteStorage.Unit, from start: Int, limit: Int) -> Int {
    guard units > 0, start < limit else { return start }
    let (_, before, c) = chunkItem(holding: start)
    let from = c.range.lowerBound + start - before.utf8
    let end = Swift.min(c.range.upperBound, c.range.lowerBound + limit - before.utf8)
    let (reached, passed) = c.storage.advance(units, unit, from: from, limit: end)
    if passed == units || end < c.range.upperBound { return before.utf8 + reached - c.range.lowerBound }
    // The count goes on past the chunk: by the prefix sums.
    let measure: (TextSummary) -> Int = unit == .utf16 ? { $0.utf16 } : { $0.scalars }
    return Swift.min(utf8Offset(advancing: measure(summary(upTo: start)) + units, unit), limit)
  }

  /// The UTF-8, UTF-16 and scalar counts of `range` (which starts at a scalar boundary): counted
  /// directly when it is short (a column), else the difference of two prefix sums.
  func counts(in range: Range<Int>) -> TextSummary {
    // Ill-formed text is counted chunk by chunk (a maximal subpart may span two chunks), as the sums are.
    if range.count > 4096 || summary.illFormed {
      let a = summary(upTo: range.lowerBound)
      let b = summary(upTo: range.upperBound)
      var d = TextSummary()
      d.utf8 = range.count
      d.utf16 = b.utf16 - a.utf16
      d.scalars = b.scalars - a.scalars
      return d
    }
    var total = TextSummary()
    forEachPiece(in: range) { storage, r in total.add(TextSummary(storage, r)) }
    return total
  }

  /// The UTF-8 offset where 0-based line `line` starts, or nil past the last line.
  func lineStart(_ line: Int) -> Int? {
    guard line > 0 else { return line == 0 ? 0 : nil }
    guard line <= summary.lineBreaks else { return nil }
    let (i, before) = tree.seek { $0.lineBreaks >= line }
    let c = tree[i]
    var from = c.range.lowerBound
    // The chunk's first LF may finish a CR LF break counted before it.
    if before.lastIsCR && c.summary.firstIsLF { from += 1 }
    guard let end = c.storage.endOfLineBreak(line - before.lineBreaks, in: from..<c.range.upperBound) else {
      return nil
    }
    let p = before.utf8 + end - c.range.lowerBound
    if end == c.range.upperBound && c.storage[end - 1] == 0x0D && p < utf8Count && byte(at: p) == 0x0A { return p + 1 }
    return p
  }

  /// The UTF-8 offset where the line holding `offset` ends (before its terminator).
  func lineEnd(ofLineAt offset: Int) -> Int {
    let l = line(ofUTF8: offset)
    guard let next = lineStart(l + 1) else { return utf8Count }
    var e = next - 1
    if e > 0 && byte(at: e) == 0x0A && byte(at: e - 1) == 0x0D { e -= 1 }
    return e
  }

  /// The last LF or CR in bytes `0..<x`, chunk by chunk from `x` back (memrchr), or nil.
  func lastLineTerminator(before x: Int) -> Int? { lastLineTerminator(before: x, notBefore: 0) }

  /// The last LF or CR in bytes `floor..<x` (it may find one a little before `floor`: the search
  /// stops after the chunk holding `floor`), or nil.
  func lastLineTerminator(before x: Int, notBefore floor: Int) -> Int? {
    guard x > 0 else { return nil }
    // The chunk holding `x - 1` first, from the descent that finds it; then the ones before it.
    let (first, firstBefore, firstChunk) = chunkItem(holding: x - 1)
    var found: Int? = nil
    func search(_ before: TextSummary, _ c: TextChunk) -> Bool {
      if before.utf8 + c.count <= floor { return false }
      let hi = Swift.min(x - before.utf8, c.count) + c.range.lowerBound
      let lf = c.storage.lastIndex(of: 0x0A, in: c.range.lowerBound..<hi)
      let cr = c.storage.lastIndex(of: 0x0D, in: (lf.map { $0 + 1 } ?? c.range.lowerBound)..<hi)
      if let q = cr ?? lf {
        found = before.utf8 + q - c.range.lowerBound
        return false
      }
      return true
    }
    if search(firstBefore, firstChunk) && first > 0 {
      tree.forEachBackward(before: first) { _, before, c in search(before, c) }
    }
    return found
  }

  /// The first LF or CR in bytes `x...`, chunk by chunk (memchr), or nil.
  func firstLineTerminator(from x: Int) -> Int? { firstLineTerminator(from: x, before: .max) }

  /// The first LF or CR in bytes `x..<ceiling` (it may find one a little past `ceiling`: the
  /// search stops after the chunk holding it), or nil.
  func firstLineTerminator(from x: Int, before ceiling: Int) -> Int? {
    guard x < utf8Count else { return nil }
    let (first, firstBefore, firstChunk) = chunkItem(holding: x)
    var found: Int? = nil
    func search(_ before: TextSummary, _ c: TextChunk) -> Bool {
      if before.utf8 >= ceiling { return false }
      let lo = Swift.max(x - before.utf8, 0) + c.range.lowerBound
      let lf = c.storage.firstIndex(of: 0x0A, in: lo..<c.range.upperBound)
      let cr = c.storage.firstIndex(of: 0x0D, in: lo..<(lf ?? c.range.upperBound))
      if let q = cr ?? lf {
        found = before.utf8 + q - c.range.lowerBound
        return false
      }
      return true
    }
    if search(firstBefore, firstChunk) && first + 1 < tree.count {
      tree.forEach(from: first + 1) { _, before, c in search(before, c) }
    }
    return found
  }

  // MARK: Reading bytes

  /// Calls `body` with the pieces of `range`, in order, each as a storage and a range of it;
  /// neighbouring chunks that are adjacent slices of one storage (an unedited file) come as one.
  func forEachPiece(in range: Range<Int>, _ body: (ByteStorage, Range<Int>) throws -> Void) rethrows {
    guard !range.isEmpty else { return }
    let (first, before, firstChunk) = chunkItem(holding: range.lowerBound)
    // In one chunk (most reads near an edit): no walk.
    if range.upperBound <= before.utf8 + firstChunk.count {
      let lo = range.lowerBound - before.utf8 + firstChunk.range.lowerBound
      try body(firstChunk.storage, lo..<(lo + range.count))
      return
    }
    var position = before.utf8
    var pending: (ByteStorage, Range<Int>)? = nil
    try tree.forEach(from: first) { _, _, c in
      if position >= range.upperBound { return false }
      let lo = Swift.max(range.lowerBound, position) - position + c.range.lowerBound
      let hi = Swift.min(range.upperBound, position + c.count) - position + c.range.lowerBound
      position += c.count
      guard lo < hi else { return true }
      if let (storage, r) = pending {
        if storage === c.storage && r.upperBound == lo {
          pending = (storage, r.lowerBound..<hi)
          return true
        }
        try body(storage, r)
      }
      pending = (c.storage, lo..<hi)
      return true
    }
    if let (storage, r) = pending { try body(storage, r) }
  }

  /// A copy of the bytes of `range`.
  func bytes(_ range: Range<Int>) -> [UInt8] {
    var result: [UInt8] = []
    result.reserveCapacity(range.count)
    forEachPiece(in: range) { storage, r in result.append(contentsOf: storage.copyBytes(r)) }
    return result
  }

  /// The text of `range` (scalar boundaries) as a `String`.
  func string(_ range: Range<Int>) -> String {
    if range.isEmpty { return "" }
    var only: (ByteStorage, Range<Int>)? = nil
    var pieces = 0
    forEachPiece(in: range) { storage, r in
      only = (storage, r)
      pieces += 1
    }
    if pieces == 1, let (storage, r) = only { return storage.string(r) }
    return String(decoding: bytes(range), as: UTF8.self)
  }

  var string: String { string(0..<utf8Count) }

  /// The bytes of `range` as one storage and a range of it: the chunk's own storage when `range`
  /// lies in one chunk, else a copy.
  func contiguous(_ range: Range<Int>) -> (ByteStorage, Range<Int>) {
    var only: (ByteStorage, Range<Int>)? = nil
    var pieces = 0
    forEachPiece(in: range) { storage, r in
      only = (storage, r)
      pieces += 1
    }
    if pieces == 1, let only { return only }
    let copy = ByteStorage(bytes(range))
    return (copy, 0..<copy.count)
  }

  // MARK: Editing

  /// Replaces the bytes `range` (scalar boundaries) with `new` (well-formed UTF-8).
  mutating func replace(_ range: Range<Int>, with new: [UInt8]) {
    precondition(range.lowerBound >= 0 && range.upperBound <= utf8Count, "range \(range) outside 0...\(utf8Count)")
    if tree.isEmpty {
      if !new.isEmpty { tree = SumTree(Self.chunks(ByteStorage(new), 0..<new.count)) }
      return
    }
    var (i0, before0, c0) = chunkItem(holding: range.lowerBound)
    var (i1, before1, c1) = range.isEmpty ? (i0, before0, c0) : chunkItem(holding: range.upperBound - 1)
    if range.isEmpty && range.lowerBound == utf8Count { before1 = before0 }
    let leftCount = range.lowerBound - before0.utf8
    let rightStart = range.upperBound - before1.utf8
    // The parts of the edited chunks that stay, summed from their chunks' summaries (not counted
    // again byte by byte).
    var left: TextChunk? = leftCount > 0 ? (leftCount < c0.count ? TextChunk(prefixOf: c0, leftCount) : c0) : nil
    var right: TextChunk? =
      rightStart < c1.count ? (rightStart > 0 ? TextChunk(suffixOf: c1, from: rightStart) : c1) : nil
    var middle: [UInt8] = []
    if let l = left, l.count < Self.minChunk {
      middle = l.storage.copyBytes(l.range)
      left = nil
    }
    middle.append(contentsOf: new)
    if let r = right, r.count < Self.minChunk {
      middle.append(contentsOf: r.storage.copyBytes(r.range))
      right = nil
    }
    // Small neighbours join the new bytes, so that typing does not leave a trail of tiny chunks.
    if left == nil && i0 > 0 && middle.count < Self.maxChunk {
      let p = tree[i0 - 1]
      if p.count < Self.minChunk || p.count + middle.count <= Self.maxChunk {
        middle = p.storage.copyBytes(p.range) + middle
        i0 -= 1
      }
    }
    if right == nil && i1 + 1 < tree.count && middle.count < Self.maxChunk {
      let n = tree[i1 + 1]
      if n.count < Self.minChunk || n.count + middle.count <= Self.maxChunk {
        middle += n.storage.copyBytes(n.range)
        i1 += 1
      }
    }
    var items: [TextChunk] = []
    if let left { items.append(left) }
    if !middle.isEmpty {
      let storage = ByteStorage(middle)
      items.append(contentsOf: Self.chunks(storage, 0..<middle.count))
    }
    if let right { items.append(right) }
    tree.replaceSubrange(i0..<(i1 + 1), with: items)
  }

  /// Checks the tree and that no chunk is empty or starts inside a UTF-8 sequence (debug builds).
  func invariantCheck() {
    #if DEBUG
      tree.invariantCheck()
      tree.forEach { _, _, c in
        precondition(c.count > 0 && c.count <= Self.maxChunk, "chunk of \(c.count) bytes")
        precondition(c.storage[c.range.lowerBound] & 0xC0 != 0x80, "chunk starts inside a UTF-8 sequence")
        // A chunk's summary may be derived from another's (``TextChunk/init(prefixOf:_:)``): it
        // must equal a count of its bytes.
        precondition(c.summary == TextSummary(c.storage, c.range), "chunk summary differs from its bytes'")
        return true
      }
    #endif
  }
}
