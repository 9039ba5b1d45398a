/// A value that sums up a run of tree items: a monoid (`zero`, and `add`, which appends the summary
/// of the items that follow). `add` must be associative; it need not be commutative or invertible
/// (a largest end, for instance, is a summary too).
protocol TreeSummary: Equatable, Sendable {
  static var zero: Self { get }
  /// Appends `next`, the summary of the items right after the ones `self` sums up.
  mutating func add(_ next: Self)
}

extension TreeSummary {
  func adding(_ next: Self) -> Self {
    var s = self
    s.add(next)
    return s
  }
}

/// An item of a ``SumTree``.
protocol TreeItem {
  associatedtype Summary: TreeSummary
  var summary: Summary { get }
  /// The most items a leaf holds (32 unless an item type says otherwise). Large items take fewer:
  /// an insert or remove shifts the rest of its leaf, and a leaf of 32 items of 120 bytes is 60
  /// cache lines.
  static var leafCapacity: Int { get }
  /// The most children an internal node holds (32 unless an item type says otherwise; at least 4).
  /// A change refreshes the running sums of the children after it on each level of its path, so
  /// a tree too large for the cache, with a large summary, takes fewer.
  static var innerCapacity: Int { get }
}

extension TreeItem {
  static var leafCapacity: Int { 32 }
  static var innerCapacity: Int { 32 }
}

/// A B+tree of items whose nodes carry the summaries of what is below them, so that any prefix
/// sum (bytes, lines, UTF-16 units, entries, a largest end, ...) is found by one descent: positions
/// are prefix sums, and nothing after an edit is ever shifted.
///
/// Each node keeps, in one contiguous array of entries, the running (prefix) summaries and counts of
/// its entries, and an internal node also each child's own summary. A descent binary-searches
/// those arrays, one node per level, and dereferences only the child it enters: at a million items
/// a lookup touches a few cache lines per level instead of every sibling's object.
///
/// Copy-on-write: a copy of a tree is O(1) and shares every node. A change mutates the nodes on its
/// path in place when the tree holds the only reference to them (an editor's live document), and
/// copies just that path otherwise (a snapshot is held), so older copies stay valid and may be read
/// on other threads. A shared node is never mutated.
///
/// Complexity for n items: `subscript`, `seek`, `summary(before:)`, `insert`, `remove`, `update`:
/// O(log n); `replaceSubrange` O(log n + k + m) when the range lies in one leaf, else
/// O((k + m) log n), for k items removed and m inserted; building from an array O(n); iterating
/// from any item O(log n + k).
struct SumTree<Item: TreeItem> {
  typealias Summary = Item.Summary

  static var maxFanout: Int {
    precondition(Item.innerCapacity >= 4, "an inner capacity below 4")
    return Item.innerCapacity
  }
  /// At least 2: an internal node left with one child is merged with a sibling.
  static var minFanout: Int { Swift.max(2, Item.innerCapacity / 4) }
  static var maxLeaf: Int {
    precondition(Item.leafCapacity >= 1, "a leaf capacity below 1")
    return Item.leafCapacity
  }
  static var minLeaf: Int { Swift.max(1, Item.leafCapacity / 4) }
  /// The most entries `node` may hold.
  private static func maximum(_ node: Node) -> Int { node.isLeaf ? maxLeaf : maxFanout }

  /// What an internal node keeps of a child besides the reference: the child's own summary and
  /// item count, and the running summary and item count of the node's children through it. Plain
  /// data (the summaries are), so copies are bitwise and a descent reads one array.
  struct InnerEntry {
    var summary: Summary
    var size: Int
    var prefix: Summary
    var count: Int

    init(_ child: Node) {
      summary = child.summary
      size = child.count
      prefix = .zero
      count = 0
    }
  }

  final class Node: @unchecked Sendable {
    // @unchecked: a node is mutated only while the tree that mutates it holds the only reference
    // to it (`isKnownUniquelyReferenced`), so a node another copy (another thread) can see never
    // changes.
    //
    // An internal node keeps two arrays: its children, and one of plain entries holding what a
    // descent reads (running sum, count) beside what a change refreshes (the child's summary and
    // size). It kept five, one per field: a descent touched three of them per level (their headers
    // and the entry in each), and a node was six allocations.
    //
    // The arrays are exempt from Swift's dynamic exclusivity checks (`@exclusivity(unchecked)`): a
    // descent reads them at every level, and each checked access costs a runtime call that made up
    // a quarter of a tree lookup. Nothing here holds an access across a call that could reach the
    // same node again: a node is only mutated by the tree method that owns it.
    let height: Int
    /// A leaf's items and `prefix[k]`, the summary of items `0...k` (empty in an internal node).
    @exclusivity(unchecked) var items: [Item]
    @exclusivity(unchecked) var prefix: [Summary]
    /// An internal node's children and their entries (empty in a leaf).
    @exclusivity(unchecked) var children: [Node]
    @exclusivity(unchecked) var inner: [InnerEntry]

    init(items: some Collection<Item>) {
      height = 0
      self.items = Array(items)
      prefix = []
      children = []
      inner = []
      recompute(from: 0)
    }

    init(children: some Collection<Node>) {
      height = children.first!.height + 1
      items = []
      prefix = []
      self.children = Array(children)
      inner = children.map { InnerEntry($0) }
      recompute(from: 0)
    }

    /// A copy sharing the arrays (copied in turn when the copy changes them).
    init(copying node: Node) {
      height = node.height
      items = node.items
      prefix = node.prefix
      children = node.children
      inner = node.inner
    }

    var isLeaf: Bool { height == 0 }
    var fanout: Int { isLeaf ? items.count : children.count }
    var summary: Summary {
      if isLeaf { return prefix.isEmpty ? .zero : prefix[prefix.count - 1] }
      return inner.isEmpty ? .zero : inner[inner.count - 1].prefix
    }
    var count: Int { isLeaf ? items.count : (inner.isEmpty ? 0 : inner[inner.count - 1].count) }

    /// Items before entry `k`.
    func countBefore(_ k: Int) -> Int { k == 0 ? 0 : (isLeaf ? k : inner[k - 1].count) }
    /// Summary of entries before entry `k`.
    func summaryBefore(_ k: Int) -> Summary { k == 0 ? .zero : (isLeaf ? prefix[k - 1] : inner[k - 1].prefix) }

    /// Recomputes the running sums from entry `k` on (after entries `k...` changed, were added or
    /// were removed at the end).
    func recompute(from k: Int) {
      // The arrays are moved out and back (one access each), not accessed per entry; entries are
      // overwritten in place, and only a change of length appends or removes at the end.
      if isLeaf {
        var prefix: [Summary] = []
        swap(&prefix, &self.prefix)
        defer { swap(&prefix, &self.prefix) }
        let items = self.items
        let n = items.count
        let k = Swift.min(k, prefix.count, n)
        if prefix.count > n { prefix.removeLast(prefix.count - n) }
        // Geometric growth: `reserveCapacity(n)` alone allocates exactly `n`, so a leaf that grew
        // by one item reallocated its sums on every insert.
        // (Called every time: it also makes the buffer unique once, for the writes below.)
        prefix.reserveCapacity(prefix.capacity < n ? Swift.max(n, 2 * prefix.capacity) : n)
        var acc = k == 0 ? Summary.zero : prefix[k - 1]
        for j in k..<n {
          acc.add(items[j].summary)
          if j < prefix.count { prefix[j] = acc } else { prefix.append(acc) }
        }
      } else {
        var entries: [InnerEntry] = []
        swap(&entries, &inner)
        defer { swap(&entries, &inner) }
        let n = entries.count
        guard k < n else { return }
        var acc = k == 0 ? Summary.zero : entries[k - 1].prefix
        var c = k == 0 ? 0 : entries[k - 1].count
        for j in k..<n {
          acc.add(entries[j].summary)
          c += entries[j].size
          entries[j].prefix = acc
          entries[j].count = c
        }
      }
    }

    /// The entry holding item `i < count` (binary search), and `i` relative to it.
    func entry(holding i: Int) -> (Int, Int) {
      if isLeaf { return (i, 0) }
      let entries = self.inner  // one access to the property, not one per probe
      var lo = 0
      var hi = entries.count - 1
      while lo < hi {
        let mid = (lo + hi) / 2
        if entries[mid].count > i { hi = mid } else { lo = mid + 1 }
      }
      return (lo, lo == 0 ? i : i - entries[lo - 1].count)
    }
  }

  private(set) var root: Node

  init() { root = Node(items: [Item]()) }

  /// A tree of `items` in order, built bottom-up in O(n).
  init(_ items: some Sequence<Item>) {
    var level: [Node] = []
    var leaf: [Item] = []
    leaf.reserveCapacity(Self.maxLeaf)
    let full = Swift.max(1, Self.maxLeaf * 3 / 4)
    for item in items {
      leaf.append(item)
      if leaf.count == full {
        level.append(Node(items: leaf))
        leaf.removeAll(keepingCapacity: true)
      }
    }
    if !leaf.isEmpty || level.isEmpty { level.append(Node(items: leaf)) }
    root = Self.buildUp(level)
  }

  private static func buildUp(_ nodes: [Node]) -> Node {
    var level = nodes
    let full = maxFanout * 3 / 4
    while level.count > 1 {
      var next: [Node] = []
      next.reserveCapacity(level.count / full + 1)
      var i = 0
      while i < level.count {
        var j = Swift.min(i + full, level.count)
        // Never leave a last group below the minimum: take a fair share of the one before.
        if level.count - j > 0 && level.count - j < minFanout { j = i + (level.count - i + 1) / 2 }
        next.append(Node(children: level[i..<j]))
        i = j
      }
      level = next
    }
    return level[0]
  }

  var count: Int { root.count }
  var isEmpty: Bool { root.count == 0 }
  var summary: Summary { root.summary }

  // MARK: Reading

  /// Item `i`, `0 <= i < count`.
  subscript(i: Int) -> Item {
    precondition(i >= 0 && i < count, "item \(i) out of 0..<\(count)")
    let (leaf, k) = leafHolding(i)
    return leaf.items[k]
  }

  /// The summary of items `0..<i`.
  func summary(before i: Int) -> Summary {
    precondition(i >= 0 && i <= count, "item \(i) out of 0...\(count)")
    if i == count { return root.summary }
    var acc = Summary.zero
    var node = root
    var i = i
    while !node.isLeaf {
      let (c, j) = node.entry(holding: i)
      if c > 0 { acc.add(node.inner[c - 1].prefix) }
      i = j
      node = node.children[c]
    }
    if i > 0 { acc.add(node.prefix[i - 1]) }
    return acc
  }

  /// The first item `i` whose running total `summary(before: i) + item.summary` satisfies
  /// `reaches` (which must be monotone: false, ..., false, true, ..., true along the items), with
  /// the summary before it; `(count, summary)` when none does. Binary search in each node.
  ///
  /// The descent of ``find(_:)`` without the item: returning it (a retain and a release of what it
  /// holds) cost 3,000 instructions per edit in the rope's chunk lookups, so the loop is kept twice.
  func seek(_ reaches: (Summary) -> Bool) -> (index: Int, before: Summary) {
    var acc = Summary.zero
    var index = 0
    var node = root
    while !node.isLeaf {
      let entries = node.inner
      var lo = 0
      var hi = entries.count
      while lo < hi {
        let mid = (lo + hi) / 2
        if reaches(acc.adding(entries[mid].prefix)) { hi = mid } else { lo = mid + 1 }
      }
      if lo == entries.count { return (index + node.count, acc.adding(node.summary)) }
      if lo > 0 {
        index += entries[lo - 1].count
        acc.add(entries[lo - 1].prefix)
      }
      node = node.children[lo]
    }
    let prefix = node.prefix
    var lo = 0
    var hi = prefix.count
    while lo < hi {
      let mid = (lo + hi) / 2
      if reaches(acc.adding(prefix[mid])) { hi = mid } else { lo = mid + 1 }
    }
    if lo == prefix.count { return (index + prefix.count, acc.adding(node.summary)) }
    if lo > 0 { acc.add(prefix[lo - 1]) }
    return (index + lo, acc)
  }

  /// ``seek(_:)`` that also returns the item found (nil when none reaches): one descent where
  /// `seek` and a subscript would make two.
  func find(_ reaches: (Summary) -> Bool) -> (index: Int, before: Summary, item: Item?) {
    var acc = Summary.zero
    var index = 0
    var node = root
    while !node.isLeaf {
      let entries = node.inner
      var lo = 0
      var hi = entries.count
      while lo < hi {
        let mid = (lo + hi) / 2
        if reaches(acc.adding(entries[mid].prefix)) { hi = mid } else { lo = mid + 1 }
      }
      if lo == entries.count { return (index + node.count, acc.adding(node.summary), nil) }
      if lo > 0 {
        index += entries[lo - 1].count
        acc.add(entries[lo - 1].prefix)
      }
      node = node.children[lo]
    }
    let prefix = node.prefix
    var lo = 0
    var hi = prefix.count
    while lo < hi {
      let mid = (lo + hi) / 2
      if reaches(acc.adding(prefix[mid])) { hi = mid } else { lo = mid + 1 }
    }
    if lo == prefix.count { return (index + prefix.count, acc.adding(node.summary), nil) }
    if lo > 0 { acc.add(prefix[lo - 1]) }
    return (index + lo, acc, node.items[lo])
  }

  /// The last item with the summary before it (`count > 0`): one descent along the right edge.
  var last: (index: Int, before: Summary, item: Item) {
    precondition(count > 0, "no last item of an empty tree")
    var acc = Summary.zero
    var node = root
    while !node.isLeaf {
      let c = node.children.count - 1
      if c > 0 { acc.add(node.inner[c - 1].prefix) }
      node = node.children[c]
    }
    let k = node.items.count - 1
    if k > 0 { acc.add(node.prefix[k - 1]) }
    return (count - 1, acc, node.items[k])
  }

  /// Calls `body` with each item from `start` on, in order, and the summary before it, until it
  /// returns false. O(log n + k).
  func forEach(from start: Int = 0, _ body: (Int, Summary, Item) throws -> Bool) rethrows {
    guard start < count else { return }
    var acc = summary(before: start)
    var index = start
    _ = try Self.walk(root, skip: start, &acc, &index, body)
  }

  private static func walk(
    _ node: Node, skip: Int, _ acc: inout Summary, _ index: inout Int, _ body: (Int, Summary, Item) throws -> Bool
  ) rethrows -> Bool {
    if node.isLeaf {
      for k in skip..<node.items.count {
        guard try body(index, acc, node.items[k]) else { return false }
        acc.add(node.items[k].summary)
        index += 1
      }
      return true
    }
    var (c, j) = node.entry(holding: skip)
    while c < node.children.count {
      guard try walk(node.children[c], skip: j, &acc, &index, body) else { return false }
      j = 0
      c += 1
    }
    return true
  }

  /// Calls `body` with each item before `end`, last first, and the summary before it, until it
  /// returns false. O(log n + k).
  func forEachBackward(before end: Int, _ body: (Int, Summary, Item) throws -> Bool) rethrows {
    var i = Swift.min(end, count) - 1
    // Leaf by leaf, last first, from each leaf's running sums.
    while i >= 0 {
      let (leaf, k) = leafHolding(i)
      let leafStart = i - k
      let base = summary(before: leafStart)
      var j = k
      while j >= 0 {
        guard try body(leafStart + j, base.adding(leaf.summaryBefore(j)), leaf.items[j]) else { return }
        j -= 1
      }
      i = leafStart - 1
    }
  }

  private func leafHolding(_ i: Int) -> (Node, Int) {
    var node = root
    var i = i
    while !node.isLeaf {
      let (c, j) = node.entry(holding: i)
      node = node.children[c]
      i = j
    }
    return (node, i)
  }

  /// Visits, in order, the items of every subtree that `enter(before, subtree)` accepts (given the
  /// summary before the subtree and the subtree's own), with the summary before each item, until
  /// `body` returns false. With a pruning `enter`, O(log n) per item visited.
  func visit(
    enter: (Summary, Summary) -> Bool, _ body: (Int, Summary, Item) throws -> Bool
  ) rethrows {
    var acc = Summary.zero
    var index = 0
    _ = try Self.visit(root, &acc, &index, enter, body)
  }

  private static func visit(
    _ node: Node, _ acc: inout Summary, _ index: inout Int, _ enter: (Summary, Summary) -> Bool,
    _ body: (Int, Summary, Item) throws -> Bool
  ) rethrows -> Bool {
    if node.isLeaf {
      for k in node.items.indices {
        let summary = node.items[k].summary
        if enter(acc, summary) {
          guard try body(index, acc, node.items[k]) else { return false }
        }
        acc.add(summary)
        index += 1
      }
      return true
    }
    for c in node.children.indices {
      let entry = node.inner[c]
      if enter(acc, entry.summary) {
        guard try visit(node.children[c], &acc, &index, enter, body) else { return false }
      } else {
        acc.add(entry.summary)
        index += entry.size
      }
    }
    return true
  }

  // MARK: Changing

  /// Makes `node` safe to mutate: itself when nothing else refers to it, else a copy.
  private static func makeUnique(_ node: inout Node) {
    if !isKnownUniquelyReferenced(&node) { node = Node(copying: node) }
  }

  /// After child `c` of `node` changed: its summary, and the running sums from it on.
  private static func refresh(_ node: Node, _ c: Int) {
    let child = node.children[c]
    node.inner[c].summary = child.summary
    node.inner[c].size = child.count
    node.recompute(from: c)
  }

  /// Replaces item `i`.
  mutating func update(at i: Int, with item: Item) {
    precondition(i >= 0 && i < count, "item \(i) out of 0..<\(count)")
    Self.update(&root, i, item)
  }

  private static func update(_ node: inout Node, _ i: Int, _ item: Item) {
    makeUnique(&node)
    if node.isLeaf {
      node.items[i] = item
      node.recompute(from: i)
      return
    }
    let (c, j) = node.entry(holding: i)
    update(&node.children[c], j, item)
    refresh(node, c)
  }

  /// Changes item `i` where it is, and returns what `body` returns. The path to it is made unique
  /// first, so when no other copy of the tree shares the item (no snapshot), neither does the
  /// item's own storage: `body` changes its arrays without copying them.
  mutating func modify<R>(at i: Int, _ body: (inout Item) -> R) -> R {
    precondition(i >= 0 && i < count, "item \(i) out of 0..<\(count)")
    return Self.modify(&root, i, body)
  }

  private static func modify<R>(_ node: inout Node, _ i: Int, _ body: (inout Item) -> R) -> R {
    makeUnique(&node)
    if node.isLeaf {
      let result = body(&node.items[i])
      node.recompute(from: i)
      return result
    }
    let (c, j) = node.entry(holding: i)
    let result = modify(&node.children[c], j, body)
    refresh(node, c)
    return result
  }

  /// Inserts `item` before item `i` (at the end when `i == count`).
  mutating func insert(_ item: Item, at i: Int) {
    precondition(i >= 0 && i <= count, "item \(i) out of 0...\(count)")
    if let right = Self.insert(&root, i, item) { root = Node(children: [root, right]) }
  }

  /// Inserts into `node`; returns the new right sibling when `node` had to split.
  private static func insert(_ node: inout Node, _ i: Int, _ item: Item) -> Node? {
    makeUnique(&node)
    if node.isLeaf {
      node.items.insert(item, at: i)
      node.recompute(from: i)
      return split(node)
    }
    // An insertion at a boundary goes to the end of the child before it.
    let (c, j) =
      i == node.count
      ? (node.children.count - 1, i - node.countBefore(node.children.count - 1)) : entryForInsertion(node, i)
    if let right = insert(&node.children[c], j, item) {
      node.children.insert(right, at: c + 1)
      node.inner.insert(InnerEntry(right), at: c + 1)
    }
    refresh(node, c)
    return split(node)
  }

  /// The child an insertion before item `i < count` goes to: the one before a boundary.
  private static func entryForInsertion(_ node: Node, _ i: Int) -> (Int, Int) {
    let (c, j) = node.entry(holding: i)
    if j == 0 && c > 0 { return (c - 1, i - node.countBefore(c - 1)) }
    return (c, j)
  }

  /// Splits `node` (unique) in two halves when it holds more than the maximum: keeps the first
  /// half, returns the second.
  private static func split(_ node: Node) -> Node? {
    guard node.fanout > maximum(node) else { return nil }
    let half = node.fanout / 2
    let right: Node
    if node.isLeaf {
      right = Node(items: node.items[half...])
      node.items.removeSubrange(half...)
    } else {
      right = Node(children: node.children[half...])
      node.children.removeSubrange(half...)
      node.inner.removeSubrange(half...)
    }
    node.recompute(from: half)
    return right
  }

  /// Removes item `i` and returns it.
  @discardableResult
  mutating func remove(at i: Int) -> Item {
    precondition(i >= 0 && i < count, "item \(i) out of 0..<\(count)")
    let removed = Self.remove(&root, i)
    while !root.isLeaf && root.children.count == 1 { root = root.children[0] }
    return removed
  }

  private static func remove(_ node: inout Node, _ i: Int) -> Item {
    makeUnique(&node)
    if node.isLeaf {
      let removed = node.items.remove(at: i)
      node.recompute(from: i)
      return removed
    }
    let (c, j) = node.entry(holding: i)
    let removed = remove(&node.children[c], j)
    rebalance(node, c)
    return removed
  }

  /// After child `c` of `node` (unique) shrank: drops it when empty, merges it with a neighbour
  /// when underfull (splitting the two again if they are too many), and refreshes the sums.
  private static func rebalance(_ node: Node, _ c: Int) {
    let child = node.children[c]
    // A child with no items left is dropped, whatever its fan-out: a splice can leave a node with
    // one child, and when that child empties the node holds one empty child, which a merge would
    // carry into its neighbour.
    if child.count == 0 && node.children.count > 1 {
      node.children.remove(at: c)
      node.inner.remove(at: c)
      node.recompute(from: c)
      return
    }
    if child.fanout >= (child.isLeaf ? minLeaf : minFanout) || node.children.count == 1 {
      refresh(node, c)
      return
    }
    let lo = c + 1 < node.children.count ? c : c - 1
    let merged = merge(node.children[lo], node.children[lo + 1])
    node.children.replaceSubrange(lo..<(lo + 2), with: merged)
    node.inner.replaceSubrange(lo..<(lo + 2), with: merged.map { InnerEntry($0) })
    node.recompute(from: lo)
  }

  private static func merge(_ a: Node, _ b: Node) -> [Node] {
    if a.isLeaf {
      let items = a.items + b.items
      if items.isEmpty { return [] }
      // At least one item a side (with leaves of one, three quarters of a leaf is none).
      if items.count > Swift.max(1, maxLeaf * 3 / 4) {
        let half = items.count / 2
        return [Node(items: items[..<half]), Node(items: items[half...])]
      }
      return [Node(items: items)]
    }
    let children = a.children + b.children
    if children.count > maxFanout * 3 / 4 {
      let half = children.count / 2
      return [Node(children: children[..<half]), Node(children: children[half...])]
    }
    return [Node(children: children)]
  }

  /// Replaces items `range` with `items`. When the range lies in one leaf (an edit's usual case),
  /// one path is changed, in one descent; otherwise item by item.
  mutating func replaceSubrange(_ range: Range<Int>, with items: some Collection<Item>) {
    precondition(range.lowerBound >= 0 && range.upperBound <= count, "items \(range) out of 0...\(count)")
    if range.lowerBound == 0 && range.upperBound == count {
      self = SumTree(items)
      return
    }
    if let extra = Self.splice(&root, range, Array(items)) {
      if !extra.isEmpty { root = Self.buildUp([root] + extra) }
      if root.fanout == 0 { root = Node(items: [Item]()) }
      while !root.isLeaf && root.children.count == 1 { root = root.children[0] }
      return
    }
    var i = range.lowerBound
    var replaced = 0
    var it = items.makeIterator()
    while replaced < range.count, let item = it.next() {
      update(at: i, with: item)
      i += 1
      replaced += 1
    }
    if replaced < range.count {
      for _ in replaced..<range.count { remove(at: i) }
      return
    }
    while let item = it.next() {
      insert(item, at: i)
      i += 1
    }
  }

  mutating func append(_ item: Item) { insert(item, at: count) }

  /// The child of internal `node` that a splice of `range` goes to (an empty range at a boundary
  /// goes to the child before it), with the range relative to it; nil when it spans children.
  private static func spliceChild(_ node: Node, _ range: Range<Int>) -> (Int, Range<Int>)? {
    let (c, start): (Int, Int)
    if range.lowerBound == node.count || (range.isEmpty && range.lowerBound > 0) {
      let (cc, _) = node.entry(holding: range.lowerBound - 1)
      (c, start) = (cc, node.countBefore(cc))
    } else {
      let (cc, _) = node.entry(holding: range.lowerBound)
      (c, start) = (cc, node.countBefore(cc))
    }
    guard range.upperBound <= node.inner[c].count else { return nil }
    return (c, (range.lowerBound - start)..<(range.upperBound - start))
  }

  /// Replaces `range` of `node`'s items with `items` when the range lies in one leaf, in one
  /// descent; returns the new right siblings when `node` had to split (a leaf that grows past the
  /// maximum splits into as many nodes as it needs; a node left empty is dropped by its parent),
  /// or nil, having changed nothing, when the range spans two children somewhere on the way (the
  /// nodes above are then only made unique, which a copy-on-write tree may do at any time).
  private static func splice(_ node: inout Node, _ range: Range<Int>, _ items: [Item]) -> [Node]? {
    makeUnique(&node)
    if node.isLeaf {
      node.items.replaceSubrange(range, with: items)
      node.recompute(from: range.lowerBound)
      return splitAll(node)
    }
    guard let (c, r) = spliceChild(node, range) else { return nil }
    guard let extra = splice(&node.children[c], r, items) else { return nil }
    if node.children[c].fanout == 0 {
      node.children.remove(at: c)
      node.inner.remove(at: c)
      node.recompute(from: c)
      return []
    }
    if !extra.isEmpty {
      node.children.insert(contentsOf: extra, at: c + 1)
      node.inner.insert(contentsOf: extra.map { InnerEntry($0) }, at: c + 1)
    }
    refresh(node, c)
    return splitAll(node)
  }

  /// Splits `node` (unique) evenly into nodes of at most the maximum (the fan-out, or the leaf
  /// capacity for a leaf): keeps the first, returns the others (none when it fits).
  private static func splitAll(_ node: Node) -> [Node] {
    let n = node.fanout
    let most = maximum(node)
    guard n > most else { return [] }
    let parts = (n + most - 1) / most
    var cuts: [Int] = []
    for p in 1...parts { cuts.append(n * p / parts) }
    var extra: [Node] = []
    extra.reserveCapacity(parts - 1)
    for p in 1..<parts {
      let r = cuts[p - 1]..<cuts[p]
      extra.append(node.isLeaf ? Node(items: node.items[r]) : Node(children: node.children[r]))
    }
    let keep = cuts[0]
    if node.isLeaf {
      node.items.removeSubrange(keep...)
    } else {
      node.children.removeSubrange(keep...)
      node.inner.removeSubrange(keep...)
    }
    node.recompute(from: keep)
    return extra
  }

  // MARK: Invariants

  /// Checks the tree's invariants (in debug builds): every leaf at the same depth, node sizes
  /// within bounds (the root and nodes along a recent cut may be smaller), and every node's
  /// running sums, counts and copies of its children's summaries equal to what they add up to.
  func invariantCheck() {
    #if DEBUG
      Self.check(root, isRoot: true)
    #endif
  }

  private static func check(_ node: Node, isRoot: Bool) {
    precondition(node.fanout <= maximum(node), "node with \(node.fanout) entries")
    var s = Summary.zero
    if node.isLeaf {
      precondition(node.children.isEmpty && node.inner.isEmpty, "leaf with children")
      precondition(node.prefix.count == node.items.count, "running sums of another length")
      for k in node.items.indices {
        s.add(node.items[k].summary)
        precondition(node.prefix[k] == s, "leaf running sum out of date")
      }
      return
    }
    precondition(node.items.isEmpty && node.prefix.isEmpty, "internal node with items")
    precondition(!node.children.isEmpty, "internal node without children")
    precondition(node.inner.count == node.children.count, "entries of another length")
    var n = 0
    for c in node.children.indices {
      let child = node.children[c]
      let entry = node.inner[c]
      precondition(child.height == node.height - 1, "leaves at different depths")
      precondition(child.fanout > 0, "empty child")
      check(child, isRoot: false)
      precondition(entry.summary == child.summary && entry.size == child.count, "child summary or size out of date")
      s.add(child.summary)
      n += child.count
      precondition(entry.prefix == s && entry.count == n, "running sum or count out of date")
    }
  }
}

extension SumTree: Sendable where Item: Sendable {}
