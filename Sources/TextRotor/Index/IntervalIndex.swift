/// Intervals over integer positions (document offsets), kept in order of their starts (ties keep
/// the order they were given in), each carrying a value. Intervals may overlap, nest and be empty.
///
/// Layout: leaves of at most ``maxLeafCount`` entries store their starts and ends relative to the
/// leaf's `base`, so a shift of every entry after an edit only moves leaf bases (O(leaves)), and
/// an edit inside a leaf rewrites one leaf (O(leaf size)). A perfect binary tree over the leaves
/// holds each leaf's largest end, so overlap and stabbing queries skip every leaf that holds no
/// answer.
///
/// Complexity (n entries, L = n / 64 leaves, k answers):
/// - build from sorted input: O(n)
/// - `firstIndex(startingAtLeast:)` (next/previous), `subscript`: O(log n)
/// - `forEach(overlapping:)`: O(log n + k) leaves-and-entries visited when answers cluster (a
///   viewport); O(log n + k·log L) in the worst case of scattered long entries
/// - `shift`, `remap`, `replace`: O(log n + L + touched entries)
struct IntervalIndex<Value> {
  static var maxLeafCount: Int { 128 }
  static var buildLeafCount: Int { 64 }

  struct Leaf {
    var base: Int
    var starts: [Int] = []
    var ends: [Int] = []
    var values: [Value] = []
    var count: Int { starts.count }
    /// Largest end, relative to base (Int.min when empty).
    var maxEnd: Int = .min

    init(base: Int) { self.base = base }

    mutating func append(_ range: Range<Int>, _ value: Value) {
      starts.append(range.lowerBound - base)
      ends.append(range.upperBound - base)
      values.append(value)
      maxEnd = Swift.max(maxEnd, range.upperBound - base)
    }

    func range(_ k: Int) -> Range<Int> { (base + starts[k])..<(base + ends[k]) }
    var firstStart: Int { base + starts[0] }
    var lastStart: Int { base + starts[count - 1] }
    var absoluteMaxEnd: Int { maxEnd == .min ? .min : base + maxEnd }

    mutating func recomputeMaxEnd() { maxEnd = ends.max() ?? .min }
  }

  private(set) var leaves: [Leaf] = []
  /// `prefix[i]` = entries before leaf `i`; one more element than `leaves`.
  private var prefix: [Int] = [0]
  /// Max-end tree over the leaves: node 1 is the root, leaf `i` is node `size + i`.
  private var tree: [Int] = []
  private var size = 0

  init() { rebuildSummaries() }

  /// Builds from entries sorted by start. O(n).
  init<S: Sequence>(sorted entries: S) where S.Element == (Range<Int>, Value) {
    leaves = Self.makeLeaves(entries)
    rebuildSummaries()
  }

  private static func makeLeaves<S: Sequence>(_ entries: S) -> [Leaf] where S.Element == (Range<Int>, Value) {
    var result: [Leaf] = []
    var leaf: Leaf? = nil
    var lastStart = Int.min
    for (range, value) in entries {
      precondition(range.lowerBound >= lastStart, "entries must be sorted by start")
      lastStart = range.lowerBound
      if leaf == nil { leaf = Leaf(base: range.lowerBound) }
      leaf!.append(range, value)
      if leaf!.count == buildLeafCount {
        result.append(leaf!)
        leaf = nil
      }
    }
    if let leaf { result.append(leaf) }
    return result
  }

  var count: Int { prefix[prefix.count - 1] }
  var isEmpty: Bool { count == 0 }

  /// Recomputes entry counts and the max-end tree: O(L).
  private mutating func rebuildSummaries() {
    prefix = [0]
    prefix.reserveCapacity(leaves.count + 1)
    for leaf in leaves { prefix.append(prefix[prefix.count - 1] + leaf.count) }
    size = 1
    while size < leaves.count { size *= 2 }
    tree = Array(repeating: .min, count: 2 * size)
    for (i, leaf) in leaves.enumerated() { tree[size + i] = leaf.absoluteMaxEnd }
    var node = size - 1
    while node >= 1 {
      tree[node] = Swift.max(tree[2 * node], tree[2 * node + 1])
      node -= 1
    }
  }

  /// (leaf, index in leaf) of entry `i` (`i` may be `count`: then the end).
  private func locate(_ i: Int) -> (Int, Int) {
    var lo = 0
    var hi = leaves.count
    // Last leaf whose prefix is <= i.
    while hi - lo > 1 {
      let mid = (lo + hi) / 2
      if prefix[mid] <= i { lo = mid } else { hi = mid }
    }
    if lo < leaves.count, i - prefix[lo] >= leaves[lo].count { return (lo + 1, 0) }
    return (lo, i - prefix[lo])
  }

  subscript(i: Int) -> (range: Range<Int>, value: Value) {
    precondition(i >= 0 && i < count, "index \(i) out of 0..<\(count)")
    let (l, k) = locate(i)
    return (leaves[l].range(k), leaves[l].values[k])
  }

  func range(at i: Int) -> Range<Int> { self[i].range }

  /// The index of the first entry whose start is at least `position` (`count` if none). O(log n).
  func firstIndex(startingAtLeast position: Int) -> Int {
    // First leaf whose last start is >= position.
    var lo = 0
    var hi = leaves.count
    while lo < hi {
      let mid = (lo + hi) / 2
      if leaves[mid].lastStart >= position { hi = mid } else { lo = mid + 1 }
    }
    guard lo < leaves.count else { return count }
    let leaf = leaves[lo]
    let relative = position - leaf.base
    var a = 0
    var b = leaf.count
    while a < b {
      let mid = (a + b) / 2
      if leaf.starts[mid] >= relative { b = mid } else { a = mid + 1 }
    }
    return prefix[lo] + a
  }

  /// The index of the first entry whose start is greater than `position`.
  func firstIndex(startingAfter position: Int) -> Int { firstIndex(startingAtLeast: position + 1) }

  /// Calls `body` with the index and range of every entry that overlaps `query`, in order, until
  /// it returns false. An entry overlaps a non-empty query when it starts before the query's end
  /// and ends after its start, or is empty and lies in `query`; an empty query at `p` is a caret:
  /// entries with `start <= p < end`, and empty entries at `p`.
  func forEach(overlapping query: Range<Int>, _ body: (Int, Range<Int>) -> Bool) {
    let a = query.lowerBound
    let hi = Swift.max(query.upperBound, a + 1)
    let l = firstIndex(startingAtLeast: a)
    let r = firstIndex(startingAtLeast: hi)
    // Entries before `l` start before `a`: those that end after `a`, found through the tree.
    if l > 0 {
      let (lastLeaf, _) = locate(l - 1)
      if !visit(node: 1, nodeLo: 0, nodeHi: size, lastLeaf: lastLeaf, limit: l, above: a, body) { return }
    }
    guard l < r else { return }
    var (leafIndex, k) = locate(l)
    var i = l
    while i < r {
      let leaf = leaves[leafIndex]
      while k < leaf.count && i < r {
        if !body(i, leaf.range(k)) { return }
        k += 1
        i += 1
      }
      leafIndex += 1
      k = 0
    }
  }

  /// Depth-first over the leaves `0...lastLeaf` whose max end is above `above`, left to right;
  /// reports entries with index < `limit` and end > `above`.
  private func visit(
    node: Int, nodeLo: Int, nodeHi: Int, lastLeaf: Int, limit: Int, above: Int, _ body: (Int, Range<Int>) -> Bool
  ) -> Bool {
    if nodeLo > lastLeaf || tree[node] <= above { return true }
    if node >= size {
      let leafIndex = node - size
      let leaf = leaves[leafIndex]
      let relative = above - leaf.base
      let first = prefix[leafIndex]
      let n = Swift.min(leaf.count, limit - first)
      for k in 0..<n where leaf.ends[k] > relative {
        if !body(first + k, leaf.range(k)) { return false }
      }
      return true
    }
    let mid = (nodeLo + nodeHi) / 2
    if !visit(node: 2 * node, nodeLo: nodeLo, nodeHi: mid, lastLeaf: lastLeaf, limit: limit, above: above, body) {
      return false
    }
    return visit(node: 2 * node + 1, nodeLo: mid, nodeHi: nodeHi, lastLeaf: lastLeaf, limit: limit, above: above, body)
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

  /// Calls `body` for entries `indices` in order.
  func forEach(in indices: Range<Int>, _ body: (Int, Range<Int>, Value) -> Bool) {
    guard !indices.isEmpty else { return }
    var (leafIndex, k) = locate(indices.lowerBound)
    var i = indices.lowerBound
    while i < indices.upperBound {
      let leaf = leaves[leafIndex]
      while k < leaf.count && i < indices.upperBound {
        if !body(i, leaf.range(k), leaf.values[k]) { return }
        k += 1
        i += 1
      }
      leafIndex += 1
      k = 0
    }
  }

  // MARK: Editing

  /// Adds `delta` to the start and end of every entry whose start is at least `position`.
  /// O(log n + L + one leaf).
  mutating func shift(startingAtLeast position: Int, by delta: Int) {
    guard delta != 0 else { return }
    let first = firstIndex(startingAtLeast: position)
    guard first < count else { return }
    shift(startingAtIndex: first, by: delta)
  }

  /// Applies a text edit that replaced `replaced` (old positions) with `insertedCount` positions:
  /// positions before the edit stay, positions after it move by the change in length, a start
  /// inside the replaced text moves to the edit's start and an end inside it to the end of the
  /// inserted text (entries grow when text is typed at their edges, as editors' decorations do).
  /// Empty entries stay empty.
  mutating func remap(replacing replaced: Range<Int>, insertedCount: Int) {
    let a = replaced.lowerBound
    let b = replaced.upperBound
    let delta = insertedCount - replaced.count
    // Entries starting at or after max(b, a + 1) move entirely.
    let suffix = firstIndex(startingAtLeast: Swift.max(b, a + 1))
    // Entries before that which end at or after `a` change individually.
    var touched: [Int] = []
    if suffix > 0 {
      let (lastLeaf, _) = locate(suffix - 1)
      _ = visit(node: 1, nodeLo: 0, nodeHi: size, lastLeaf: lastLeaf, limit: suffix, above: a - 1) { i, _ in
        touched.append(i)
        return true
      }
    }
    for i in touched {
      let (l, k) = locate(i)
      let old = leaves[l].range(k)
      let start = old.lowerBound <= a ? old.lowerBound : (old.lowerBound >= b ? old.lowerBound + delta : a)
      var end: Int
      if old.isEmpty {
        end = start
      } else {
        end = old.upperBound < a ? old.upperBound : (old.upperBound >= b ? old.upperBound + delta : a + insertedCount)
        end = Swift.max(end, start)
      }
      leaves[l].starts[k] = start - leaves[l].base
      leaves[l].ends[k] = end - leaves[l].base
    }
    for l in Set(touched.map { locate($0).0 }) { leaves[l].recomputeMaxEnd() }
    if suffix < count && delta != 0 {
      shift(startingAtIndex: suffix, by: delta)
    } else {
      rebuildSummaries()
    }
  }

  private mutating func shift(startingAtIndex first: Int, by delta: Int) {
    var (leafIndex, k) = locate(first)
    if k > 0 {
      // The tail of a partly affected leaf moves entry by entry.
      for j in k..<leaves[leafIndex].count {
        leaves[leafIndex].starts[j] += delta
        leaves[leafIndex].ends[j] += delta
      }
      leaves[leafIndex].recomputeMaxEnd()
      leafIndex += 1
    }
    for j in leafIndex..<leaves.count { leaves[j].base += delta }
    rebuildSummaries()
  }

  /// Removes the entries whose start lies in `positions` and inserts `entries` (sorted by start,
  /// every start in `positions`) in their place. O(log n + L + touched leaves).
  mutating func replace(startingIn positions: Range<Int>, with entries: [(Range<Int>, Value)]) {
    let i0 = firstIndex(startingAtLeast: positions.lowerBound)
    let i1 = firstIndex(startingAtLeast: positions.upperBound)
    replaceSubrange(i0..<i1, with: entries)
  }

  /// Replaces entries `indices` with `entries` (sorted, and in order with their neighbours).
  mutating func replaceSubrange(_ indices: Range<Int>, with entries: [(Range<Int>, Value)]) {
    if indices.isEmpty && entries.isEmpty { return }
    // The leaves holding the affected entries (or the insertion point).
    let (firstLeaf, _) = locate(indices.lowerBound)
    var lastLeafExclusive: Int
    if indices.isEmpty {
      lastLeafExclusive = Swift.min(firstLeaf + 1, leaves.count)
    } else {
      lastLeafExclusive = locate(indices.upperBound - 1).0 + 1
    }
    if firstLeaf == leaves.count {
      // Appending after the last leaf: merge with it when it has room.
      if firstLeaf > 0 && leaves[firstLeaf - 1].count + entries.count <= Self.maxLeafCount {
        var leaf = leaves[firstLeaf - 1]
        for (r, v) in entries { leaf.append(r, v) }
        leaves[firstLeaf - 1] = leaf
      } else {
        leaves.append(contentsOf: Self.makeLeaves(entries))
      }
      rebuildSummaries()
      return
    }
    var merged: [(Range<Int>, Value)] = []
    for l in firstLeaf..<lastLeafExclusive {
      let leaf = leaves[l]
      for k in 0..<leaf.count {
        let i = prefix[l] + k
        if i == indices.lowerBound { merged.append(contentsOf: entries) }
        if indices.contains(i) { continue }
        merged.append((leaf.range(k), leaf.values[k]))
      }
    }
    // Insertion at the very end of the affected leaves (after their last entry).
    if indices.lowerBound == prefix[lastLeafExclusive] { merged.append(contentsOf: entries) }
    let rebuilt = Self.makeLeaves(merged)
    leaves.replaceSubrange(firstLeaf..<lastLeafExclusive, with: rebuilt)
    rebuildSummaries()
  }

  /// All entries, in order (for tests and rebuilding).
  var all: [(Range<Int>, Value)] {
    var result: [(Range<Int>, Value)] = []
    result.reserveCapacity(count)
    for leaf in leaves {
      for k in 0..<leaf.count { result.append((leaf.range(k), leaf.values[k])) }
    }
    return result
  }
}

extension IntervalIndex: Sendable where Value: Sendable {}
extension IntervalIndex.Leaf: Sendable where Value: Sendable {}
