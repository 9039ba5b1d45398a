/// An anchor's entry in its ``AnchorIndex`` (its stickiness is the index's): its id and its order
/// key, increasing along the index.
struct AnchorPayload: Sendable {
  var id: Int
  var key: Int64
}

/// The anchors of a document (``RotorDocument/anchor(at:stickiness:)``): positions that move with
/// the text, found by id in O(log² n) and removed in O(log n).
///
/// Layout: one ``IntervalIndex`` of empty entries (document offsets) per stickiness, and a
/// dictionary from an anchor's id to its stickiness and order key. Within one stickiness every
/// text edit moves positions monotonically (before the edit: stay; at its start: stay, or all go to
/// the end of the new text; inside it: to that end; after it: shifted by the change in length), and
/// so do element inserts (positions at or after the new element shift by its span) and removals
/// (the removed element's anchors are dropped): the order of the entries in an index never changes
/// and equal positions keep their order (``IntervalIndex/apply(edit:newCount:inserting:transform:)``
/// sorts only what is out of order, stably). Each entry's key increases along its index, so an
/// anchor is found by a binary search on keys (``IntervalIndex/firstEntry(where:)``) and not by a
/// walk. One index holding both stickinesses would not do: an anchor at `a` that moves after and one
/// at `a + 1` inside a replaced range meet at its end, and text typed there parts them in the other
/// order.
///
/// A new anchor gets a key between its neighbours' (it goes after the anchors at its position);
/// anchors carried by an element `move` are inserted at the destination with keys between the
/// neighbours there. When there is no room, a window around the insertion is given evenly spaced
/// keys, growing until they leave room (as the element table's keys, ``DocumentText``).
///
/// An empty index is not edited: it is rebuilt at the document's width when an anchor next goes in.
struct AnchorIndex: Sendable {
  typealias Entries = IntervalIndex<AnchorPayload>

  /// The anchors of an element being moved, by stickiness: (offset from the element's start, id).
  struct Carried {
    var staying: [(Int, Int)] = []
    var moving: [(Int, Int)] = []
  }

  /// The anchors that stay before text inserted at them, and those that move after it.
  private(set) var staying = Entries()
  private(set) var moving = Entries()
  /// Each live anchor's stickiness and order key.
  private(set) var located: [Int: (stickiness: AnchorStickiness, key: Int64)] = [:]
  private(set) var lastID = 0
  /// The gap between keys given out at the ends of an index or when relabeling all of it; settable
  /// for tests (a small gap relabels often).
  var keySpacing: Int64 = 1 << 24
  /// How many times keys were spread out again (for tests).
  private(set) var relabels = 0

  /// Keys stay within ±`keyLimit`, so the difference of two never overflows.
  private static var keyLimit: Int64 { Int64.max / 2 }

  var count: Int { located.count }

  // MARK: Reading

  /// The document offset of anchor `id`, or nil when it was removed (or its element). O(log² n).
  func offset(of id: Int) -> Int? {
    guard let (stickiness, key) = located[id] else { return nil }
    let found = (stickiness == .staysBefore ? staying : moving).firstEntry { $0.key >= key }
    guard let found, found.value.id == id else { return nil }
    return found.range.lowerBound
  }

  /// The anchors whose offset lies in `range` (closed: an anchor at the end of an element's text
  /// is the element's), relative to `range`'s start.
  func carried(in range: ClosedRange<Int>) -> Carried {
    var result = Carried()
    func collect(_ entries: Entries, _ into: inout [(Int, Int)]) {
      guard !entries.isEmpty else { return }
      entries.forEach(in: entries.indices(startingIn: range.lowerBound..<(range.upperBound + 1))) { _, r, payload in
        into.append((r.lowerBound - range.lowerBound, payload.id))
        return true
      }
    }
    collect(staying, &result.staying)
    collect(moving, &result.moving)
    return result
  }

  // MARK: Changing

  /// A new anchor at `offset` in a document `width` bytes long; returns its id. O(log n), plus a
  /// relabeling now and then (amortised O(log n)).
  mutating func add(at offset: Int, stickiness: AnchorStickiness, width: Int) -> Int {
    lastID += 1
    let id = lastID
    let key: Int64
    switch stickiness {
    case .staysBefore:
      key = Self.add(
        id, at: offset, to: &staying, located: &located, spacing: keySpacing, width: width, relabels: &relabels)
    case .movesAfter:
      key = Self.add(
        id, at: offset, to: &moving, located: &located, spacing: keySpacing, width: width, relabels: &relabels)
    }
    located[id] = (stickiness, key)
    return id
  }

  private static func add(
    _ id: Int, at offset: Int, to entries: inout Entries,
    located: inout [Int: (stickiness: AnchorStickiness, key: Int64)],
    spacing: Int64, width: Int, relabels: inout Int
  ) -> Int64 {
    if entries.isEmpty { entries = Entries(width: width) }
    // `apply` puts it after the entries at `offset`: before the first one past it.
    let i = entries.firstIndex(startingAfter: offset)
    let (first, step) = freeKeys(1, at: i, in: &entries, located: &located, spacing: spacing, relabels: &relabels)
    let key = first + step
    entries.apply(edit: offset..<offset, newCount: 0, inserting: [(offset..<offset, AnchorPayload(id: id, key: key))]) {
      r, _ in r
    }
    return key
  }

  /// Stops tracking anchor `id`. O(log² n) to find it, O(log n) to remove it.
  mutating func remove(_ id: Int) {
    guard let (stickiness, key) = located.removeValue(forKey: id) else { return }
    switch stickiness {
    case .staysBefore: Self.remove(id, key: key, from: &staying)
    case .movesAfter: Self.remove(id, key: key, from: &moving)
    }
  }

  private static func remove(_ id: Int, key: Int64, from entries: inout Entries) {
    guard let found = entries.firstEntry(where: { $0.key >= key }), found.value.id == id else { return }
    entries.remove(at: found.index)
  }

  /// Text edit: the bytes `old` (document offsets) became `newCount` bytes. An anchor at the start
  /// of `old` stays there or goes to the end of the new text by its stickiness, one inside `old`
  /// goes to that end, one after it moves by the change in length.
  mutating func edit(_ old: Range<Int>, newCount: Int) {
    let a = old.lowerBound
    let end = a + newCount
    if !staying.isEmpty {
      staying.apply(edit: old, newCount: newCount) { r, _ in
        let p = r.lowerBound <= a ? r.lowerBound : end
        return p..<p
      }
    }
    if !moving.isEmpty {
      moving.apply(edit: old, newCount: newCount) { r, _ in
        let p = r.lowerBound < a ? r.lowerBound : end
        return p..<p
      }
    }
  }

  /// An element removed: its bytes `old` are gone, and the anchors in them (their ids too).
  mutating func removeElement(_ old: Range<Int>) {
    Self.removeElement(old, from: &staying, located: &located)
    Self.removeElement(old, from: &moving, located: &located)
  }

  private static func removeElement(
    _ old: Range<Int>, from entries: inout Entries, located: inout [Int: (stickiness: AnchorStickiness, key: Int64)]
  ) {
    guard !entries.isEmpty else { return }
    entries.forEach(in: entries.indices(startingIn: old)) { _, _, payload in
      located[payload.id] = nil
      return true
    }
    entries.apply(edit: old, newCount: 0) { r, _ in old.contains(r.lowerBound) ? nil : r }
  }

  /// An element inserted at offset `x`, `span` bytes with its gap, carrying `carried` (offsets
  /// relative to `x`); `width` is the document's length after it.
  mutating func insertElement(at x: Int, span: Int, carrying carried: Carried, width: Int) {
    Self.insertElement(
      at: x, span: span, carried.staying, .staysBefore, into: &staying, located: &located, spacing: keySpacing,
      width: width, relabels: &relabels)
    Self.insertElement(
      at: x, span: span, carried.moving, .movesAfter, into: &moving, located: &located, spacing: keySpacing,
      width: width, relabels: &relabels)
  }

  private static func insertElement(
    at x: Int, span: Int, _ carried: [(Int, Int)], _ stickiness: AnchorStickiness, into entries: inout Entries,
    located: inout [Int: (stickiness: AnchorStickiness, key: Int64)], spacing: Int64, width: Int, relabels: inout Int
  ) {
    if entries.isEmpty {
      guard !carried.isEmpty else { return }
      entries = Entries(width: width - span)
    }
    var inserted: [(Range<Int>, AnchorPayload)] = []
    if !carried.isEmpty {
      // `apply` puts them before the entries at `x` (moved past the element), after those before.
      let i = entries.firstIndex(startingAtLeast: x)
      let (first, step) = freeKeys(
        carried.count, at: i, in: &entries, located: &located, spacing: spacing, relabels: &relabels)
      inserted.reserveCapacity(carried.count)
      var key = first
      for (offset, id) in carried {
        key += step
        inserted.append(((x + offset)..<(x + offset), AnchorPayload(id: id, key: key)))
        located[id] = (stickiness, key)
      }
    }
    entries.apply(edit: x..<x, newCount: span, inserting: inserted) { r, _ in
      r.lowerBound >= x ? (r.lowerBound + span)..<(r.upperBound + span) : r
    }
  }

  // MARK: Order keys

  /// `first` and `step` such that `first + step * j` for `j` in `1...m` are free keys for `m`
  /// entries inserted before entry `i` (between the keys of entries `i - 1` and `i`); relabels a
  /// window around `i` when there is no room.
  private static func freeKeys(
    _ m: Int, at i: Int, in entries: inout Entries, located: inout [Int: (stickiness: AnchorStickiness, key: Int64)],
    spacing: Int64, relabels: inout Int
  ) -> (first: Int64, step: Int64) {
    if let room = room(m, at: i, in: entries, spacing: spacing) { return room }
    var w = 16
    while true {
      relabel(around: i, window: w, making: m, in: &entries, located: &located, spacing: spacing)
      relabels += 1
      if let room = room(m, at: i, in: entries, spacing: spacing) { return room }
      precondition(w < 2 * entries.count + 32, "no room for \(m) anchor keys")
      w *= 2
    }
  }

  /// Room for `m` keys before entry `i`, or nil.
  private static func room(_ m: Int, at i: Int, in entries: Entries, spacing: Int64) -> (first: Int64, step: Int64)? {
    let lower = i > 0 ? entries[i - 1].value.key : nil
    let upper = i < entries.count ? entries[i].value.key : nil
    let slots = Int64(m) + 1
    let step: Int64
    switch (lower, upper) {
    case (nil, nil):
      step = Swift.min(spacing, keyLimit / slots)
      return step >= 1 ? (-step, step) : nil
    case (let l?, nil):
      step = Swift.min(spacing, (keyLimit - l) / slots)
      return step >= 1 ? (l, step) : nil
    case (nil, let u?):
      step = Swift.min(spacing, (u + keyLimit) / slots)
      return step >= 1 ? (u - step * slots, step) : nil
    case (let l?, let u?):
      step = (u - l) / slots
      return step >= 1 ? (l, step) : nil
    }
  }

  /// Spreads the keys of the entries within `w` of `i` evenly, leaving room for `m` before entry
  /// `i`, when the keys around the window leave gaps of at least `spacing >> 12`; the window grows
  /// until they do (to the whole index, spaced by `spacing` or as much as the key range allows).
  private static func relabel(
    around i: Int, window w0: Int, making m: Int, in entries: inout Entries,
    located: inout [Int: (stickiness: AnchorStickiness, key: Int64)], spacing: Int64
  ) {
    let n = entries.count
    let least = Swift.max(2, spacing >> 12)
    var w = w0
    while true {
      let lo = Swift.max(0, i - w)
      let hi = Swift.min(n, i + w)
      let slots = Int64(hi - lo + m)
      let low: Int64
      let high: Int64
      if lo == 0 && hi == n {
        let step = Swift.max(1, Swift.min(spacing, 2 * keyLimit / (slots + 1)))
        low = step >= spacing ? -step : -keyLimit
        high = low + step * (slots + 1)
      } else {
        let reach = w.multipliedReportingOverflow(by: Int(spacing))
        let far = reach.overflow ? keyLimit : Int64(Swift.min(reach.partialValue, Int(keyLimit)))
        low = lo > 0 ? entries[lo - 1].value.key : Swift.max(-keyLimit, entries[lo].value.key - far)
        high = hi < n ? entries[hi].value.key : Swift.min(keyLimit, entries[hi - 1].value.key + far)
      }
      let step = (high - low) / (slots + 1)
      if step >= least || (lo == 0 && hi == n) {
        entries.updateValues(in: lo..<hi) { j, payload in
          let slot = Int64(j - lo + (j >= i ? m : 0)) + 1
          payload.key = low + step * slot
          located[payload.id]?.key = payload.key
        }
        return
      }
      w *= 2
    }
  }

  /// Checks both indexes, that keys increase strictly along each, that every entry is an empty
  /// range, and that the dictionary names exactly the entries (debug builds).
  func invariantCheck() {
    #if DEBUG
      var seen = 0
      for (entries, stickiness) in [(staying, AnchorStickiness.staysBefore), (moving, .movesAfter)] {
        entries.invariantCheck()
        var last = Int64.min
        var first = true
        entries.forEach(in: 0..<entries.count) { _, r, payload in
          precondition(r.isEmpty, "an anchor is not an empty range")
          precondition(first || payload.key > last, "anchor keys not increasing")
          precondition(Swift.abs(payload.key) <= Self.keyLimit, "anchor key out of range")
          first = false
          last = payload.key
          let location = located[payload.id]
          precondition(
            location?.stickiness == stickiness && location?.key == payload.key, "anchor \(payload.id) mislocated")
          seen += 1
          return true
        }
      }
      precondition(seen == located.count, "anchors in the dictionary and in the indexes differ")
    #endif
  }
}
