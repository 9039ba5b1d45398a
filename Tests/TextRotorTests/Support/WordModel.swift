/// A small, independent implementation of UAX #29 word boundaries for alphabetic scripts (Latin,
/// Greek, Cyrillic, Arabic, Hebrew without quotes, Devanagari): the rules WB3-WB4 and WB5-WB13 for
/// letters, digits, the Mid* classes and spaces, with ICU 72's root tailoring (the colon is not
/// MidLetter). No dictionary scripts, no emoji, no Katakana, no ExtendNumLet. Used to check the
/// ICU-based segmenter's boundaries on the alphabetic fixtures from a source that is not ICU.
enum WordModel {
  enum Class: Equatable {
    case cr, lf, newline, extend, letter, numeric, midLetter, midNumLet, midNum, space, other
  }

  static func classify(_ s: Unicode.Scalar) -> Class {
    switch s.value {
    case 0x0D: return .cr
    case 0x0A: return .lf
    case 0x0B, 0x0C, 0x85, 0x2028, 0x2029: return .newline
    case 0x20, 0x1680, 0x2000...0x2006, 0x2008...0x200A, 0x205F, 0x3000: return .space
    case 0x200C, 0x200D: return .extend
    case 0x27, 0x2E, 0x2018, 0x2019, 0x2024, 0xFE52, 0xFF07, 0xFF0E: return .midNumLet
    case 0xB7, 0x387, 0x55F, 0x5F4, 0x2027, 0xFE13: return .midLetter
    case 0x2C, 0x3B, 0x37E, 0x589, 0x60C, 0x60D, 0x66C, 0x7F8, 0x2044, 0xFE10, 0xFE14, 0xFE50, 0xFE54, 0xFF0C,
      0xFF1B:
      return .midNum
    default: break
    }
    let p = s.properties
    switch p.generalCategory {
    case .nonspacingMark, .spacingMark, .enclosingMark, .format: return .extend
    case .decimalNumber: return .numeric
    default: break
    }
    if p.isEmojiModifier { return .extend }
    return p.isAlphabetic ? .letter : .other
  }

  struct Segment: Equatable {
    var range: Range<Int>
    var isWord: Bool
  }

  /// The word segments of `text`, as UTF-8 byte offsets from `base`.
  static func segments(_ text: String, base: Int = 0) -> [Segment] {
    // WB4: a unit is a scalar with the Extend/Format scalars after it (not after a newline).
    var units: [(cls: Class, start: Int)] = []
    var offset = base
    for s in text.unicodeScalars {
      let c = classify(s)
      if c == .extend, let last = units.last, ![.cr, .lf, .newline].contains(last.cls) {
        // absorbed by the previous unit
      } else {
        units.append((c == .extend ? .other : c, offset))
      }
      offset += String(s).utf8.count
    }
    let end = offset
    func cls(_ i: Int) -> Class? { i >= 0 && i < units.count ? units[i].cls : nil }
    func isAHLetter(_ c: Class?) -> Bool { c == .letter }
    func isMidLetterQ(_ c: Class?) -> Bool { c == .midLetter || c == .midNumLet }
    func isMidNumQ(_ c: Class?) -> Bool { c == .midNum || c == .midNumLet }
    /// Whether there is no boundary between unit i-1 and unit i.
    func joined(_ i: Int) -> Bool {
      let a = cls(i - 1)!
      let b = cls(i)!
      if a == .cr && b == .lf { return true }  // WB3
      if [.cr, .lf, .newline].contains(a) || [.cr, .lf, .newline].contains(b) { return false }  // WB3a/b
      if a == .space && b == .space { return true }  // WB3d
      if isAHLetter(a) && isAHLetter(b) { return true }  // WB5
      if isAHLetter(a) && isMidLetterQ(b) && isAHLetter(cls(i + 1)) { return true }  // WB6
      if isAHLetter(cls(i - 2)) && isMidLetterQ(a) && isAHLetter(b) { return true }  // WB7
      if a == .numeric && b == .numeric { return true }  // WB8
      if isAHLetter(a) && b == .numeric { return true }  // WB9
      if a == .numeric && isAHLetter(b) { return true }  // WB10
      if cls(i - 2) == .numeric && isMidNumQ(a) && b == .numeric { return true }  // WB11
      if a == .numeric && isMidNumQ(b) && cls(i + 1) == .numeric { return true }  // WB12
      return false  // WB999
    }
    var result: [Segment] = []
    var start = 0
    for i in 0..<units.count where i > 0 && !joined(i) {
      result.append(
        Segment(range: units[start].start..<units[i].start, isWord: [.letter, .numeric].contains(units[start].cls)))
      start = i
    }
    if !units.isEmpty {
      result.append(Segment(range: units[start].start..<end, isWord: [.letter, .numeric].contains(units[start].cls)))
    }
    return result
  }
}
