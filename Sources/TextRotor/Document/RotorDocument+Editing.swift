import TextRotorICU

/// What an edit changed in one rotor: the entries removed (indices before the edit) and added
/// (indices after it). A rotor whose entries only moved (a custom rotor after typing) reports
/// empty ranges; one that had to be dropped and will be rebuilt reports `rebuilt`.
///
/// For a text edit and an element insert or removal, `removed` and `added` start at the same
/// index: the entries `removed` are replaced by those `added`. For an element `move` they do not:
/// the element's entries are removed at `removed` (indices before the move), and the entries
/// `added` (indices after it) are where they are now. Applied to a copy of the rotor's entries:
/// remove `removed` first, then insert at `added.lowerBound`.
public struct RotorChange: Equatable, Sendable {
  public var removed: Range<Int>
  public var added: Range<Int>
  public var rebuilt = false
}

/// What an edit did: the element, its edited UTF-8 range (before the edit) and the length of the
/// text put there, the document's new generation, and per rotor name what changed.
public struct DocumentChange<ID: Hashable> {
  public var element: ID
  /// The replaced UTF-8 range of the element's text, in offsets before the edit (for an inserted
  /// element: `0..<0`; for a removed one: its whole text; for a moved one: its whole text, removed
  /// at its old place and inserted at its new one).
  public var editedRange: Range<Int>
  public var insertedCount: Int
  public var generation: Int

  /// What changed in each rotor, by rotor name.
  ///
  /// Built when read: an edit records the system rotors in slots (``SystemRotorChanges``) and the
  /// others by name, so that it hashes no rotor name for the seven system rotors (4,500
  /// instructions of an edit's 148,000 went to a dictionary of them).
  public var rotors: [String: RotorChange] {
    get {
      var all: [String: RotorChange] = [:]
      system.forEach { kind, c in all[kind.rawValue] = c }
      named.forEach { name, c in all[name] = c }
      return all
    }
    set {
      // A system rotor's name goes to its slot, where `subscript(rotor: SystemRotor)` reads it.
      named = NamedRotorChanges()
      system = SystemRotorChanges()
      for (name, c) in newValue {
        if let kind = SystemRotor(rawValue: name) { system[kind] = c } else { named[name] = c }
      }
    }
  }

  /// What changed in the rotor named `name` (a system rotor's raw value, or a custom, pattern or
  /// structure rotor's name), or nil when the document did not hold it: what `rotors[name]` gives,
  /// without building the dictionary (read this way on every keystroke).
  public subscript(rotor name: String) -> RotorChange? {
    if let c = named[name] { return c }
    return SystemRotor(rawValue: name).flatMap { system[$0] }
  }

  /// What changed in system rotor `kind`, or nil when the document did not hold it.
  public subscript(rotor kind: SystemRotor) -> RotorChange? { system[kind] }

  /// The system rotors' changes.
  var system = SystemRotorChanges()
  /// The other rotors' changes, by name.
  var named = NamedRotorChanges()

  init(element: ID, editedRange: Range<Int>, insertedCount: Int, generation: Int) {
    self.element = element
    self.editedRange = editedRange
    self.insertedCount = insertedCount
    self.generation = generation
  }

  /// Records what changed in system rotor `kind`.
  mutating func record(_ kind: SystemRotor, _ change: RotorChange) { system[kind] = change }
}

/// What an edit changed in each system rotor, in slots by ``SystemRotor`` ordinal. Not generic, so
/// that recording a change asks the runtime for no metadata (a `[RotorChange?]` made in the generic
/// ``DocumentChange`` did, 1,400 instructions per element move).
struct SystemRotorChanges: Sendable {
  private var slots: [RotorChange?] = []

  subscript(kind: SystemRotor) -> RotorChange? {
    get { slots.isEmpty ? nil : slots[kind.ordinal] }
    set {
      if slots.isEmpty { slots = Array(repeating: nil, count: SystemRotor.allCases.count) }
      slots[kind.ordinal] = newValue
    }
  }

  /// Calls `body` with each recorded rotor and its change, in ``SystemRotor/allCases`` order.
  func forEach(_ body: (SystemRotor, RotorChange) -> Void) {
    for (k, c) in slots.enumerated() {
      if let c { body(SystemRotor.allCases[k], c) }
    }
  }
}

/// What an edit changed in the rotors other than system ones (custom, pattern, structure), by name:
/// a few pairs searched in order, so that recording one hashes no name (an element move records its
/// custom rotors twice).
struct NamedRotorChanges: Sendable {
  private var pairs: [(name: String, change: RotorChange)] = []

  subscript(name: String) -> RotorChange? {
    get { pairs.first { $0.name == name }?.change }
    set {
      if let k = pairs.firstIndex(where: { $0.name == name }) {
        if let newValue { pairs[k].change = newValue } else { pairs.remove(at: k) }
      } else if let newValue {
        pairs.append((name, newValue))
      }
    }
  }

  /// Calls `body` with each rotor's name and change, in the order recorded.
  func forEach(_ body: (String, RotorChange) -> Void) {
    for (name, c) in pairs { body(name, c) }
  }
}

extension DocumentChange: Sendable where ID: Sendable {}

/// Whether an anchor at the exact place where text is inserted stays before the new text or moves
/// after it (VS Code's `TrackedRangeStickiness` for one position). A replace counts as an insertion
/// at the start of the replaced range: an anchor at that start stays there (`.staysBefore`) or goes
/// to the end of the new text (`.movesAfter`); an anchor inside the replaced range (whose text is
/// gone) goes to the end of the new text, and one after it moves by the change in length.
public enum AnchorStickiness: Sendable {
  case staysBefore
  case movesAfter
}

/// A position that moves with the text (see ``RotorDocument/anchor(at:stickiness:)``).
public struct TextAnchor: Hashable, Sendable {
  let id: Int
}

/// Edits. After each one every rotor is correct:
/// - system rotors are re-segmented locally: from the start of the line before the edit to the end
///   of the line after it (hard line breaks are boundaries for every segmentation; paragraphs
///   widen to blank lines), within the element, and spliced into their trees: O(log n + window);
/// - computed (pattern) rotors are recomputed over the same lines, or, in a long line and for
///   literals (entries of a bounded length decided by their own bytes), from before the edit until
///   the new matches fall in step with the old ones;
/// - custom rotors' entries move with the text: positions before the edit stay, positions after
///   it move by the change in length, entries grow when text is typed at their edges, an entry
///   without a text range spans its whole element as it grows or shrinks, and entries follow their
///   element when it moves;
/// - anchors move with the text, by their stickiness.
///
/// Invalid arguments (an unknown id, an index out of range, a duplicate id) throw
/// ``DocumentError`` and change nothing. A `String.Index` inside a UTF-8 sequence is rounded down
/// to the scalar's start, as Swift rounds it. If re-segmenting fails (an ICU error), the rotor's
/// cache is dropped and rebuilt in full when next asked for.
extension RotorDocument {
  /// Replaces `range` of element `id`'s text with `text`.
  @discardableResult
  @_specialize(exported:true,where ID == Int)
  @_specialize(exported:true,where ID == String)
  public func replace(_ range: Range<String.Index>, in id: ID, with text: String) throws(DocumentError)
    -> DocumentChange<ID>
  {
    let e = try table.require(id)
    let a = try table.utf8Offset(in: e, range.lowerBound)
    let b = try table.utf8Offset(in: e, range.upperBound)
    return edit(element: e, a..<Swift.max(a, b), with: Array(text.utf8))
  }

  /// Replaces the UTF-8 range `range` of element `id`'s text with `text` (offsets on scalar
  /// boundaries).
  @discardableResult
  @_specialize(exported:true,where ID == Int)
  @_specialize(exported:true,where ID == String)
  public func replace(utf8Range range: Range<Int>, in id: ID, with text: String) throws(DocumentError)
    -> DocumentChange<ID>
  {
    let e = try table.require(id)
    try Self.check(range.lowerBound, in: table[e].text)
    try Self.check(range.upperBound, in: table[e].text)
    return edit(element: e, range, with: Array(text.utf8))
  }

  /// Inserts `text` at `index` of element `id`'s text.
  @discardableResult
  @_specialize(exported:true,where ID == Int)
  @_specialize(exported:true,where ID == String)
  public func insert(_ text: String, at index: String.Index, in id: ID) throws(DocumentError) -> DocumentChange<ID> {
    try replace(index..<index, in: id, with: text)
  }

  func edit(element e: Int, _ range: Range<Int>, with new: [UInt8]) -> DocumentChange<ID> {
    // Inside a long line (no line break within `longLineThreshold` bytes on a side), the window of
    // an edit is not the whole line: see `longLineUpdate`.
    let (long, removed, oldText): (Bool, [UInt8]?, TextRope?) = {
      let text = table[e].text
      let long = isLongLine(text, range.lowerBound, range.upperBound)
      // The removed bytes: for a long line's update, and for the lines and paragraphs rotors of
      // any small edit (an edit without line breaks only grows or shrinks the entry holding it).
      let removed = range.isEmpty ? [] : (long && range.count <= 4096) || range.count <= 64 ? text.bytes(range) : nil
      // The structure rotors read the text before the edit (an O(1) copy of the rope, kept only then).
      return (long, removed, structure != nil ? text : nil)
    }()
    let item = table.replaceText(range, ofElement: e, with: new)
    let text = item.text
    source = nil
    generation += 1
    let s = table.start(of: e)
    let a = range.lowerBound
    let b = range.upperBound
    let n = new.count
    let delta = n - range.count
    var change = DocumentChange(
      element: table.id(of: item), editedRange: range, insertedCount: n, generation: generation)

    // The bytes around the edit: line and paragraph cuts are found by scanning them, and the
    // windows to re-segment are slices of them (the rope is asked only past them).
    let cuts = EditCuts(text: text, edited: a..<(a + n), margin: Self.editViewMargin)
    // The lines around the edit: the window of every rotor but paragraphs, cut once.
    var lineWindow: (ws: Int, we: Int, storage: ByteStorage, range: Range<Int>)? = nil
    func lines() -> (ws: Int, we: Int, storage: ByteStorage, range: Range<Int>) {
      if let lineWindow { return lineWindow }
      let ws = cuts.before(a, rotor: nil)
      let we = cuts.after(a + n, rotor: nil)
      let (storage, r) = cuts.bytes(ws..<we)
      lineWindow = (ws, we, storage, r)
      return lineWindow!
    }
    let neighbours = runEdits ? Self.runNeighbours(cuts, a: a, b: b, inserted: n) : nil
    let oldLength = text.utf8Count - n + range.count
    for kind in systemIndexes.keys {
      // Taken out of the dictionary, so that the index's tree is not shared and changes in place.
      var index = systemIndexes.removeValue(forKey: kind)!
      // An element that was or becomes empty: its lines are found again whole (the edit's text
      // is all of it), so that an empty element among several is one empty line.
      if kind == .lines && emptyElementsAreLines && (oldLength == 0 || text.utf8Count == 0) {
        let removed = Self.segmentLinesAgain(of: item, at: s, oldLength: oldLength, in: &index)
        systemIndexes[kind] = index
        change.record(kind, RotorChange(removed: removed.old, added: removed.new))
        continue
      }
      // A keystroke inside a word needs no segmenting (`runUpdate`); lines and paragraphs only
      // grow or shrink the entry holding a small edit, and long lines are not re-segmented whole
      // (`longLineUpdate`).
      var local = neighbours.flatMap {
        runUpdate(kind, index, $0, elementStart: s, a: a, b: b, inserted: new, removed: removed)
      }
      if local != nil {
        runUpdates += 1
      } else if long || kind == .lines || kind == .paragraphs || kind == .proseSentences {
        local = try? longLineUpdate(
          kind, index, text, cuts, elementStart: s, a: a, b: b, inserted: new, removed: removed)
      }
      if let local {
        let removed = index.replace(
          startingIn: local.old, movingLaterBy: delta, with: local.store, storeDelta: local.storeDelta)
        systemIndexes[kind] = index
        change.record(
          kind,
          RotorChange(
            removed: removed, added: removed.lowerBound..<(removed.lowerBound + local.store.count)))
        continue
      }
      let ws: Int
      let we: Int
      let storage: ByteStorage
      let r: Range<Int>
      if kind.spansLines {
        (ws, we) = window(kind, index, cuts, elementStart: s, a: a, b: b, inserted: n)
        (storage, r) = cuts.bytes(ws..<we)
      } else {
        (ws, we, storage, r) = lines()
      }
      do {
        let store = try windowSegmenter.segment(storage, r, rotor: kind)
        let removed = index.replace(
          startingIn: (s + ws)..<(s + we - delta), movingLaterBy: delta, with: store, storeDelta: s + ws - r.lowerBound)
        systemIndexes[kind] = index
        change.record(
          kind,
          RotorChange(
            removed: removed, added: removed.lowerBound..<(removed.lowerBound + store.count)))
      } catch {
        systemIndexes[kind] = nil
        change.record(kind, RotorChange(removed: 0..<0, added: 0..<0, rebuilt: true))
      }
    }
    let newLength = text.utf8Count
    for name in Array(customRotors.keys) {
      customRotors[name]!.apply(edit: (s + a)..<(s + b), newCount: n) { r, payload in
        payload.hasTextRange ? Self.remap(r, a: s + a, b: s + b, inserted: n) : s..<(s + newLength)
      }
      change.named[name] = RotorChange(removed: 0..<0, added: 0..<0)
    }
    if !computedRotors.isEmpty {
      let emptyLine = newLength == 0 && emptyElementsAreLines
      for name in Array(computedRotors.keys) {
        guard var index = computedRotors[name]!.index else {
          // Not indexed since an update failed (built again when next asked for): still held, so
          // reported as rebuilt.
          change.named[name] = RotorChange(removed: 0..<0, added: 0..<0, rebuilt: true)
          continue
        }
        computedRotors[name]!.index = nil
        // The window matched again and what was found in it (document offsets): inside a long
        // line, for entries of a bounded reach, from before the edit until the new entries fall
        // in step with the old ones; else the lines around the edit.
        let ws: Int
        let we: Int
        let found: [Range<Int>]
        // What moves `found` to document offsets.
        let shift: Int
        let convergent: Bool
        do {
          let computed = computedRotors[name]!
          // A whole-word literal's update by the characters around its candidates gives up where
          // ICU must decide one: its runs then (``MatchReach/runs(_:readsBehind:)``).
          func converge(_ reach: MatchReach) throws -> (ws: Int, we: Int, found: [Range<Int>])? {
            try Self.convergentMatches(
              computed.compute, local: computed.local, reach: reach, index: index, cuts: cuts, elementStart: s, a: a,
              b: b, inserted: n, newLength: newLength)
          }
          if long, !emptyLine, let reach = computed.reach,
            let converged = try converge(reach) ?? computed.fallback.flatMap(converge)
          {
            (ws, we, found, shift, convergent) = (converged.ws, converged.we, converged.found, 0, true)
            convergentMatchUpdates += 1
          } else {
            let (lineStart, lineEnd, storage, r) = lines()
            found = try Self.entries(
              { try computed.matches($0, $1, endsElement: lineEnd == newLength) }, storage, r, emptyLine: emptyLine)
            (ws, we, shift, convergent) = (lineStart, lineEnd, s + lineStart - r.lowerBound, false)
          }
        } catch {
          change.named[name] = RotorChange(removed: 0..<0, added: 0..<0, rebuilt: true)
          continue
        }
        let window = (s + ws)..<(s + we - delta)
        let removedIndices = index.indices(startingIn: window)
        var (i0, i1) = (removedIndices.lowerBound, removedIndices.upperBound)
        // A window that runs to the element's end is matched to that end, where an empty match
        // (`$`, `b*`) is found again: the old one there goes too (it starts at the window's end,
        // which `apply` would only move).
        if we == newLength {
          let end = window.upperBound
          let atEnd = index.indices(startingIn: end..<(end + 1))
          if !atEnd.isEmpty {
            index.apply(edit: end..<end, newCount: 0) { r, _ in r.lowerBound == end ? nil : r }
            i1 = atEnd.upperBound
          }
        }
        index.apply(
          edit: window, newCount: we - ws,
          inserting: found.map { (($0.lowerBound + shift)..<($0.upperBound + shift), ()) }
        ) { r, _ in
          // An empty window (typing at the element's start, where the new entries fell in step
          // at once): the entries starting at its end move with the text after it.
          convergent && r.lowerBound >= window.upperBound
            ? (r.lowerBound + delta)..<(r.upperBound + delta) : window.contains(r.lowerBound) ? nil : r
        }
        computedRotors[name]!.index = index
        change.named[name] = RotorChange(removed: i0..<i1, added: i0..<(i0 + found.count))
      }
    }
    if let oldText {
      updateStructure(element: e, start: s, old: oldText, new: text, range: range, inserted: n, change: &change)
    }
    updateSpelling(element: e, start: s, text: text, range: range, inserted: n, change: &change)
    anchors.edit((s + a)..<(s + b), newCount: n)
    lastChange = change
    return change
  }

  /// A computed rotor's entries after an edit inside a long line (the element's bytes `a..<b`
  /// became `inserted` bytes), when every entry is non-empty and decided by its own bytes alone
  /// (a pattern's matches, ``Pattern/convergentReach``): at most `reach` bytes long, or holding
  /// only characters of an alphabet, ended by any ASCII character outside it (a separator), or
  /// whole words of a literal, decided with the two characters either side (`local`, which
  /// returns nil when ICU must decide; nil is returned then too, and when runs find no deciding
  /// separator within ``MatchReach/runLimit`` of the edit).
  /// Returns the element's new range `ws..<we` matched again and the entries found in it
  /// (document offsets), which replace the old entries starting in `ws..<(we - delta)`. Nil when
  /// a reach in bytes is too large for the long line's margin (the caller matches the lines
  /// around the edit).
  ///
  /// Matching is a scan that finds the leftmost entry starting at or after a position and goes on
  /// from its end. Scanned from any position that is not strictly inside an entry, it finds the
  /// same entries after it as the scan from the text's start (no entry starts between the last
  /// entry's end and the next entry's start). So the new scan starts at the first such position
  /// of the old entries at least `reach` before the edit, or right after the last separator
  /// before it (an old entry, or a failed attempt at one, before there read only unchanged bytes)
  /// and stops at the first position past the inserted bytes where it may restart (at or after
  /// its last entry's end, before any entry it has not found) that is not strictly inside an old
  /// entry either: from there both scans read the same bytes and find the same entries. The text
  /// is read in growing pieces, and of each piece only the entries that start at least `reach`
  /// before its end count (a longer entry may run past it), or with separators those that start
  /// before its last separator, unless the piece ends the element. For whole words the scan
  /// starts 8 bytes further back, reads 8 bytes either side of each piece, and stops 8 bytes
  /// further on (what a candidate's check reads before it counts), or at the element's end.
  static func convergentMatches(
    _ compute: (ByteStorage, Range<Int>) throws -> [Range<Int>],
    local: ((ByteStorage, Range<Int>, Range<Int>) throws -> [Range<Int>]?)? = nil, reach: MatchReach,
    index: IntervalIndex<Void>, cuts: EditCuts, elementStart s: Int, a: Int, b: Int, inserted n: Int, newLength: Int
  ) throws -> (ws: Int, we: Int, found: [Range<Int>])? {
    // The most bytes an entry spans (0 for runs); how far past its start an attempt at one reads
    // and how far before it (a whole word's boundaries: the characters either side).
    var bytes = 0
    var ahead = 0
    var behind = 0
    switch reach {
    case .bytes(let r):
      guard r > 0, r <= MatchReach.byteLimit else { return nil }
      (bytes, ahead) = (r, r)
    case .words(let r):
      // A candidate's check reads up to two characters either side of it (a punctuation mark
      // and the character beyond: 5 bytes; ``WordBoundaries/obviousAnswer(_:in:range:)``).
      guard r > 0, r <= MatchReach.byteLimit, local != nil else { return nil }
      (bytes, ahead, behind) = (r, r + 8, 8)
    case .runs: break
    }
    let delta = n - (b - a)
    // The first new offset where an old entry may be kept: past the bytes whose entries the edit
    // may change. With runs read behind (a word assertion), past the first separator after the
    // inserted bytes (or the element's end), read forwards in growing blocks: an entry starting
    // there reads no edited byte before it.
    var floor = a + n + behind
    if case .runs(_, readsBehind: true) = reach {
      floor = newLength
      var lower = a + n
      var block = 256
      search: while lower < newLength {
        guard lower - (a + n) < MatchReach.runLimit else { return nil }
        let upper = Swift.min(newLength, lower + block)
        let (storage, r) = cuts.bytes(lower..<upper)
        for k in r where reach.separates(storage[k]) {
          floor = lower + (k - r.lowerBound) + 1
          break search
        }
        lower = upper
        block *= 4
      }
    }
    // Where an old entry holds a document offset strictly inside it: that entry's range.
    func oldEntry(strictlyHolding x: Int) -> Range<Int>? {
      let i = index.firstIndex(startingAtLeast: x)
      guard i > 0 else { return nil }
      let r = index.range(at: i - 1)
      return r.lowerBound < x && r.upperBound > x ? r : nil
    }
    // The start: `reach` before the edit, moved back to the start of its character, then to the
    // start of an old entry holding that (an entry starts on a character; in that order, as a
    // stray continuation byte just after an entry is no character's: stepping back over it after
    // the entry's check entered the entry).
    // With runs: right after the last separator before the edit (no attempt before it read past
    // it), or the element's start; read backwards in growing blocks.
    var q0 = 0
    if bytes > 0 {
      q0 = Swift.max(0, a - ahead)
      if q0 > 0 {
        // Back over at most three continuation bytes (a character's), from the byte at q0.
        let (storage, r) = cuts.bytes((q0 - Swift.min(q0, 3))..<(q0 + 1))
        var k = r.upperBound - 1
        while k > r.lowerBound && storage[k] & 0xC0 == 0x80 { k -= 1 }
        q0 -= r.upperBound - 1 - k
      }
    } else {
      var upper = a
      var block = 256
      search: while upper > 0 {
        // No separator within 64 KB (`[^,]+` in a line without commas): the line is matched
        // instead, once, rather than searched back and then matched in pieces.
        guard a - upper < MatchReach.runLimit else { return nil }
        let lower = Swift.max(0, upper - block)
        let (storage, r) = cuts.bytes(lower..<upper)
        var k = r.upperBound
        while k > r.lowerBound {
          k -= 1
          if reach.separates(storage[k]) {
            q0 = lower + (k - r.lowerBound) + 1
            break search
          }
        }
        upper = lower
        block *= 4
      }
    }
    if let r = oldEntry(strictlyHolding: s + q0) { q0 = r.lowerBound - s }
    // The first position in `gap` (closed) at or past the inserted bytes whose old offset is not
    // strictly inside an old entry.
    // (What a whole word's check reads before `x` must be past the inserted bytes; the element's
    // end, where no entry starts, always agrees.)
    func agreement(_ gap: ClosedRange<Int>) -> Int? {
      var x = Swift.max(gap.lowerBound, Swift.min(floor, newLength))
      while x <= gap.upperBound {
        guard let r = oldEntry(strictlyHolding: s + x - delta) else { return x }
        x = r.upperBound - s + delta
      }
      return nil
    }
    var found: [Range<Int>] = []
    var q = q0
    // Whole words start small: every candidate of a piece must be decided without ICU.
    var piece = Swift.max(behind > 0 ? 64 : 256, 4 * bytes)
    while true {
      // The piece ends on a character's start: a character cut in two reads as an ill-formed byte,
      // and a whole-word regex does not search a line holding one again after a rejected
      // candidate (`a|ab` found no `ab` anywhere in a piece that ended inside a character).
      var limit = Swift.min(newLength, q + piece)
      while limit < newLength && limit > q + 1 && cuts.byte(at: limit) & 0xC0 == 0x80 { limit -= 1 }
      // The piece, and the characters either side of it that a whole word's check reads.
      let context = Swift.max(0, q - behind)..<Swift.min(newLength, limit + behind)
      let (storage, whole) = cuts.bytes(context)
      let shift = context.lowerBound - whole.lowerBound
      let r = (q - shift)..<(limit - shift)
      // Entries starting before `decided` are the whole text's: those `reach` bytes before the
      // piece's end, or, with runs, at or before its last separator (none starts on one).
      var decided = limit == newLength ? newLength + 1 : limit - bytes + 1
      if bytes == 0 && limit < newLength {
        decided = q
        var k = r.upperBound
        while k > r.lowerBound {
          k -= 1
          if reach.separates(storage[k]) {
            decided = k + shift + 1
            break
          }
        }
      }
      var gapStart = q
      let matches: [Range<Int>]
      if let local, case .words = reach {
        guard let decidedHere = try local(storage, r, whole) else { return nil }
        matches = decidedHere
      } else if case .runs(_, readsBehind: true) = reach {
        // The piece and the separator before it (or the element's start) alone: a chunk's
        // storage holds, beside the chunk, bytes that are not the text's, and an assertion at the
        // piece's start reads the character before it. At the element's end, a line break after
        // it, as a rebuild reads it (``ComputedRotor/matches(_:_:endsElement:)``).
        let seen = (q > 0 ? q - 1 : q)..<limit
        let (storage, whole) = cuts.bytes(seen)
        let alone = storage.copy(whole, appending: limit == newLength ? [0x0A] : [])
        let k = seen.lowerBound
        // Matched from the separator (no entry starts on one): a whole word's check reads the
        // line from the start of the range matched, and a word boundary right after a separator
        // is not always one right at a line's start (`- \u{301}` keeps the mark with the space).
        matches = try compute(alone, 0..<(limit - k)).map {
          ($0.lowerBound + k - shift)..<($0.upperBound + k - shift)
        }
      } else {
        matches = try compute(storage, r)
      }
      for m in matches {
        let start = m.lowerBound + shift
        guard start < decided else { break }
        if let x = agreement(gapStart...start) {
          return (q0, x, found.map { ($0.lowerBound + s)..<($0.upperBound + s) })
        }
        found.append(start..<(m.upperBound + shift))
        gapStart = m.upperBound + shift
      }
      // No entry starts in gapStart..<decided: the scan may restart anywhere there.
      let restart = Swift.max(gapStart, Swift.min(decided, newLength))
      if let x = agreement(gapStart...restart) {
        return (q0, x, found.map { ($0.lowerBound + s)..<($0.upperBound + s) })
      }
      q = restart
      piece *= 2
      // With runs, pieces grow until a separator decides them: past 64 KB, the line is matched
      // instead.
      if bytes == 0 && piece > MatchReach.runLimit { return nil }
    }
  }

  /// Whether the edit of `a..<b` lies in a long line: no LF or CR within ``longLineThreshold``
  /// bytes before `a` or after `b` (memrchr/memchr over at most that many bytes, from the edit out).
  func isLongLine(_ text: TextRope, _ a: Int, _ b: Int) -> Bool {
    let limit = longLineThreshold
    if a > limit && (text.lastLineTerminator(before: a, notBefore: a - limit) ?? -1) < a - limit { return true }
    if text.utf8Count - b > limit && (text.firstLineTerminator(from: b, before: b + limit) ?? .max) >= b + limit {
      return true
    }
    return false
  }

  /// The update of `kind` for an edit inside a long line (the element's bytes `a..<b`, `removed`,
  /// became `inserted`; `text` is the new text), without re-segmenting the whole line:
  /// - lines and paragraphs (for every small edit, long line or not: a paragraph can be hundreds of
  ///   kilobytes, and re-segmenting it per keystroke made the p99 of an edit 25 times its median),
  ///   when the edit adds and removes no line break and its line stays non-blank: the entry holding
  ///   the edit only grows or shrinks; else from the bytes around the edit and the old entries
  ///   (``lineBreakUpdate``, ``paragraphUpdate``);
  /// - characters, words, sentences, line-break segments and prose sentences: re-segmented from an
  ///   old boundary near the edit until the boundaries agree again (`boundaryUpdate`), or, in a
  ///   long segment, from where the rule machine's state is known until its runs over the old and
  ///   the new text agree (`resyncUpdate`), nearest windows first (`segmentUpdate`); prose
  ///   sentences after an edit that changes line breaks or a line's blankness, from the edit
  ///   widened over the line breaks whose reading it may change (``proseReadingSpan``).
  /// Nil when none applies: the caller re-segments the whole line (for paragraphs and prose
  /// sentences, the paragraphs around the edit).
  /// Returns the old document range whose entries are replaced, the new entries, and their shift.
  func longLineUpdate(
    _ kind: SystemRotor, _ index: SegmentIndex, _ text: TextRope, _ cuts: EditCuts, elementStart s: Int, a: Int,
    b: Int, inserted: [UInt8], removed: [UInt8]?
  ) throws(ICUError) -> (old: Range<Int>, store: SegmentStore, storeDelta: Int)? {
    let n = inserted.count
    let delta = n - (b - a)
    let length = text.utf8Count
    func isBreak(_ c: UInt8) -> Bool { c == 0x0A || c == 0x0D }
    func isBlank(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || isBreak(c) }
    /// Whether the edit adds and removes no line break (nor brings a CR and an LF together, or
    /// keeps them apart).
    func keepsLineBreaks(_ removed: [UInt8]) -> Bool {
      guard !removed.contains(where: isBreak), !inserted.contains(where: isBreak) else { return false }
      return !(a > 0 && a + n < length && cuts.byte(at: a - 1) == 0x0D && cuts.byte(at: a + n) == 0x0A)
    }
    /// Whether the edited line is non-blank before the edit and after it: a non-blank byte
    /// removed (before) or typed (after), or one on the same line within 64 bytes of the edit.
    func staysNonBlank(_ removed: [UInt8]?) -> Bool {
      if cuts.nonBlankNear(a - 1, step: -1) || cuts.nonBlankNear(a + n, step: 1) {
        return true
      }
      guard inserted.contains(where: { !isBlank($0) }) else { return false }
      return removed.map { $0.contains(where: { !isBlank($0) }) } ?? true
    }
    switch kind {
    case .lines, .paragraphs:
      guard let removed, keepsLineBreaks(removed) else {
        let found = lineBreakUpdate(kind, index, cuts, elementStart: s, a: a, b: b, inserted: n, length: length)
        if found != nil { lineBreakUpdates += 1 }
        return found
      }
      // For paragraphs the line stays non-blank, and it was non-blank before when a paragraph
      // holds the edit (else, a line typed into a blank one, the paragraphs around it are joined
      // or split: `paragraphUpdate`).
      func paragraphsAround() -> (old: Range<Int>, store: SegmentStore, storeDelta: Int)? {
        kind == .paragraphs
          ? paragraphUpdate(index, cuts, elementStart: s, a: a, b: b, inserted: n, length: length) : nil
      }
      if kind == .paragraphs && !staysNonBlank(nil) { return paragraphsAround() }
      // The entry holding the edit (old offsets).
      let j = index.firstIndex(startingAfter: s + a) - 1
      guard j >= 0 else { return paragraphsAround() }
      let entry = index[j]
      // An empty entry (an empty line) is not in the range of starts `entry.start..<entry.end`
      // that the replacement removes, and a line emptied at the element's end is no entry: the
      // window path takes both.
      guard entry.start >= s, entry.end >= s + b, entry.end > entry.start, entry.end + delta > entry.start
      else { return paragraphsAround() }
      var chunk = SegmentStore.Chunk(origin: entry.start)
      chunk.append(start: entry.start, end: entry.end + delta, status: entry.status)
      return (entry.start..<entry.end, SegmentStore(chunks: [chunk]), 0)
    case .proseSentences:
      // Whether a line break reads as a space depends on the lines around it: when no line break
      // changes and the edited line stays non-blank, every line break reads as before, and the
      // sentences are re-segmented as sentences are, from an old boundary until they agree again
      // (over a copy of the bytes around them in which single line breaks are spaces); else the
      // edit is widened to the line breaks whose reading it may change (`proseReadingSpan`) and
      // re-segmented the same way.
      guard let removed else { return nil }
      if keepsLineBreaks(removed) && staysNonBlank(removed) {
        guard
          let found = try segmentUpdate(
            kind, index, text, cuts, elementStart: s, a: a, b: b, inserted: inserted, removed: removed)
        else { return nil }
        proseLocalUpdates += 1
        return found
      }
      guard let (pa, pb) = Self.proseReadingSpan(cuts, a: a, inserted: n, length: length) else { return nil }
      guard
        let found = try segmentUpdate(
          kind, index, text, cuts, elementStart: s, a: pa, b: pb - delta, inserted: text.bytes(pa..<pb),
          removed: text.bytes(pa..<a) + removed + text.bytes((a + n)..<pb))
      else { return nil }
      proseLineBreakUpdates += 1
      return found
    case .characters, .words, .sentences, .linebreaks:
      return try segmentUpdate(
        kind, index, text, cuts, elementStart: s, a: a, b: b, inserted: inserted, removed: removed)
    }
  }

  /// The lines or paragraphs update of an edit that adds or removes line breaks (or joins or splits
  /// a CR LF), from the bytes around the edit and the old entries, without reading the lines it
  /// touches whole (typing Enter in a line of 100 MB read all of it). `length` is the element's
  /// new length. In new offsets, `w0..<w1` is the edit with two bytes on each side (no CR LF cut in
  /// two at either end; `w1` at most the element's end): line terminators before `w0` and from
  /// `w1` on are the old ones, so
  /// - lines: the new lines run from the start of the old line holding `w0`, through the
  ///   terminators found in `w0..<w1`, to the end of the old line holding `w1` (or the element's
  ///   end, where a last empty line is no entry), and replace the old lines starting there (the
  ///   bytes replaced run from the first line's start past the last one's end);
  /// - paragraphs: ``paragraphUpdate(_:_:elementStart:a:b:inserted:length:)``.
  /// Nil when that does not apply: the caller re-segments the lines or paragraphs around the edit.
  func lineBreakUpdate(
    _ kind: SystemRotor, _ index: SegmentIndex, _ cuts: EditCuts, elementStart s: Int, a: Int, b: Int,
    inserted n: Int, length: Int
  ) -> (old: Range<Int>, store: SegmentStore, storeDelta: Int)? {
    let delta = n - (b - a)
    let oldLength = length - delta
    guard length > 0, oldLength > 0 else { return nil }
    if kind == .paragraphs {
      return paragraphUpdate(index, cuts, elementStart: s, a: a, b: b, inserted: n, length: length)
    }
    guard kind == .lines else { return nil }
    let (w0, w1, terminators, _) = Self.lineBreakWindow(cuts, a: a, inserted: n, length: length)
    let atEnd = w1 == length
    // The old entries holding w0 and w1 (old offsets); at the end, the element's last one.
    let j = index.firstIndex(startingAfter: s + w0) - 1
    let k = index.firstIndex(startingAfter: atEnd ? s + oldLength - 1 : s + w1 - delta) - 1
    guard j >= 0, k >= j else { return nil }
    let first = index[j]
    let last = index[k]
    guard first.start >= s, last.end <= s + oldLength else { return nil }
    // The old line holding w1 runs on past it (no terminator straddles w1), and the one holding
    // w0 to it at least.
    guard first.end >= s + w0, atEnd || last.end >= s + w1 - delta else { return nil }
    var chunk = SegmentStore.Chunk(origin: first.start)
    var start = first.start
    for (t, u) in terminators {
      chunk.append(start: start, end: s + t, status: first.status)
      start = s + u
    }
    if !atEnd {
      chunk.append(start: start, end: last.end + delta, status: last.status)
    } else if start < s + length {
      chunk.append(start: start, end: s + length, status: last.status)
    }
    // The old bytes of those lines become the new ones: to the element's end, or to the first
    // byte of the last line's terminator (so that the last line, when empty, starts inside).
    let oldEnd = atEnd || last.end == s + oldLength ? s + oldLength : last.end + 1
    return (first.start..<oldEnd, SegmentStore(chunks: [chunk]), 0)
  }

  /// The window of ``lineBreakUpdate`` in new offsets: the edit (`a`, `n` bytes typed) with two
  /// bytes on each side, widened so that no CR LF is cut in two at either end (`w1` at most the
  /// element's `length`). Line terminators before `w0` and from `w1` on are the old ones.
  static func lineBreakEdges(_ cuts: EditCuts, a: Int, inserted n: Int, length: Int) -> (w0: Int, w1: Int) {
    var w0 = Swift.max(0, a - 2)
    if w0 > 0 && cuts.byte(at: w0 - 1) == 0x0D && cuts.byte(at: w0) == 0x0A { w0 -= 1 }
    var w1 = Swift.min(length, a + n + 2)
    if w1 < length && cuts.byte(at: w1 - 1) == 0x0D && cuts.byte(at: w1) == 0x0A { w1 += 1 }
    return (w0, w1)
  }

  /// ``lineBreakEdges(_:a:inserted:length:)``'s window, its line terminators as (start, end), and
  /// its bytes (a storage and their range in it).
  static func lineBreakWindow(_ cuts: EditCuts, a: Int, inserted n: Int, length: Int) -> (
    w0: Int, w1: Int, terminators: [(Int, Int)], bytes: (ByteStorage, Range<Int>)
  ) {
    let (w0, w1) = lineBreakEdges(cuts, a: a, inserted: n, length: length)
    // Read at once (a slice of a window, for a keystroke), the terminators found by memchr: a
    // paste of a megabyte was read a byte, and a descent of the rope, at a time.
    let (storage, r) = cuts.bytes(w0..<w1)
    let shift = w0 - r.lowerBound
    var terminators: [(Int, Int)] = []
    var t = r.lowerBound
    var nextCR = storage.firstIndex(of: 0x0D, in: r) ?? r.upperBound
    while t < r.upperBound {
      if nextCR < t { nextCR = storage.firstIndex(of: 0x0D, in: t..<r.upperBound) ?? r.upperBound }
      let lf = storage.firstIndex(of: 0x0A, in: t..<nextCR) ?? nextCR
      if lf < nextCR {
        terminators.append((lf + shift, lf + 1 + shift))
        t = lf + 1
      } else if nextCR < r.upperBound {
        // No CR LF is cut in two at w1 (unless w1 is the text's end).
        let pair = nextCR + 1 < r.upperBound && storage[nextCR + 1] == 0x0A
        terminators.append((nextCR + shift, nextCR + (pair ? 2 : 1) + shift))
        t = nextCR + (pair ? 2 : 1)
      } else {
        break
      }
    }
    return (w0, w1, terminators, (storage, r))
  }

  /// The bytes (new offsets `pa..<pb`; old `pa..<pb - delta`) outside which the prose reading of
  /// the text (``ByteStorage/proseCopy(_:)``: a line break between two non-blank lines is a space)
  /// is the same before and after an edit that changed line breaks or a line's blankness: the
  /// reading of a line break depends only on whether the lines on each side are blank, and only
  /// the lines touching ``lineBreakWindow`` (new) and the old ones there can have changed. So the
  /// span is that window, widened over the line break before its first line when that line shows
  /// no non-blank byte before the window (within 64 bytes), and over the one after its last line
  /// likewise. Nil when 64 blank bytes leave an edge line undecided.
  static func proseReadingSpan(_ cuts: EditCuts, a: Int, inserted n: Int, length: Int) -> (Int, Int)? {
    let (w0, w1) = lineBreakEdges(cuts, a: a, inserted: n, length: length)
    guard let left = cuts.edge(before: w0), let right = cuts.edge(from: w1) else { return nil }
    var pa = w0
    var pb = w1
    if case .blank(let edge, let beyond) = left { pa = beyond ?? edge }
    if case .blank(let edge, let beyond) = right { pb = beyond ?? edge }
    return (pa, pb)
  }

  /// The paragraphs update of an edit that adds or removes line breaks, or makes a line blank or
  /// non-blank, from the bytes around the edit and the old paragraphs, without reading the lines
  /// or paragraphs it touches whole (a blank line typed into a paragraph of 100 MB re-segmented all
  /// of it). A paragraph is a run of non-blank lines (``ElementKind/paragraphs(in:range:)``), so
  /// in new offsets, with `w0..<w1` and its terminators from ``lineBreakWindow``:
  /// - the new lines touching the window are the one holding `w0`, those between its terminators,
  ///   and the one holding `w1`; the bytes of the first before `w0` and of the last from `w1` on
  ///   are old, read for at most 64 bytes out to a non-blank byte or a terminator (else nil);
  /// - the first line, when an old non-blank byte `c` of it was found, is in the old paragraph
  ///   holding `c`, whose lines up to it are unchanged: the paragraph there starts where that one
  ///   did. When its start was found instead, the line before it (unchanged) is non-blank exactly
  ///   when an old paragraph holds its last byte, and that paragraph runs on into the first line
  ///   when it is non-blank, or ends at that line's end. The last line mirrors this to the right.
  /// - the lines in between, read whole, open and close paragraphs.
  /// The old paragraphs replaced are those starting from the first of those found to the end of
  /// the last (the old lines touching the window lie in between). Nil when an edge line's bytes
  /// are undecided within 64 bytes or the old paragraphs disagree with the bytes.
  func paragraphUpdate(
    _ index: SegmentIndex, _ cuts: EditCuts, elementStart s: Int, a: Int, b: Int, inserted n: Int, length: Int
  ) -> (old: Range<Int>, store: SegmentStore, storeDelta: Int)? {
    let delta = n - (b - a)
    let oldLength = length - delta
    guard length > 0, oldLength > 0 else { return nil }
    let (w0, w1, terminators, window) = Self.lineBreakWindow(cuts, a: a, inserted: n, length: length)
    /// The old paragraph holding the old offset `p` (of this element), if any.
    func holding(_ p: Int) -> SegmentStore.Segment? {
      let j = index.firstIndex(startingAfter: s + p) - 1
      guard j >= 0 else { return nil }
      let e = index[j]
      return e.start >= s && e.end > s + p ? e : nil
    }
    // Left of w0 and from w1 on (old bytes): a non-blank byte of the first (last) line, or its
    // start and the end of the line before it (its end and the start of the line after it).
    guard let left = cuts.edge(before: w0), let right = cuts.edge(from: w1) else { return nil }
    var leftNonBlank: Int? = nil
    var firstStart = 0
    var previousEnd: Int? = nil
    switch left {
    case .nonBlank(let c): leftNonBlank = c
    case .blank(let edge, let beyond): (firstStart, previousEnd) = (edge, beyond)
    }
    var rightNonBlank: Int? = nil
    var lastEnd = length
    var nextStart: Int? = nil
    switch right {
    case .nonBlank(let c): rightNonBlank = c
    case .blank(let edge, let beyond): (lastEnd, nextStart) = (edge, beyond)
    }
    // The first paragraph replaced (document offsets), and the one open at the first line.
    var oldStart = s + firstStart
    var open: Int? = nil
    var chunk: SegmentStore.Chunk
    // The end of the last line seen (element offsets): a paragraph closed at a blank line ends there.
    var seenEnd = 0
    if let c = leftNonBlank {
      guard let e = holding(c) else { return nil }
      oldStart = e.start
      open = e.start
      chunk = SegmentStore.Chunk(origin: e.start)
    } else if let t = previousEnd, t > 0, let e = holding(t - 1) {
      guard e.end >= s + t else { return nil }
      oldStart = e.start
      open = e.start
      seenEnd = t
      chunk = SegmentStore.Chunk(origin: e.start)
    } else {
      chunk = SegmentStore.Chunk(origin: oldStart)
    }
    // The lines touching the window: from the first line's start (or w0) through each terminator.
    var lineStart = leftNonBlank == nil ? firstStart : w0
    var blank = leftNonBlank == nil
    var i = w0
    var k = 0
    let (storage, r) = window
    while true {
      let lineEnd = k < terminators.count ? terminators[k].0 : w1
      if blank && !storage.isBlank(in: (i - w0 + r.lowerBound)..<(lineEnd - w0 + r.lowerBound)) { blank = false }
      guard k < terminators.count else { break }
      if blank {
        if let o = open { chunk.append(start: o, end: s + seenEnd) }
        open = nil
      } else {
        if open == nil { open = s + lineStart }
        seenEnd = lineEnd
      }
      lineStart = terminators[k].1
      i = lineStart
      blank = true
      k += 1
    }
    // The last line: the bytes from w1 on.
    if rightNonBlank != nil { blank = false }
    // The old paragraph the last line (or the line after it) is part of, and where the
    // replacement ends (old offsets).
    var oldEnd = s + lastEnd - delta
    if !blank {
      if open == nil { open = s + lineStart }
      if let c = rightNonBlank {
        guard let f = holding(c - delta) else { return nil }
        chunk.append(start: open!, end: f.end + delta)
        oldEnd = f.end
      } else if let u = nextStart, let f = holding(u - delta) {
        chunk.append(start: open!, end: f.end + delta)
        oldEnd = f.end
      } else {
        chunk.append(start: open!, end: s + lastEnd)
      }
    } else {
      if let o = open { chunk.append(start: o, end: s + seenEnd) }
      if let u = nextStart, let f = holding(u - delta) {
        chunk.append(start: s + u, end: f.end + delta)
        oldEnd = f.end
      }
    }
    guard oldStart <= s + a, oldEnd >= s + b, oldEnd <= s + oldLength else { return nil }
    paragraphUpdates += 1
    return (oldStart..<oldEnd, SegmentStore(chunks: [chunk]), 0)
  }

  /// The update of `kind` (characters, words, sentences, line-break segments, prose sentences) for
  /// an edit inside a long line or segment, nearest first: from an old boundary near the edit
  /// (``boundaryUpdate``, windows of up to 1 KB past it); else (no old boundary near, or none met
  /// again: a sentence that is a whole minified JSON line, or a table without periods in prose)
  /// from the rule machine's re-synchronization over up to 1 KB on each side (``resyncUpdate``);
  /// only then each over its wide windows (up to 64 KB). Wide windows last: an edit before a
  /// sentence that runs on for kilobytes (a table read as prose) re-segmented windows of 4, 16
  /// and 64 KB, each copied three times, where the machine met the old run within 256 bytes.
  func segmentUpdate(
    _ kind: SystemRotor, _ index: SegmentIndex, _ text: TextRope, _ cuts: EditCuts, elementStart s: Int, a: Int,
    b: Int, inserted: [UInt8], removed: [UInt8]?
  ) throws(ICUError) -> (old: Range<Int>, store: SegmentStore, storeDelta: Int)? {
    let n = inserted.count
    if let found = try boundaryUpdate(
      kind, index, text, cuts, elementStart: s, a: a, b: b, inserted: n, spans: 256...1024)
    {
      return found
    }
    // A prose copy that cannot tell whether an edge line is blank (``proseWindow(_:_:)``) stops
    // the re-synchronization for good: the 64 KB one, at some 400 instructions a byte, costs more
    // than the paragraph the caller then re-segments.
    var undecidable = false
    if let removed,
      let found = resyncUpdate(
        kind, index, text, elementStart: s, a: a, b: b, inserted: inserted, removed: removed, reaches: [64, 256, 1024],
        undecidable: &undecidable)
    {
      return found
    }
    if let found = try boundaryUpdate(
      kind, index, text, cuts, elementStart: s, a: a, b: b, inserted: n, spans: 4096...Int.max)
    {
      wideBoundaryUpdates += 1
      return found
    }
    guard let removed, !undecidable else { return nil }
    return resyncUpdate(
      kind, index, text, elementStart: s, a: a, b: b, inserted: inserted, removed: removed, reaches: [65536],
      undecidable: &undecidable)
  }

  /// The update of `kind` (characters, words, sentences, line-break segments) for an edit inside
  /// a long line: re-segmented from an old boundary a little before the edit (two entries and 64
  /// bytes back, after an ASCII byte, so that no dictionary run of Thai or CJK is entered midway)
  /// until a new boundary past the edit falls where an old one was (moved by the edit) after an
  /// ASCII byte: from there on, segmenting the same bytes from the same boundary gives the same
  /// boundaries as before. The window reaches `spans` bytes past the edit (256, 1 KB, 4 KB, ...,
  /// those of `spans`, up to ``boundaryReach``). Nil when no such boundaries are within them.
  func boundaryUpdate(
    _ kind: SystemRotor, _ index: SegmentIndex, _ text: TextRope, _ cuts: EditCuts, elementStart s: Int, a: Int,
    b: Int, inserted n: Int, spans: ClosedRange<Int>
  ) throws(ICUError) -> (old: Range<Int>, store: SegmentStore, storeDelta: Int)? {
    let delta = n - (b - a)
    let length = text.utf8Count
    let reach = boundaryReach
    // Start: an old boundary at least two entries and 64 bytes before the edit, after an ASCII byte.
    var j = Swift.min(index.firstIndex(startingAfter: s + a) - 3, index.firstIndex(startingAfter: s + a - 64) - 1)
    var ws = 0
    while j >= 0 {
      let start = index[j].start
      guard start > s else { break }
      let w = start - s
      guard a - w <= reach else { return nil }
      if cuts.byte(at: w - 1) < 0x80 {
        ws = w
        break
      }
      j -= 1
    }
    guard a - ws <= reach else { return nil }
    // The windows: 256 bytes, then four times wider each, through the first at or past `reach`
    // (as many as reach it), those of them in `spans`.
    var span = 256
    while span < spans.lowerBound { span *= 4 }
    if span > 256 && span / 4 >= reach { return nil }
    let last = Swift.min(Swift.max(reach, 256), spans.upperBound)
    while true {
      let we = Swift.min(length, a + n + span)
      let store: SegmentStore
      let r: Range<Int>
      if kind == .proseSentences {
        guard let (copy, local, _) = Self.proseWindow(text, ws..<we) else { return nil }
        r = local
        store = try windowSegmenter.segment(copy, local, rotor: .sentences)
      } else {
        let storage: ByteStorage
        (storage, r) = text.contiguous(ws..<we)
        store = try windowSegmenter.segment(storage, r, rotor: kind)
      }
      let shift = ws - r.lowerBound
      if we == length { return ((s + ws)..<(s + length - delta), store, s + shift) }
      // The first new boundary, well inside the window and past the edit, that is an old one.
      var sync: Int? = nil
      store.forEach { segment in
        let boundary = segment.start + shift
        if boundary > we - 64 { return false }
        if boundary >= a + n + 32 && cuts.byte(at: boundary - 1) < 0x80 {
          let old = s + boundary - delta
          let k = index.firstIndex(startingAfter: old - 1)
          if k < index.count && index[k].start == old {
            sync = boundary
            return false
          }
        }
        return true
      }
      if let sync {
        // The new entries before it.
        var chunk = SegmentStore.Chunk(
          origin: store.chunks.first?.origin ?? 0, layout: store.chunks.first?.layout ?? .general)
        store.forEach { segment in
          guard segment.start + shift < sync else { return false }
          chunk.append(start: segment.start, end: segment.end, status: segment.status)
          return true
        }
        return ((s + ws)..<(s + sync - delta), SegmentStore(chunks: [chunk]), s + shift)
      }
      guard span < last else { return nil }
      span *= 4
    }
  }

  /// The bytes of `range` (in `text`) in which every line break between two non-blank lines is a
  /// space, as the prose sentences rotor reads them (``ByteStorage/proseCopy(_:)``), copied with
  /// 1 KB of the text on each side (`context`), so that the lines around the range's line breaks
  /// are seen. Only the copy's first and last line breaks have a line beside them that the copy
  /// may hold in part, and the copy outside `range` is read by no one: nil when such a break lies
  /// in `range` (no line break in the 1 KB before or after it) and the part shows only spaces and
  /// tabs (the whole line might be blank or not). A break in the margins may read wrong: an
  /// indented line cut in its indentation there no longer makes the copy undecided (it made every
  /// keystroke in perluniprops' indented table re-segment its paragraph of 394 sentences).
  static func proseWindow(_ text: TextRope, _ range: Range<Int>) -> (
    copy: ByteStorage, local: Range<Int>, context: Range<Int>
  )? {
    let length = text.utf8Count
    let c0 = Swift.max(0, range.lowerBound - 1024)
    let c1 = Swift.min(length, range.upperBound + 1024)
    let (storage, r) = text.contiguous(c0..<c1)
    // Text offsets x in c0..<c1 are storage[x - shift].
    let shift = c0 - r.lowerBound
    func isBlank(_ x: Int) -> Bool { storage[x - shift] == 0x20 || storage[x - shift] == 0x09 }
    func either(_ x: Int?, _ y: Int?, _ pick: (Int, Int) -> Int) -> Int? {
      x.map { x in y.map { pick(x, $0) } ?? x } ?? y
    }
    // memchr and memrchr find the breaks; only an edge line in `range` is scanned, up to a
    // non-blank byte.
    if let first = either(storage.firstIndex(of: 0x0A, in: r), storage.firstIndex(of: 0x0D, in: r), Swift.min),
      let last = either(storage.lastIndex(of: 0x0A, in: r), storage.lastIndex(of: 0x0D, in: r), Swift.max)
    {
      if c0 > 0 && first + shift >= range.lowerBound && (c0..<(first + shift)).allSatisfy(isBlank) { return nil }
      if c1 < length && last + shift < range.upperBound && ((last + shift + 1)..<c1).allSatisfy(isBlank) {
        return nil
      }
    }
    return (storage.proseCopy(r), (range.lowerBound - c0)..<(range.upperBound - c0), c0..<c1)
  }

  /// The old bytes of ``proseWindow(_:_:)``'s `range` (new offsets, holding `edited`, whose bytes
  /// were `removed`), read as prose with the same `context` (new offsets, around `edited`, from
  /// ``proseWindow(_:_:)``, whose edge lines are the same bytes in both texts): the new text
  /// around, the old bytes in place of the edit.
  static func proseWindow(
    _ text: TextRope, _ range: Range<Int>, context: Range<Int>, before edited: Range<Int>, was removed: [UInt8]
  ) -> [UInt8] {
    let (c0, c1) = (context.lowerBound, context.upperBound)
    let raw = text.bytes(c0..<edited.lowerBound) + removed + text.bytes(edited.upperBound..<c1)
    let delta = edited.count - removed.count
    let copy = ByteStorage(raw).proseCopy(0..<raw.count)
    return copy.copyBytes((range.lowerBound - c0)..<(range.upperBound - delta - c0))
  }

  /// The update of `kind` for an edit inside a long segment, from ``RuleMachine/resync(old:new:editStart:oldEnd:newEnd:boundaries:startsText:endsText:span:)``
  /// over the bytes around the edit (`reaches` bytes on each side, in turn): the entries from
  /// the one holding the point where the machine's state is known to the first old boundary past
  /// the point where the runs over the old and the new text agree. Nil when the machine cannot
  /// tell (a dictionary character, runs that do not agree within the largest of `reaches`). For prose sentences the
  /// bytes are prose copies (``proseWindow(_:_:)``) and the machine is the sentences one; a copy
  /// that cannot tell sets `undecidable` and stops.
  func resyncUpdate(
    _ kind: SystemRotor, _ index: SegmentIndex, _ text: TextRope, elementStart s: Int, a: Int, b: Int,
    inserted: [UInt8], removed: [UInt8], reaches: [Int], undecidable: inout Bool
  ) -> (old: Range<Int>, store: SegmentStore, storeDelta: Int)? {
    // Prose sentences are ICU's sentences of the prose copy (line breaks inside a paragraph read
    // as spaces): the sentence machine runs over prose copies of the old and the new bytes, each
    // read on its own. The caller has checked that the copies differ only where the edit is: it
    // keeps every line break and its line non-blank, or it was widened over the line breaks whose
    // reading it may change (`proseReadingSpan`).
    let rules: SystemRotor = kind == .proseSentences ? .sentences : kind
    guard let machine = windowSegmenter.machine(rules) else { return nil }
    let n = inserted.count
    let delta = n - (b - a)
    let length = text.utf8Count
    let oldLength = length - delta
    for reach in reaches {
      let w0 = Swift.max(0, a - reach)
      let w1 = Swift.min(length, a + n + reach + 16)
      let new: [UInt8]
      var old: [UInt8]
      if kind == .proseSentences {
        guard let (copy, local, context) = Self.proseWindow(text, w0..<w1) else {
          undecidable = true
          return nil
        }
        new = copy.copyBytes(local)
        // The old bytes read as prose on their own: where the edit changed line breaks or a
        // line's blankness, line breaks beside it read otherwise than in the new copy.
        old = Self.proseWindow(text, w0..<w1, context: context, before: a..<(a + n), was: removed)
      } else {
        new = text.bytes(w0..<w1)
        old = Array(new[..<(a - w0)])
        old.append(contentsOf: removed)
        old.append(contentsOf: new[(a + n - w0)...])
      }
      // The old boundaries in w0...a.
      var boundaries: [Int] = []
      index.forEach(in: index.firstIndex(startingAfter: s + w0 - 1)..<index.firstIndex(startingAfter: s + a)) {
        boundaries.append($0.start - s - w0)
        return true
      }
      let found = old.withUnsafeBufferPointer { o in
        new.withUnsafeBufferPointer { t in
          machine.resync(
            old: o, new: t, editStart: a - w0, oldEnd: b - w0, newEnd: a + n - w0, boundaries: boundaries,
            startsText: w0 == 0, endsText: w1 == length, span: reach)
        }
      }
      guard let r = found else { continue }
      // The entries replaced: from the one holding the known point (at P) to the first old
      // boundary past the meeting point (E), which the new text keeps, moved.
      let known = s + w0 + r.start
      let j = index.firstIndex(startingAfter: known) - 1
      guard j >= 0, index[j].start >= s else { continue }
      let p = index[j].start
      let oldSync = s + w0 + r.oldSync
      let k = index.firstIndex(startingAfter: oldSync)
      let elementEnd = s + oldLength
      let e = k < index.count && index[k].start < elementEnd ? index[k].start : elementEnd
      guard k > j, e > oldSync || e == elementEnd else { continue }
      // The old boundaries between: those the old run ended go; the others stay (moved past
      // the edit), with their statuses; the new run's come in.
      // (The end of the element, where a run that reached it ends, is no entry's start.)
      let ended = Set(r.oldBoundaries.filter { w0 + $0 < oldLength }.map { s + w0 + $0 })
      var boundariesAfter: [(Int, SegmentStatus)] = []
      var previousStatus = index[j].status
      var consistent = true
      var endedSeen = 0
      index.forEach(in: (j + 1)..<k) { entry in
        defer { previousStatus = entry.status }
        let v = entry.start
        if ended.contains(v) {
          endedSeen += 1
          return true
        }
        if v < s + a {
          boundariesAfter.append((v, previousStatus))
        } else if v > s + a && v >= s + b {
          boundariesAfter.append((v + delta, previousStatus))
        } else {
          consistent = false
        }
        return consistent
      }
      // The old run's boundaries are the index's (else the model is wrong: the caller re-segments).
      guard consistent, endedSeen == ended.count else {
        assertionFailure("resync: the old run's boundaries are not the index's")
        continue
      }
      for (x, status) in zip(r.newBoundaries, r.newStatuses) where w0 + x < length {
        boundariesAfter.append((s + w0 + x, SegmentStatus(icuStatus: status, of: rules)))
      }
      boundariesAfter.sort { $0.0 < $1.0 }
      boundariesAfter.append((e + (e >= s + b ? delta : 0), previousStatus))
      var chunk = SegmentStore.Chunk(origin: p)
      var last = p
      for (v, status) in boundariesAfter {
        guard v > last else {
          consistent = false
          break
        }
        chunk.append(start: last, end: v, status: status)
        last = v
      }
      guard consistent else { continue }
      resynchronized += 1
      return (p..<e, SegmentStore(chunks: [chunk]), 0)
    }
    return nil
  }

  /// The window (new offsets in the element) to re-segment for `kind` after the element's bytes
  /// `a..<b` became `inserted` bytes: the lines around the edit; for paragraphs, from the start of
  /// the paragraph before the edit to the start of the first paragraph after it whose preceding
  /// blank line the edit did not touch, both found in the rotor's own index (O(log n), where
  /// walking the lines back to a blank line would be O(paragraph)).
  func window(
    _ kind: SystemRotor, _ index: SegmentIndex, _ cuts: EditCuts, elementStart s: Int, a: Int, b: Int, inserted n: Int
  ) -> (Int, Int) {
    guard kind == .paragraphs else { return (cuts.before(a, rotor: kind), cuts.after(a + n, rotor: kind)) }
    let delta = n - (b - a)
    let length = cuts.text.utf8Count
    // The last paragraph starting at or before `a` (in this element).
    var ws = 0
    let i = index.firstIndex(startingAfter: s + a) - 1
    if i >= 0, index[i].start >= s { ws = index[i].start - s }
    ws = Swift.min(ws, cuts.before(a, rotor: nil))
    // The first paragraph starting after the edited lines, unless the line before it is the
    // edited one.
    let lineEnd = cuts.after(a + n, rotor: nil)
    var j = index.firstIndex(startingAfter: s + lineEnd - delta - 1)
    while j < index.count {
      let start = index[j].start + delta - s
      guard start <= length else { break }
      if start > lineEnd { return (ws, start) }
      j += 1
    }
    return (ws, length)
  }

  /// Bytes on each side of an edit copied for finding its cuts (``TextWindow``).
  static var editViewMargin: Int { 4096 }

  /// The rule for an entry's range across a text edit that replaced `a..<b` with `inserted` bytes.
  static func remap(_ r: Range<Int>, a: Int, b: Int, inserted: Int) -> Range<Int> {
    let delta = inserted - (b - a)
    let start = r.lowerBound <= a ? r.lowerBound : (r.lowerBound >= b ? r.lowerBound + delta : a)
    if r.isEmpty { return start..<start }
    let end = r.upperBound < a ? r.upperBound : (r.upperBound >= b ? r.upperBound + delta : a + inserted)
    return start..<Swift.max(end, start)
  }

  /// Inserts `element` before the element now at `index` (or at the end).
  @discardableResult
  @_specialize(exported:true,where ID == Int)
  @_specialize(exported:true,where ID == String)
  public func insert(_ element: TextElement<ID>, at index: Int) throws(DocumentError) -> DocumentChange<ID> {
    guard index >= 0 && index <= table.count else { throw .elementIndexOutOfRange(index, count: table.count + 1) }
    guard table.index(of: element.id) == nil else { throw .duplicateElement("\(element.id)") }
    return insert(
      element.id, TextRope(element.text), at: index, carrying: [:], anchors: AnchorIndex.Carried(), pieces: nil)
  }

  /// Inserts an element; `carriedPieces` holds, per system rotor, the pieces of an element being
  /// moved (``SegmentIndex/cut(_:)``), put in as they are instead of segmenting it again.
  @discardableResult
  private func insert(
    _ id: ID, _ text: TextRope, at index: Int, carrying carried: [String: [(Range<Int>, CustomPayload)]],
    anchors carriedAnchors: AnchorIndex.Carried, pieces carriedPieces: CarriedPieces?, slot movedSlot: Int? = nil
  ) -> DocumentChange<ID> {
    let x = index < table.count ? table.start(of: index) : table.length
    let key = table.key(forInsertionAt: index)
    // A moved element keeps its slot (its id is the same): moves do not grow the id table.
    let slot: Int
    if let movedSlot {
      table.keys.setKey(key, ofSlot: movedSlot)
      slot = movedSlot
    } else {
      slot = table.keys.register(id, key: key)
    }
    let item = ElementItem(slot: slot, key: key, text: text, gap: ElementItem.virtualGap)
    table.tree.insert(item, at: index)
    table.keysChanged()
    source = nil
    generation += 1
    let span = item.summary.text.utf8
    let length = text.utf8Count
    var change = DocumentChange(element: id, editedRange: 0..<0, insertedCount: length, generation: generation)
    let shifted: (Range<Int>) -> Range<Int> = { r in
      r.lowerBound >= x ? (r.lowerBound + span)..<(r.upperBound + span) : r
    }
    let (storage, r) = text.contiguous(0..<length)
    for kind in systemIndexes.keys {
      if let pieces = carriedPieces?[kind] {
        let i0 = systemIndexes[kind]!.replace(startingIn: x..<x, movingLaterBy: span, withPieces: pieces).lowerBound
        let added = pieces.reduce(0) { $0 + $1.count }
        change.record(kind, RotorChange(removed: i0..<i0, added: i0..<(i0 + added)))
        continue
      }
      do {
        let store =
          kind == .lines
          ? Segmenter.lines(storage, elements: [r], emptyElementsAreLines: emptyElementsAreLines)
          : try windowSegmenter.segment(storage, r, rotor: kind)
        let i0 = systemIndexes[kind]!.replace(
          startingIn: x..<x, movingLaterBy: span, with: store, storeDelta: x - r.lowerBound, coalescing: false
        ).lowerBound
        change.record(kind, RotorChange(removed: i0..<i0, added: i0..<(i0 + store.count)))
      } catch {
        systemIndexes[kind] = nil
        change.record(kind, RotorChange(removed: 0..<0, added: 0..<0, rebuilt: true))
      }
    }
    for name in Array(customRotors.keys) {
      let entries = (carried[name] ?? []).map { (($0.0.lowerBound + x)..<($0.0.upperBound + x), $0.1) }
      let i0 = customRotors[name]!.firstIndex(startingAtLeast: x)
      customRotors[name]!.apply(edit: x..<x, newCount: span, inserting: entries) { r, _ in shifted(r) }
      change.named[name] = RotorChange(removed: i0..<i0, added: i0..<(i0 + entries.count))
    }
    let emptyLine = length == 0 && emptyElementsAreLines
    for name in Array(computedRotors.keys) {
      guard var index = computedRotors[name]!.index else {
        // Not indexed since an update failed (built again when next asked for): still held, so
        // reported as rebuilt.
        change.named[name] = RotorChange(removed: 0..<0, added: 0..<0, rebuilt: true)
        continue
      }
      computedRotors[name]!.index = nil
      let computed = computedRotors[name]!
      guard
        let found = try? Self.entries(
          { try computed.matches($0, $1, endsElement: true) }, storage, r, emptyLine: emptyLine)
      else {
        change.named[name] = RotorChange(removed: 0..<0, added: 0..<0, rebuilt: true)
        continue
      }
      let shift = x - r.lowerBound
      let i0 = index.firstIndex(startingAtLeast: x)
      index.apply(
        edit: x..<x, newCount: span, inserting: found.map { (($0.lowerBound + shift)..<($0.upperBound + shift), ()) }
      ) { r, _ in shifted(r) }
      computedRotors[name]!.index = index
      change.named[name] = RotorChange(removed: i0..<i0, added: i0..<(i0 + found.count))
    }
    // A carried move's removal left the other element as it was (``removeElement(at:taking:)``).
    if carriedPieces == nil { updateLoneElement(&change, before: table.count - 1, inserted: index) }
    structureInserted(at: index, x, span: span, change: &change)
    anchors.insertElement(at: x, span: span, carrying: carriedAnchors, width: table.length)
    lastChange = change
    return change
  }

  /// Removes element `id` (and every entry in it).
  @discardableResult
  @_specialize(exported:true,where ID == Int)
  @_specialize(exported:true,where ID == String)
  public func remove(_ id: ID) throws(DocumentError) -> TextElement<ID> {
    try remove(at: try table.require(id))
  }

  /// Removes the element at `index` and returns it.
  @discardableResult
  @_specialize(exported:true,where ID == Int)
  @_specialize(exported:true,where ID == String)
  public func remove(at index: Int) throws(DocumentError) -> TextElement<ID> {
    guard index >= 0 && index < table.count else { throw .elementIndexOutOfRange(index, count: table.count) }
    let item = table[index]
    var none: CarriedPieces? = nil
    removeElement(at: index, taking: &none)
    return TextElement(id: table.id(of: item), text: item.text.string)
  }

  /// Removes the element at `index`; with `taken` not nil, keeps per system rotor the pieces that
  /// held its entries (``SegmentIndex/cut(_:)``), for `move` to put back elsewhere.
  @discardableResult
  private func removeElement(
    at index: Int, taking taken: inout CarriedPieces?
  ) -> DocumentChange<ID> {
    let item = table[index]
    let s = table.start(of: index)
    let next = s + item.summary.text.utf8
    let old = s..<next
    var change = DocumentChange(
      element: table.id(of: item), editedRange: 0..<item.text.utf8Count, insertedCount: 0, generation: generation + 1)
    for kind in systemIndexes.keys {
      let removed: Range<Int>
      if taken != nil {
        let (indices, pieces) = systemIndexes[kind]!.cut(old)
        removed = indices
        taken![kind] = pieces
      } else {
        removed = systemIndexes[kind]!.replace(
          startingIn: old, movingLaterBy: -old.count, with: SegmentStore(), storeDelta: 0, coalescing: false)
      }
      change.record(kind, RotorChange(removed: removed, added: removed.lowerBound..<removed.lowerBound))
    }
    let drop: (Range<Int>) -> Range<Int>? = { r in old.contains(r.lowerBound) ? nil : r }
    for name in Array(customRotors.keys) {
      let removed = customRotors[name]!.indices(startingIn: s..<next)
      customRotors[name]!.apply(edit: old, newCount: 0) { r, _ in drop(r) }
      change.named[name] = RotorChange(removed: removed, added: removed.lowerBound..<removed.lowerBound)
    }
    for name in Array(computedRotors.keys) {
      guard computedRotors[name]!.index != nil else {
        // Not indexed since an update failed: held all the same, reported as rebuilt.
        change.named[name] = RotorChange(removed: 0..<0, added: 0..<0, rebuilt: true)
        continue
      }
      let removed = computedRotors[name]!.index!.indices(startingIn: s..<next)
      computedRotors[name]!.index!.apply(edit: old, newCount: 0) { r, _ in drop(r) }
      change.named[name] = RotorChange(removed: removed, added: removed.lowerBound..<removed.lowerBound)
    }
    structureRemoved(old, change: &change)
    anchors.removeElement(old)
    table.tree.remove(at: index)
    table.keys.remove(table.id(of: item))
    table.keysChanged()
    // A move (`taken`) puts the element back: the document's element count is the same after it.
    if taken == nil { updateLoneElement(&change, before: table.count + 1) }
    source = nil
    generation += 1
    lastChange = change
    return change
  }

  /// Moves element `id` to `index` (its index once moved) and returns what a screen reader should
  /// announce: "Moved below <the element now before it>" ("Moved above <the element after it>" at
  /// the top), the element named by ``elementName``. Custom rotors' entries and anchors in the
  /// element move with it.
  @discardableResult
  @_specialize(exported:true,where ID == Int)
  @_specialize(exported:true,where ID == String)
  public func move(_ id: ID, to index: Int) throws(DocumentError) -> String {
    let from = try table.require(id)
    guard index >= 0 && index < table.count else { throw .elementIndexOutOfRange(index, count: table.count) }
    // A move to where the element is changes nothing: no generation, no change report.
    if index == from { return moveAnnouncement(at: index) }
    // One edit, one generation (the removal and the insertion below each bump it).
    let startGeneration = generation
    let item = table[from]
    let start = table.start(of: from)
    let end = start + item.text.utf8Count
    // The element's custom entries and anchors, relative to its start.
    var carried: [String: [(Range<Int>, CustomPayload)]] = [:]
    for (name, rotor) in customRotors {
      var entries: [(Range<Int>, CustomPayload)] = []
      rotor.forEach(in: rotor.indices(startingIn: start..<(end + 1))) { _, range, payload in
        entries.append(((range.lowerBound - start)..<(range.upperBound - start), payload))
        return true
      }
      carried[name] = entries
    }
    let carriedAnchors = anchors.carried(in: start...end)
    // The element's entries in each system index, carried as views of their chunks over its span
    // (its text and the gap after it, as `removeElement` removes them), when that span stays the
    // same once inserted (a moved element gets the virtual gap of one byte: a file's line element
    // whose terminator was CR LF is segmented again).
    var pieces: CarriedPieces? =
      item.summary.text.utf8 == item.text.utf8Count + ElementItem.virtualGap.utf8 ? CarriedPieces() : nil
    // The report (``lastChange``): each rotor's entries removed at the old place, added at the new.
    let removal = removeElement(at: from, taking: &pieces)
    var change = insert(
      table.id(of: item), item.text, at: index, carrying: carried, anchors: carriedAnchors, pieces: pieces,
      slot: item.slot)
    change.editedRange = removal.editedRange
    removal.system.forEach { kind, removed in
      if let added = change.system[kind] {
        change.system[kind] = RotorChange(
          removed: removed.removed, added: added.added, rebuilt: removed.rebuilt || added.rebuilt)
      }
    }
    removal.named.forEach { name, removed in
      // A rotor the insertion did not report on was dropped there (its update failed: a structure
      // rotor's parse), and is rebuilt when next asked for.
      let added = change.named[name]
      change.named[name] = RotorChange(
        removed: removed.removed, added: added?.added ?? (0..<0),
        rebuilt: removed.rebuilt || added?.rebuilt ?? true)
    }
    generation = startGeneration + 1
    change.generation = generation
    lastChange = change
    return moveAnnouncement(at: index)
  }

  /// What ``move(_:to:)`` announces for the element now at `index`. A neighbour whose name is
  /// blank (an element of spaces, or an empty one) is named by its place: "Moved below element 3".
  private func moveAnnouncement(at index: Int) -> String {
    func name(_ k: Int) -> String {
      let item = table[k]
      let n = elementName(TextElement(id: table.id(of: item), text: Self.nameSource(item.text)))
      return n.allSatisfy(\.isWhitespace) ? "element \(k + 1)" : n
    }
    if index > 0 { return "Moved below \(name(index - 1))" }
    if table.count > 1 { return "Moved above \(name(1))" }
    return "Moved"
  }

  /// The start of `text` that ``elementName`` is given for an announcement: its leading blank
  /// bytes (ASCII whitespace, blank lines included; at most 4 KB of them, so that a move next to
  /// an element of megabytes of spaces stays cheap) and up to 1 KB after them, cut at a scalar
  /// boundary: enough for the first non-blank line's name, never a split character (which would
  /// read as U+FFFD) nor only blank lines (which would name nothing).
  static func nameSource(_ text: TextRope) -> String {
    let n = text.utf8Count
    let limit = Swift.min(n, 4096)
    var skip = 0
    while skip < limit, case let c = text.byte(at: skip), c == 0x20 || (c >= 0x09 && c <= 0x0D) { skip += 1 }
    return text.string(0..<text.scalarBoundary(atOrBefore: Swift.min(n, skip + 1024)))
  }

  /// Replaces the `lines` entries of element `item` (starting at document offset `start`, its
  /// text `oldLength` bytes long before an edit) by those of its whole text now, an empty text
  /// being one empty line. Returns the indices of the entries removed and of those added.
  static func segmentLinesAgain(
    of item: ElementItem, at start: Int, oldLength: Int, in index: inout SegmentIndex, alone: Bool = false
  ) -> (old: Range<Int>, new: Range<Int>) {
    let length = item.text.utf8Count
    let gap = item.summary.text.utf8 - length
    let (storage, r) = item.text.contiguous(0..<length)
    let store = Segmenter.lines(storage, elements: [r], emptyElementsAreLines: !alone)
    // The element's entries start in its text or at its end (an empty element's), before its gap
    // ends: where the next element starts.
    let removed = index.replace(
      startingIn: start..<(start + oldLength + gap), movingLaterBy: length - oldLength, with: store,
      storeDelta: start - r.lowerBound)
    return (removed, removed.lowerBound..<(removed.lowerBound + store.count))
  }

  /// After an element insert or removal took the document from one element to two or back: the
  /// element that was there before it, when empty, becomes an empty line or stops being one
  /// (``emptyElementsAreLines``), for `lines` and for computed rotors (`^$` matches an empty line).
  /// Their changes are then reported as every entry removed and added (the document holds two
  /// elements at most, and an empty one has at most one entry a rotor). The element just inserted
  /// (`inserted`) was segmented as it is now and is left alone, so a move of an element that is
  /// not carried (removed, then inserted) reports its own entries as any move does.
  func updateLoneElement(_ change: inout DocumentChange<ID>, before oldCount: Int, inserted: Int? = nil) {
    guard oldCount + table.count == 3, let e = (0..<table.count).first(where: { $0 != inserted }),
      table[e].text.utf8Count == 0
    else { return }
    let s = table.start(of: e)
    // The entries before the operation: those now, less what it added, plus what it removed.
    func wholeChange(_ reported: RotorChange?, now: Int) -> RotorChange? {
      guard reported?.rebuilt != true else { return nil }
      let old = now - (reported?.added.count ?? 0) + (reported?.removed.count ?? 0)
      return RotorChange(removed: 0..<old, added: 0..<now)
    }
    if var index = systemIndexes.removeValue(forKey: .lines) {
      let reported = change.system[.lines]
      let countBefore = index.count
      _ = Self.segmentLinesAgain(of: table[e], at: s, oldLength: 0, in: &index, alone: table.count == 1)
      systemIndexes[.lines] = index
      if let whole = wholeChange(reported, now: countBefore) {
        change.record(.lines, RotorChange(removed: whole.removed, added: 0..<index.count))
      }
    }
    for name in Array(computedRotors.keys) {
      guard var index = computedRotors[name]!.index else {
        // Not indexed since an update failed (built again when next asked for): still held, so
        // reported as rebuilt.
        change.named[name] = RotorChange(removed: 0..<0, added: 0..<0, rebuilt: true)
        continue
      }
      computedRotors[name]!.index = nil
      let reported = change.named[name]
      guard
        let found = try? Self.entries(
          computedRotors[name]!.compute, ByteStorage([UInt8]()), 0..<0, emptyLine: table.count > 1)
      else {
        change.named[name] = RotorChange(removed: 0..<0, added: 0..<0, rebuilt: true)
        continue
      }
      let countBefore = index.count
      // The element's entries all start at its offset (it is empty).
      index.apply(edit: s..<s, newCount: 0, inserting: found.map { (($0.lowerBound + s)..<($0.upperBound + s), ()) }) {
        r, _ in r.lowerBound == s ? nil : r
      }
      computedRotors[name]!.index = index
      if let whole = wholeChange(reported, now: countBefore) {
        change.named[name] = RotorChange(removed: whole.removed, added: 0..<index.count)
      }
    }
  }

  // MARK: Anchors

  /// An anchor at `position`: a position that moves with the text as it is edited. Text inserted
  /// exactly at it goes after it (`.staysBefore`) or before it (`.movesAfter`). An anchor whose
  /// element is removed is gone (``position(of:)`` is nil). O(log n) (amortised: now and then a
  /// run of neighbouring anchors is given new order keys).
  public func anchor(at position: TextPosition<ID>, stickiness: AnchorStickiness = .staysBefore)
    throws(DocumentError) -> TextAnchor
  {
    let p = try table.documentOffset(position)
    return TextAnchor(id: anchors.add(at: p, stickiness: stickiness, width: table.length))
  }

  /// Where `anchor` is now, or nil when it or its element was removed. O(log² n) in the number of
  /// anchors (a binary search on order keys, ``AnchorIndex``), plus O(log n) for the position.
  public func position(of anchor: TextAnchor) -> TextPosition<ID>? {
    anchors.offset(of: anchor.id).map { table.position(atDocumentOffset: $0) }
  }

  /// Stops tracking `anchor` (nothing when it is not tracked). O(log² n) in the number of anchors.
  public func removeAnchor(_ anchor: TextAnchor) {
    anchors.remove(anchor.id)
  }
}

/// What the bytes of a line show on one side of an edit (``EditCuts/edge(before:)``,
/// ``EditCuts/edge(from:)``).
enum LineEdge {
  /// A byte other than a space or a tab: the line is non-blank.
  case nonBlank(Int)
  /// Only spaces and tabs out to the line's `edge` (its start, or its content's end), and
  /// `beyond` it the end of the line before (its terminator's first byte) or the start of the line
  /// after; nil when there is none.
  case blank(edge: Int, beyond: Int?)
}

/// The cuts of one edit's windows, found in the bytes around the edit: first the rope chunk holding
/// it (no copy), then a copy of ``nearMargin`` bytes on each side, then of `margin` bytes, then the
/// rope itself.
///
/// The near window is what most edits need when the chunk does not do: a keystroke inside a large
/// chunk leaves the typed bytes in a chunk of their own, so the chunk holding the edit is a few bytes
/// long in four edits of ten, and a wide window then copied 8 KB (20,000 instructions) to find the
/// ends of a 70-byte line.
final class EditCuts {
  let text: TextRope
  let edited: Range<Int>
  let margin: Int
  private var chunk: TextWindow??
  private var near: TextWindow?
  private var wide: TextWindow?

  /// Bytes on each side of the edit in the first copied window: a few lines of prose or code.
  static var nearMargin: Int { 256 }

  init(text: TextRope, edited: Range<Int>, margin: Int) {
    self.text = text
    self.edited = edited
    self.margin = margin
  }

  private var chunkWindow: TextWindow? {
    if let chunk { return chunk }
    let found = text.chunkWindow(holding: edited)
    chunk = .some(found)
    return found
  }

  private var nearWindow: TextWindow {
    if let near { return near }
    let made = text.window(around: edited, margin: Swift.min(Self.nearMargin, margin))
    near = made
    return made
  }

  private var wideWindow: TextWindow {
    if let wide { return wide }
    let made = text.window(around: edited, margin: margin)
    wide = made
    return made
  }

  /// Whether the near window is worth making: the new text is small (a paste would be copied into
  /// both windows).
  private var usesNear: Bool { edited.count <= Self.nearMargin }

  /// Whether the near window would hold the text offsets `range` (without making it).
  private func nearHolds(_ range: Range<Int>) -> Bool {
    let m = Swift.min(Self.nearMargin, margin)
    return usesNear && range.lowerBound >= edited.lowerBound - m && range.upperBound <= edited.upperBound + m
  }

  func before(_ p: Int, rotor: SystemRotor?) -> Int {
    if let w = chunkWindow, let cut = try? w.cut(before: p, rotor: rotor) { return cut }
    if usesNear, let cut = try? nearWindow.cut(before: p, rotor: rotor) { return cut }
    return (try? wideWindow.cut(before: p, rotor: rotor)) ?? text.cut(before: p, rotor: rotor)
  }

  func after(_ p: Int, rotor: SystemRotor?) -> Int {
    if let w = chunkWindow, let cut = try? w.cut(after: p, rotor: rotor) { return cut }
    if usesNear, let cut = try? nearWindow.cut(after: p, rotor: rotor) { return cut }
    return (try? wideWindow.cut(after: p, rotor: rotor)) ?? text.cut(after: p, rotor: rotor)
  }

  /// Whether a byte other than a space or a tab lies within 64 bytes of `from`, going by `step`
  /// (1 or -1), before a line break or the text's end: the line there is non-blank.
  func nonBlankNear(_ from: Int, step: Int) -> Bool {
    let length = text.utf8Count
    var i = from
    for _ in 0..<64 where i >= 0 && i < length {
      let c = byte(at: i)
      if c == 0x0A || c == 0x0D { return false }
      if c != 0x20 && c != 0x09 { return true }
      i += step
    }
    return false
  }

  /// What the line holding `offset - 1` shows going back from `offset` (at most 64 bytes, to a
  /// byte other than a space or a tab, or to a line terminator): a non-blank byte of it, or its
  /// start and where the line before it ends (its terminator's first byte; nil at the text's
  /// start). Nil when 64 blank bytes leave it undecided. `offset` must not split a CR LF.
  func edge(before offset: Int) -> LineEdge? {
    var i = offset - 1
    while i >= 0 {
      guard offset - i <= 64 else { return nil }
      let c = byte(at: i)
      if c == 0x0A || c == 0x0D {
        return .blank(edge: i + 1, beyond: c == 0x0A && i > 0 && byte(at: i - 1) == 0x0D ? i - 1 : i)
      }
      if c != 0x20 && c != 0x09 { return .nonBlank(i) }
      i -= 1
    }
    return .blank(edge: 0, beyond: nil)
  }

  /// What the line holding `offset` shows going on from it (at most 64 bytes): a non-blank byte
  /// of it, or its end (its terminator's first byte, or the text's end) and where the line after
  /// it starts (nil when none does: no terminator, or one ending the text). Nil when undecided.
  /// `offset` must not split a CR LF.
  func edge(from offset: Int) -> LineEdge? {
    let length = text.utf8Count
    var i = offset
    while i < length {
      guard i - offset < 64 else { return nil }
      let c = byte(at: i)
      if c == 0x0A || c == 0x0D {
        let u = c == 0x0D && i + 1 < length && byte(at: i + 1) == 0x0A ? i + 2 : i + 1
        return .blank(edge: i, beyond: u < length ? u : nil)
      }
      if c != 0x20 && c != 0x09 { return .nonBlank(i) }
      i += 1
    }
    return .blank(edge: length, beyond: nil)
  }

  /// The byte at `offset`: from the chunk holding the edit, or the near window, when one holds it
  /// (no descent).
  func byte(at offset: Int) -> UInt8 {
    if let w = chunkWindow, let c = try? w.byte(at: offset) { return c }
    if nearHolds(offset..<(offset + 1)), let c = try? nearWindow.byte(at: offset) { return c }
    return text.byte(at: offset)
  }

  /// The bytes of `range` as one storage and a range of it: a slice of a window when one holds them,
  /// else a copy of just `range`.
  func bytes(_ range: Range<Int>) -> (ByteStorage, Range<Int>) {
    if let w = chunkWindow, w.holds(range) { return (w.storage, w.local(range)) }
    if nearHolds(range) {
      let w = nearWindow
      if w.holds(range) { return (w.storage, w.local(range)) }
    }
    if let w = wide, w.holds(range) { return (w.storage, w.local(range)) }
    return text.contiguous(range)
  }
}
