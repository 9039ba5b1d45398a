/// What a run of interval leaves sums up to: the bytes it spans, its entries, and the largest end
/// of an entry in it relative to the run's start (`Int.min` with no entry). Not invertible (a
/// maximum), which is why the tree is ``SumTree`` and not a group-summed rope.
struct IntervalSummary: TreeSummary {
  var bytes = 0
  var count = 0
  var maxEnd = Int.min

  static var zero: IntervalSummary { IntervalSummary() }

  mutating func add(_ next: IntervalSummary) {
    if next.maxEnd != .min { maxEnd = Swift.max(maxEnd, bytes + next.maxEnd) }
    bytes += next.bytes
    count += next.count
  }
}

/// Up to ``IntervalIndex/leafCapacity`` entries, positioned relative to the leaf's start; the leaf
/// spans `width` bytes of the document and every entry starts inside that span.
struct IntervalLeaf<Value>: TreeItem {
  var width: Int
  var starts: [Int] = []
  var ends: [Int] = []
  var values: [Value] = []
  private(set) var maxEnd = Int.min

  init(width: Int) { self.width = width }

  /// A leaf starting at `origin`, `width` wide, holding `entries` (absolute ranges).
  init(origin: Int, width: Int, entries: ArraySlice<(Range<Int>, Value)>) {
    self.width = width
    starts.reserveCapacity(entries.count)
    ends.reserveCapacity(entries.count)
    values.reserveCapacity(entries.count)
    for (r, v) in entries {
      starts.append(r.lowerBound - origin)
      ends.append(r.upperBound - origin)
      values.append(v)
      maxEnd = Swift.max(maxEnd, r.upperBound - origin)
    }
  }

  var count: Int { starts.count }

  /// Recomputes the largest end after `ends` changed.
  mutating func recomputeMaxEnd() { maxEnd = ends.max() ?? .min }

  var summary: IntervalSummary { IntervalSummary(bytes: width, count: starts.count, maxEnd: maxEnd) }
}

extension IntervalLeaf: Sendable where Value: Sendable {}

/// Intervals over document offsets kept in order of their starts (ties keep their order), each
/// with a value: the index of custom and pattern rotors. Intervals may overlap, nest and be empty.
///
/// Layout: a ``SumTree`` of leaves, each spanning a run of the document and holding its entries
/// relative to its own start, so a position is a prefix sum of leaf widths: an edit changes the
/// width of the leaves it touches, and nothing after it is ever shifted. Each node keeps the
/// largest end below it, so overlap and stabbing queries skip every subtree that holds no answer.
///
/// Complexity (n entries, k answers or touched entries): build O(n); `subscript`,
/// `firstIndex(startingAtLeast:)`: O(log n); `forEach(overlapping:)`: O(log n + k) when answers
/// cluster (a viewport), O(k log n) for scattered long entries; `apply(edit:...)`: O(log n + k).
struct IntervalIndex<Value> {
  /// An edit inside a leaf walks and copies its arrays, so leaves stay small: with 32 entries, not
  /// 64, an element move (two edits of a custom rotor) took 7,200 instructions less of 171,500,
  /// and an edit 2,500 less of 157,800 (its pattern rotor); 16 saved only 2,100 and 900 more.
  static var leafCapacity: Int { 32 }
  /// How full ``leaves(_:from:to:)`` cuts leaves.
  static var leafFill: Int { leafCapacity * 3 / 4 }

  private(set) var tree: SumTree<IntervalLeaf<Value>>

  /// No entries, over `width` bytes.
  init(width: Int = 0) { tree = SumTree([IntervalLeaf(width: width)]) }

  /// Entries sorted by start, over `width` bytes (every start at most `width`). O(n).
  init<S: Sequence>(sorted entries: S, width: Int) where S.Element == (Range<Int>, Value) {
    let all = Array(entries)
    var lastStart = Int.min
    for (r, _) in all {
      precondition(r.lowerBound >= lastStart && r.lowerBound <= width, "entries must be sorted and inside the width")
      lastStart = r.lowerBound
    }
    tree = SumTree(Self.leaves(all[...], from: 0, to: width))
  }

  /// Leaves for `entries` (sorted, starting in from...to) covering `from..<to`.
  private static func leaves(_ entries: ArraySlice<(Range<Int>, Value)>, from: Int, to: Int) -> [IntervalLeaf<Value>] {
    guard !entries.isEmpty else { return [IntervalLeaf(width: to - from)] }
    var result: [IntervalLeaf<Value>] = []
    var i = entries.startIndex
    var origin = from
    // Leaves of at most three quarters of the capacity, cut evenly: an entry inserted later (an
    // element with its entries) then fits in its leaf, which is edited in place. Each cut shares
    // out what is left, so a run of entries sharing a start (which stays in one leaf) leaves the
    // leaves after it even, not one of a single entry.
    while i < entries.endIndex {
      let rest = entries.endIndex - i
      let parts = (rest + leafFill - 1) / leafFill
      var j = i + (rest + parts - 1) / parts
      // Entries sharing a start stay in one leaf: a leaf's span must hold every start in it.
      while j < entries.endIndex && entries[j].0.lowerBound == entries[j - 1].0.lowerBound { j += 1 }
      let next = j < entries.endIndex ? entries[j].0.lowerBound : to
      result.append(IntervalLeaf(origin: origin, width: next - origin, entries: entries[i..<j]))
      origin = next
      i = j
    }
    return result
  }

  var count: Int { tree.summary.count }
  var isEmpty: Bool { count == 0 }
  /// The bytes covered: the document's length.
  var width: Int { tree.summary.bytes }

  /// (leaf, its summary before, index in leaf) of entry `i < count`.
  private func locate(_ i: Int) -> (Int, IntervalSummary, Int) {
    let (l, before) = tree.seek { $0.count > i }
    return (l, before, i - before.count)
  }

  subscript(i: Int) -> (range: Range<Int>, value: Value) {
    precondition(i >= 0 && i < count, "index \(i) out of 0..<\(count)")
    let (l, before, k) = locate(i)
    let leaf = tree[l]
    return ((before.bytes + leaf.starts[k])..<(before.bytes + leaf.ends[k]), leaf.values[k])
  }

  func range(at i: Int) -> Range<Int> { self[i].range }

  /// The index of the first entry whose start is at least `position` (`count` if none). O(log n):
  /// one descent, which finds the leaf and its entries together.
  func firstIndex(startingAtLeast position: Int) -> Int {
    if position <= 0 { return 0 }
    let (_, before, leaf) = leaf(holding: position)
    return before.count + Self.firstIndex(in: leaf, startingAtLeast: position - before.bytes)
  }

  /// `firstIndex(startingAtLeast:)` of `lower` and of `upper` (`lower <= upper`): the indices of
  /// the entries starting in `lower..<upper`, with one descent when one leaf holds both.
  func indices(startingIn range: Range<Int>) -> Range<Int> {
    if range.lowerBound <= 0 { return 0..<firstIndex(startingAtLeast: range.upperBound) }
    let (_, before, leaf) = leaf(holding: range.lowerBound)
    let i0 = before.count + Self.firstIndex(in: leaf, startingAtLeast: range.lowerBound - before.bytes)
    guard range.upperBound < before.bytes + leaf.width || before.count + leaf.count == count else {
      return i0..<Swift.max(i0, firstIndex(startingAtLeast: range.upperBound))
    }
    return i0..<(before.count + Self.firstIndex(in: leaf, startingAtLeast: range.upperBound - before.bytes))
  }

  /// The leaf whose span holds `position` (the last one at or past the end), its index and the
  /// summary before it: one descent.
  private func leaf(holding position: Int) -> (index: Int, before: IntervalSummary, leaf: IntervalLeaf<Value>) {
    let found = tree.find { $0.bytes > position }
    if let leaf = found.item { return (found.index, found.before, leaf) }
    // At or past the end: only entries starting exactly at the end can remain (the last leaf).
    let last = tree.last
    return (last.index, last.before, last.item)
  }

  /// The index in `leaf` of its first entry starting at or after `relative` (to the leaf's start).
  private static func firstIndex(in leaf: IntervalLeaf<Value>, startingAtLeast relative: Int) -> Int {
    var a = 0
    var b = leaf.count
    while a < b {
      let mid = (a + b) / 2
      if leaf.starts[mid] >= relative { b = mid } else { a = mid + 1 }
    }
    return a
  }

  /// The index of the first entry whose start is greater than `position`.
  func firstIndex(startingAfter position: Int) -> Int { firstIndex(startingAtLeast: position + 1) }

  /// The first entry whose value satisfies `reaches`, which must be monotone along the entries
  /// (false, ..., false, true, ..., true: an order key kept increasing, for instance), with its
  /// index and range; nil when none does. A binary search over the entries in which each probe
  /// reads a whole leaf (one descent) and settles its entries at once: O(log² n), about
  /// log2(n / leaf size) descents.
  func firstEntry(where reaches: (Value) -> Bool) -> (index: Int, range: Range<Int>, value: Value)? {
    // Entries before `lo` do not reach; entry `hi` does (`best`), or `hi` is `count`.
    var lo = 0
    var hi = count
    var best: (index: Int, range: Range<Int>, value: Value)? = nil
    while lo < hi {
      let mid = (lo + hi) / 2
      let found = tree.find { $0.count > mid }
      guard let leaf = found.item else { break }
      let base = found.before.count
      let origin = found.before.bytes
      // The leaf's entries within lo..<hi (`mid` among them).
      let first = Swift.max(lo, base) - base
      let last = Swift.min(hi, base + leaf.count) - base - 1
      if !reaches(leaf.values[last]) {
        lo = base + last + 1
        continue
      }
      var a = first
      var b = last
      while a < b {
        let m = (a + b) / 2
        if reaches(leaf.values[m]) { b = m } else { a = m + 1 }
      }
      hi = base + a
      best = (hi, (origin + leaf.starts[a])..<(origin + leaf.ends[a]), leaf.values[a])
      // Past the first entry in range (which does not reach), or at `lo`: that is the answer.
      if a > first || base + first == lo { lo = hi }
    }
    return best
  }

  /// Calls `body` with the index and range of every entry that overlaps `query`, in order, until
  /// it returns false. An entry overlaps a non-empty query when it starts before the query's end
  /// and ends after its start, or is empty and lies in `query`; an empty query at `p` is a caret:
  /// entries with `start <= p < end`, and empty entries at `p`.
  func forEach(overlapping query: Range<Int>, _ body: (Int, Range<Int>) -> Bool) {
    let a = query.lowerBound
    let hi = Swift.max(query.upperBound, a + 1)
    let l = firstIndex(startingAtLeast: a)
    let r = firstIndex(startingAtLeast: hi)
    var going = true
    // Entries before `l` start before `a`: those that end after it, found through the maximums.
    if l > 0 {
      tree.visit(enter: { before, sub in
        going && before.count < l && sub.maxEnd != .min && before.bytes + sub.maxEnd > a
      }) { _, before, leaf in
        for k in 0..<leaf.count where before.count + k < l && before.bytes + leaf.ends[k] > a {
          guard body(before.count + k, (before.bytes + leaf.starts[k])..<(before.bytes + leaf.ends[k])) else {
            going = false
            return false
          }
        }
        return true
      }
    }
    guard going, l < r else { return }
    forEach(in: l..<r) { i, range, _ in body(i, range) }
  }

  /// Indices of the entries overlapping `query` (see ``forEach(overlapping:_:)``).
  func indices(overlapping query: Range<Int>) -> [Int] {
    var result: [Int] = []
    forEach(overlapping: query) { i, _ in
      result.append(i)
      return true
    }
    return result
  }

  /// Calls `body` for entries `indices` in order until it returns false.
  func forEach(in indices: Range<Int>, _ body: (Int, Range<Int>, Value) -> Bool) {
    guard !indices.isEmpty else { return }
    let (l, _, k0) = locate(indices.lowerBound)
    var k = k0
    var i = indices.lowerBound
    tree.forEach(from: l) { _, before, leaf in
      while k < leaf.count {
        if i >= indices.upperBound { return false }
        guard body(i, (before.bytes + leaf.starts[k])..<(before.bytes + leaf.ends[k]), leaf.values[k]) else {
          return false
        }
        k += 1
        i += 1
      }
      k = 0
      return i < indices.upperBound
    }
  }

  /// All entries, in order.
  var all: [(Range<Int>, Value)] {
    var result: [(Range<Int>, Value)] = []
    result.reserveCapacity(count)
    forEach(in: 0..<count) { _, r, v in
      result.append((r, v))
      return true
    }
    return result
  }

  // MARK: Editing

  /// Applies an edit that made the bytes `old` (old offsets) `newCount` bytes long. Entries that
  /// start at or after `max(old.upperBound, old.lowerBound + 1)` move by the change in length
  /// (their leaves' positions are prefix sums: nothing is rewritten for them); every other entry
  /// that ends at or after `old.lowerBound` is passed to `transform` (its old range and value) for its new
  /// range, or nil to drop it; `inserted` entries (new offsets, sorted, starting in
  /// `old.lowerBound...old.lowerBound + newCount`) are added. O(log n + touched leaves).
  mutating func apply(
    edit old: Range<Int>, newCount: Int, inserting inserted: [(Range<Int>, Value)] = [],
    transform: (Range<Int>, Value) -> Range<Int>?
  ) {
    let a = old.lowerBound
    let b = old.upperBound
    let delta = newCount - old.count
    let limit = Swift.max(b, a + 1)
    precondition(a >= 0 && b <= width, "edit \(old) outside 0...\(width)")
    // The run of leaves whose span holds the edit: from the leaf holding `a` to the one holding
    // `b` (the last leaf when `b` is the end).
    // One descent finds the first leaf, where it starts and what it holds; `b` inside it (an edit
    // or an element within one leaf, mostly) needs no second one.
    // The largest end before the first leaf tells whether any leaf before it reaches `a`.
    let (first, runStart, firstWidth, firstCount, endBefore): (Int, Int, Int, Int, Int) = {
      // Only the leaf's size is kept: no copy of it outlives this, so that the edit in place
      // below changes the tree's own arrays.
      let found = leaf(holding: a)
      return (found.index, found.before.bytes, found.leaf.width, found.leaf.count, found.before.maxEnd)
    }()
    let last = b < runStart + firstWidth ? first : Swift.min(tree.seek { $0.bytes > b }.index, tree.count - 1)
    // Leaves before the run with entries reaching `a`: their ends may change, their spans do not.
    var earlier: [(Int, Int, IntervalLeaf<Value>)] = []
    // (The visit walks every node's children up to the path; most edits have none to find.)
    if endBefore != .min && endBefore >= a {
      tree.visit(enter: { before, sub in
        before.count < Int.max && sub.maxEnd != .min && before.bytes + sub.maxEnd >= a && before.bytes < a
      }) { l, before, leaf in
        if l < first { earlier.append((l, before.bytes, leaf)) }
        return l < first
      }
    }
    for (l, origin, leaf) in earlier {
      var entries: [(Range<Int>, Value)] = []
      entries.reserveCapacity(leaf.count)
      for k in 0..<leaf.count {
        let r = (origin + leaf.starts[k])..<(origin + leaf.ends[k])
        if r.upperBound >= a, let t = transform(r, leaf.values[k]) {
          entries.append((t, leaf.values[k]))
        } else if r.upperBound < a {
          entries.append((r, leaf.values[k]))
        }
      }
      tree.update(at: l, with: IntervalLeaf(origin: origin, width: leaf.width, entries: entries[...]))
    }
    // The run itself: decoded, edited and cut into leaves again. (The leaves before it changed
    // only their entries, not their widths: `runStart` holds.)
    if first == last && firstCount + inserted.count <= Self.leafCapacity {
      let isLast = last == tree.count - 1
      let edited = tree.modify(at: first) { leaf in
        Self.editInPlace(
          &leaf, at: runStart, a: a, limit: limit, delta: delta, inserting: inserted, isLast: isLast,
          transform: transform)
      }
      if edited { return }
    }
    var runEnd = runStart
    var entries: [(Range<Int>, Value)] = []
    var insertedAt = -1
    // The inserted entries go before the first entry starting after them: the one moved past
    // them by `transform` (an element inserted before one with an entry at its start), or else
    // the first one past the edit. Then the stable sort below is seldom needed. When that order
    // is not sorted anyway, they go back before the first entry past the edit (`pastEdit`) and
    // are sorted from there: the order every edit had before, whatever `transform` does.
    let lastInserted = inserted.last?.0.lowerBound ?? .max
    var pastEdit = -1
    for l in first...last {
      let leaf = tree[l]
      for k in 0..<leaf.count {
        let r = (runEnd + leaf.starts[k])..<(runEnd + leaf.ends[k])
        if r.lowerBound >= limit {
          if pastEdit < 0 { pastEdit = entries.count }
          if insertedAt < 0 { insertedAt = entries.count }
          entries.append(((r.lowerBound + delta)..<(r.upperBound + delta), leaf.values[k]))
        } else if r.upperBound < a {
          entries.append((r, leaf.values[k]))
        } else if let t = transform(r, leaf.values[k]) {
          if insertedAt < 0 && t.lowerBound > lastInserted { insertedAt = entries.count }
          entries.append((t, leaf.values[k]))
        }
      }
      runEnd += leaf.width
    }
    let at = insertedAt < 0 ? entries.count : insertedAt
    let before = pastEdit < 0 ? entries.count : pastEdit
    if !inserted.isEmpty { entries.insert(contentsOf: inserted, at: at) }
    // Transformed starts may now sit out of order with their neighbours (a start inside the
    // replaced text moves to its start): a stable sort keeps ties in their order.
    var inOrder = true
    for k in entries.indices.dropFirst() where entries[k - 1].0.lowerBound > entries[k].0.lowerBound {
      inOrder = false
      break
    }
    if !inOrder {
      if at != before && !inserted.isEmpty {
        entries.removeSubrange(at..<(at + inserted.count))
        entries.insert(contentsOf: inserted, at: before)
      }
      entries = entries.enumerated().sorted {
        ($0.element.0.lowerBound, $0.offset) < ($1.element.0.lowerBound, $1.offset)
      }
      .map(\.element)
    }
    tree.replaceSubrange(first..<(last + 1), with: Self.leaves(entries[...], from: runStart, to: runEnd + delta))
  }

  /// The edit of `apply` inside one leaf (starting at `origin`), made where the leaf is: its
  /// positions are computed in copies of its position arrays, and only when they are valid are
  /// they stored and its values removed or inserted in place (no value is copied: a leaf the tree
  /// alone holds has unshared arrays). False, with the leaf unchanged, when the edit breaks the
  /// order of starts or puts a start outside the leaf (then the general path cuts new leaves).
  /// The caller checks that the inserted entries fit.
  private static func editInPlace(
    _ leaf: inout IntervalLeaf<Value>, at origin: Int, a: Int, limit: Int, delta: Int,
    inserting inserted: [(Range<Int>, Value)], isLast: Bool, transform: (Range<Int>, Value) -> Range<Int>?
  ) -> Bool {
    var starts = leaf.starts
    var ends = leaf.ends
    var insertAt = -1
    // As in `apply`: before the first entry starting after the inserted ones.
    let lastInserted = inserted.last?.0.lowerBound ?? .max
    var dropped: [Int] = []
    for k in 0..<leaf.count {
      let r = (origin + starts[k])..<(origin + ends[k])
      if r.lowerBound >= limit {
        if insertAt < 0 { insertAt = k - dropped.count }
        starts[k] += delta
        ends[k] += delta
      } else if r.upperBound < a {
        continue
      } else if let t = transform(r, leaf.values[k]) {
        if insertAt < 0 && t.lowerBound > lastInserted { insertAt = k - dropped.count }
        starts[k] = t.lowerBound - origin
        ends[k] = t.upperBound - origin
      } else {
        dropped.append(k)
      }
    }
    // Entries removed by the edit, from the last (so the indices of the others hold).
    for k in dropped.reversed() {
      starts.remove(at: k)
      ends.remove(at: k)
    }
    let at = insertAt < 0 ? starts.count : insertAt
    if !inserted.isEmpty {
      starts.insert(contentsOf: inserted.map { $0.0.lowerBound - origin }, at: at)
      ends.insert(contentsOf: inserted.map { $0.0.upperBound - origin }, at: at)
    }
    let width = leaf.width + delta
    for k in starts.indices {
      let start = starts[k]
      guard start >= 0, ends[k] >= start, start < width || (isLast && start <= width),
        k == 0 || starts[k - 1] <= start
      else { return false }
    }
    leaf.starts = starts
    leaf.ends = ends
    for k in dropped.reversed() { leaf.values.remove(at: k) }
    if !inserted.isEmpty { leaf.values.insert(contentsOf: inserted.map(\.1), at: at) }
    leaf.width = width
    leaf.recomputeMaxEnd()
    return true
  }

  /// Removes the entries whose start lies in `positions` and inserts `entries` (sorted, starting
  /// in `positions`) in their place; the width is unchanged.
  mutating func replace(startingIn positions: Range<Int>, with entries: [(Range<Int>, Value)]) {
    apply(edit: positions, newCount: positions.count, inserting: entries) { r, _ in
      positions.contains(r.lowerBound) ? nil : r
    }
  }

  /// Removes entry `i` (the leaf holding it keeps its span, possibly empty). O(log n + leaf size).
  mutating func remove(at i: Int) {
    precondition(i >= 0 && i < count, "index \(i) out of 0..<\(count)")
    let (l, _, k) = locate(i)
    tree.modify(at: l) { leaf in
      leaf.starts.remove(at: k)
      leaf.ends.remove(at: k)
      leaf.values.remove(at: k)
      leaf.recomputeMaxEnd()
    }
  }

  /// Calls `body` on the value of each entry in `indices`, in order, to change it (ranges stay).
  /// O(log n) per leaf touched.
  mutating func updateValues(in indices: Range<Int>, _ body: (Int, inout Value) -> Void) {
    guard !indices.isEmpty else { return }
    precondition(indices.lowerBound >= 0 && indices.upperBound <= count, "indices \(indices) out of 0..<\(count)")
    var (l, _, k) = locate(indices.lowerBound)
    var i = indices.lowerBound
    while i < indices.upperBound {
      tree.modify(at: l) { leaf in
        while k < leaf.count && i < indices.upperBound {
          body(i, &leaf.values[k])
          k += 1
          i += 1
        }
      }
      l += 1
      k = 0
    }
  }

  /// Checks the tree and that every entry starts inside its leaf (debug builds).
  func invariantCheck() {
    #if DEBUG
      tree.invariantCheck()
      let leaves = tree.count
      tree.forEach { l, _, leaf in
        for k in 0..<leaf.count {
          precondition(leaf.starts[k] >= 0 && leaf.ends[k] >= leaf.starts[k], "entry out of order")
          precondition(
            leaf.starts[k] < leaf.width || (l == leaves - 1 && leaf.starts[k] <= leaf.width), "entry outside its leaf")
          precondition(k == 0 || leaf.starts[k - 1] <= leaf.starts[k], "entries not sorted")
        }
        return true
      }
    #endif
  }
}

extension IntervalIndex: Sendable where Value: Sendable {}
