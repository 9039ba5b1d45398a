import TextRotorICU

/// Next/previous entry of a system rotor without segmenting the whole text: hard line breaks are
/// safe cut points for every segmenter (UAX #29 WB3a/b, SB4, GB4/5; UAX #14 LB4/5), so only the
/// lines around the position are segmented. The first answer on a 1 GB file costs one line's work.
extension Segmenter {
  /// The first entry of `rotor` in `element` (a byte range of `bytes`) whose start is greater than
  /// `offset`, or nil.
  public func entry(after offset: Int, in bytes: ByteStorage, element: Range<Int>, rotor: SystemRotor)
    throws(ICUError) -> SegmentStore.Segment?
  {
    guard offset < element.upperBound else { return nil }
    if rotor == .paragraphs { return paragraph(after: offset, bytes, element) }
    var start = windowStart(bytes, at: Swift.max(offset, element.lowerBound), in: element, rotor: rotor)
    while start < element.upperBound {
      let from = Swift.max(start, offset)
      let end = windowEnd(bytes, after: from, in: element, rotor: rotor)
      let store = try segment(bytes, elements: [start..<end], rotor: rotor, sequential: true)
      let i = store.firstIndex(startingAfter: offset)
      if i < store.count { return store[i] }
      start = end
    }
    return nil
  }

  /// The last entry of `rotor` in `element` whose start is less than `offset`, or nil.
  public func entry(before offset: Int, in bytes: ByteStorage, element: Range<Int>, rotor: SystemRotor)
    throws(ICUError) -> SegmentStore.Segment?
  {
    guard offset > element.lowerBound else { return nil }
    if rotor == .paragraphs { return paragraph(before: offset, bytes, element) }
    // The entry may end past `offset`: segment through the end of offset's line.
    let end =
      offset >= element.upperBound
      ? element.upperBound : windowEnd(bytes, after: offset, in: element, rotor: rotor, including: true)
    var start = windowStart(bytes, at: Swift.min(offset, element.upperBound) - 1, in: element, rotor: rotor)
    var windowEnd = end
    while true {
      let store = try segment(bytes, elements: [start..<windowEnd], rotor: rotor, sequential: true)
      let i = store.firstIndex(startingAfter: offset - 1)  // first entry starting at or after offset
      if i > 0 { return store[i - 1] }
      guard start > element.lowerBound else { return nil }
      windowEnd = start
      start = windowStart(bytes, at: start - 1, in: element, rotor: rotor)
    }
  }

  // MARK: Windows

  /// Where segmentation around `p` may start: the start of its line, or on a long line the last
  /// safe point at or before `p` (within `narrowing` bytes).
  func windowStart(_ bytes: ByteStorage, at p: Int, in element: Range<Int>, rotor: SystemRotor) -> Int {
    var line = Self.lineStart(bytes, at: p, in: element)
    if rotor.spansLines {
      // Back to just after a blank line: a prose sentence may cross single line breaks.
      while line > element.lowerBound {
        let previous = Self.lineStart(bytes, at: line - 1, in: element)
        if LineScanner.isBlank(bytes, previous..<Self.contentEnd(bytes, previous, element)) { break }
        line = previous
      }
      return line
    }
    guard p - line > narrowing, FastPath.applies(to: rotor, locale: locale) else { return line }
    var q = p
    while q > Swift.max(line, p - narrowing) {
      if Self.isSafePoint(q, bytes, rotor) { return q }
      q -= 1
    }
    return line
  }

  /// Where segmentation after `p` may stop: the start of the next line, or on a long line the
  /// first safe point after `p` (at or after it when `including`).
  func windowEnd(
    _ bytes: ByteStorage, after p: Int, in element: Range<Int>, rotor: SystemRotor, including: Bool = false
  ) -> Int {
    var next = LineScanner.nextLineStart(in: bytes, from: p, end: element.upperBound)
    if rotor.spansLines {
      // On to just after a blank line.
      for line in LineScanner(bytes, range: next..<element.upperBound) {
        next = line.next
        if LineScanner.isBlank(bytes, line.content) { break }
      }
      return next
    }
    guard next - p > narrowing, FastPath.applies(to: rotor, locale: locale) else { return next }
    var q = including ? p : p + 1
    while q < Swift.min(next, p + narrowing) {
      if Self.isSafePoint(q, bytes, rotor) { return q }
      q += 1
    }
    return next
  }

  /// Whether the text may be cut at `q` without changing `rotor`'s segments on either side (the
  /// fast paths' safe points, proven against ICU in FastPathTests): for words, after an ASCII space
  /// followed by an ASCII byte that is not a space; for characters, between two ASCII bytes that are
  /// not CR LF.
  static func isSafePoint(_ q: Int, _ bytes: ByteStorage, _ rotor: SystemRotor) -> Bool {
    guard q > 0 && q < bytes.count else { return false }
    let a = bytes[q - 1]
    let b = bytes[q]
    switch rotor {
    case .words: return a == 0x20 && b < 0x80 && b != 0x20
    case .characters: return a < 0x80 && b < 0x80 && !(a == 0x0D && b == 0x0A)
    default: return false
    }
  }

  /// Segments `elements` on the calling thread.
  func segment(_ bytes: ByteStorage, elements: [Range<Int>], rotor: SystemRotor, sequential: Bool) throws(ICUError)
    -> SegmentStore
  {
    var one = self
    one.threads = 1
    return try one.segment(bytes, elements: elements, rotor: rotor)
  }

  /// The start of the hard line holding `offset` (never inside a CR LF pair), within `element`.
  static func lineStart(_ bytes: ByteStorage, at offset: Int, in element: Range<Int>) -> Int {
    LineScanner.lineStart(in: bytes, at: offset, floor: element.lowerBound)
  }

  private func paragraph(after offset: Int, _ bytes: ByteStorage, _ element: Range<Int>) -> SegmentStore.Segment? {
    var start = Self.lineStart(bytes, at: Swift.max(offset, element.lowerBound), in: element)
    // Whether the line before the scan position is blank decides if a non-blank line starts a paragraph.
    var previousBlank = start == element.lowerBound
    if !previousBlank {
      let before = Self.lineStart(bytes, at: start - 1, in: element)
      previousBlank = LineScanner.isBlank(bytes, before..<Self.contentEnd(bytes, before, element))
    }
    var paragraphStart: Int? = nil
    var paragraphEnd = 0
    for line in LineScanner(bytes, range: start..<element.upperBound) {
      let blank = LineScanner.isBlank(bytes, line.content)
      if let s = paragraphStart {
        if blank { return SegmentStore.Segment(start: s, end: paragraphEnd) }
        paragraphEnd = line.content.upperBound
      } else if !blank && previousBlank && line.content.lowerBound > offset {
        paragraphStart = line.content.lowerBound
        paragraphEnd = line.content.upperBound
      }
      previousBlank = blank
      start = line.next
    }
    return paragraphStart.map { SegmentStore.Segment(start: $0, end: paragraphEnd) }
  }

  private func paragraph(before offset: Int, _ bytes: ByteStorage, _ element: Range<Int>) -> SegmentStore.Segment? {
    // Walk back line by line to a non-blank line starting before offset whose previous line is blank.
    var line = Self.lineStart(bytes, at: Swift.min(offset, element.upperBound) - 1, in: element)
    while true {
      let content = line..<Self.contentEnd(bytes, line, element)
      if !LineScanner.isBlank(bytes, content) && line < offset {
        let previous = line > element.lowerBound ? Self.lineStart(bytes, at: line - 1, in: element) : nil
        if previous == nil || LineScanner.isBlank(bytes, previous!..<Self.contentEnd(bytes, previous!, element)) {
          // Found the start; the paragraph runs to the next blank line.
          var end = content.upperBound
          for next in LineScanner(bytes, range: line..<element.upperBound).dropFirst() {
            if LineScanner.isBlank(bytes, next.content) { break }
            end = next.content.upperBound
          }
          return SegmentStore.Segment(start: line, end: end)
        }
      }
      guard line > element.lowerBound else { return nil }
      line = Self.lineStart(bytes, at: line - 1, in: element)
    }
  }

  /// Where the content of the line starting at `start` ends (before its terminator).
  static func contentEnd(_ bytes: ByteStorage, _ start: Int, _ element: Range<Int>) -> Int {
    LineScanner.line(in: bytes, at: start, end: element.upperBound).content.upperBound
  }
}
