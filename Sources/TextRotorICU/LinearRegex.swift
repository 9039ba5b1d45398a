import CTextRotorShim

/// An RE2 expression (linear time: no backtracking, so no time limit is needed) matched over UTF-8
/// bytes, with the interface of ``RegularExpression``: the text, a region, the matches of the
/// region in ICU's `uregex_findNext` order (leftmost-first; after an empty match the search goes on
/// one character later). The pattern is in RE2's syntax: ``LinearRegex`` does not check that it
/// means what an ICU pattern means (the translation in `TextRotor` does), and the text must be
/// well-formed UTF-8 in every region searched (RE2 matches no ill-formed byte, ICU reads one as
/// U+FFFD).
///
/// Not thread-safe: use one per thread (``copy()``).
public final class LinearRegex: @unchecked Sendable {
  public let pattern: String
  private let maxProgram: Int?
  private let handle: OpaquePointer
  // The mutable state is exempt from Swift's dynamic exclusivity checks (as `SumTree`'s nodes):
  // a window of a literal is a region, and the checked accesses of a region's search (the state,
  // both buffers, each match read back) were a tenth of a windowed search's time. Only this
  // class's methods touch them, one thread at a time (see above), and `forEachMatch` calls its
  // `body` outside every access.
  @exclusivity(unchecked) private var owner: ByteStorage?
  @exclusivity(unchecked) private var search = cicu_re2_search()
  @exclusivity(unchecked) private var starts = [Int64](repeating: 0, count: RegularExpression.matchesPerBatch)
  /// Matches RE2 has found since this matcher was made, every batch counted whole (for tests).
  public private(set) var matchesFound = 0
  @exclusivity(unchecked) private var ends = [Int64](repeating: 0, count: RegularExpression.matchesPerBatch)

  /// Why RE2 does not take a pattern: RE2's own message (a syntax error, "pattern too large -
  /// compile failed" past its 64 MB budget), or a program too big to be fast (over
  /// `CICU_RE2_MAX_PROGRAM` instructions).
  public struct CompileError: Error, CustomStringConvertible {
    public var description: String
  }

  /// Compiles `pattern` (RE2 syntax); nil when RE2 rejects it or it is past RE2's memory budget.
  public convenience init?(_ pattern: String) {
    try? self.init(compiling: pattern)
  }

  /// Compiles `pattern` (RE2 syntax); throws RE2's reason when it does not. `maxProgram`: the
  /// largest program taken (`CICU_RE2_MAX_PROGRAM` when nil), for patterns whose big program
  /// stays fast (an alternation of literals: its DFA is their trie).
  public init(compiling pattern: String, maxProgram: Int? = nil) throws(CompileError) {
    var error = [CChar](repeating: 0, count: 256)
    let bytes = Array(pattern.utf8)
    let limit = Int32(clamping: maxProgram ?? 0)
    let compiled = bytes.withUnsafeBufferPointer { b in
      b.withMemoryRebound(to: CChar.self) { c in
        error.withUnsafeMutableBufferPointer { e in
          cicu_re2_compile(c.baseAddress, c.count, limit, e.baseAddress, e.count)
        }
      }
    }
    guard let compiled else {
      let message = error.withUnsafeBufferPointer { e in
        String(decoding: e.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      }
      throw CompileError(description: message.isEmpty ? "RE2 does not compile it" : message)
    }
    handle = compiled
    self.pattern = pattern
    self.maxProgram = maxProgram
    search.done = 1
  }

  deinit { cicu_re2_free(handle) }

  /// A new matcher for the same pattern, without text.
  public func copy() -> LinearRegex? { try? LinearRegex(compiling: pattern, maxProgram: maxProgram) }

  /// Points the matcher at all of `bytes`.
  public func setText(_ bytes: ByteStorage) {
    owner = bytes
    search = cicu_re2_search()
    search.done = 1
  }

  /// Limits the search to `range`, starting at its lower bound. `context` is the text RE2 sees
  /// around it (`^` and `$` look at the bytes next to the region inside it); it holds `range`.
  public func setRegion(_ range: Range<Int>, context: Range<Int>) {
    guard let bytes = owner else { return }
    precondition(
      context.lowerBound >= 0 && context.upperBound <= bytes.count && context.lowerBound <= range.lowerBound
        && range.upperBound <= context.upperBound, "region outside the text")
    search = cicu_re2_search()
    search.text = UnsafePointer(bytes.pointer(at: 0))
    search.context_start = context.lowerBound
    search.context_end = context.upperBound
    search.position = range.lowerBound
    search.end = range.upperBound
    search.after_empty = 0
    search.done = bytes.count == 0 ? 1 : 0
    if bytes.count == 0 {
      // No base pointer for an empty text: the one match an empty text can hold is the empty one.
      emptyText = true
    } else {
      emptyText = false
    }
  }

  @exclusivity(unchecked) private var emptyText = false
  private static let empty: [UInt8] = [0]

  /// Calls `body` with the next matches of the region, a batch at a time (one C call per batch),
  /// until `body` returns false or the region has no more matches.
  public func forEachMatch<E: Error>(_ body: (Range<Int>) throws(E) -> Bool) throws(E) {
    if emptyText {
      emptyText = false
      // An empty text: search an empty buffer of our own.
      var hit = false
      Self.empty.withUnsafeBufferPointer { b in
        b.withMemoryRebound(to: CChar.self) { c in
          var s = cicu_re2_search()
          s.text = c.baseAddress
          s.context_start = 0
          s.context_end = 0
          s.position = 0
          s.end = 0
          var a: Int64 = 0
          var z: Int64 = 0
          hit = cicu_re2_find_batch(handle, &s, &a, &z, 1) == 1
        }
      }
      if hit { _ = try body(0..<0) }
      return
    }
    // Batches of 1, 1, 2, 4, 8, 16, 32, 64 matches (``RegularExpression/batchCapacity(after:)``): a visitor
    // that stops at its first match does not pay for RE2 finding 63 more.
    var found = 0
    while search.done == 0 {
      let capacity = RegularExpression.batchCapacity(after: found)
      let n = starts.withUnsafeMutableBufferPointer { s in
        ends.withUnsafeMutableBufferPointer { e in
          Int(cicu_re2_find_batch(handle, &search, s.baseAddress, e.baseAddress, Int32(capacity)))
        }
      }
      matchesFound += n
      found += n
      for k in 0..<n where try !body(Int(starts[k])..<Int(ends[k])) { return }
      if n < capacity { return }
    }
  }
}

/// ICU's UnicodeSet patterns read as code point ranges.
public enum UnicodeSetRanges {
  /// The ranges of the UnicodeSet `pattern` (`[\p{Nd}a-z]`), in order; throws when ICU rejects it.
  ///
  /// `caseless`: closed over case as ICU's regex closes a set without case (full case folding;
  /// the set's strings dropped), then complemented when `complement`.
  public static func of(_ pattern: String, caseless: Bool = false, complement: Bool = false) throws(ICUError)
    -> [ClosedRange<UInt32>]
  {
    let units = Array(pattern.utf16)
    var capacity: Int32 = 64
    while true {
      var ranges = [UInt32](repeating: 0, count: Int(capacity) * 2)
      var status: Int32 = 0
      let n = ranges.withUnsafeMutableBufferPointer { r in
        cicu_uset_ranges_caseless(
          units, Int32(units.count), caseless ? 1 : 0, complement ? 1 : 0, r.baseAddress, capacity, &status)
      }
      if n < 0 { throw ICUError(status, "reading the set \(pattern)") }
      if n <= capacity { return (0..<Int(n)).map { ranges[2 * $0]...ranges[2 * $0 + 1] } }
      capacity = n
    }
  }
}
