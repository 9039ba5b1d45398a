import CTextRotorShim

/// A literal byte string prepared for fast search: two of its rarest bytes are compared 32 text
/// positions at a time (AVX2, SSE2 without it), and only the positions where both agree are
/// compared in full. With `asciiCaseInsensitive`, ASCII letters match either case (other bytes,
/// including every byte of a non-ASCII character, match exactly).
public struct BytePattern: Sendable, Hashable {
  /// The needle, ASCII letters lowered when searching without case.
  public let bytes: [UInt8]
  /// 0x20 where an ASCII letter matches either case, else 0.
  let masks: [UInt8]
  public let asciiCaseInsensitive: Bool
  var rare1: Int
  var rare2: Int

  public init(_ bytes: [UInt8], asciiCaseInsensitive: Bool = false) {
    let folds = asciiCaseInsensitive && bytes.contains(where: Self.isASCIILetter)
    self.asciiCaseInsensitive = folds
    self.bytes = folds ? bytes.map { Self.isASCIILetter($0) ? $0 | 0x20 : $0 } : bytes
    self.masks = bytes.map { folds && Self.isASCIILetter($0) ? 0x20 : 0 }
    // The rarest byte, then the rarest at another position (letters without case count as both).
    let ranks = bytes.map { Self.rank($0, caseless: folds) }
    var first = 0
    for i in ranks.indices where ranks[i] < ranks[first] { first = i }
    var second = first == 0 ? min(1, bytes.count - 1) : 0
    for i in ranks.indices where i != first && ranks[i] < ranks[second] { second = i }
    if bytes.count <= 1 { second = first }
    self.rare1 = max(first, 0)
    self.rare2 = max(second, 0)
  }

  public var isEmpty: Bool { bytes.isEmpty }
  public var count: Int { bytes.count }

  static func isASCIILetter(_ b: UInt8) -> Bool { (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A }

  /// A rough frequency rank of a byte in text (higher = more common), after the table ripgrep's
  /// memchr crate uses: spaces and lowercase vowels are common; uppercase, digits and punctuation
  /// rarer; bytes of non-ASCII characters rare in English but common in other scripts.
  static func rank(_ b: UInt8, caseless: Bool) -> Int {
    let common: [UInt8] = Array(" etaoinshrdlcumwfgypbvkjxqz".utf8)
    if let i = common.firstIndex(of: b) { return 255 - i * 4 }
    if isASCIILetter(b) {
      let lower = b | 0x20
      let i = common.firstIndex(of: lower) ?? 26
      // Uppercase alone is rare; without case it is as common as its lowercase letter.
      return caseless ? 255 - i * 4 : 120 - i * 2
    }
    switch b {
    case 0x0A: return 200
    case 0x2C, 0x2E: return 150  // , .
    case 0x30...0x39: return 110
    case 0x21...0x2F, 0x3A...0x40, 0x5B...0x60, 0x7B...0x7E: return 60
    // In text of one script, its few lead bytes (Cyrillic D0/D1, Greek CE/CF, CJK E4-E9) are on
    // every other byte; the continuation bytes spread over 64 values and tell letters apart.
    case 0x80...0xBF: return 90  // continuation bytes
    case 0xC0...0xDF: return 170  // leads of 2-byte sequences
    case 0xE0...0xEF: return 160  // leads of 3-byte sequences
    case 0xF0...: return 80
    default: return 10  // other control bytes
    }
  }

  func withNeedle<R>(_ body: (UnsafePointer<cicu_needle>) -> R) -> R {
    bytes.withUnsafeBufferPointer { b in
      masks.withUnsafeBufferPointer { m in
        var needle = cicu_needle(
          bytes: b.baseAddress, masks: m.baseAddress, length: Int64(b.count), rare1: Int64(rare1),
          rare2: Int64(rare2), caseless: asciiCaseInsensitive ? 1 : 0)
        return withUnsafePointer(to: &needle) { body($0) }
      }
    }
  }
}

extension ByteStorage {
  /// The first offset in `range` where `pattern` starts, or nil.
  public func firstIndex(of pattern: BytePattern, in range: Range<Int>) -> Int? {
    precondition(range.lowerBound >= 0 && range.upperBound <= count, "range outside the bytes")
    guard !pattern.isEmpty, range.count >= pattern.count else { return nil }
    return withUnsafeBytes { text in
      pattern.withNeedle { needle in
        let hit = cicu_needle_find(text.baseAddress, Int64(range.lowerBound), Int64(range.upperBound), needle)
        return hit < 0 ? nil : Int(hit)
      }
    }
  }

  /// Appends the starts of the leftmost non-overlapping occurrences of `pattern` in `range` to
  /// `starts`, at most `limit` of them; returns where the search stopped (`range.upperBound` when
  /// the range is exhausted), to continue from there.
  public func occurrences(
    of pattern: BytePattern, in range: Range<Int>, limit: Int = .max, into starts: inout [Int]
  ) -> Int {
    precondition(range.lowerBound >= 0 && range.upperBound <= count, "range outside the bytes")
    guard !pattern.isEmpty else { return range.upperBound }
    // No more occurrences than the range can hold: a search of one line allocates little.
    let batch = Swift.min(4096, limit, range.count / pattern.count + 1)
    var position = range.lowerBound
    var remaining = limit
    var buffer = [Int64](repeating: 0, count: Swift.max(batch, 1))
    withUnsafeBytes { text in
      pattern.withNeedle { needle in
        buffer.withUnsafeMutableBufferPointer { out in
          while remaining > 0 && position < range.upperBound {
            var resume: Int64 = 0
            let n = Int(
              cicu_needle_findAll(
                text.baseAddress, Int64(position), Int64(range.upperBound), needle, out.baseAddress,
                Int64(min(batch, remaining)), &resume))
            for k in 0..<n { starts.append(Int(out[k])) }
            remaining -= n
            position = Int(resume)
            if n < batch && position >= range.upperBound { break }
          }
        }
      }
    }
    return position
  }

  /// How many leftmost non-overlapping occurrences of `pattern` lie in `range`.
  public func occurrenceCount(of pattern: BytePattern, in range: Range<Int>) -> Int {
    precondition(range.lowerBound >= 0 && range.upperBound <= count, "range outside the bytes")
    guard !pattern.isEmpty else { return 0 }
    return withUnsafeBytes { text in
      pattern.withNeedle { needle in
        var resume: Int64 = 0
        return Int(
          cicu_needle_findAll(
            text.baseAddress, Int64(range.lowerBound), Int64(range.upperBound), needle, nil, .max, &resume))
      }
    }
  }

  /// The first offset in `range` holding one of `set` (at most 8 bytes, each 0x80 or above: a
  /// vectorised scan that skips ASCII 16 bytes at a time), or nil.
  public func firstIndex(ofAnyNonASCII set: [UInt8], in range: Range<Int>) -> Int? {
    precondition(set.count <= 8 && set.allSatisfy { $0 >= 0x80 }, "at most 8 bytes, each >= 0x80")
    precondition(range.lowerBound >= 0 && range.upperBound <= count, "range outside the bytes")
    guard !range.isEmpty else { return nil }
    return withUnsafeBytes { text in
      set.withUnsafeBufferPointer { s in
        let hit = cicu_find_any_byte(
          text.baseAddress, Int64(range.lowerBound), Int64(range.upperBound), s.baseAddress, Int32(s.count))
        return hit < 0 ? nil : Int(hit)
      }
    }
  }
}

extension ByteStorage {
  /// The first offset `i` in `range` where `bytes[i] == pairs[k].0` and `bytes[i + 1] == pairs[k].1`
  /// for some `k` (both bytes in `range`; at most 8 pairs, each lead 0x80 or above: a vectorised
  /// scan that skips ASCII 32 bytes at a time), or nil.
  public func firstIndex(ofAnyNonASCIIPair pairs: [(UInt8, UInt8)], in range: Range<Int>) -> Int? {
    precondition(pairs.count <= 8 && pairs.allSatisfy { $0.0 >= 0x80 }, "at most 8 pairs, each lead >= 0x80")
    precondition(range.lowerBound >= 0 && range.upperBound <= count, "range outside the bytes")
    guard range.count >= 2 else { return nil }
    let leads = pairs.map(\.0)
    let seconds = pairs.map(\.1)
    return withUnsafeBytes { text in
      leads.withUnsafeBufferPointer { l in
        seconds.withUnsafeBufferPointer { s in
          let hit = cicu_find_any_pair(
            text.baseAddress, Int64(range.lowerBound), Int64(range.upperBound), l.baseAddress, s.baseAddress,
            Int32(pairs.count))
          return hit < 0 ? nil : Int(hit)
        }
      }
    }
  }
}

/// Up to 8 literals searched for in one pass (``ByteStorage/firstIndex(ofAny:in:)``), each on its
/// own two rare bytes.
public struct BytePatternSet: Sendable {
  public let patterns: [BytePattern]
  private let bytes: [UInt8]
  private let masks: [UInt8]

  public init(_ patterns: [BytePattern]) {
    precondition(
      !patterns.isEmpty && patterns.count <= 8 && patterns.allSatisfy { !$0.isEmpty }, "1 to 8 non-empty patterns")
    var patterns = patterns
    // Patterns of one length (the case variants of a few characters) are compared at the same two
    // offsets, the rarest over all of them, so the kernel loads the text once for every pattern.
    let length = patterns[0].count
    if length > 1 && patterns.allSatisfy({ $0.count == length }) {
      let score = (0..<length).map { i in
        patterns.reduce(0) { $0 + BytePattern.rank($1.bytes[i], caseless: $1.masks[i] != 0) }
          + Set(patterns.map { $0.bytes[i] }).count * 40
      }
      let order = (0..<length).sorted { score[$0] < score[$1] || (score[$0] == score[$1] && $0 < $1) }
      for k in patterns.indices {
        patterns[k].rare1 = order[0]
        patterns[k].rare2 = order[1]
      }
    }
    self.patterns = patterns
    bytes = patterns.flatMap(\.bytes)
    masks = patterns.flatMap(\.masks)
  }

  func withNeedles<R>(_ body: (UnsafePointer<cicu_needle>, Int32) -> R) -> R {
    bytes.withUnsafeBufferPointer { b in
      masks.withUnsafeBufferPointer { m in
        var needles: [cicu_needle] = []
        needles.reserveCapacity(patterns.count)
        var offset = 0
        for p in patterns {
          needles.append(
            cicu_needle(
              bytes: b.baseAddress! + offset, masks: m.baseAddress! + offset, length: Int64(p.count),
              rare1: Int64(p.rare1), rare2: Int64(p.rare2), caseless: p.asciiCaseInsensitive ? 1 : 0))
          offset += p.count
        }
        return needles.withUnsafeBufferPointer { body($0.baseAddress!, Int32($0.count)) }
      }
    }
  }
}

extension ByteStorage {
  /// The first offset in `range` where one of `set`'s patterns starts, and which one (the first in
  /// the set when several start there), or nil.
  public func firstIndex(ofAny set: BytePatternSet, in range: Range<Int>) -> (offset: Int, pattern: Int)? {
    precondition(range.lowerBound >= 0 && range.upperBound <= count, "range outside the bytes")
    guard !range.isEmpty else { return nil }
    return withUnsafeBytes { text in
      set.withNeedles { needles, n in
        var which: Int32 = 0
        let hit = cicu_needles_find(
          text.baseAddress, Int64(range.lowerBound), Int64(range.upperBound), needles, n, &which)
        return hit < 0 ? nil : (Int(hit), Int(which))
      }
    }
  }
}

extension ByteStorage {
  /// Appends to `starts` every offset in `range` where one of `set`'s patterns starts (overlapping
  /// occurrences too), at most `limit` of them; returns where the search stopped (`range.upperBound`
  /// when the range is exhausted), to continue from there.
  public func occurrences(ofAny set: BytePatternSet, in range: Range<Int>, limit: Int, into starts: inout [Int]) -> Int
  {
    precondition(range.lowerBound >= 0 && range.upperBound <= count, "range outside the bytes")
    guard !range.isEmpty, limit > 0 else { return range.upperBound }
    var buffer = [Int64](repeating: 0, count: min(limit, 1024))
    var resume: Int64 = 0
    let n = withUnsafeBytes { text in
      set.withNeedles { needles, count in
        buffer.withUnsafeMutableBufferPointer { out in
          cicu_needles_findAll(
            text.baseAddress, Int64(range.lowerBound), Int64(range.upperBound), needles, count, out.baseAddress,
            Int64(out.count), &resume)
        }
      }
    }
    for k in 0..<Int(n) { starts.append(Int(buffer[k])) }
    return Int(resume)
  }
}

extension ByteStorage {
  /// Whether `pattern` starts at `offset` and ends at or before `limit`.
  public func hasPrefix(_ pattern: BytePattern, at offset: Int, limit: Int) -> Bool {
    precondition(offset >= 0 && limit <= count, "range outside the bytes")
    guard offset + pattern.count <= limit else { return false }
    return withUnsafeBytes { text in
      pattern.withNeedle { needle in cicu_needle_equals(text.baseAddress! + offset, needle) != 0 }
    }
  }
}
