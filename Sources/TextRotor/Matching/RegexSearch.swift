import TextRotorICU

/// Line-oriented ICU regex search over UTF-8 bytes.
///
/// Without a prefilter, the expression runs over the whole range at once in multiline mode (one
/// `uregex_findNext` loop, as fast as ICU goes); a match that would span a line terminator is
/// searched again inside its first line, so no match crosses lines. Region bounds are transparent,
/// so look-around and `\b` see the neighbouring text, and `^`/`$` match only at real line edges.
///
/// With a prefilter (a literal every match must contain), only the lines holding that literal, found
/// by the vectorised byte search, are given to ICU.
final class RegexSearch {
  enum Mode {
    /// One findNext loop over the whole range; crossing matches are re-searched in their line.
    case whole
    /// Only lines containing one of the literals.
    case prefiltered([BytePattern])
    /// Only the windows around each occurrence of a literal every match holds (one per top-level
    /// alternative, searched together with the set), stretched over the runs of characters the
    /// pattern may consume before and after it (``LiteralAnchor``). With `foldingExceptions` (the
    /// literals matched without case, as ASCII letters of either case), the run of characters a
    /// match may hold around a character whose full case folding is ASCII (``FoldingExceptions``)
    /// is searched by ICU.
    case anchored([WindowAnchor], BytePatternSet?, foldingExceptions: Bool)
    /// Every line on its own (the plain reference path; used by tests).
    case lineByLine
    /// Only the lines where the search given (over the whole text, on RE2) finds a match of a
    /// relaxed form of the pattern (``RegexRelaxation``), each searched on its own.
    case relaxed(RegexSearch)
  }

  let regex: RegexEngine
  let mode: Mode
  /// Each line is its own text: nothing outside the line is seen, so `\A`, `\z`, `\Z`, `\G` and
  /// look-around stop at its edges, as in ripgrep, which matches each line alone. For patterns
  /// holding those (``PatternMatcher/readsPastLine(_:)``): over a whole text they would see the
  /// neighbouring lines, and what they find would depend on how much text the search was given
  /// (a file, a batch of elements, the lines around an edit). Any mode but `.whole` (which hands
  /// ICU whole chunks) then binds the line around each region it searches.
  let lineLocal: Bool
  /// The line bound as the text in `lineLocal` mode (in the bytes of `boundTo`).
  private var boundLine: Range<Int>? = nil
  /// The bytes the expression is bound to (it holds them, so the identifier cannot be reused while
  /// they are bound).
  private var boundTo: ObjectIdentifier?
  private var boundFrom = 0
  /// The last occurrence search of a `runAnchored` its visitor stopped: the first occurrence at or
  /// after `from` in `bytes` before `upper` (nil: none). The next run, started a little further on
  /// (`find -w` searching a rejected candidate's line, ``PatternMatcher``), finds there the
  /// occurrence the stopped one had looked ahead to, instead of scanning for it again. Held until
  /// that run or ``forgetScans()``.
  private var scanMemo: (bytes: ByteStorage, from: Int, upper: Int, hit: Int?)? = nil

  /// Drops the memo of the last occurrence search (and the bytes it holds).
  func forgetScans() { scanMemo = nil }

  init(_ regex: RegexEngine, mode: Mode, lineLocal: Bool = false) {
    precondition(!lineLocal || { if case .whole = mode { false } else { true } }(), "a whole-text mode binds no line")
    self.regex = regex
    self.mode = mode
    self.lineLocal = lineLocal
  }

  /// Whether the region the engine searches now is known to be well-formed UTF-8 (on RE2).
  var regionIsWellFormed: Bool { regex.regionIsWellFormed }

  /// ICU only.
  convenience init(_ regex: RegularExpression, mode: Mode, lineLocal: Bool = false) {
    self.init(RegexEngine(regex), mode: mode, lineLocal: lineLocal)
  }

  /// Binds the engine to `bytes`. A byte order mark at their start is not content when the
  /// search starts after it (a file's, searched by `find` or a file document's rotor): the engine's
  /// text begins after it, so `^` matches there as at the start of a file without one (as in rg).
  private func bind(_ bytes: ByteStorage, searching range: Range<Int>) throws(ICUError) {
    if lineLocal { return }  // lines are bound one at a time (`bindLine`)
    let start = range.lowerBound >= 3 ? TextFacts.byteOrderMarkLength(bytes) : 0
    if boundTo != ObjectIdentifier(bytes) || boundFrom != start {
      try regex.setText(bytes, from: start)
      boundTo = ObjectIdentifier(bytes)
      boundFrom = start
    }
  }

  /// Reports every match in `range` (lines are those of the range), in order.
  func run(_ bytes: ByteStorage, range: Range<Int>, _ visit: MatchVisitor) throws(ICUError) {
    try bind(bytes, searching: range)
    switch mode {
    case .whole: try runWhole(bytes, range: range, visit)
    case .prefiltered(let literals): try runPrefiltered(bytes, range: range, literals: literals, visit)
    case .anchored(let anchors, let set, foldingExceptions: false):
      try runAnchored(bytes, range: range, anchors: anchors, set: set, visit)
    case .anchored(let anchors, let set, foldingExceptions: true):
      // A match holds only characters of the classes before and after its literal, and the
      // literal's letters of either case (or characters outside ASCII).
      let confinement = anchors.reduce(anchors[0].before.union(anchors[0].after)) {
        $0.union(ByteClass.of($1.literal.bytes, caseless: true))
      }
      // (Each line whole when it is its own text: a part inside a line would be bound as the line.)
      try FoldingExceptions.split(bytes, range: range, confinedTo: lineLocal ? nil : confinement) {
        (part, isException) throws(ICUError) -> Bool in
        isException
          ? try searchLine(bytes, part, range: range, visit)
          : try runAnchored(bytes, range: part, anchors: anchors, set: set, visit)
      }
    case .lineByLine:
      try searchLines(bytes, from: range.lowerBound, range: range, visit)
    case .relaxed where !(Self.isLineStart(range.lowerBound, in: bytes) && Self.endsLine(range, in: bytes)):
      // A range with a part of a line at an edge: that part is a line of its own to the line-local
      // search (`^` and `$` match at the range's edges), not to the filter, which sees the text
      // around. Rare (a file's, an element's, a slice's ranges are whole lines): line by line.
      try searchLines(bytes, from: range.lowerBound, range: range, visit)
    case .relaxed(let filter):
      // The filter's first match on a line (its matches never cross one) names the line; the
      // filter then goes on from the next line. When it names most lines (`(?<![a-z])[a-z]+`,
      // whose relaxed form `[a-z]+` every line of prose holds), the rest is searched line by line.
      var searched = 0
      var rest: Int? = nil
      try filter.run(bytes, range: range) { (m) throws(ICUError) -> MatchVisit in
        let start = LineBounds.start(of: m.lowerBound, in: bytes, floor: range.lowerBound)
        let end = LineBounds.end(of: m.lowerBound, in: bytes, limit: range.upperBound)
        if try self.searchLine(bytes, start..<end, range: range, visit) { return .stop }
        let next = LineBounds.nextStart(after: end, in: bytes, limit: range.upperBound)
        guard next < range.upperBound else { return .stop }
        searched += next - start
        let read = next - range.lowerBound
        if read >= Self.relaxedTrial && searched > read / 4 * 3 {
          rest = next
          return .stop
        }
        return .resume(next)
      }
      guard let rest else { return }
      try searchLines(bytes, from: rest, range: range, visit)
    }
  }

  /// Searches every line of `range` from `start` (a line's start) on, each on its own.
  private func searchLines(
    _ bytes: ByteStorage, from start: Int, range: Range<Int>, _ visit: MatchVisitor
  ) throws(ICUError) {
    for line in LineScanner(bytes, range: start..<range.upperBound) {
      if try searchLine(bytes, line.content, range: range, visit) { return }
    }
  }

  /// Whether `offset` starts a line of `bytes`: the text's start (or the end of its byte order
  /// mark, see `bind`) or right after a line terminator (not between the CR and LF of a CR LF).
  private static func isLineStart(_ offset: Int, in bytes: ByteStorage) -> Bool {
    guard offset > 0 && offset != TextFacts.byteOrderMarkLength(bytes) else { return true }
    let b = bytes[offset - 1]
    return b == 0x0A || (b == 0x0D && (offset == bytes.count || bytes[offset] != 0x0A))
  }

  /// Whether `range` ends where a line of `bytes` does: the text's end, a line terminator, or
  /// right after one (a slice of `count`'s ends where the next one starts, at a line's start).
  private static func endsLine(_ range: Range<Int>, in bytes: ByteStorage) -> Bool {
    let u = range.upperBound
    guard u < bytes.count && u > 0 else { return true }
    let b = bytes[u - 1]
    return bytes[u] == 0x0A || bytes[u] == 0x0D || b == 0x0A || (b == 0x0D && bytes[u] != 0x0A)
  }

  /// The bytes read (from a range's start) before a relaxed search that has given most of them
  /// to ICU goes on line by line (``Mode/relaxed(_:)``).
  static let relaxedTrial = 1 << 16

  /// In `lineLocal` mode: binds the line around `region` (a line, or part of one) as the text,
  /// unless it is bound already.
  private func bindLine(_ bytes: ByteStorage, around region: Range<Int>, range: Range<Int>) throws(ICUError) {
    // Nothing before the range is the line's (so a byte order mark the range starts after is not
    // content, see `bind`).
    let floor = range.lowerBound
    if boundTo == ObjectIdentifier(bytes), boundFrom == floor, let line = boundLine,
      line.lowerBound <= region.lowerBound, region.upperBound <= line.upperBound
    {
      return
    }
    let start = LineBounds.start(of: Swift.max(region.lowerBound, floor), in: bytes, floor: floor)
    let end = LineBounds.end(of: Swift.max(region.lowerBound, floor), in: bytes, limit: range.upperBound)
    try regex.setText(bytes, exactly: start..<Swift.max(end, region.upperBound))
    boundTo = ObjectIdentifier(bytes)
    boundFrom = floor
    boundLine = start..<Swift.max(end, region.upperBound)
  }

  /// Searches `line` (a line, or the rest of one from some offset). Returns true when the visitor stopped.
  func searchLine(
    _ bytes: ByteStorage, _ line: Range<Int>, range: Range<Int>, _ visit: MatchVisitor
  ) throws(ICUError) -> Bool {
    if lineLocal {
      try bindLine(bytes, around: line, range: range)
    } else {
      try bind(bytes, searching: range)
    }
    var start = line.lowerBound
    while true {
      try regex.setRegion(start..<line.upperBound)
      var resume: Int? = nil
      var skipBelow: Int? = nil
      var stopped = false
      var found = 0
      let onICU = regex.searchesOnICU
      try regex.forEachMatch { (m) throws(ICUError) -> Bool in
        found += 1
        if let goOn = Self.skip(m, skipBelow: &skipBelow, resume: &resume, found: found, in: bytes, spends: onICU) {
          return goOn
        }
        if m.isEmpty && !LineBounds.isOnLine(m.lowerBound, in: bytes, range: range) { return true }
        let goOn = try Self.deliver(
          m, to: visit, found: found, in: bytes, skipBelow: &skipBelow, resume: &resume, stopped: &stopped)
        return goOn
          && !(onICU && Self.regionIsSpent(after: m, found: found, skipBelow: skipBelow, resume: &resume))
      }
      if stopped { return true }
      guard let r = resume, r <= line.upperBound else { return false }
      start = r
    }
  }

  /// How many matches one region yields before it is set again (``regionIsSpent``): ICU's largest
  /// batch (``RegularExpression/matchesPerBatch``), so that the region is set again where a batch
  /// ends. (It was set again after 64 matches of a batch of 256, and ICU found the other 192 again
  /// from there: a 100 MB line of prose took 4 times the steps of its lines searched one by one.
  /// The time limit is counted over this many matches.)
  static let matchesPerRegion = RegularExpression.matchesPerBatch

  /// Whether the search should set its region again after `m`, the `found`th match of the region,
  /// which the visitor took and went on from: ICU's time limit counts every step since the region
  /// was set, over all the matches found since, so a long line with many matches (a 100 MB line of
  /// prose, `(?<![a-z])[a-z]+`) ran past it though no match took long. Once ``matchesPerRegion``
  /// matches were found (where a batch ends) the search resumes where `m` ends (bounds are
  /// transparent: it goes on as it would have), when that finds nothing again: `m` is not empty
  /// (after an empty match ICU steps a character on) and no match is being skipped; else after the
  /// next match that is (every other match of `a*` on `axax` is empty).
  /// ICU only (``RegexEngine/searchesOnICU``): RE2 has no time limit, and setting its region checks
  /// the region's bytes, so a reset every 64 matches of a long line was quadratic.
  private static func regionIsSpent(after m: Range<Int>, found: Int, skipBelow: Int?, resume: inout Int?) -> Bool {
    // At least (not exactly: the match there may be empty, as every other one of `a*` on `axax`)
    // that many.
    guard found >= matchesPerRegion, !m.isEmpty, skipBelow == nil, resume == nil else { return false }
    resume = m.upperBound
    return true
  }

  /// Hands `m` to the visitor and records its answer: where to resume, or that it stopped. Returns
  /// whether the engine's match loop goes on. A resume past the match's end (the next line, `-c`)
  /// goes on in the same loop, the matches before it skipped (see ``skip(_:skipBelow:resume:found:in:spends:)``):
  /// a new search there would find again, one at a time, the batch of matches the loop has found;
  /// but when `m` (the region's `found`th match) ends the engine's batch and the resume point starts
  /// a line (``startsLine(_:in:)``), the search starts again there at once.
  private static func deliver(
    _ m: Range<Int>, to visit: MatchVisitor, found: Int, in bytes: ByteStorage, skipBelow: inout Int?,
    resume: inout Int?, stopped: inout Bool
  ) throws(ICUError) -> Bool {
    switch try visit(m) {
    case .next: return true
    case .resume(let p):
      // Past the match (the next line): the matches before `p` are skipped in this loop, unless
      // the engine's batch ends with this one (the loop would only find more to skip).
      if p > m.upperBound && !(RegularExpression.endsBatch(found) && Self.startsLine(p, in: bytes)) {
        skipBelow = p
        return true
      }
      resume = p
      return false
    case .stop:
      stopped = true
      return false
    }
  }

  /// While matches before `skipBelow` are skipped: nil when `m` starts at or after it (the skip is
  /// over: `m` is what a search from there finds first), true to skip `m`, false when `m` ends at
  /// or past it (a search from there could find another match, or an empty one where `m` ends):
  /// the loop then stops and the search starts again there (`resume`).
  ///
  /// The skip also ends, and the search starts again at `skipBelow` when it starts a line, where
  /// the engine's batch of matches ends (the `found`th match of the region,
  /// ``RegularExpression/endsBatch(_:)``), or on ICU (`spends`) once ``matchesPerRegion`` were found: the
  /// engine would find the next batch only for it to be skipped too, and a line dense in matches
  /// (`-c --regex '[a-z]'`, plain output of `'\w+'`: only a line's first match is needed) had every
  /// one of them found, 80 times rg's time; on ICU a region's time limit counted them all.
  private static func skip(
    _ m: Range<Int>, skipBelow: inout Int?, resume: inout Int?, found: Int, in bytes: ByteStorage, spends: Bool
  ) -> Bool? {
    guard let p = skipBelow else { return nil }
    if m.lowerBound >= p {
      skipBelow = nil
      return nil
    }
    let restarts =
      (RegularExpression.endsBatch(found) && startsLine(p, in: bytes)) || (spends && found >= matchesPerRegion)
    if m.upperBound < p && !restarts { return true }
    skipBelow = nil
    resume = p
    return false
  }

  /// Whether `p` starts a line (it follows a line feed or a carriage return): where a search ends a
  /// skip early and starts again (``skip(_:skipBelow:resume:found:in:spends:)``). Only there: a
  /// region set inside a line, at the end of the text after an empty match, made ICU find a `\B`
  /// that a search going on did not.
  private static func startsLine(_ p: Int, in bytes: ByteStorage) -> Bool {
    p > 0 && p <= bytes.count && (bytes[p - 1] == 0x0A || bytes[p - 1] == 0x0D)
  }

  /// Bytes per `uregex_findNext` region in whole-text mode: ICU's time limit counts the steps of one
  /// find, scanning included, so a long text is searched in line-aligned chunks of about this size.
  var chunkSize = 1 << 20

  private func runWhole(_ bytes: ByteStorage, range: Range<Int>, _ visit: MatchVisitor) throws(ICUError) {
    var chunkStart = range.lowerBound
    while true {
      var chunkEnd = range.upperBound
      if range.upperBound - chunkStart > chunkSize {
        let lineEnd = LineBounds.end(of: chunkStart + chunkSize, in: bytes, limit: range.upperBound)
        chunkEnd = LineBounds.nextStart(after: lineEnd, in: bytes, limit: range.upperBound)
      }
      if try runChunkSplittingSeveral(bytes, chunkStart..<chunkEnd, range: range, visit) { return }
      if chunkEnd >= range.upperBound { return }
      chunkStart = chunkEnd
    }
  }

  /// ``runChunk(_:_:range:_:)``, but for a pattern on RE2 without case, the lines holding a
  /// character whose folding is several characters (which RE2 leaves to ICU) are searched on their
  /// own, so that one `ß` leaves its line to ICU, not its megabyte. Returns true when the visitor
  /// stopped.
  private func runChunkSplittingSeveral(
    _ bytes: ByteStorage, _ chunk: Range<Int>, range: Range<Int>, _ visit: MatchVisitor
  ) throws(ICUError) -> Bool {
    guard regex.linear != nil, regex.translation?.caseless == true else {
      return try runChunk(bytes, chunk, range: range, visit)
    }
    var position = chunk.lowerBound
    while let f = CaseClasses.firstFoldedToSeveral(in: bytes, range: position..<chunk.upperBound) {
      let start = LineBounds.start(of: f, in: bytes, floor: position)
      let end = LineBounds.nextStart(
        after: LineBounds.end(of: f, in: bytes, limit: chunk.upperBound), in: bytes, limit: chunk.upperBound)
      if start > position, try runChunk(bytes, position..<start, range: range, visit) { return true }
      if try runChunk(bytes, start..<end, range: range, visit) { return true }
      position = end
    }
    // The rest (the whole chunk when it holds none, an empty one included).
    guard position < chunk.upperBound || position == chunk.lowerBound else { return false }
    return try runChunk(bytes, position..<chunk.upperBound, range: range, visit)
  }

  /// Searches `chunk` (whole lines). Returns true when the visitor stopped.
  private func runChunk(
    _ bytes: ByteStorage, _ chunk: Range<Int>, range: Range<Int>, _ visit: MatchVisitor
  ) throws(ICUError) -> Bool {
    // An empty match at the end of a chunk that is not the range's end is the next chunk's.
    let lastEmpty = chunk.upperBound == range.upperBound ? chunk.upperBound : chunk.upperBound - 1
    var position = chunk.lowerBound
    while position <= chunk.upperBound {
      try regex.setRegion(position..<chunk.upperBound)
      var crossing: Range<Int>? = nil
      var resume: Int? = nil
      var skipBelow: Int? = nil
      var stopped = false
      var found = 0
      let onICU = regex.searchesOnICU
      try regex.forEachMatch { (m) throws(ICUError) -> Bool in
        found += 1
        if let goOn = Self.skip(m, skipBelow: &skipBelow, resume: &resume, found: found, in: bytes, spends: onICU) {
          return goOn
        }
        if m.isEmpty {
          if m.lowerBound > lastEmpty || !LineBounds.isOnLine(m.lowerBound, in: bytes, range: range) { return true }
        } else if LineBounds.containsTerminator(m, in: bytes) {
          crossing = m
          return false
        }
        let goOn = try Self.deliver(
          m, to: visit, found: found, in: bytes, skipBelow: &skipBelow, resume: &resume, stopped: &stopped)
        return goOn
          && !(onICU && Self.regionIsSpent(after: m, found: found, skipBelow: skipBelow, resume: &resume))
      }
      if stopped { return true }
      if let m = crossing {
        let end = LineBounds.end(of: m.lowerBound, in: bytes, limit: chunk.upperBound)
        if try searchLine(bytes, m.lowerBound..<end, range: range, visit) { return true }
        if end >= chunk.upperBound { return false }
        position = LineBounds.nextStart(after: end, in: bytes, limit: chunk.upperBound)
        continue
      }
      guard let r = resume else { return false }
      position = r
    }
    return false
  }

  private func runPrefiltered(
    _ bytes: ByteStorage, range: Range<Int>, literals: [BytePattern], _ visit: MatchVisitor
  ) throws(ICUError) {
    // Up to 8 literals in one pass; more, one pass each (the next occurrence of each at or after
    // `position` is kept: nil when none is left).
    let set = literals.count > 1 && literals.count <= 8 ? BytePatternSet(literals) : nil
    var hits: [Int?] = Array(repeating: range.lowerBound - 1, count: literals.count)
    var position = range.lowerBound
    while position < range.upperBound {
      var hit: Int? = nil
      if let set {
        hit = bytes.firstIndex(ofAny: set, in: position..<range.upperBound)?.offset
      } else {
        for k in literals.indices {
          if let h = hits[k], h < position {
            hits[k] = bytes.firstIndex(of: literals[k], in: position..<range.upperBound)
          }
          if let h = hits[k], hit.map({ h < $0 }) ?? true { hit = h }
        }
      }
      guard let hit else { return }
      let start = LineBounds.start(of: hit, in: bytes, floor: position)
      let end = LineBounds.end(of: hit, in: bytes, limit: range.upperBound)
      if try searchLine(bytes, start..<end, range: range, visit) { return }
      position = LineBounds.nextStart(after: end, in: bytes, limit: range.upperBound)
    }
  }

  /// The steps this search may still spend matching sequences (``ASCIISequence``) in anchored
  /// mode: it starts at 2^16 and grows by one for each byte the matching gets through; at zero,
  /// the search no longer matches sequences. A step costs about what ICU or RE2 take per byte of a
  /// window, so a pattern this matcher is slow on costs at most about twice their time. Not given
  /// back: the files this search goes on to are searched in windows alone too.
  private(set) var sequenceCredit = 1 << 16

  /// Searches the windows of `anchors` in order (one anchor, or one per top-level alternative).
  /// Every match lies inside the interval of the occurrence of the literal it holds
  /// (``LiteralAnchor``), overlapping intervals are merged, so each match lies in one window and
  /// every start ICU would try outside the windows fails: the matches (and the first one from any
  /// offset) are those of the whole line. Every occurrence of every literal is visited, overlapping
  /// ones too (a literal with a border, `aa` in `aaa`; two alternatives' literals at one offset).
  /// Returns true when the visitor stopped.
  @discardableResult
  private func runAnchored(
    _ bytes: ByteStorage, range: Range<Int>, anchors: [WindowAnchor], set: BytePatternSet?, _ visit: MatchVisitor
  ) throws(ICUError) -> Bool {
    // Every anchor has the same classes (their unions, see `PatternMatcher`), read here once: the
    // loops below then touch no `WindowAnchor` (copying one retains its literal's arrays).
    assert(anchors.allSatisfy { $0.before == anchors[0].before && $0.after == anchors[0].after })
    let before = anchors[0].before
    // With one anchor whose literal is followed by characters one each (`(?<=the\s)\w+`: one
    // `\s`, then `\w`s), an occurrence with another ASCII character there is no match's, and the
    // window ends with the run of the rest's class (it ran over every word and space of the line).
    let fixed = anchors.count == 1 ? anchors[0].afterFixed : []
    var sequence = anchors.count == 1 && sequenceCredit > 0 ? anchors[0].sequence : nil
    var creditedTo = range.lowerBound
    // Every start before it is decided (``ASCIISequence``): no match there, or inside one delivered.
    var tried = range.lowerBound
    let all = anchors[0].after
    let after = fixed.isEmpty ? all : anchors[0].afterRest ?? all
    let shapes = anchors.map(\.shape)
    let single: BytePattern? = anchors.count == 1 ? anchors[0].literal : nil
    let step = anchors.count == 1 && anchors[0].overlapFree ? anchors[0].literal.count : 1
    var window: Range<Int>? = nil
    var from = range.lowerBound
    // The last run scanned each way is remembered, so that each byte is scanned at most once each
    // way however many occurrences share a run (`.*foo` on one long line).
    var lastQ = -1
    var lastA = -1
    var lastX = -1
    var lastB = -1
    // The occurrence a run stopped by its visitor had looked ahead to (see `scanMemo`), for the
    // first search of this one; and this run's last search, kept if it is stopped in turn.
    var memo: (from: Int, hit: Int?)? = nil
    if let m = scanMemo, m.bytes === bytes, m.upper == range.upperBound { memo = (m.from, m.hit) }
    scanMemo = nil
    var lastScan: (from: Int, hit: Int?) = (range.upperBound, nil)
    while true {
      var interval: Range<Int>? = nil
      var hit: Int? = nil
      if from < range.upperBound {
        if let m = memo, m.from <= from, from <= m.hit ?? range.upperBound {
          hit = m.hit
        } else {
          if let single {
            hit = bytes.firstIndex(of: single, in: from..<range.upperBound)
          } else if let set {
            hit = bytes.firstIndex(ofAny: set, in: from..<range.upperBound)?.offset
          }
          lastScan = (from, hit)
        }
        memo = nil
      }
      // A match of a sequence holds an occurrence and starts in the run of `before` characters
      // that ends there (``LiteralAnchor``): each start from the run's first on is matched here
      // (each start before `tried` is decided already), unless a window still to search reaches
      // into that run, or the sequence cannot tell at a start.
      if let q = hit, let matcher = sequence {
        let windowEnd = window?.upperBound ?? range.lowerBound
        var a = q
        // Not below the last occurrence the windows took either: its run's start is known (each
        // byte walked once, however many occurrences the run holds and whichever path took them).
        let floor = Swift.max(tried, windowEnd)
        while a > Swift.max(floor, lastQ) && before.contains(bytes[a - 1]) { a -= 1 }
        if a == lastQ && lastQ > floor { a = Swift.max(lastA, floor) }
        let free =
          a >= windowEnd
          && (a > windowEnd || windowEnd <= tried || a == range.lowerBound || !before.contains(bytes[a - 1]))
        if free {
          var steps = 0
          var outcome = ASCIISequence.Outcome.none
          var start = a
          while start <= q {
            outcome = matcher.match(bytes, at: start, limit: range.upperBound, steps: &steps)
            if outcome != .none { break }
            start += 1
          }
          sequenceCredit += q - creditedTo - steps
          creditedTo = q
          // More steps than bytes got through (repeats that trade characters, `in\s*\w*\s*\w*z`;
          // long runs read again from each of many occurrences): from now on windows alone, whose
          // engine takes them in linear time (RE2) or under a time limit (ICU).
          if sequenceCredit <= 0 { sequence = nil }
          switch outcome {
          case .none:
            tried = q + 1
            from = q + step
            (lastQ, lastA) = (tried, tried)
            continue
          case .match(let e):
            if let w = window, try searchLine(bytes, w, range: range, visit) { return true }
            window = nil
            switch try visit(start..<e) {
            case .next: from = e
            // (Not only past the match: `-w` resumes after a rejected candidate's first character.)
            case .resume(let p): from = p
            case .stop: return true
            }
            tried = from
            (lastQ, lastA) = (tried, tried)
            continue
          case .unknown: break
          }
        }
      }
      if let q = hit {
        for k in shapes.indices
        where single != nil || bytes.hasPrefix(anchors[k].literal, at: q, limit: range.upperBound) {
          let shape = shapes[k]
          let length = shape.length
          var a = q
          let floor = Swift.max(range.lowerBound, lastQ)
          while a > floor && before.contains(bytes[a - 1]) { a -= 1 }
          if a == lastQ && lastQ >= 0 { a = lastA }
          lastQ = q
          lastA = a
          let x = q + length
          // Where the run of `after` starts: past the fixed characters (ASCII ones checked here; at
          // a non-ASCII byte the check ends, and the run of all of them goes on from there).
          var y = x
          var walked = true
          for c in fixed {
            guard y < range.upperBound else {
              walked = false
              break
            }
            let byte = bytes[y]
            if byte >= 0x80 {
              walked = c.nonASCII
              break
            }
            guard c.contains(byte) else {
              walked = false
              break
            }
            y += 1
          }
          if !walked { continue }
          var b = y
          if y < x + fixed.count && !fixed.isEmpty {
            while b < range.upperBound && all.contains(bytes[b]) { b += 1 }
          } else if y >= lastX && y <= lastB {
            b = lastB
          } else {
            while b < range.upperBound && after.contains(bytes[b]) { b += 1 }
            lastX = y
            lastB = b
          }
          // Too few bytes around it for what the pattern must match there (a character is one byte
          // or more): no match holds this occurrence as its literal.
          if q - a < shape.minimumBefore || b - x < shape.minimumAfter { continue }
          // A `\b` that cannot hold: ASCII word characters on both sides (ICU's default `\b`).
          if shape.noBoundaryAt(q, x, in: bytes, range: range) { continue }
          interval = interval.map { Swift.min($0.lowerBound, a)..<Swift.max($0.upperBound, b) } ?? a..<b
        }
        from = q + step
        // Every literal there rejected: the window stays open (a later interval may still reach it).
        if interval == nil { continue }
      }
      if let w = window, let i = interval, i.lowerBound <= w.upperBound {
        window = Swift.min(w.lowerBound, i.lowerBound)..<Swift.max(w.upperBound, i.upperBound)
        continue
      }
      if let w = window, try searchLine(bytes, w, range: range, visit) {
        scanMemo = (bytes, lastScan.from, range.upperBound, lastScan.hit)
        return true
      }
      guard hit != nil else { return false }
      window = interval
    }
  }
}

/// A literal to search for and the bytes a match may stretch over around it (``LiteralAnchor``).
struct WindowAnchor {
  let literal: BytePattern
  let before: ByteClass
  let after: ByteClass
  /// The classes of the characters that come one each right after the literal, then the class of
  /// what follows them (``LiteralAnchor/afterFixed``; for a single anchor only: with several,
  /// every anchor has the same `before` and `after`, their unions).
  var afterFixed: [ByteClass] = []
  var afterRest: ByteClass? = nil
  /// The whole pattern, when it is an ASCII sequence of one-character items (a single anchor
  /// only): the starts around each occurrence are then matched here, and the window's engine is
  /// asked only where that cannot tell (``ASCIISequence``).
  var sequence: ASCIISequence? = nil
  /// The fewest bytes a match holds before and after the literal (``LiteralAnchor``).
  var minimumBefore = 0
  var minimumAfter = 0
  /// A `\b` required right before / after the literal, when the literal's first / last byte is an
  /// ASCII word character (else the check is left to ICU).
  var boundaryBefore = false
  var boundaryAfter = false

  /// What the search loop checks at an occurrence, as plain data (no reference to copy).
  struct Shape {
    let length: Int
    let minimumBefore: Int
    let minimumAfter: Int
    let boundaryBefore: Bool
    let boundaryAfter: Bool

    /// Whether a required `\b` fails at the occurrence `q..<x`: an ASCII word character on both
    /// sides. (ICU's `\b` compares the character after the position with the one before it, marks
    /// skipped; an ASCII character is no mark.)
    func noBoundaryAt(_ q: Int, _ x: Int, in bytes: ByteStorage, range: Range<Int>) -> Bool {
      if boundaryBefore && q > range.lowerBound && WindowAnchor.isASCIIWord(bytes[q - 1]) { return true }
      if boundaryAfter && x < range.upperBound && WindowAnchor.isASCIIWord(bytes[x]) { return true }
      return false
    }
  }

  var shape: Shape {
    Shape(
      length: literal.count, minimumBefore: minimumBefore, minimumAfter: minimumAfter, boundaryBefore: boundaryBefore,
      boundaryAfter: boundaryAfter)
  }

  static func isASCIIWord(_ b: UInt8) -> Bool {
    (b >= 0x30 && b <= 0x39) || (b | 0x20 >= 0x61 && b | 0x20 <= 0x7A) || b == 0x5F
  }

  /// No occurrence of the literal can overlap another (it has no border).
  let overlapFree: Bool

  init(literal: BytePattern, before: ByteClass, after: ByteClass) {
    self.literal = literal
    self.before = before
    self.after = after
    let b = literal.bytes
    var free = true
    if b.count > 1 {
      for k in 1..<b.count where b[0..<(b.count - k)] == b[k...] {
        free = false
        break
      }
    }
    overlapFree = free
  }
}
