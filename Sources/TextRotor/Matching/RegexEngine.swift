import TextRotorICU

/// The engine a regex search runs on: ICU's backtracking engine, or RE2 (linear time) when the
/// pattern has an RE2 translation that means the same (``RE2Translation``). Even then, a region RE2
/// would read differently is given to ICU: one holding ill-formed UTF-8 (ICU reads it as U+FFFD, RE2
/// matches no ill-formed byte), and, for a pattern with `^`/`$`, one holding or touching a line
/// terminator only ICU knows (`\x0B \x0C \x85 \u2028 \u2029`, or a CR inside it).
///
/// Same interface as ``RegularExpression``: text, region (transparent, non-anchoring bounds),
/// matches in `uregex_findNext` order.
final class RegexEngine {
  let icu: RegularExpression
  let linear: LinearRegex?
  let translation: RE2Translation?
  /// `translation`'s `hasLineAnchors` and `caseless` (false without one).
  private let linearAnchors: Bool
  private let linearCaseless: Bool
  /// Why the pattern is not on RE2 (nil when it is, or when no regex engine was asked for one).
  let refusal: String?
  private var bytes: ByteStorage?
  private var icuBound = false
  private var onLinear = false
  /// Regions searched by RE2 and by ICU (for tests and `--debug`).
  private(set) var linearRegions = 0
  private(set) var icuRegions = 0
  /// Bytes scanned for what RE2 reads otherwise than ICU (for tests: see ``linearAgrees``).
  private(set) var bytesScanned = 0

  init(_ icu: RegularExpression, translation: Result<RE2Translation, RE2Translation.Refusal>? = nil) {
    self.icu = icu
    switch translation {
    case .success(let t)?:
      do {
        linear = try LinearRegex(
          compiling: t.pattern, maxProgram: Self.isLiteralAlternation(icu.pattern) ? 1 << 22 : nil)
        self.translation = t
        refusal = nil
      } catch {
        linear = nil
        self.translation = nil
        refusal = "a translation RE2 does not take (\(error))"
      }
    case .failure(let r)?:
      linear = nil
      self.translation = nil
      refusal = r.reason
    case nil:
      linear = nil
      self.translation = nil
      refusal = nil
    }
    linearAnchors = self.translation?.hasLineAnchors ?? false
    linearCaseless = self.translation?.caseless ?? false
  }

  var pattern: String { icu.pattern }

  /// Whether the region being searched is on RE2, so known to be well-formed UTF-8
  /// (``linearAgrees(_:in:anchors:caseless:)`` checked it): its matches need no check.
  var regionIsWellFormed: Bool { onLinear }
  /// Whether ICU searches the region: only its matcher has a time limit (counted since the region
  /// was set), and only its region is cheap to set again (RE2's first checks the region's bytes).
  var searchesOnICU: Bool { !onLinear }

  /// Whether `pattern` (ICU syntax) is literals joined by `|`, as `Pattern.anyOf` makes of many
  /// literal patterns (`-f` with thousands of words): letters, digits, other scalars and escaped
  /// ASCII punctuation, nothing else. RE2's program for it grows with the words, but its DFA is
  /// their trie, so the program size that keeps other patterns off RE2 does not apply.
  static func isLiteralAlternation(_ pattern: String) -> Bool {
    var escaped = false
    var alternatives = 1
    for b in pattern.utf8 {
      if escaped {
        // An escape of punctuation is that character; `\w`, `\d`, `\Q`... are not literals.
        guard b < 0x80, !(b >= 0x30 && b <= 0x39), !(b | 0x20 >= 0x61 && b | 0x20 <= 0x7A) else { return false }
        escaped = false
        continue
      }
      switch b {
      case UInt8(ascii: "\\"): escaped = true
      case UInt8(ascii: "|"): alternatives += 1
      case UInt8(ascii: "."), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "("), UInt8(ascii: ")"),
        UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "?"), UInt8(ascii: "{"), UInt8(ascii: "}"),
        UInt8(ascii: "^"), UInt8(ascii: "$"), UInt8(ascii: "#"), UInt8(ascii: " "):
        // `#` and spaces only mean something with (?x); an alternation of plain literals never
        // needs them unescaped (the literal escaper escapes every ASCII punctuation and space).
        return false
      default: break
      }
    }
    return !escaped && alternatives > 1
  }

  /// The text is `bytes` from `start` on (see ``RegularExpression/setText(_:from:)``).
  func setText(_ bytes: ByteStorage, from start: Int = 0) throws(ICUError) {
    self.bytes = bytes
    scanMemo = nil
    textStart = start
    if let linear {
      linear.setText(bytes)
      icuBound = false
    } else {
      try icu.setText(bytes, from: start)
      icuBound = true
    }
  }

  private var textStart = 0

  /// The text is exactly `range` of `bytes` (a line searched on its own: nothing outside it is
  /// seen), on ICU.
  func setText(_ bytes: ByteStorage, exactly range: Range<Int>) throws(ICUError) {
    // No bytes kept: ``setRegion(_:)`` neither hands the region to RE2 nor binds the whole text.
    self.bytes = nil
    scanMemo = nil
    try icu.setText(bytes, exactly: range)
    icuBound = true
  }

  func setRegion(_ range: Range<Int>) throws(ICUError) {
    // The translation's flags are read from plain stored properties: binding `translation` (a
    // string inside) cost a retain and a release per region, a region per window of a literal.
    if let linear, let bytes, linearAgrees(range, in: bytes, anchors: linearAnchors, caseless: linearCaseless) {
      // `^`/`$` look at the bytes around the region: up to a line terminator next to it, the
      // region's edge is the text's edge for RE2 (ICU's `^` matches after a CR, RE2's does not).
      var lower = textStart
      var upper = bytes.count
      if range.lowerBound > 0, bytes[range.lowerBound - 1] == 0x0A || bytes[range.lowerBound - 1] == 0x0D {
        lower = range.lowerBound
      }
      if range.upperBound < bytes.count, bytes[range.upperBound] == 0x0A || bytes[range.upperBound] == 0x0D {
        upper = range.upperBound
      }
      linear.setRegion(range, context: lower..<upper)
      onLinear = true
      linearRegions += 1
      return
    }
    if !icuBound, let bytes {
      try icu.setText(bytes, from: textStart)
      icuBound = true
    }
    try icu.setRegion(range)
    onLinear = false
    icuRegions += 1
  }

  func forEachMatch(_ body: (Range<Int>) throws(ICUError) -> Bool) throws(ICUError) {
    if onLinear, let linear {
      try linear.forEachMatch(body)
    } else {
      try icu.forEachMatch(body)
    }
  }

  /// Whether RE2 reads `range` as ICU does (see the type's comment), each byte scanned once while
  /// regions move on through the text: a search whose visitor resumes further on (a whole-word
  /// candidate rejected, `-m`, a line's first match printed) sets its region again from there to
  /// the chunk's end, or starts a new chunk a line further, and scanning that rest each time was
  /// quadratic (`find -w --regex '[a-z]+'` on 20 MB of prose: 11 s, 1 MB chunks).
  func linearAgrees(_ range: Range<Int>, in bytes: ByteStorage, anchors: Bool, caseless: Bool) -> Bool {
    if anchors && !Self.anchorEdgesAgree(range, in: bytes) { return false }
    // The memo answers only for a region whose edges are characters' (a scan from a character's
    // start says nothing of a region starting or ending inside a sequence).
    if let m = scanMemo, m.bytes === bytes, m.from <= range.lowerBound, range.lowerBound <= m.first,
      Self.isCharacterEdge(range.lowerBound, in: bytes), Self.isCharacterEdge(range.upperBound, in: bytes)
    {
      if range.upperBound <= m.first { return true }
      // The first byte RE2 reads otherwise is inside the region.
      if m.first < m.to { return false }
      // Nothing up to where the memo's scan ended (a character's edge): the scan goes on from there.
      let first = Self.firstDisagreement(in: m.to..<range.upperBound, of: bytes, anchors: anchors, caseless: caseless)
      bytesScanned += range.upperBound - m.to
      scanMemo = (bytes, m.from, range.upperBound, first ?? range.upperBound)
      return first == nil
    }
    let first = Self.firstDisagreement(in: range, of: bytes, anchors: anchors, caseless: caseless)
    bytesScanned += range.count
    // Remembered only for a region whose edges are characters': at an edge inside a sequence the
    // scan finds a sequence cut short that a region reaching further would read whole.
    scanMemo =
      Self.isCharacterEdge(range.lowerBound, in: bytes) && Self.isCharacterEdge(range.upperBound, in: bytes)
      ? (bytes, range.lowerBound, range.upperBound, first ?? range.upperBound) : nil
    return first == nil
  }

  /// What ``linearAgrees(_:in:anchors:caseless:)`` scanned last (`from..<to` of `bytes`, perhaps in
  /// several scans) and the first byte there that RE2 reads otherwise than ICU (`to` when none).
  private var scanMemo: (bytes: ByteStorage, from: Int, to: Int, first: Int)? = nil

  private static func isCharacterEdge(_ k: Int, in bytes: ByteStorage) -> Bool {
    k <= 0 || k >= bytes.count || bytes[k] & 0xC0 != 0x80
  }

  /// Whether RE2 reads `range` as ICU does (see the type's comment), scanned whole (for tests; a
  /// search asks ``linearAgrees(_:in:anchors:caseless:)``, which remembers its last scan).
  static func linearAgrees(_ range: Range<Int>, in bytes: ByteStorage, anchors: Bool, caseless: Bool = false) -> Bool {
    (!anchors || anchorEdgesAgree(range, in: bytes))
      && firstDisagreement(in: range, of: bytes, anchors: anchors, caseless: caseless) == nil
  }

  /// The first byte of `range` where RE2 would read otherwise than ICU: an ill-formed sequence
  /// (ICU reads U+FFFD, RE2 matches no ill-formed byte), without case a character whose folding is
  /// several (ICU matches `ß` as `ss`: RE2's sets do not), and with `^`/`$` a line terminator only
  /// ICU knows (VT, FF, a CR, NEL, LS, PS).
  private static func firstDisagreement(
    in range: Range<Int>, of bytes: ByteStorage, anchors: Bool, caseless: Bool
  ) -> Int? {
    var first = bytes.firstInvalidUTF8(in: range)
    if caseless,
      let f = CaseClasses.firstFoldedToSeveral(in: bytes, range: range.lowerBound..<(first ?? range.upperBound))
    {
      first = f
    }
    if anchors,
      let f = firstOwnTerminator(in: range.lowerBound..<(first ?? range.upperBound), of: bytes, counting: true)
    {
      first = f
    }
    return first
  }

  /// With `^`/`$`, the bytes just around `range`: between the CR and LF of a CRLF ICU's `$` does
  /// not match (RE2's would, before the LF), and a VT, FF, NEL, LS or PS up to 3 bytes before or
  /// after the region is a line edge for ICU (a CR there is RE2's too).
  private static func anchorEdgesAgree(_ range: Range<Int>, in bytes: ByteStorage) -> Bool {
    let n = bytes.count
    if range.lowerBound > 0 && range.lowerBound < n && bytes[range.lowerBound - 1] == 0x0D
      && bytes[range.lowerBound] == 0x0A
    {
      return false
    }
    let before = Swift.max(0, range.lowerBound - 3)..<range.lowerBound
    let after = range.upperBound..<Swift.min(n, range.upperBound + 3)
    return firstOwnTerminator(in: before, of: bytes, counting: false) == nil
      && firstOwnTerminator(in: after, of: bytes, counting: false) == nil
  }

  /// The first line terminator only ICU knows starting in `range` (VT, FF, NEL, LS, PS; a CR too
  /// when `counting` it: inside a region, RE2 reads it as no line edge).
  private static func firstOwnTerminator(in range: Range<Int>, of bytes: ByteStorage, counting cr: Bool) -> Int? {
    let n = bytes.count
    return bytes.withUnsafeBytes { b -> Int? in
      var k = range.lowerBound
      while k < range.upperBound {
        switch b[k] {
        case 0x0B, 0x0C: return k
        case 0x0D: if cr { return k }
        case 0xC2: if k + 1 < n && b[k + 1] == 0x85 { return k }
        case 0xE2: if k + 2 < n && b[k + 1] == 0x80 && (b[k + 2] == 0xA8 || b[k + 2] == 0xA9) { return k }
        default: break
        }
        k += 1
      }
      return nil
    }
  }
}
