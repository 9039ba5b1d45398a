import TextRotorICU

/// Where an element's text may be cut so that the pieces segment exactly as the whole: after a hard
/// line break (LF, CR, CR LF; never between CR and LF), which every UAX #29 and UAX #14 segmenter
/// treats as a boundary (WB3a/b, SB4, GB4/5, LB4/5); for paragraphs, after a blank line. Works on
/// the rope through its line sums: O(log n) per line stepped over.
extension TextRope {
  /// A cut at or before `p` such that an edit starting at `p` leaves the text before it segmented
  /// as before: the start of the line holding `p - 1` (for paragraphs: further back, to just after
  /// a blank line).
  func cut(before p: Int, rotor: SystemRotor?) -> Int {
    if p <= 0 { return 0 }
    var s = lineStart(holdingPosition: p - 1)
    guard rotor?.spansLines == true else { return s }
    while s > 0 {
      let previous = lineStart(holdingPosition: s - 1)
      if isBlank(previous..<s) { return s }
      s = previous
    }
    return 0
  }

  /// A cut at or after `p` with the text from `p` on unchanged by the edit: just after the line
  /// break ending the line holding `p` (for paragraphs: just after a later blank line), or the end.
  func cut(after p: Int, rotor: SystemRotor?) -> Int {
    var e = nextLineStart(afterPosition: p)
    guard rotor?.spansLines == true else { return e }
    while e < utf8Count {
      let next = nextLineStart(afterPosition: e)
      if isBlank(e..<next) { return next }
      e = next
    }
    return utf8Count
  }

  /// The start of the line holding position `p` (a position between CR and LF is on the CR's
  /// line): just after the last complete line break before it. O(log n + line) with memrchr.
  func lineStart(holdingPosition p: Int) -> Int {
    guard var q = lastLineTerminator(before: p) else { return 0 }
    // A CR right before `p` whose LF is at `p` has not ended its line yet.
    if q == p - 1 && byte(at: q) == 0x0D && p < utf8Count && byte(at: p) == 0x0A {
      guard let earlier = lastLineTerminator(before: q) else { return 0 }
      q = earlier
    }
    return q + 1
  }

  /// The start of the line after the one holding position `p`, or the end. O(log n + line).
  func nextLineStart(afterPosition p: Int) -> Int {
    if p > 0 && p < utf8Count && byte(at: p) == 0x0A && byte(at: p - 1) == 0x0D { return p + 1 }
    guard let q = firstLineTerminator(from: p) else { return utf8Count }
    if byte(at: q) == 0x0D && q + 1 < utf8Count && byte(at: q + 1) == 0x0A { return q + 2 }
    return q + 1
  }

  /// Whether `range` holds only spaces, tabs and line breaks.
  func isBlank(_ range: Range<Int>) -> Bool {
    var blank = true
    forEachPiece(in: range) { storage, r in if blank && !storage.isBlank(in: r) { blank = false } }
    return blank
  }
}
