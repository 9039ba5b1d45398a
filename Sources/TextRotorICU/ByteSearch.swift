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
  /// A third offset the AVX2 search compares (one of the two when the needle is shorter than 3).
  var rare3: Int

  public init(_ bytes: [UInt8], asciiCaseInsensitive: Bool = false) {
    let folds = asciiCaseInsensitive && bytes.contains(where: Self.isASCIILetter)
    self.asciiCaseInsensitive = folds
    self.bytes = folds ? bytes.map { Self.isASCIILetter($0) ? $0 | 0x20 : $0 } : bytes
    self.masks = bytes.map { folds && Self.isASCIILetter($0) ? 0x20 : 0 }
    (rare1, rare2, rare3) = Self.rareOffsets(self.bytes, caseless: folds)
  }

  /// The three offsets of `bytes` whose bytes together are expected rarest in text
  /// (``frequency(_:caseless:)``): the rarest byte, then greedily the offset of least frequency
  /// where a byte next to one already taken counts 4 times as common (neighbours come together in
  /// text far more often than their frequencies say: the `10.` of `10.0.0.` in a log) and a byte of
  /// a value already taken twice as common (as memchr's `memmem` picks its pair: a repeated byte
  /// tells less); the first offset on ties. A needle of 1 or 2 bytes repeats offsets.
  static func rareOffsets(_ bytes: [UInt8], caseless: Bool) -> (Int, Int, Int) {
    guard bytes.count > 1 else { return (0, 0, 0) }
    let f = bytes.map { frequency($0, caseless: caseless) }
    var taken: [Int] = []
    while taken.count < min(3, bytes.count) {
      var best = -1
      var bestScore = Int.max
      for i in f.indices where !taken.contains(i) {
        var score = f[i]
        if taken.contains(where: { abs($0 - i) == 1 }) { score *= 4 }
        if taken.contains(where: { bytes[$0] == bytes[i] }) { score *= 2 }
        if score < bestScore {
          best = i
          bestScore = score
        }
      }
      taken.append(best)
    }
    return (taken[0], taken[1], taken.count > 2 ? taken[2] : taken[1])
  }

  public var isEmpty: Bool { bytes.isEmpty }
  public var count: Int { bytes.count }

  static func isASCIILetter(_ b: UInt8) -> Bool { (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A }

  /// How often a byte is expected in text, in parts per million: an ASCII letter searched without
  /// case counts both cases.
  static func frequency(_ b: UInt8, caseless: Bool) -> Int {
    guard caseless && isASCIILetter(b) else { return frequencies[Int(b)] }
    return frequencies[Int(b | 0x20)] + frequencies[Int(b & ~0x20)]
  }

  /// Byte frequencies (parts per million) averaged over three kinds of text: English prose
  /// (`Corpora/generated/english-10mb.txt`), prose in many scripts (`multilingual-20mb.txt`) and
  /// source code (10 MB of the Swift packages' files; `Scripts/byte-frequencies` computes them).
  /// Then, as memchr does for ripgrep, no script is taken to be rare: lead bytes of non-ASCII
  /// characters (0xC2...0xF4) count as common as the commonest script's (in text of one script its
  /// lead bytes are every other or third byte), continuation bytes (0x80...0xBF) at least as common
  /// as the least common of the corpus's (a script missing from it spreads its letters over them).
  static let frequencies: [Int] = {
    var f = measuredFrequencies
    for b in 0x80...0xBF { f[b] = max(f[b], 400) }
    for b in 0xC2...0xF4 { f[b] = max(f[b], 12_000) }
    return f
  }()

  private static let measuredFrequencies: [Int] = [
    0, 0, 0, 0, 0, 0, 0, 0, 0, 21, 22851, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0,
    248471, 178, 9062, 670, 765, 588, 199, 1158, 4157, 4159, 1293, 500, 8275, 9228, 8300, 5083,
    6872, 4354, 4476, 4538, 3040, 2819, 4230, 2446, 2089, 1784, 5099, 739, 1045, 2018, 1232, 357,
    331, 2915, 1460, 2751, 1866, 2978, 1433, 1067, 939, 2899, 336, 522, 1986, 1581, 2430, 2151,
    2592, 203, 1965, 4147, 3571, 1548, 884, 567, 593, 391, 170, 813, 934, 809, 69, 3691,
    839, 31708, 7167, 16840, 16616, 54788, 10361, 7984, 12232, 29502, 717, 2889, 19120, 10280, 29942, 27572,
    11843, 955, 27907, 27352, 36372, 13811, 4420, 5109, 4597, 6023, 1247, 2113, 861, 2109, 69, 0,
    3264, 5099, 4012, 3540, 1664, 1070, 792, 1567, 1746, 951, 854, 1414, 1793, 1451, 355, 1334,
    816, 690, 452, 420, 1154, 1602, 800, 815, 880, 978, 919, 589, 1113, 727, 507, 1510,
    1075, 1057, 447, 579, 3176, 1116, 1727, 1566, 1339, 1150, 1113, 708, 589, 842, 2174, 1662,
    2511, 1208, 1379, 1040, 1236, 1987, 527, 915, 4900, 1638, 1462, 1653, 1811, 1913, 2651, 1555,
    0, 0, 439, 1485, 286, 288, 49, 1, 1, 1, 1, 1, 85, 0, 2318, 1115,
    12031, 5203, 1, 0, 1, 1, 3, 912, 2082, 1446, 83, 227, 0, 0, 0, 0,
    8611, 2058, 885, 6776, 1239, 2915, 1865, 1392, 1104, 693, 290, 1141, 1556, 507, 0, 437,
    864, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  ]

  func withNeedle<R>(_ body: (UnsafePointer<cicu_needle>) -> R) -> R {
    bytes.withUnsafeBufferPointer { b in
      masks.withUnsafeBufferPointer { m in
        var needle = cicu_needle(
          bytes: b.baseAddress, masks: m.baseAddress, length: Int64(b.count), rare1: Int64(rare1),
          rare2: Int64(rare2), caseless: asciiCaseInsensitive ? 1 : 0, rare3: Int64(rare3))
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

/// Up to 8 pairs of bytes, each lead 0x80 or above, for ``ByteStorage/firstIndex(ofAnyNonASCIIPair:in:)``:
/// the leads and the second bytes in the two arrays the vectorised scan reads, made once (the search
/// made them on every call: two allocations per region an RE2 search without case checks).
public struct NonASCIIPairs: Sendable {
  let leads: [UInt8]
  let seconds: [UInt8]

  public init(_ pairs: [(UInt8, UInt8)]) {
    precondition(pairs.count <= 8 && pairs.allSatisfy { $0.0 >= 0x80 }, "at most 8 pairs, each lead >= 0x80")
    leads = pairs.map(\.0)
    seconds = pairs.map(\.1)
  }
}

extension ByteStorage {
  /// The first offset `i` in `range` where `bytes[i] == pairs[k].0` and `bytes[i + 1] == pairs[k].1`
  /// for some `k` (both bytes in `range`; a vectorised scan that skips ASCII 32 bytes at a time),
  /// or nil.
  public func firstIndex(ofAnyNonASCIIPair pairs: NonASCIIPairs, in range: Range<Int>) -> Int? {
    precondition(range.lowerBound >= 0 && range.upperBound <= count, "range outside the bytes")
    guard range.count >= 2 else { return nil }
    return withUnsafeBytes { text in
      pairs.leads.withUnsafeBufferPointer { l in
        pairs.seconds.withUnsafeBufferPointer { s in
          let hit = cicu_find_any_pair(
            text.baseAddress, Int64(range.lowerBound), Int64(range.upperBound), l.baseAddress, s.baseAddress,
            Int32(l.count))
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
    // Every pattern is compared at the same two offsets (inside the shortest, where all of them
    // compare their byte with or without case alike), the two where a text byte is least likely to
    // be one of the patterns' bytes there (the sum of the distinct bytes' frequencies): the kernel
    // then loads the text once for every pattern, and its work does not grow with their number
    // (the case variants of a few characters: `ЧТ` has 8, of two lengths, `ᲄ` being 3 bytes).
    let shortest = patterns.map(\.count).min()!
    let offsets = (0..<shortest).filter { i in patterns.allSatisfy { $0.masks[i] == patterns[0].masks[i] } }
    if offsets.count >= 2 {
      let score = offsets.map { i in
        var seen = Set<UInt8>()
        return patterns.reduce(0) { sum, p in
          seen.insert(p.bytes[i]).inserted ? sum + BytePattern.frequency(p.bytes[i], caseless: p.masks[i] != 0) : sum
        }
      }
      let order = offsets.indices.sorted { score[$0] < score[$1] || (score[$0] == score[$1] && $0 < $1) }
      for k in patterns.indices {
        patterns[k].rare1 = offsets[order[0]]
        patterns[k].rare2 = offsets[order[1]]
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
              rare1: Int64(p.rare1), rare2: Int64(p.rare2), caseless: p.asciiCaseInsensitive ? 1 : 0,
              rare3: Int64(p.rare3)))
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
