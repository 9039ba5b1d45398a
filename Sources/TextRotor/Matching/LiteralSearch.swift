import TextRotorICU

/// Search for a literal over the UTF-8 bytes with the vectorised byte search.
///
/// Case-sensitive literals are exact byte matches. An ASCII literal without case matches ASCII
/// letters of either case; since ICU's full case folding also lets a few non-ASCII characters match
/// ASCII (`ß` = `ss`, `ſ` = `s`, `K` = `k`, `ﬁ` = `fi`, …; ``FoldingExceptions``), the run of
/// the literal's letters and non-ASCII characters around one of them is searched by ICU instead
/// (`exceptions`), which keeps the result equal to ICU's.
struct LiteralSearch {
  let needle: BytePattern
  /// The ICU search (literal quoted, case-insensitive) for lines holding a folding exception.
  let exceptions: RegexSearch?
  /// No occurrence of the needle can overlap another (it has no border: no proper prefix that is
  /// also a suffix), so after a rejected candidate the next ones already found are still exactly
  /// the next occurrences, and the search need not start again.
  let overlapFree: Bool

  init(needle: BytePattern, exceptions: RegexSearch?) {
    self.needle = needle
    self.exceptions = exceptions
    let b = needle.bytes
    var free = true
    if b.count > 1 {
      for k in 1..<b.count where b[0..<(b.count - k)] == b[k...] {
        free = false
        break
      }
    }
    self.overlapFree = free
  }

  func run(_ bytes: ByteStorage, range: Range<Int>, _ visit: MatchVisitor) throws(ICUError) {
    guard let exceptions else {
      try runBytes(bytes, range, visit)
      return
    }
    // A match holds only the literal's letters of either case, or characters outside ASCII.
    let confinement = ByteClass.of(needle.bytes, caseless: true)
    try FoldingExceptions.split(bytes, range: range, confinedTo: confinement) {
      (part, isException) throws(ICUError) -> Bool in
      isException ? try exceptions.searchLine(bytes, part, range: range, visit) : try runBytes(bytes, part, visit)
    }
  }

  /// Returns true when the visitor stopped.
  @discardableResult
  private func runBytes(_ bytes: ByteStorage, _ range: Range<Int>, _ visit: MatchVisitor) throws(ICUError) -> Bool {
    var starts: [Int] = []
    starts.reserveCapacity(1024)
    var position = range.lowerBound
    while position < range.upperBound {
      starts.removeAll(keepingCapacity: true)
      let resumeAt = bytes.occurrences(of: needle, in: position..<range.upperBound, limit: 1024, into: &starts)
      var restarted = false
      var skipBefore = 0
      for s in starts where s >= skipBefore {
        switch try visit(s..<(s + needle.count)) {
        case .next: continue
        case .stop: return true
        case .resume(let p):
          if overlapFree {
            skipBefore = p
            continue
          }
          position = p
          restarted = true
        }
        break
      }
      if !restarted { position = resumeAt }
    }
    return false
  }

  /// How many matches lie in `range` (no word filter).
  func count(_ bytes: ByteStorage, range: Range<Int>) throws(ICUError) -> Int {
    if exceptions == nil { return bytes.occurrenceCount(of: needle, in: range) }
    var n = 0
    try run(bytes, range: range) { _ in
      n += 1
      return .next
    }
    return n
  }
}

/// The characters whose full case folding holds ASCII letters (by ICU 72's data; a test checks the
/// list against ICU): U+00DF ß, U+0130 İ, U+0149 ŉ, U+017F ſ, U+01F0 ǰ, U+1E96…U+1E9A, U+1E9E ẞ,
/// U+212A K (Kelvin), U+FB00…U+FB06 (ﬀ ﬁ ﬂ ﬃ ﬄ ﬅ ﬆ).
enum FoldingExceptions {
  static let scalars: [UInt32] =
    [0xDF, 0x130, 0x149, 0x17F, 0x1F0] + Array(0x1E96...0x1E9A) + [0x1E9E, 0x212A] + Array(0xFB00...0xFB06)

  /// The first two bytes of every exception (the third, when there is one, is checked after).
  private static let leadPairs = NonASCIIPairs(
    [(0xC3, 0x9F), (0xC4, 0xB0), (0xC5, 0x89), (0xC5, 0xBF), (0xC7, 0xB0), (0xE1, 0xBA), (0xE2, 0x84), (0xEF, 0xAC)]
      as [(UInt8, UInt8)])

  /// Calls `body` with the parts of `range` in order: runs of whole lines holding no exception
  /// character (`false`), and each line holding one, its terminator excluded (`true`), until it
  /// returns true (the search stopped).
  ///
  /// With `confinement`, a class of every ASCII character a match may hold (and of non-ASCII ones
  /// when it says so), the part given for an exception is the run around it of bytes in that
  /// class or outside ASCII, not its whole line: no match crosses another byte (nor a line
  /// terminator, which no class holds), so each match lies in one part, and a long line (a
  /// minified file, a text joined into one line) is not given to ICU whole for one `ß` or `K`.
  /// The parts without exceptions may then begin or end inside a line.
  static func split(
    _ bytes: ByteStorage, range: Range<Int>, confinedTo confinement: ByteClass? = nil,
    _ body: (Range<Int>, Bool) throws(ICUError) -> Bool
  ) throws(ICUError) {
    var position = range.lowerBound
    while position < range.upperBound {
      guard let special = first(in: bytes, range: position..<range.upperBound) else {
        _ = try body(position..<range.upperBound, false)
        return
      }
      if let confinement {
        // A character outside ASCII is never cut: the run's edges are ASCII bytes.
        func holds(_ b: UInt8) -> Bool { b >= 0x80 || confinement.contains(b) }
        var start = special
        while start > position && holds(bytes[start - 1]) { start -= 1 }
        var end = special + 1
        while end < range.upperBound && holds(bytes[end]) { end += 1 }
        // The runs of more exceptions close after it on its line join its part: one ICU search,
        // not one each (German prose holds a `ß` every few words); and close to its line's edges,
        // the part takes the line whole (a line of prose: one search).
        var clearTo = end  // no line terminator from `end` up to here
        var merged = 0
        while true {
          let limit = Swift.min(range.upperBound, end + mergeGap)
          if limit > clearTo || limit == range.upperBound {
            let lineEnd = LineBounds.end(of: Swift.max(clearTo, end), in: bytes, limit: limit)
            if lineEnd < limit || lineEnd == range.upperBound {
              end = lineEnd
              break
            }
            clearTo = limit
          }
          guard let next = first(in: bytes, range: end..<limit) else { break }
          end = next + 1
          while end < range.upperBound && holds(bytes[end]) { end += 1 }
          // Dense (a line of German, of `ß`): the rest of the line as one search, up to 64 KB of it
          // (a 100 MB line is not given to ICU whole for a cluster of them).
          merged += 1
          if merged == Self.denseRuns {
            let far = Swift.min(range.upperBound, end + Self.denseSpan)
            end = LineBounds.end(of: Swift.max(clearTo, end), in: bytes, limit: far)
            while end < range.upperBound && holds(bytes[end]) { end += 1 }
            break
          }
        }
        let lineStart = LineBounds.start(of: start, in: bytes, floor: Swift.max(position, start - mergeGap))
        if lineStart > start - mergeGap || lineStart == position { start = lineStart }
        if start > position, try body(position..<start, false) { return }
        if try body(start..<end, true) { return }
        // Past its line's terminator when it ends there (no part of a terminator alone).
        let atTerminator = end < range.upperBound && (bytes[end] == 0x0A || bytes[end] == 0x0D)
        position = atTerminator ? LineBounds.nextStart(after: end, in: bytes, limit: range.upperBound) : end
        continue
      }
      let start = LineBounds.start(of: special, in: bytes, floor: position)
      let end = LineBounds.end(of: special, in: bytes, limit: range.upperBound)
      if start > position, try body(position..<start, false) { return }
      if try body(start..<end, true) { return }
      position = LineBounds.nextStart(after: end, in: bytes, limit: range.upperBound)
    }
  }

  /// How far after an exception's run (in bytes, on its line) the run of the next one joins its
  /// part (``split(_:range:confinedTo:_:)``).
  static let mergeGap = 1024

  /// How many runs merged into one part make it take the rest of its line, up to `denseSpan`
  /// bytes further (then to the end of the run there).
  static let denseRuns = 16
  static let denseSpan = 1 << 16

  /// The offset of the first exception character in `range`, or nil.
  static func first(in bytes: ByteStorage, range: Range<Int>) -> Int? {
    var position = range.lowerBound
    while let lead = bytes.firstIndex(ofAnyNonASCIIPair: leadPairs, in: position..<range.upperBound) {
      if isException(bytes, at: lead, limit: range.upperBound) { return lead }
      position = lead + 1
    }
    return nil
  }

  private static func isException(_ bytes: ByteStorage, at i: Int, limit: Int) -> Bool {
    guard i + 1 < limit else { return false }
    let b1 = bytes[i + 1]
    switch bytes[i] {
    case 0xC3: return b1 == 0x9F
    case 0xC4: return b1 == 0xB0
    case 0xC5: return b1 == 0x89 || b1 == 0xBF
    case 0xC7: return b1 == 0xB0
    case 0xE1: return i + 2 < limit && b1 == 0xBA && ((0x96...0x9A).contains(bytes[i + 2]) || bytes[i + 2] == 0x9E)
    case 0xE2: return i + 2 < limit && b1 == 0x84 && bytes[i + 2] == 0xAA
    case 0xEF: return i + 2 < limit && b1 == 0xAC && (0x80...0x86).contains(bytes[i + 2])
    default: return false
    }
  }
}
