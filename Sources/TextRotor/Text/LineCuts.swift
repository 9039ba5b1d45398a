import TextRotorICU

/// Text whose lines can be cut: the whole rope, or a ``TextWindow`` of it whose primitives throw
/// when they would need bytes outside the window (the caller then asks the rope).
protocol LineCutText {
  associatedtype Failure: Error
  /// The whole text's length (a window's text is still the whole element's).
  var utf8Count: Int { get }
  func byte(at offset: Int) throws(Failure) -> UInt8
  /// The last LF or CR in bytes `0..<x`, or nil.
  func lastLineTerminator(before x: Int) throws(Failure) -> Int?
  /// The first LF or CR in bytes `x...`, or nil.
  func firstLineTerminator(from x: Int) throws(Failure) -> Int?
  /// Whether `range` holds only spaces, tabs and line breaks.
  func isBlank(_ range: Range<Int>) throws(Failure) -> Bool
}

/// Where an element's text may be cut so that the pieces segment exactly as the whole: after a hard
/// line break (LF, CR, CR LF; never between CR and LF), which every UAX #29 and UAX #14 segmenter
/// treats as a boundary (WB3a/b, SB4, GB4/5, LB4/5); for paragraphs, after a blank line. On the
/// rope, through its line sums: O(log n) per line stepped over; on a window, by scanning its bytes.
extension LineCutText {
  /// A cut at or before `p` such that an edit starting at `p` leaves the text before it segmented
  /// as before: the start of the line holding `p - 1` (for paragraphs: further back, to just after
  /// a blank line).
  func cut(before p: Int, rotor: SystemRotor?) throws(Failure) -> Int {
    if p <= 0 { return 0 }
    var s = try lineStart(holdingPosition: p - 1)
    guard rotor?.spansLines == true else { return s }
    while s > 0 {
      let previous = try lineStart(holdingPosition: s - 1)
      if try isBlank(previous..<s) { return s }
      s = previous
    }
    return 0
  }

  /// A cut at or after `p` with the text from `p` on unchanged by the edit: just after the line
  /// break ending the line holding `p` (for paragraphs: just after a later blank line), or the end.
  func cut(after p: Int, rotor: SystemRotor?) throws(Failure) -> Int {
    var e = try nextLineStart(afterPosition: p)
    guard rotor?.spansLines == true else { return e }
    while e < utf8Count {
      let next = try nextLineStart(afterPosition: e)
      if try isBlank(e..<next) { return next }
      e = next
    }
    return utf8Count
  }

  /// The start of the line holding position `p` (a position between CR and LF is on the CR's
  /// line): just after the last complete line break before it. O(log n + line) with memrchr.
  func lineStart(holdingPosition p: Int) throws(Failure) -> Int {
    guard var q = try lastLineTerminator(before: p) else { return 0 }
    // A CR right before `p` whose LF is at `p` has not ended its line yet.
    if q == p - 1, p < utf8Count, try byte(at: q) == 0x0D, try byte(at: p) == 0x0A {
      guard let earlier = try lastLineTerminator(before: q) else { return 0 }
      q = earlier
    }
    return q + 1
  }

  /// The start of the line after the one holding position `p`, or the end. O(log n + line).
  func nextLineStart(afterPosition p: Int) throws(Failure) -> Int {
    if p > 0 && p < utf8Count, try byte(at: p) == 0x0A, try byte(at: p - 1) == 0x0D { return p + 1 }
    guard let q = try firstLineTerminator(from: p) else { return utf8Count }
    if q + 1 < utf8Count, try byte(at: q) == 0x0D, try byte(at: q + 1) == 0x0A { return q + 2 }
    return q + 1
  }
}

extension TextRope: LineCutText {
  typealias Failure = Never

  /// Whether `range` holds only spaces, tabs and line breaks.
  func isBlank(_ range: Range<Int>) -> Bool {
    var blank = true
    forEachPiece(in: range) { storage, r in if blank && !storage.isBlank(in: r) { blank = false } }
    return blank
  }

  /// The chunk holding `range` as a window (its own bytes, no copy), or nil when `range` spans
  /// several chunks.
  func chunkWindow(holding range: Range<Int>) -> TextWindow? {
    guard tree.count > 0 else { return TextWindow(storage: ByteStorage([]), range: 0..<0, base: 0, utf8Count: 0) }
    let (_, before, c) = chunkItem(holding: range.lowerBound)
    guard range.upperBound <= before.utf8 + c.count else { return nil }
    return TextWindow(storage: c.storage, range: c.range, base: before.utf8, utf8Count: utf8Count)
  }

  /// A window of the text: the bytes of `range` widened by `margin` on both sides (within the
  /// text), copied once when they span several chunks.
  func window(around range: Range<Int>, margin: Int) -> TextWindow {
    let lo = Swift.max(0, range.lowerBound - margin)
    let hi = Swift.min(utf8Count, range.upperBound + margin)
    let (storage, r) = contiguous(lo..<hi)
    return TextWindow(storage: storage, range: r, base: lo, utf8Count: utf8Count)
  }
}

/// A contiguous window of a text's bytes, where line cuts near an edit are found by scanning bytes
/// instead of descending the rope for each line; a cut that needs bytes outside it throws.
struct TextWindow: LineCutText {
  struct Outside: Error {}
  let storage: ByteStorage
  /// The window's bytes in `storage`.
  let range: Range<Int>
  /// The text offset of `range.lowerBound`.
  let base: Int
  let utf8Count: Int

  /// The text offsets the window holds.
  var span: Range<Int> { base..<(base + range.count) }

  /// Whether the window holds the bytes of `offsets`.
  func holds(_ offsets: Range<Int>) -> Bool {
    offsets.lowerBound >= base && offsets.upperBound <= base + range.count
  }

  /// `offsets` (text offsets inside `span`) as a range of `storage`.
  func local(_ offsets: Range<Int>) -> Range<Int> {
    (offsets.lowerBound - base + range.lowerBound)..<(offsets.upperBound - base + range.lowerBound)
  }

  func byte(at offset: Int) throws(Outside) -> UInt8 {
    guard span.contains(offset) else { throw Outside() }
    return storage[offset - base + range.lowerBound]
  }

  func lastLineTerminator(before x: Int) throws(Outside) -> Int? {
    guard x > 0 else { return nil }
    guard x > base, x <= span.upperBound else { throw Outside() }
    let hi = x - base + range.lowerBound
    // The last LF, then a CR only after it: the search for CR stops at the line.
    let lf = storage.lastIndex(of: 0x0A, in: range.lowerBound..<hi)
    let cr = storage.lastIndex(of: 0x0D, in: (lf.map { $0 + 1 } ?? range.lowerBound)..<hi)
    if let q = cr ?? lf { return q - range.lowerBound + base }
    if base == 0 { return nil }
    throw Outside()
  }

  func firstLineTerminator(from x: Int) throws(Outside) -> Int? {
    guard x < utf8Count else { return nil }
    guard x >= base, x <= span.upperBound else { throw Outside() }
    let lo = x - base + range.lowerBound
    let lf = storage.firstIndex(of: 0x0A, in: lo..<range.upperBound)
    let cr = storage.firstIndex(of: 0x0D, in: lo..<(lf ?? range.upperBound))
    if let q = cr ?? lf { return q - range.lowerBound + base }
    if span.upperBound == utf8Count { return nil }
    throw Outside()
  }

  func isBlank(_ r: Range<Int>) throws(Outside) -> Bool {
    guard r.lowerBound >= base, r.upperBound <= span.upperBound else { throw Outside() }
    return storage.isBlank(in: local(r))
  }
}
