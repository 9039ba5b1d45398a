/// Re-synchronization after an edit inside a long segment (a sentence that is a whole minified
/// JSON line, a line-break segment that is a long base64 run): which boundaries the edit changed,
/// found by running the machine over a few hundred bytes around the edit instead of from the start
/// of the segment that holds it.
///
/// ICU's forward iteration is a sequence of passes: a pass starts at a boundary, runs the state
/// table until the stop state (or a completed look-ahead rule) and ends the segment at its result;
/// the next pass starts there and may read the same characters again. A boundary is decided by
/// the pass that ends at it, which may read past it.
///
/// 1. *Where the state is known.* Before the edit the old and the new text are the same. Starting
///    a little before the edit with every state possible (the passes under way there are unknown)
///    and adding the start of a pass at every old boundary, the set of states the machine can be
///    in is stepped character by character (a pass that stops leaves it) until it holds one
///    state: from there on, whatever the history, the machine is in that state.
/// 2. *Where the texts agree again.* From there the machine is run over the old and the new text,
///    pass after pass, with what it cannot know (a result, a status, a look-ahead position set
///    before step 1's point) marked unknown: needing one gives up. Past the edit, as soon as the
///    run over the new text is at the same distance from the edit as the run over the old text
///    was, in the same configuration (state, result, status, pass start and look-ahead positions
///    equal before the edit, or moved by the edit's length after it), both runs go on the same:
///    every later boundary is an old one, moved.
///
/// The boundaries each run ended before that moment are the only ones that differ.
extension RuleMachine {
  /// How the new boundaries around an edit meet the old ones: see the extension's documentation.
  /// Offsets are in the buffers given to ``resync(old:new:editStart:oldEnd:newEnd:boundaries:startsText:endsText:span:)``.
  public struct Resync: Sendable, Equatable {
    /// Where step 1 found the state known (at or before the edit).
    public var start: Int
    /// The boundaries the run over the old text ended after `start`, before it met the new run.
    public var oldBoundaries: [Int]
    /// The boundaries the run over the new text ended after `start`, and their rule statuses.
    public var newBoundaries: [Int]
    public var newStatuses: [Int32]
    /// Where the runs met: positions in the old and the new text, at the same distance past the edit.
    public var oldSync: Int
    public var newSync: Int
  }

  /// An unknown value of the machine's configuration (set before the state was known).
  private static let unknown = Int.min
  /// The state of a pass not begun yet (its {bof} step to take).
  private static let pending = -1
  /// The state after the last pass of a text that ends in the buffer.
  private static let ended = -2

  private struct Configuration: Equatable {
    var state: Int
    var result: Int
    var statusState: Int  // -1: ICU's tag set 0
    var start: Int
    var slots: [Int]
  }

  /// The boundaries that an edit changed, from a run over `old` and `new`: the same bytes before
  /// `editStart`, `old[editStart..<oldEnd]` replaced by `new[editStart..<newEnd]`, the same bytes
  /// after. `boundaries` are the old boundaries in `0...editStart` (sorted); `startsText` whether
  /// the buffers start where the text does, `endsText` whether they end where it does (else their
  /// last 4 bytes are only read as the continuation of a character). Past the edit the runs look
  /// for their meeting point at most `span` bytes. Nil when the machine meets a character of a
  /// dictionary category, needs a value it cannot know, or the runs do not meet: the caller then
  /// re-segments from an old boundary.
  public func resync(
    old: UnsafeBufferPointer<UInt8>, new: UnsafeBufferPointer<UInt8>, editStart a: Int, oldEnd: Int, newEnd: Int,
    boundaries: [Int], startsText: Bool, endsText: Bool, span: Int
  ) -> Resync? {
    guard let (start, known) = knownState(old, before: a, boundaries: boundaries, startsText: startsText) else {
      return nil
    }
    let slotCount = rules.lookAheadSlots
    var first = Configuration(
      state: known, result: Self.unknown, statusState: Self.unknown, start: Self.unknown,
      slots: Array(repeating: Self.unknown, count: slotCount))
    if known == Self.pending { first.start = start }
    let delta = (newEnd - a) - (oldEnd - a)
    // Whether an old and a new value (a position) are the same, before the edit or moved by it.
    func same(_ o: Int, _ n: Int) -> Bool {
      if o == Self.unknown || n == Self.unknown { return o == n }
      if o < a { return o == n }
      return o >= oldEnd && o > a && n == o + delta
    }
    // The old run, recorded past the edit (the last visit of each position, with how many
    // boundaries it had ended before), as plain integers (``ResyncRecords``): recording a
    // character costs no allocation or reference count.
    let limit = span
    let records = ResyncRecords(slots: slotCount, capacity: Swift.min(limit + 1, 512))
    var oldEnds: [Int] = []
    var ignored: [Int32] = []
    guard
      run(
        old, first, at: start, endsText: endsText, ends: &oldEnds, statuses: &ignored,
        visit: { p, c, k in
          guard p >= oldEnd else { return false }
          let d = p - oldEnd
          if d > limit { return true }
          records.set(
            d, state: c.state, result: c.result, statusState: c.statusState, start: c.start, slots: c.slots, count: k)
          return c.state == Self.ended
        })
    else { return nil }
    // Whether the old run's record at `d` agrees with `n` (state, result, status, pass start and
    // look-ahead positions the same, or moved by the edit): the boundaries it had ended then.
    // A pass's start matters only when its result has not moved from it (the pass then ends one
    // character on): once both results are known and past their starts (a result only moves
    // on), the starts may differ, as after a line break typed into a long sentence, where the new
    // run begins a pass after it and the old one is inside a pass begun long before.
    func agreeing(_ d: Int, _ n: Configuration) -> Int? {
      guard let o = records[d] else { return nil }
      let startsIrrelevant = o[1] != Self.unknown && o[1] != o[3] && n.result != n.start
      guard o[0] == n.state, o[2] == n.statusState, same(o[1], n.result), startsIrrelevant || same(o[3], n.start)
      else { return nil }
      for i in 0..<slotCount where !same(o[5 + i], n.slots[i]) { return nil }
      return o[4]
    }
    var newEnds: [Int] = []
    var newStatuses: [Int32] = []
    var met: (Int, Int)? = nil
    guard
      run(
        new, first, at: start, endsText: endsText, ends: &newEnds, statuses: &newStatuses,
        visit: { p, c, k in
          guard p >= newEnd else { return false }
          let d = p - newEnd
          if d > limit { return true }
          if let count = agreeing(d, c) {
            met = (d, count)
            return true
          }
          return c.state == Self.ended
        })
    else { return nil }
    // The new run stopped where it met the old one: every boundary it ended came before.
    guard let (d, count) = met else { return nil }
    return Resync(
      start: start, oldBoundaries: Array(oldEnds[..<count]), newBoundaries: newEnds, newStatuses: newStatuses,
      oldSync: oldEnd + d, newSync: newEnd + d)
  }

  /// Step 1: a position at or before `a` from which the machine's run is known, and its state
  /// there (``pending``: a pass starts there, its result, status and start known).
  ///
  /// The set of states the machine's current pass can be in is stepped from the window's start,
  /// where every state is possible (a pass of unknown history) unless the text starts there; a
  /// pass starts at each old boundary; a pass that stops leaves the set. Each state remembers the
  /// oldest boundary at which a pass that may be in it started. At `a`, when no pass of unknown
  /// history is left, every pass that started before the oldest remembered boundary stopped
  /// before the edit (its boundary is the same in both texts): the run is known from that
  /// boundary on. Else, the last position where the set held one state (every pass there in that
  /// state, whatever its history; its result and status unknown until it moves them).
  private func knownState(_ text: UnsafeBufferPointer<UInt8>, before a: Int, boundaries: [Int], startsText: Bool)
    -> (Int, Int)?
  {
    let states = rules.stateCount
    let begin = bofRequired ? Int(table[1 * categories + 2]) : 1
    // Members: a state and the oldest boundary where a pass in it may have started (-1: unknown),
    // in buffers of `states + 1` (the distinct states a step reaches and one pass begun), reused
    // from character to character rather than emptied and refilled as arrays.
    let capacity = states + 1
    let buffer = UnsafeMutablePointer<Int>.allocate(capacity: 4 * capacity + states)
    defer { buffer.deallocate() }
    var set = buffer
    var born = buffer + capacity
    var next = buffer + 2 * capacity
    var nextBorn = buffer + 3 * capacity
    let slot = buffer + 4 * capacity
    slot.initialize(repeating: -1, count: states)
    var count = 0
    if startsText {
      set[0] = Self.pending
      born[0] = 0
      count = 1
    } else {
      for s in 1..<states {
        set[count] = s
        born[count] = -1
        count += 1
      }
    }
    var b = 0
    while b < boundaries.count && boundaries[b] < 0 { b += 1 }
    if !startsText && b < boundaries.count && boundaries[b] == 0 {
      set[count] = Self.pending
      born[count] = 0
      count += 1
    }
    var collapsed: (Int, Int)? = nil
    var p = 0
    guard let base = text.baseAddress else { return nil }
    while p < a {
      if count == 1 { collapsed = (p, set[0]) }
      let (c, length) = Self.decode(base, p, text.count)
      guard p + length <= a else { return nil }
      let k = c < 0x10000 ? bmp[Int(c)] : rules.category(c)
      if k >= dictionaryStart { return nil }
      var n = 0
      for m in 0..<count {
        let s = set[m]
        let t = Int(table[(s == Self.pending ? begin : s) * categories + Int(k)])
        guard t != 0 else { continue }
        assert(t < states, "a state past the table")
        if slot[t] < 0 {
          slot[t] = n
          next[n] = t
          nextBorn[n] = born[m]
          n += 1
        } else {
          nextBorn[slot[t]] = Swift.min(nextBorn[slot[t]], born[m])
        }
      }
      for m in 0..<n { slot[next[m]] = -1 }
      p += length
      while b < boundaries.count && boundaries[b] < p { b += 1 }
      if b < boundaries.count && boundaries[b] == p {
        next[n] = Self.pending
        nextBorn[n] = p
        n += 1
      }
      swap(&set, &next)
      swap(&born, &nextBorn)
      count = n
    }
    if count == 1 { collapsed = (p, set[0]) }
    if count > 0 {
      var oldest = born[0]
      for m in 1..<count { oldest = Swift.min(oldest, born[m]) }
      if oldest >= 0 { return (oldest, Self.pending) }
    }
    return collapsed
  }

  /// Runs the machine pass after pass over `text` from `configuration` at `position`, as
  /// ``next(_:from:end:)`` does, appending the boundaries it ends to `ends` and `statuses`; calls
  /// `visit` (position, configuration, boundaries so far) before each character, and at the end
  /// of the text; stops when `visit` returns true. False when a value it needs is unknown, a
  /// character is of a dictionary category, or the buffer ends before the text does.
  private func run(
    _ text: UnsafeBufferPointer<UInt8>, _ configuration: Configuration, at position: Int, endsText: Bool,
    ends: inout [Int], statuses: inout [Int32], visit: (Int, Configuration, Int) -> Bool
  ) -> Bool {
    guard let base = text.baseAddress else { return false }
    let end = text.count
    let usable = endsText ? end : end - 4
    var c = configuration
    var p = position
    // Ends the segment at `e` and begins the next pass there.
    func boundary(_ e: Int, _ status: Int32) {
      ends.append(e)
      statuses.append(status)
      p = e
      c.state = Self.pending
    }
    // What ICU does on entering `c.state` at `position` (after a step): an accepting state moves
    // the result (not on the {bof} step) and the status; a completed look-ahead rule ends the
    // segment where its '/' was; a look-ahead rule's '/' is recorded. Nil when a value it needs
    // is unknown; true when the segment ended.
    func enter(at position: Int, movingResult: Bool) -> Bool? {
      let accept = Int(accepting[c.state])
      if accept == 1 {
        if movingResult { c.result = position }
        c.statusState = c.state
      } else if accept > 1 {
        let v = c.slots[accept]
        if v == Self.unknown { return nil }
        if v >= 0 {
          boundary(v, status[c.state])
          return true
        }
      }
      let rule = Int(lookAhead[c.state])
      if rule > 1 { c.slots[rule] = position }
      return false
    }
    while true {
      if c.state == Self.pending {
        if endsText && p >= end {
          c.state = Self.ended
          _ = visit(p, c, ends.count)
          return true
        }
        guard p < usable else { return false }
        c.state = 1
        c.result = p
        c.statusState = -1
        c.start = p
        if bofRequired {
          c.state = Int(table[1 * categories + 2])
          guard let ended = enter(at: p + Self.decode(base, p, end).1, movingResult: false) else { return false }
          if ended { continue }
        }
      }
      if visit(p, c, ends.count) { return true }
      let atEnd = p >= end
      if !atEnd {
        guard p < usable else { return false }
        let (ch, length) = Self.decode(base, p, end)
        let k = ch < 0x10000 ? bmp[Int(ch)] : rules.category(ch)
        if k >= dictionaryStart { return false }
        p += length
        c.state = Int(table[c.state * categories + Int(k)])
      } else {
        guard endsText else { return false }
        c.state = Int(table[c.state * categories + 1])  // RBBI_END: one step on {eof}
      }
      guard let ended = enter(at: p, movingResult: true) else { return false }
      if ended { continue }
      if c.state != 0 && !atEnd { continue }
      // The pass is over: its segment ends at the result (one character on when it did not move).
      if c.result == Self.unknown { return false }
      if c.result == c.start {
        boundary(c.start + Self.decode(base, c.start, end).1, defaultStatus)
      } else {
        if c.statusState == Self.unknown { return false }
        boundary(c.result, c.statusState >= 0 ? status[c.statusState] : defaultStatus)
      }
    }
  }
}

/// The records of ``RuleMachine/resync(old:new:editStart:oldEnd:newEnd:boundaries:startsText:endsText:span:)``'s
/// run over the old text: per distance `d` past the edit, the machine's configuration when it last
/// visited that position (state, result, status state, pass start, boundaries ended so far, then
/// the look-ahead slots), or none. Plain integers in one buffer, grown as the run goes.
private final class ResyncRecords {
  private let width: Int
  private var base: UnsafeMutablePointer<Int>
  private var capacity: Int
  private var count = 0
  private static let absent = Int.min + 1

  init(slots: Int, capacity: Int) {
    width = 5 + slots
    self.capacity = Swift.max(capacity, 1)
    base = .allocate(capacity: self.capacity * width)
  }

  deinit { base.deallocate() }

  func set(_ d: Int, state: Int, result: Int, statusState: Int, start: Int, slots: [Int], count k: Int) {
    if d >= count {
      if d >= capacity {
        let grown = Swift.max(capacity * 2, d + 1)
        let moved = UnsafeMutablePointer<Int>.allocate(capacity: grown * width)
        moved.initialize(from: base, count: count * width)
        base.deallocate()
        base = moved
        capacity = grown
      }
      (base + count * width).initialize(repeating: Self.absent, count: (d + 1 - count) * width)
      count = d + 1
    }
    let r = base + d * width
    r[0] = state
    r[1] = result
    r[2] = statusState
    r[3] = start
    r[4] = k
    for i in 0..<(width - 5) { r[5 + i] = slots[i] }
  }

  /// The record at distance `d`, or nil when the run did not visit it.
  subscript(d: Int) -> UnsafeMutablePointer<Int>? {
    guard d < count, base[d * width] != Self.absent else { return nil }
    return base + d * width
  }
}
