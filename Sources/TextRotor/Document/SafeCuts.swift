/// Where a text may be cut so that the pieces segment exactly as the whole: after a hard line break
/// (LF, CR, CRLF; never between CR and LF), which every UAX #29 and UAX #14 segmenter treats as a
/// boundary (WB3a/b, SB4, GB4/5, LB4/5); for paragraphs, after a blank line.
///
/// All functions take the bytes and the bounds of one element (`lower..<upper`): a cut never
/// leaves it.
enum SafeCuts {
  @inline(__always) static func isTerminator(_ b: UInt8) -> Bool { b == 0x0A || b == 0x0D }

  /// The start of the line holding `p` (the position after the last line break before `p`), or
  /// `lower`. When `p` sits between a CR and its LF, the line before.
  static func lineStart(atOrBefore p: Int, _ bytes: UnsafeBufferPointer<UInt8>, lower: Int) -> Int {
    var p = p
    while true {
      var q = p - 1
      while q >= lower && !isTerminator(bytes[q]) { q -= 1 }
      if q < lower { return lower }
      if bytes[q] == 0x0D && q + 1 < bytes.count && bytes[q + 1] == 0x0A && q + 1 >= p {
        // p is between CR and LF: the line holding CR starts further back.
        p = q
        continue
      }
      return q + 1
    }
  }

  /// The position just after the first line break at or after `p`, or `upper`.
  static func nextLineStart(from p: Int, _ bytes: UnsafeBufferPointer<UInt8>, upper: Int) -> Int {
    var q = p
    while q < upper && !isTerminator(bytes[q]) { q += 1 }
    if q >= upper { return upper }
    if bytes[q] == 0x0D && q + 1 < upper && bytes[q + 1] == 0x0A { return q + 2 }
    return q + 1
  }

  static func isBlank(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
    for i in range {
      let b = bytes[i]
      if b != 0x20 && b != 0x09 && b != 0x0A && b != 0x0D { return false }
    }
    return true
  }

  /// A cut at or before `p` for `rotor`'s segmentation, with the text before it unchanged by an
  /// edit starting at `p`: the start of the line holding `p - 1` (for paragraphs: further back,
  /// to just after a blank line).
  static func start(before p: Int, rotor: SystemRotor?, _ bytes: UnsafeBufferPointer<UInt8>, lower: Int) -> Int {
    if p <= lower { return lower }
    var s = lineStart(atOrBefore: p - 1, bytes, lower: lower)
    guard rotor == .paragraphs else { return s }
    while s > lower {
      let previous = lineStart(atOrBefore: s - 1, bytes, lower: lower)
      if isBlank(bytes, previous..<s) { return s }
      s = previous
    }
    return lower
  }

  /// A cut at or after `p` whose text from `p` on is unchanged: just after the line break ending
  /// the line holding `p` (for paragraphs: just after a later blank line), or `upper`.
  static func end(after p: Int, rotor: SystemRotor?, _ bytes: UnsafeBufferPointer<UInt8>, upper: Int) -> Int {
    var e = nextLineStart(from: p, bytes, upper: upper)
    guard rotor == .paragraphs else { return e }
    while e < upper {
      let next = nextLineStart(from: e, bytes, upper: upper)
      if isBlank(bytes, e..<next) { return next }
      e = next
    }
    return upper
  }
}
