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
    var s = lineStart(line(ofUTF8: p - 1)) ?? 0
    guard rotor == .paragraphs else { return s }
    while s > 0 {
      let previous = lineStart(line(ofUTF8: s - 1)) ?? 0
      if isBlank(previous..<s) { return s }
      s = previous
    }
    return 0
  }

  /// A cut at or after `p` with the text from `p` on unchanged by the edit: just after the line
  /// break ending the line holding `p` (for paragraphs: just after a later blank line), or the end.
  func cut(after p: Int, rotor: SystemRotor?) -> Int {
    var e = lineStart(line(ofUTF8: p) + 1) ?? utf8Count
    guard rotor == .paragraphs else { return e }
    while e < utf8Count {
      let next = lineStart(line(ofUTF8: e) + 1) ?? utf8Count
      if isBlank(e..<next) { return next }
      e = next
    }
    return utf8Count
  }

  /// Whether `range` holds only spaces, tabs and line breaks.
  func isBlank(_ range: Range<Int>) -> Bool {
    var blank = true
    forEachPiece(in: range) { storage, r in if blank && !storage.isBlank(in: r) { blank = false } }
    return blank
  }
}
