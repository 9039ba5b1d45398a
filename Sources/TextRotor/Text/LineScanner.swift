import TextRotorICU

/// Finds hard lines (ended by LF, CRLF or CR) in a range of bytes, with one `memchr` pass per
/// terminator byte.
public struct LineScanner: Sequence, IteratorProtocol {
  public struct Line: Equatable, Sendable {
    /// The line's content, without its terminator.
    public var content: Range<Int>
    /// Where the next line starts (after the terminator; `content.upperBound` at the end).
    public var next: Int
    public var hasTerminator: Bool { next > content.upperBound }
  }

  private let bytes: ByteStorage
  private let end: Int
  private var position: Int
  private var nextLF: Int
  private var nextCR: Int

  /// Lines of `range`. A final terminator ends the last line; no empty line follows it.
  public init(_ bytes: ByteStorage, range: Range<Int>) {
    self.bytes = bytes
    self.end = range.upperBound
    self.position = range.lowerBound
    self.nextLF = -1
    self.nextCR = -1
  }

  public mutating func next() -> Line? {
    guard position < end else { return nil }
    if nextLF < position { nextLF = bytes.firstIndex(of: 0x0A, in: position..<end) ?? end }
    if nextCR < position { nextCR = bytes.firstIndex(of: 0x0D, in: position..<end) ?? end }
    let stop = Swift.min(nextLF, nextCR)
    let start = position
    if stop == end {
      position = end
      return Line(content: start..<end, next: end)
    }
    var after = stop + 1
    if stop == nextCR && after < end && bytes[after] == 0x0A { after += 1 }
    position = after
    return Line(content: start..<stop, next: after)
  }

  /// Where the line break at or after `offset` ends (the start of the next line), or `end`.
  public static func nextLineStart(in bytes: ByteStorage, from offset: Int, end: Int) -> Int {
    let lf = bytes.firstIndex(of: 0x0A, in: offset..<end) ?? end
    let crLimit = lf
    if let cr = bytes.firstIndex(of: 0x0D, in: offset..<crLimit) {
      return cr + 1 < end && bytes[cr + 1] == 0x0A ? cr + 2 : cr + 1
    }
    return lf == end ? end : lf + 1
  }

  /// Whether the line's bytes are only spaces and tabs (or none).
  static func isBlank(_ bytes: ByteStorage, _ range: Range<Int>) -> Bool {
    precondition(range.lowerBound >= 0 && range.upperBound <= bytes.count)
    // Over the raw bytes: a call of the subscript per byte was most of a walk over many lines.
    return bytes.withUnsafeBytes { b in
      for i in range {
        let c = b[i]
        if c != 0x20 && c != 0x09 { return false }
      }
      return true
    }
  }
}

extension LineScanner {
  /// The line starting at `start` (a line start before `end`, else an empty line at `start`): its
  /// content and where the next line starts, as iterating from `start` gives it. The terminator is
  /// searched in windows growing from 4 KiB, so one step costs about the line's length even in text
  /// without any LF (CR-only) or any CR.
  public static func line(in bytes: ByteStorage, at start: Int, end: Int) -> Line {
    guard start < end else { return Line(content: start..<start, next: start) }
    var from = start
    var size = 4096
    while from < end {
      let stop = end - from > size ? from + size : end
      let lf = bytes.firstIndex(of: 0x0A, in: from..<stop)
      if let cr = bytes.firstIndex(of: 0x0D, in: from..<(lf ?? stop)) {
        return Line(content: start..<cr, next: cr + 1 < end && bytes[cr + 1] == 0x0A ? cr + 2 : cr + 1)
      }
      if let lf { return Line(content: start..<lf, next: lf + 1) }
      from = stop
      size *= 2
    }
    return Line(content: start..<end, next: end)
  }

  /// The start of the line holding position `offset` (a position between CR and LF is on the CR's
  /// line), not before `floor`: just after the last complete line break before `offset`. Searched
  /// backwards in windows growing from 4 KiB (about the line's length, whatever the terminators).
  public static func lineStart(in bytes: ByteStorage, at offset: Int, floor: Int) -> Int {
    var limit = offset
    var size = 4096
    while limit > floor {
      let from = limit - floor > size ? limit - size : floor
      let lf = bytes.lastIndex(of: 0x0A, in: from..<limit)
      let cr = bytes.lastIndex(of: 0x0D, in: (lf.map { $0 + 1 } ?? from)..<limit)
      if let last = cr ?? lf {
        // A CR whose LF is at `offset` belongs to the break that `offset` is part of.
        if last == cr, last + 1 == offset, offset < bytes.count, bytes[offset] == 0x0A {
          limit = last
          continue
        }
        return last + 1
      }
      limit = from
      size *= 2
    }
    return floor
  }
}
