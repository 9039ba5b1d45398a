import TextRotorICU

/// Typing inside a word: the update of characters, words, sentences and line-break segments for a
/// keystroke that only lengthens or shortens a run of letters or digits, without segmenting.
///
/// UAX #29 and UAX #14, as ICU implements them, never break inside a run of ASCII letters (words:
/// ALetter × ALetter; line breaks: AL × AL; sentences: a lower-case run, an upper-case run) or of
/// ASCII digits (Numeric × Numeric, NU × NU), and no rule counts the characters of such a run: the
/// rules that look further (WB6/7, SB7/8, LB25) see its class at each end, never its length. So
/// typing letters of a run's class next to a character of that class (or deleting them while one
/// stays beside them) only lengthens or shortens the entry holding that run; every other boundary
/// stays where it was (moved by the edit). Grapheme clusters: a printable ASCII character between
/// two others (or beside a line break, not after a CR) is a cluster of its own (GB999; nothing
/// extends it), so typing n of them adds n one-byte entries and deleting them removes theirs.
///
/// This holds for the locales whose ASCII rules are root's (``FastPath/supports(locale:)``: no
/// sentence suppressions, no tailored ':' or '.'), and is not used when fast paths are off
/// (`TEXTROTOR_NO_FAST_PATH`), so that ICU still computes every answer then. `DocumentEditModelTests`
/// checks it against a rebuild on every position of texts made of the rules' hard cases.
extension RotorDocument {
  /// The bytes beside an edit of `a..<b` that puts `n` bytes there (in the new text `text`), when
  /// the edit may be a keystroke inside a run (at most 16 bytes typed or deleted, not both): what
  /// ``runUpdate`` needs, read once for all rotors. Nil for other edits.
  static func runNeighbours(_ cuts: EditCuts, a: Int, b: Int, inserted n: Int) -> RunNeighbours? {
    guard (a == b && n > 0 && n <= 16) || (n == 0 && b > a && b - a <= 16) else { return nil }
    return RunNeighbours(
      left: a > 0 ? cuts.byte(at: a - 1) : nil, right: a + n < cuts.text.utf8Count ? cuts.byte(at: a + n) : nil)
  }

  /// The update of `kind` for a keystroke inside a run, or nil when the edit is not one: an
  /// insertion of at most 16 bytes (`a == b`, `inserted`) or a deletion of at most 16 (`removed`,
  /// nothing inserted) of one class, beside a character of that class (`neighbours`, from
  /// ``runNeighbours``). Returns the old document range whose entries are replaced, the new
  /// entries (document offsets after the edit) and their shift (0), as ``longLineUpdate`` does.
  func runUpdate(
    _ kind: SystemRotor, _ index: SegmentIndex, _ neighbours: RunNeighbours, elementStart s: Int, a: Int, b: Int,
    inserted: [UInt8], removed: [UInt8]?
  ) -> (old: Range<Int>, store: SegmentStore, storeDelta: Int)? {
    let n = inserted.count
    guard let typed = n > 0 ? inserted : removed else { return nil }
    let delta = n - (b - a)
    let (left, right) = (neighbours.left, neighbours.right)
    if kind == .characters {
      return clusterUpdate(index, elementStart: s, a: a, b: b, inserted: n, typed: typed, left: left, right: right)
    }
    guard let runClass = Self.runClass(kind) else { return nil }
    guard let first = typed.first, let x = runClass(first), typed.allSatisfy({ runClass($0) == x }) else { return nil }
    // The old entry holding the neighbour of the typed class: the run the edit lengthens or shortens.
    let found: SegmentStore.Segment?
    if let left, runClass(left) == x {
      found = index.entry(startingAtOrBefore: s + a - 1)
    } else if let right, runClass(right) == x {
      found = index.entry(startingAtOrBefore: s + b)
    } else {
      return nil
    }
    guard let entry = found else { return nil }
    // The edited bytes lie inside it (deleted ones) or at its edge (typed ones): else the rules
    // did not read as expected, and the caller re-segments.
    guard entry.start >= s, entry.start <= s + a, entry.end >= s + b, entry.end + delta > entry.start else {
      return nil
    }
    var chunk = SegmentStore.Chunk(origin: entry.start)
    chunk.append(start: entry.start, end: entry.end + delta, status: entry.status)
    return (entry.start..<entry.end, SegmentStore(chunks: [chunk]), 0)
  }
  /// The class of a byte inside which `kind` never breaks a run (nil for other bytes), or nil for
  /// a rotor without such runs.
  static func runClass(_ kind: SystemRotor) -> ((UInt8) -> UInt8?)? {
    switch kind {
    case .words, .linebreaks:
      // ALetter / AL for every ASCII letter, Numeric / NU for digits.
      return { c in
        if (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7A { return 1 }
        if c >= 0x30 && c <= 0x39 { return 2 }
        return nil
      }
    case .sentences, .proseSentences:
      // Lower and Upper differ (SB7: Upper ATerm × Upper; SB8 looks for a Lower), Numeric.
      return { c in
        if c >= 0x61 && c <= 0x7A { return 1 }
        if c >= 0x41 && c <= 0x5A { return 3 }
        if c >= 0x30 && c <= 0x39 { return 2 }
        return nil
      }
    case .characters, .lines, .paragraphs:
      return nil
    }
  }

  /// Characters: `typed` (n bytes typed at `a`, or the deleted `a..<b`) are printable ASCII
  /// between printable ASCII neighbours (the left one may be a line feed, the right one a line
  /// break): one-byte clusters added or removed. The entry of a neighbour goes with them, so that
  /// the replaced range is never empty.
  private func clusterUpdate(
    _ index: SegmentIndex, elementStart s: Int, a: Int, b: Int, inserted n: Int, typed: [UInt8], left: UInt8?,
    right: UInt8?
  ) -> (old: Range<Int>, store: SegmentStore, storeDelta: Int)? {
    func isPrintable(_ c: UInt8) -> Bool { c >= 0x20 && c < 0x7F }
    guard typed.allSatisfy(isPrintable) else { return nil }
    if let left, !(isPrintable(left) || left == 0x0A) { return nil }
    if let right, !(isPrintable(right) || right == 0x0A || right == 0x0D) { return nil }
    let delta = n - (b - a)
    var chunk: SegmentStore.Chunk
    let old: Range<Int>
    if right != nil {
      // The entry starting right after the edit (old offsets), moved by it.
      guard let entry = index.entry(startingAtOrBefore: s + b), entry.start == s + b else { return nil }
      chunk = SegmentStore.Chunk(origin: s + a)
      for i in 0..<n { chunk.append(start: s + a + i, end: s + a + i + 1) }
      chunk.append(start: entry.start + delta, end: entry.end + delta, status: entry.status)
      old = (s + a)..<entry.end
    } else if left != nil {
      // At the element's end: the entry ending right before the edit.
      guard let entry = index.entry(startingAtOrBefore: s + a - 1), entry.end == s + a, entry.start >= s
      else { return nil }
      chunk = SegmentStore.Chunk(origin: entry.start)
      chunk.append(start: entry.start, end: entry.end, status: entry.status)
      for i in 0..<n { chunk.append(start: s + a + i, end: s + a + i + 1) }
      old = entry.start..<(s + b)
    } else {
      return nil
    }
    return (old, SegmentStore(chunks: [chunk]), 0)
  }
}

/// The bytes before and after an edit (nil at the text's ends).
struct RunNeighbours {
  var left: UInt8?
  var right: UInt8?
}
