import TextRotorICU

/// UAX #29 word segments of ASCII text as ICU 72's root rules (word.txt) make them, with ICU's rule
/// statuses.
///
/// ASCII Word_Break classes as ICU 72 has them: ALetter A-Z a-z and '@' (ICU's word.txt adds it to
/// ALetter, for e-mail addresses; measured), Numeric 0-9, ExtendNumLet '_', MidNumLet '.',
/// Single_Quote '\'', MidNum ',' ';', WSegSpace ' ', CR, LF, Newline VT FF; everything else,
/// including ':' (CLDR 42 root took it out of MidLetter) and '"' (Double_Quote only joins Hebrew),
/// acts as Other. Rules: WB3 CR × LF; WB3a/b break around newlines; WB3d spaces stay together;
/// WB5/8/9/10/13a/13b join any two of letter, digit and '_'; WB6/7 letter (MidNumLet | Single_Quote)
/// letter; WB11/12 digit (MidNum | MidNumLet | Single_Quote) digit; WB999 breaks elsewhere.
///
/// ICU's status is the tag of the last rule that joined: a word ending in a letter is a letter
/// word (200), ending in a digit a number (100); ending in '_' it is a number when the character
/// before the '_' is a digit, else a letter word ("1_" 100, "a_" and "1__" 200); a lone '_', and
/// every segment that is not a word, has status 0.
///
/// Safe points: an offset after LF, VT or FF, or after CR not followed by LF (WB3a breaks after
/// them whatever follows), or between a space and an ASCII byte other than a space (a space is in
/// no rule but WB3d, and an ASCII byte is not Extend or Format, so WB4 cannot attach it).
enum AsciiWordSegmenter: AsciiSegmenter {
  static var hasStatus: Bool { true }

  // Classes. The word classes come first so that `class <= extendNumLet` tests for them.
  static let letter: UInt8 = 0
  static let numeric: UInt8 = 1
  static let extendNumLet: UInt8 = 2
  static let midNumLet: UInt8 = 3  // '.' and '\'': join letters and digits
  static let midNum: UInt8 = 4  // ',' ';': join digits
  static let space: UInt8 = 5
  static let cr: UInt8 = 6
  static let other: UInt8 = 7

  /// The class of each ASCII byte.
  static let classes: [UInt8] = (0..<128).map { (c: Int) -> UInt8 in
    switch c {
    case 0x40...0x5A, 0x61...0x7A: letter
    case 0x30...0x39: numeric
    case 0x5F: extendNumLet
    case 0x2E, 0x27: midNumLet
    case 0x2C, 0x3B: midNum
    case 0x20: space
    case 0x0D: cr
    default: other
    }
  }

  @inline(__always) private static func endsLine(_ previous: UInt8, before current: UInt8) -> Bool {
    previous == 0x0A || previous == 0x0B || previous == 0x0C || (previous == 0x0D && current != 0x0A)
  }

  static func lastSafePoint(_ text: UnsafeBufferPointer<UInt8>, floor: Int, limit: Int) -> Int {
    var q = limit
    while q > floor {
      let previous = text[q - 1]
      let current = text[q]
      if endsLine(previous, before: current) { return q }
      if q < limit && previous == 0x20 && current != 0x20 { return q }
      q -= 1
    }
    return floor
  }

  static func nextSafePoint(_ text: UnsafeBufferPointer<UInt8>, after offset: Int, end: Int) -> Int {
    // The same test 32 offsets at a time: a line of non-ASCII words has no safe point but its end.
    TextScan.wordSafePoint(text, after: offset, end: end)
  }

  /// The scalar definition of ``nextSafePoint(_:after:end:)``, for the tests.
  static func nextSafePointReference(_ text: UnsafeBufferPointer<UInt8>, after offset: Int, end: Int) -> Int {
    var q = offset + 1
    while q < end {
      let previous = text[q - 1]
      let current = text[q]
      if endsLine(previous, before: current) { return q }
      if previous == 0x20 && current < 0x80 && current != 0x20 { return q }
      q += 1
    }
    return end
  }

  static func segment(_ text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, into chunk: inout SegmentStore.Chunk) {
    if chunk.layout == .counting {
      // Only the numbers: 64 bytes at a time from bit masks of the classes (the shim's kernel,
      // the same rules; FastPathTests compares its counts with ICU's).
      guard !range.isEmpty else { return }
      let counted = TextScan.asciiWordCounts(text, range)
      chunk.addCounted(counted.segments, words: counted.words, through: range.upperBound)
      return
    }
    classes.withUnsafeBufferPointer { table in
      var i = range.lowerBound
      let end = range.upperBound
      while i < end {
        let start = i
        let first = table[Int(text[i])]
        i += 1
        var status = SegmentStatus.none
        if first <= extendNumLet {
          var last = first
          var beforeLast = other  // the class before `last` when `last` is '_'
          while i < end {
            let c = table[Int(text[i])]
            if c <= extendNumLet {  // WB5, WB8, WB9, WB10, WB13a, WB13b
              beforeLast = last
              last = c
              i += 1
            } else if (c == midNumLet || (c == midNum && last == numeric)) && last <= numeric && i + 1 < end
              && table[Int(text[i + 1])] == last
            {  // WB6/7 (letters), WB11/12 (digits)
              i += 2
            } else {
              break
            }
          }
          if last == letter {
            status = .letter
          } else if last == numeric {
            status = .number
          } else if i - start > 1 {
            status = beforeLast == numeric ? .number : .letter
          }
        } else if first == space {
          while i < end && text[i] == 0x20 { i += 1 }  // WB3d
        } else if first == cr {
          if i < end && text[i] == 0x0A { i += 1 }  // WB3
        }
        chunk.append(start: start, end: i, status: status)
      }
    }
  }
}
