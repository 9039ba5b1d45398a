import TextRotorICU

/// Hard-line arithmetic around a byte offset (lines end at LF, CR or CRLF), with memchr/memrchr.
enum LineBounds {
  /// The start of the line holding `offset`, not before `floor`.
  static func start(of offset: Int, in bytes: ByteStorage, floor: Int) -> Int {
    guard offset > floor else { return floor }
    let lf = bytes.lastIndex(of: 0x0A, in: floor..<offset) ?? (floor - 1)
    let cr = bytes.lastIndex(of: 0x0D, in: (lf + 1)..<offset) ?? (floor - 1)
    return max(lf, cr) + 1
  }

  /// The end of the content of the line holding `offset` (its first terminator byte), not past `limit`.
  static func end(of offset: Int, in bytes: ByteStorage, limit: Int) -> Int {
    guard offset < limit else { return limit }
    let lf = bytes.firstIndex(of: 0x0A, in: offset..<limit) ?? limit
    return bytes.firstIndex(of: 0x0D, in: offset..<lf) ?? lf
  }

  /// Where the next line starts, given the end of a line's content.
  static func nextStart(after end: Int, in bytes: ByteStorage, limit: Int) -> Int {
    guard end < limit else { return limit }
    if bytes[end] == 0x0D && end + 1 < limit && bytes[end + 1] == 0x0A { return end + 2 }
    return end + 1
  }

  /// Whether `range` holds a line terminator.
  static func containsTerminator(_ range: Range<Int>, in bytes: ByteStorage) -> Bool {
    guard !range.isEmpty else { return false }
    return bytes.firstIndex(of: 0x0A, in: range) != nil || bytes.firstIndex(of: 0x0D, in: range) != nil
  }

  /// Whether an empty match at `offset` lies on a line of `range`: not between the CR and LF of a
  /// CRLF, and not at the end of a text whose last line is terminated (no line is there).
  static func isOnLine(_ offset: Int, in bytes: ByteStorage, range: Range<Int>) -> Bool {
    if offset > range.lowerBound && offset < range.upperBound && bytes[offset - 1] == 0x0D && bytes[offset] == 0x0A {
      return false
    }
    if offset == range.upperBound {
      if range.isEmpty { return false }
      let last = bytes[offset - 1]
      if last == 0x0A || last == 0x0D { return false }
    }
    return true
  }

  /// The next offset after `offset` that starts a UTF-8 character (skips continuation bytes).
  static func nextCharacter(after offset: Int, in bytes: ByteStorage, limit: Int) -> Int {
    var p = offset + 1
    while p < limit && bytes[p] & 0xC0 == 0x80 { p += 1 }
    return p
  }
}
