import TextRotorICU

/// Whether a match starts and ends on an ICU word boundary (UAX #29) of its line. The word break
/// iterator is pointed at the line holding the match (or, for a line over 1 MiB, at a 64 KiB window
/// around the match) and reused while matches stay on that line of the same range of the same bytes.
final class WordBoundaries {
  private let iterator: BreakIterator
  private var bytes: ByteStorage?
  private(set) var window: Range<Int> = 0..<0
  /// The range `window` was cut in: the same bytes searched in another range (a document's text
  /// after an edit at a chunk's start keeps its storage, the deleted bytes before the range) have
  /// other lines.
  private var windowRange: Range<Int> = 0..<0

  init() throws(ICUError) {
    iterator = try BreakIterator(.word)
  }

  /// While set (``PatternMatcher/localWholeWordMatches(in:range:context:)``): candidates are
  /// decided without ICU, their characters read in this range, and one that cannot be is
  /// rejected and recorded in `undecided`.
  var localContext: Range<Int>? = nil
  var undecided = false

  func accepts(_ match: Range<Int>, in bytes: ByteStorage, range: Range<Int>) throws(ICUError) -> Bool {
    if let answer = Self.obviousAnswer(match, in: bytes, range: localContext ?? range) { return answer }
    if localContext != nil {
      undecided = true
      return false
    }
    return try icuAccepts(match, in: bytes, range: range)
  }

  /// ICU's answer, always asked.
  func icuAccepts(_ match: Range<Int>, in bytes: ByteStorage, range: Range<Int>) throws(ICUError) -> Bool {
    if self.bytes !== bytes || range != windowRange || match.lowerBound < window.lowerBound
      || match.upperBound > window.upperBound
    {
      windowRange = range
      // The line, looked for at most 1 MiB (and a byte) away: a longer line is read 32 KiB either
      // side of the match, and searching a 100 MB line's edges for each candidate ICU decides made
      // `-w the` on one 100 MB line take 1.3 s (its lines alone: 0.08 s). A line found cut short
      // is longer than 1 MiB, so the window is the same as with its real edges.
      let reach = (1 << 20) + 1
      var start = LineBounds.start(
        of: match.lowerBound, in: bytes, floor: Swift.max(range.lowerBound, match.lowerBound - reach))
      var end = LineBounds.end(
        of: match.upperBound, in: bytes, limit: Swift.min(range.upperBound, match.upperBound + reach))
      if end - start > 1 << 20 {
        start = max(start, match.lowerBound - (1 << 15))
        end = min(end, match.upperBound + (1 << 15))
      }
      try iterator.setText(bytes, range: start..<end)
      self.bytes = bytes
      window = start..<end
    }
    let base = window.lowerBound
    return iterator.isBoundary(match.lowerBound - base) && iterator.isBoundary(match.upperBound - base)
  }

  /// The answer without ICU when the characters around the match make it certain, else nil. Only
  /// for a match that starts and ends with an ASCII letter or digit or a letter of an alphabet
  /// ICU breaks by rules (Latin-1 and Latin Extended-A, Greek, Cyrillic, Armenian, Arabic,
  /// Georgian: Word_Break ALetter, ``isWordLetter``):
  /// - next to such a letter, an ASCII digit or `_`, there is no boundary (UAX #29 WB5, WB8-WB10,
  ///   WB13a/b); after it, before a combining mark, none either (WB4);
  /// - next to a line edge, a space, or ASCII punctuation other than `'`, `.`, `:`, `,`, `;`
  ///   (the MidLetter/MidNum classes, which need more context: WB6/7, WB11/12; see ``midBreaks``,
  ///   which reads the character beyond them) and `@` (ICU's rules keep it inside a word), there
  ///   is one. A test checks this against ICU on random text.
  ///
  /// Reads at most the two characters either side of the match (a punctuation mark and the
  /// character beyond it): at most 5 bytes.
  /// Anything else (other scripts, dictionary-broken ones such as CJK and Thai, a combining mark
  /// before the match, an empty match) is left to ICU.
  static func obviousAnswer(_ match: Range<Int>, in bytes: ByteStorage, range: Range<Int>) -> Bool? {
    guard !match.isEmpty else { return nil }
    // The first character of the match, and the one before it. No boundary on either side
    // decides (false); a boundary on one side leaves the other to tell; nil: unknown.
    guard let (first, _) = CaselessLiteralSearch.scalar(at: match.lowerBound, in: bytes, limit: match.upperBound),
      isWordLetter(first)
    else { return nil }
    var atStart: Bool? = true
    if match.lowerBound > range.lowerBound {
      switch neighbour(endingAt: match.lowerBound, bytes, range) {
      case .joins?: return false
      case .separates?: break
      case .mid?:
        let mid = bytes[match.lowerBound - 1]
        // The character before the punctuation (nil: a line edge).
        var beyond: Neighbour? = nil
        if match.lowerBound - 1 > range.lowerBound { beyond = neighbour(endingAt: match.lowerBound - 1, bytes, range) }
        let undecodable = match.lowerBound - 1 > range.lowerBound && beyond == nil
        atStart = !undecodable && midBreaks(mid, wordCharacter: first, beyond: beyond) ? true : nil
      case .unknown?, .mark?, nil: atStart = nil
      }
    }
    guard let (last, _) = CaselessLiteralSearch.scalar(endingAt: match.upperBound, in: bytes, floor: match.lowerBound),
      isWordLetter(last)
    else { return nil }
    var atEnd: Bool? = true
    if match.upperBound < range.upperBound {
      switch neighbour(startingAt: match.upperBound, bytes, range) {
      case .joins, .mark: return false
      case .separates: break
      case .mid:
        let mid = bytes[match.upperBound]
        // The character after the punctuation (a line edge when there is none).
        let beyond: Neighbour? =
          match.upperBound + 1 < range.upperBound ? neighbour(startingAt: match.upperBound + 1, bytes, range) : nil
        atEnd = midBreaks(mid, wordCharacter: last, beyond: beyond) ? true : nil
      case .unknown: atEnd = nil
      }
    }
    guard let atStart, let atEnd else { return nil }
    return atStart && atEnd
  }

  /// `mid` (`,` `;` `.` `'` `:`) stands between a match's letter or digit `wordCharacter` and the
  /// character `beyond` it (nil: a line edge). There is a boundary between the match and it when:
  /// - `mid` is `,` or `;` (MidNum) and `wordCharacter` a letter: only digits on both sides keep
  ///   them together (UAX #29 WB11/12);
  /// - or `beyond` plainly separates (space, ASCII punctuation, a line edge): `.` and `'`
  ///   (MidNumLetQ) keep letters together across them (WB6/7), and digits (WB11/12), only when
  ///   one stands beyond, with marks and format characters skipped (WB4). (`:` is MidLetter in
  ///   UAX #29, which ICU's root rules take out of it, so `a:b` breaks at it; read here as the
  ///   UAX's, which leaves `a:b` to ICU.)
  /// False when neither holds: ICU decides.
  private static func midBreaks(_ mid: UInt8, wordCharacter: UInt32, beyond: Neighbour?) -> Bool {
    if (mid == 0x2C || mid == 0x3B) && !(0x30...0x39).contains(wordCharacter) { return true }
    guard let beyond else { return true }
    if case .separates = beyond { return true }
    return false
  }

  private enum Neighbour {
    case joins, separates, mark, unknown
    /// `,` `;` `.` `'` `:`, whose boundary depends on the character beyond (``midBreaks``).
    case mid
  }

  /// The ASCII characters, other than `\w`'s (letters, digits, `_`), next to which a word boundary
  /// may depend on the character beyond: `"` (Double_Quote: Hebrew letters either side, WB7b/c),
  /// `'`, `.` (MidNumLetQ: letters or digits either side, WB6/7, WB11/12), `,`, `;` (MidNum:
  /// digits, WB11/12), and `:` (MidLetter in UAX #29; ICU's root rules take it out, and the test
  /// of ``separatesWords(_:)`` passes without it, but another ICU may follow the UAX). As an ICU
  /// set.
  static let joiningPunctuation = #"["'.:,;]"#

  /// Whether an ASCII character cuts a line's word boundaries in two: with `c` a line `x c y`'s
  /// boundaries up to `c` are those of `x c` whatever follows, and those after it those of `c y`
  /// (UAX #29's rules read one character across `c`, except across ``joiningPunctuation``,
  /// where they read two; tested against ICU). True for ASCII but `\w`'s characters and
  /// ``joiningPunctuation``: a space, a control character, `-`, `@`... (A whole-word pattern
  /// rotor's update in a long line cuts it at such characters.)
  static func separatesWords(_ c: UInt8) -> Bool {
    switch c {
    case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x5F: false
    case 0x22, 0x27, 0x2E, 0x3A, 0x2C, 0x3B: false
    default: c < 0x80
    }
  }

  /// ASCII letters and digits, and the letters (Word_Break ALetter, which ICU's rules break by
  /// rule, not by dictionary) of Latin-1, Latin Extended-A, Greek, Cyrillic, Armenian, Arabic
  /// (not its digits, whose `,` and `;` join them, nor the tatweel) and Georgian. (Not Hangul
  /// syllables, ALetter in UAX #29, which ICU's rules break from other letters: `Д한`.)
  private static func isWordLetter(_ c: UInt32) -> Bool {
    switch c {
    case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
    case 0xC0...0xD6, 0xD8...0xF6, 0xF8...0x17F: true
    case 0x386, 0x388...0x38A, 0x38C, 0x38E...0x3A1, 0x3A3...0x3CE: true
    case 0x400...0x481, 0x48A...0x52F: true
    case 0x531...0x556, 0x560...0x588: true
    case 0x620...0x63F, 0x641...0x64A, 0x66E...0x66F, 0x671...0x6D3: true
    case 0x10D0...0x10FA: true
    default: false
    }
  }

  private static func classify(_ c: UInt32) -> Neighbour {
    if isWordLetter(c) || c == 0x5F { return .joins }
    switch c {
    case 0x27, 0x2E, 0x3A, 0x2C, 0x3B: return .mid  // ' . : , ;
    case 0x40: return .unknown  // @ (ICU keeps it in a word)
    case 0..<0x80: return .separates
    case 0x300...0x36F, 0x483...0x489: return .mark
    default: return .unknown
    }
  }

  private static func neighbour(endingAt end: Int, _ bytes: ByteStorage, _ range: Range<Int>) -> Neighbour? {
    guard let (c, _) = CaselessLiteralSearch.scalar(endingAt: end, in: bytes, floor: range.lowerBound) else {
      return nil
    }
    return classify(c)
  }

  private static func neighbour(startingAt start: Int, _ bytes: ByteStorage, _ range: Range<Int>) -> Neighbour {
    guard let (c, _) = CaselessLiteralSearch.scalar(at: start, in: bytes, limit: range.upperBound) else {
      return .unknown
    }
    return classify(c)
  }
}
