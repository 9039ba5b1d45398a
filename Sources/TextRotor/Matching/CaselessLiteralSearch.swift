import TextRotorICU

/// `-i` on a non-ASCII literal without ICU: the case variants of a few of its characters
/// (``CaseClasses/needleWindow(for:)``) are found in one vectorised pass, every occurrence
/// (overlapping ones too), and each is checked by full case folding of the text around it, as ICU
/// matches a case-insensitive literal string: the text's characters, folded (`ß` → `ss`, `ᾳ` → `αι`),
/// must give exactly the literal's folding, character boundaries aligned.
///
/// The window's characters are safe ones (no other character's multi-scalar folding holds them), so
/// in every match the window's folding comes from single text characters at the window's place: a
/// match holds an occurrence of a needle exactly there. From an occurrence the text is folded
/// backwards over what comes before the window, forwards over the rest. Matches are delivered in
/// order of their starts, leftmost and non-overlapping.
struct CaselessLiteralSearch {
  let set: BytePatternSet
  /// The full folding of the literal's characters before the window, and of the window and after.
  let before: [UInt32]
  let rest: [UInt32]
  /// The characters whose full folding is several scalars, and those scalars (from ICU).
  let multiScalar: [UInt32: [UInt32]]

  /// nil when the literal has no safe window, holds U+FFFD, or ICU's foldings are not available.
  init?(_ literal: String) {
    guard !literal.unicodeScalars.contains("\u{FFFD}"), let (window, needles) = CaseClasses.needleWindow(for: literal),
      let multiScalar = Self.multiScalarFoldings
    else { return nil }
    self.multiScalar = multiScalar
    let scalars = Array(literal.unicodeScalars).map(\.value)
    func fold(_ s: ArraySlice<UInt32>) -> [UInt32] {
      s.flatMap { multiScalar[$0] ?? [CaseClasses.fold($0)] }
    }
    before = fold(scalars[..<window.lowerBound])
    rest = fold(scalars[window.lowerBound...])
    set = BytePatternSet(needles.map { BytePattern($0) })
  }

  /// The full folding of every character whose folding is several scalars, from ICU.
  static let multiScalarFoldings: [UInt32: [UInt32]]? = {
    guard let folding = try? CaseFolding() else { return nil }
    var result: [UInt32: [UInt32]] = [:]
    for value in CaseClasses.foldedToSeveral {
      guard let scalar = Unicode.Scalar(value), let folded = try? folding.fold(String(scalar)) else { return nil }
      result[value] = folded.unicodeScalars.map(\.value)
    }
    return result
  }()

  /// The simple folding of the scalars below U+0800 (ASCII, Latin, Greek, Cyrillic, ...), or
  /// `UInt32.max` for those whose full folding is several scalars: no dictionary look-up for them.
  private static let smallFoldings: [UInt32] = (0..<UInt32(0x800)).map {
    CaseClasses.foldedToSeveral.contains($0) ? .max : CaseClasses.fold($0)
  }

  /// Whether the full folding of `c` is `expected[at...]`'s next scalars; returns how many it holds, or nil.
  @inline(__always)
  private func folds(_ c: UInt32, to expected: [UInt32], at i: Int) -> Int? {
    if c < 0x800 {
      let f = Self.smallFoldings[Int(c)]
      if f != .max { return expected[i] == f ? 1 : nil }
    }
    let folded = multiScalar[c] ?? [CaseClasses.fold(c)]
    guard folded.count <= expected.count - i, expected[i..<(i + folded.count)].elementsEqual(folded) else {
      return nil
    }
    return folded.count
  }

  /// The most bytes of text before an occurrence that a match can start at.
  private var reachBack: Int { 4 * before.count }

  func run(_ bytes: ByteStorage, range: Range<Int>, _ visit: MatchVisitor) throws(ICUError) {
    var pending: [Range<Int>] = []
    var next = range.lowerBound  // no match may start before this
    // Delivers the pending matches starting before `limit`, in order; returns true when stopped.
    func deliver(before limit: Int) throws(ICUError) -> Bool {
      guard !pending.isEmpty else { return false }
      pending.sort { $0.lowerBound < $1.lowerBound }
      var kept: [Range<Int>] = []
      for m in pending {
        if m.lowerBound >= limit {
          kept.append(m)
          continue
        }
        guard m.lowerBound >= next else { continue }
        switch try visit(m) {
        case .next: next = m.upperBound
        case .resume(let p): next = p
        case .stop: return true
        }
      }
      pending = kept
      return false
    }
    var position = range.lowerBound
    var starts: [Int] = []
    starts.reserveCapacity(1024)
    while position < range.upperBound {
      starts.removeAll(keepingCapacity: true)
      position = bytes.occurrences(ofAny: set, in: position..<range.upperBound, limit: 1024, into: &starts)
      for o in starts {
        if try deliver(before: o - reachBack) { return }
        if let m = match(at: o, in: bytes, range: range) { pending.append(m) }
      }
    }
    _ = try deliver(before: .max)
  }

  /// The match whose window starts at `o`, or nil.
  func match(at o: Int, in bytes: ByteStorage, range: Range<Int>) -> Range<Int>? {
    var start = o
    var j = before.count
    while j > 0 {
      guard let (c, length) = Self.scalar(endingAt: start, in: bytes, floor: range.lowerBound) else { return nil }
      if c < 0x800 && Self.smallFoldings[Int(c)] != .max {
        guard before[j - 1] == Self.smallFoldings[Int(c)] else { return nil }
        j -= 1
      } else {
        let folded = multiScalar[c] ?? [CaseClasses.fold(c)]
        guard folded.count <= j, before[(j - folded.count)..<j].elementsEqual(folded) else { return nil }
        j -= folded.count
      }
      start -= length
    }
    var end = o
    var i = 0
    while i < rest.count {
      guard let (c, length) = Self.scalar(at: end, in: bytes, limit: range.upperBound),
        let n = folds(c, to: rest, at: i)
      else { return nil }
      i += n
      end += length
    }
    return start..<end
  }

  /// The well-formed UTF-8 scalar starting at `i` (ending by `limit`) and its length, or nil.
  static func scalar(at i: Int, in bytes: ByteStorage, limit: Int) -> (UInt32, Int)? {
    guard i < limit else { return nil }
    let b0 = bytes[i]
    if b0 < 0x80 { return (UInt32(b0), 1) }
    let length: Int
    var low: UInt8 = 0x80
    var high: UInt8 = 0xBF
    switch b0 {
    case 0xC2...0xDF: length = 2
    case 0xE0...0xEF:
      length = 3
      if b0 == 0xE0 { low = 0xA0 }
      if b0 == 0xED { high = 0x9F }
    case 0xF0...0xF4:
      length = 4
      if b0 == 0xF0 { low = 0x90 }
      if b0 == 0xF4 { high = 0x8F }
    default: return nil
    }
    guard i + length <= limit else { return nil }
    let b1 = bytes[i + 1]
    guard b1 >= low && b1 <= high else { return nil }
    var value = UInt32(b0 & (0xFF >> (length + 1))) << 6 | UInt32(b1 & 0x3F)
    for k in 2..<(length == 2 ? 2 : length) {
      let b = bytes[i + k]
      guard b & 0xC0 == 0x80 else { return nil }
      value = value << 6 | UInt32(b & 0x3F)
    }
    return (value, length)
  }

  /// The well-formed UTF-8 scalar ending at `end` (starting at or after `floor`) and its length, or nil.
  static func scalar(endingAt end: Int, in bytes: ByteStorage, floor: Int) -> (UInt32, Int)? {
    var start = end - 1
    while start >= floor && end - start < 4 && bytes[start] & 0xC0 == 0x80 { start -= 1 }
    guard start >= floor, let (c, length) = scalar(at: start, in: bytes, limit: end), start + length == end else {
      return nil
    }
    return (c, length)
  }
}
