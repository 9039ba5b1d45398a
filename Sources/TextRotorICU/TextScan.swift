import CTextRotorShim

/// Scans over well-formed UTF-8 for the text rope: what a chunk sums up to, and where a count of
/// UTF-16 units or scalars or line breaks is reached. The pointer loops live here, in the one layer
/// that holds raw pointers; callers above pass ranges.
public struct ChunkCounts: Equatable, Sendable {
  public var utf16 = 0
  public var scalars = 0
  /// Hard line breaks: every LF, and every CR not followed by LF inside the range.
  public var lineBreaks = 0
  /// Whether the range is well-formed UTF-8.
  public var isWellFormed = true
  public init() {}
}

extension ByteStorage {
  /// UTF-16 units, scalars and line breaks of `range`, ill-formed parts counted as U+FFFD (maximal
  /// subparts): one vectorised pass, plus a validation pass unless `knownWellFormed`.
  public func chunkCounts(in range: Range<Int>, knownWellFormed: Bool = false) -> ChunkCounts {
    precondition(range.lowerBound >= 0 && range.upperBound <= count)
    var result = ChunkCounts()
    guard !range.isEmpty else { return result }
    let text = countPart(range, knownWellFormed: knownWellFormed)
    result.lineBreaks = text.lineBreaks
    result.utf16 = text.utf16Units
    result.isWellFormed = text.isWellFormed
    result.scalars =
      text.isWellFormed
      ? text.leadBytes
      : Int(withUnsafeBytes { cicu_count_scalars($0.baseAddress! + range.lowerBound, range.count) })
    return result
  }

  /// What `advance` measures.
  public enum Unit: Sendable {
    case utf16
    case scalars
  }

  /// Walks forward from `start` (a scalar boundary) over `units` UTF-16 units or scalars, stopping
  /// at `limit`: the byte offset reached, rounded down to a scalar boundary (a UTF-16 count that
  /// ends inside a surrogate pair stops before that scalar), and the units actually passed.
  public func advance(_ units: Int, _ unit: Unit, from start: Int, limit: Int) -> (offset: Int, passed: Int) {
    precondition(start >= 0 && limit <= count && start <= limit)
    return withUnsafeBytes { b in
      var i = start
      var passed = 0
      let raw = UnsafeRawBufferPointer(b)
      while i < limit && passed < units {
        // Eight ASCII bytes at a time (one unit each, either measure) while all of them fit: a
        // chunk is walked at a byte a loop only where it is not ASCII.
        if units - passed >= 8 && limit - i >= 8,
          raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 == 0
        {
          passed += 8
          i += 8
          continue
        }
        let c = b[i]
        let length = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4
        let weight = unit == .utf16 && length == 4 ? 2 : 1
        if passed + weight > units || i + length > limit { break }
        passed += weight
        i += length
      }
      return (i, passed)
    }
  }

  /// The offset just after the `n`-th hard line break (1-based) in `range`, a CR LF pair inside it
  /// read as one break, a CR at its very end as a break (the caller knows whether an LF follows);
  /// nil when `range` has fewer breaks.
  public func endOfLineBreak(_ n: Int, in range: Range<Int>) -> Int? {
    precondition(n >= 1 && range.lowerBound >= 0 && range.upperBound <= count)
    var seen = 0
    var i = range.lowerBound
    let upper = range.upperBound
    while i < upper {
      let lf = firstIndex(of: 0x0A, in: i..<upper) ?? upper
      // CRs before the next LF are breaks of their own, except one right before it.
      var j = i
      while let cr = firstIndex(of: 0x0D, in: j..<lf), cr + 1 < lf || lf == upper {
        seen += 1
        if seen == n { return cr + 1 }
        j = cr + 1
      }
      if lf == upper { return nil }
      seen += 1
      if seen == n { return lf + 1 }
      i = lf + 1
    }
    return nil
  }
}

extension ByteStorage {
  /// Whether `range` holds only spaces, tabs, LFs and CRs (a blank line).
  public func isBlank(in range: Range<Int>) -> Bool {
    precondition(range.lowerBound >= 0 && range.upperBound <= count)
    return withUnsafeBytes { b in
      for i in range {
        let c = b[i]
        if c != 0x20 && c != 0x09 && c != 0x0A && c != 0x0D { return false }
      }
      return true
    }
  }
}

/// Kernels over raw text for the segmenters above.
public enum TextScan {
  /// The number of ICU's root word segments of `range` of `text` (pure ASCII, cut at safe points:
  /// nothing outside it joins it), and of words among them (status 100-499): 64 bytes at a time
  /// (`cicu_ascii_words_count`, AVX2 where the CPU has it).
  public static func asciiWordCounts(_ text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> (
    segments: Int, words: Int
  ) {
    precondition(range.lowerBound >= 0 && range.upperBound <= text.count)
    guard !range.isEmpty, let base = text.baseAddress else { return (0, 0) }
    var segments: Int64 = 0
    var words: Int64 = 0
    cicu_ascii_words_count(
      base + range.lowerBound, Int64(range.count), Int64(text.count - range.lowerBound), &segments, &words)
    return (Int(segments), Int(words))
  }

  /// The first safe point of ICU's root word rules after `offset` (a position in `text`) and before
  /// `end`, or `end`: after LF, VT or FF, after CR not followed by LF, or between a space and an
  /// ASCII byte other than a space (`AsciiWordSegmenter`'s safe points); 32 positions at a time
  /// (`cicu_word_safe_point_after`, AVX2 where the CPU has it).
  public static func wordSafePoint(_ text: UnsafeBufferPointer<UInt8>, after offset: Int, end: Int) -> Int {
    precondition(offset >= 0 && end <= text.count)
    guard offset + 1 < end, let base = text.baseAddress else { return end }
    return Int(cicu_word_safe_point_after(base, Int64(offset), Int64(end)))
  }
}

/// Where characters start in UTF-8 that may be ill-formed, read as ICU and the segmenters read it:
/// each well-formed sequence one character, each maximal subpart of an ill-formed one a U+FFFD.
public enum UTF8Boundaries {
  /// Whether `offset` (in `0...bytes.count`) starts a character (or is the end). A continuation
  /// byte starts one when no sequence begun before it reaches it: after a complete character, or
  /// when the bytes before it cannot start a sequence that takes it (a stray continuation byte, an
  /// overlong or surrogate lead) — the segments of `€ 0x80 x` start at 0, 3 and 4.
  public static func isBoundary(_ offset: Int, in bytes: ByteStorage) -> Bool {
    let count = bytes.count
    guard offset > 0 && offset < count, bytes[offset] & 0xC0 == 0x80 else { return true }
    // The last byte before it that is not a continuation byte, within a sequence's reach.
    var lead = offset - 1
    while lead >= 0 && offset - lead <= 3 && bytes[lead] & 0xC0 == 0x80 { lead -= 1 }
    guard lead >= 0 && offset - lead <= 3 else { return true }
    // The character there, as the rule machine decodes it.
    let length = bytes.withUnsafeBytes { RuleMachine.decode($0.baseAddress!, lead, count).1 }
    return lead + length <= offset
  }
}
