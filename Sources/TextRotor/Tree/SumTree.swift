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
}

/// A persistent B+tree of items whose nodes carry the summary of everything below them, so that
/// any prefix sum (bytes, lines, UTF-16 units, entries, a largest end, ...) is found by one descent:
/// positions are prefix sums, and nothing after an edit is ever shifted.
///
/// Nodes are immutable and shared: a copy of a tree is O(1), and a change copies only the path from
/// the root to the items it touches (O(log n) nodes of at most ``maxFanout`` entries), so older
/// copies (snapshots) stay valid and may be read on other threads.
///
/// Complexity for n items: `item(at:)`, `seek`, `summary(before:)`, `insert`, `remove`, `update`:
/// O(log n); `replaceSubrange` O((k + m) log n) for k items removed and m inserted; building from
/// an array O(n); iterating from any item O(log n + k).
struct SumTree<Item: TreeItem> {
  typealias Summary = Item.Summary

  static var maxFanout: Int { 32 }
  static var minFanout: Int { 8 }

  final class Node: @unchecked Sendable {
    // Immutable after construction (every change builds new nodes), so sharing across threads is
    // safe; `@unchecked` only because Swift cannot see that through the generic arrays.
    let summary: Summary
    let count: Int
    let height: Int
    let items: [Item]
    let children: [Node]

    init(items: [Item]) {
      var s = Summary.zero
      for item in items { s.add(item.summary) }
      self.summary = s
      self.count = items.count
      self.height = 0
      self.items = items
      self.children = []
    }

    init(children: [Node]) {
      var s = Summary.zero
      var n = 0
      for child in children {
        s.add(child.summary)
        n += child.count
      }
      self.summary = s
      self.count = n
      self.height = children[0].height + 1
      self.items = []
      self.children = children
    }

    var isLeaf: Bool { height == 0 }
    var fanout: Int { isLeaf ? items.count : children.count }
  }

  private(set) var root: Node

  init() { root = Node(items: []) }

  /// A tree of `items` in order, built bottom-up in O(n).
  init(_ items: some Sequence<Item>) {
    var level: [Node] = []
    var leaf: [Item] = []
    leaf.reserveCapacity(Self.maxFanout)
    let full = Self.maxFanout * 3 / 4
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
        next.append(Node(children: Array(level[i..<j])))
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
    var acc = Summary.zero
    var node = root
    var i = i
    while true {
      if node.isLeaf {
        for item in node.items[0..<i] { acc.add(item.summary) }
        return acc
      }
      var descended = false
      for child in node.children {
        if i < child.count {
          node = child
          descended = true
          break
        }
        acc.add(child.summary)
        i -= child.count
      }
      if !descended { return acc }
    }
  }

  /// The first item `i` whose running total `summary(before: i) + item.summary` satisfies
  /// `reaches` (which must be monotone: false, ..., false, true, ..., true along the items), with
  /// the summary before it; `(count, summary)` when none does.
  func seek(_ reaches: (Summary) -> Bool) -> (index: Int, before: Summary) {
    var acc = Summary.zero
    var index = 0
    var node = root
    outer: while true {
      if node.isLeaf {
        for item in node.items {
          let next = acc.adding(item.summary)
          if reaches(next) { return (index, acc) }
          acc = next
          index += 1
        }
        return (index, acc)
      }
      for child in node.children {
        let next = acc.adding(child.summary)
        if reaches(next) {
          node = child
          continue outer
        }
        acc = next
        index += child.count
      }
      return (index, acc)
    }
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
    var skip = skip
    if node.isLeaf {
      for item in node.items[skip...] {
        guard try body(index, acc, item) else { return false }
        acc.add(item.summary)
        index += 1
      }
      return true
    }
    for child in node.children {
      if skip >= child.count {
        skip -= child.count
        continue
      }
      guard try walk(child, skip: skip, &acc, &index, body) else { return false }
      skip = 0
    }
    return true
  }

  /// Calls `body` with each item before `end`, last first, and the summary before it, until it
  /// returns false. O(log n + k).
  func forEachBackward(before end: Int, _ body: (Int, Summary, Item) throws -> Bool) rethrows {
    var i = Swift.min(end, count) - 1
    // Leaf by leaf, last first: the prefix sums of a leaf's items are computed from the leaf's
    // start (summaries need not be invertible).
    while i >= 0 {
      let (leaf, k) = leafHolding(i)
      let leafStart = i - k
      var prefixes: [Summary] = [summary(before: leafStart)]
      prefixes.reserveCapacity(k + 1)
      for item in leaf.items[0..<k] { prefixes.append(prefixes[prefixes.count - 1].adding(item.summary)) }
      var j = k
      while j >= 0 {
        guard try body(leafStart + j, prefixes[j], leaf.items[j]) else { return }
        j -= 1
      }
      i = leafStart - 1
    }
  }

  private func leafHolding(_ i: Int) -> (Node, Int) {
    var node = root
    var i = i
    while !node.isLeaf {
      for child in node.children {
        if i < child.count {
          node = child
          break
        }
        i -= child.count
      }
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
      for item in node.items {
        if enter(acc, item.summary) {
          guard try body(index, acc, item) else { return false }
        }
        acc.add(item.summary)
        index += 1
      }
      return true
    }
    for child in node.children {
      if enter(acc, child.summary) {
        guard try visit(child, &acc, &index, enter, body) else { return false }
      } else {
        acc.add(child.summary)
        index += child.count
      }
    }
    return true
  }

  // MARK: Changing

  /// Replaces item `i`.
  mutating func update(at i: Int, with item: Item) {
    precondition(i >= 0 && i < count, "item \(i) out of 0..<\(count)")
    root = Self.update(root, i, item)
  }

  private static func update(_ node: Node, _ i: Int, _ item: Item) -> Node {
    if node.isLeaf {
      var items = node.items
      items[i] = item
      return Node(items: items)
    }
    var i = i
    var children = node.children
    for c in children.indices {
      if i < children[c].count {
        children[c] = update(children[c], i, item)
        return Node(children: children)
      }
      i -= children[c].count
    }
    preconditionFailure("item index past the end")
  }

  /// Inserts `item` before item `i` (at the end when `i == count`).
  mutating func insert(_ item: Item, at i: Int) {
    precondition(i >= 0 && i <= count, "item \(i) out of 0...\(count)")
    let (left, right) = Self.insert(root, i, item)
    if let right { root = Node(children: [left, right]) } else { root = left }
  }

  private static func insert(_ node: Node, _ i: Int, _ item: Item) -> (Node, Node?) {
    if node.isLeaf {
      var items = node.items
      items.insert(item, at: i)
      return split(items: items)
    }
    var i = i
    var children = node.children
    var c = 0
    while c < children.count - 1 && i > children[c].count {
      i -= children[c].count
      c += 1
    }
    let (left, right) = insert(children[c], i, item)
    children[c] = left
    if let right { children.insert(right, at: c + 1) }
    return split(children: children)
  }

  private static func split(items: [Item]) -> (Node, Node?) {
    guard items.count > maxFanout else { return (Node(items: items), nil) }
    let half = items.count / 2
    return (Node(items: Array(items[..<half])), Node(items: Array(items[half...])))
  }

  private static func split(children: [Node]) -> (Node, Node?) {
    guard children.count > maxFanout else { return (Node(children: children), nil) }
    let half = children.count / 2
    return (Node(children: Array(children[..<half])), Node(children: Array(children[half...])))
  }

  /// Removes item `i` and returns it.
  @discardableResult
  mutating func remove(at i: Int) -> Item {
    precondition(i >= 0 && i < count, "item \(i) out of 0..<\(count)")
    let removed = self[i]
    var node = Self.remove(root, i)
    while !node.isLeaf && node.children.count == 1 { node = node.children[0] }
    root = node
    return removed
  }

  private static func remove(_ node: Node, _ i: Int) -> Node {
    if node.isLeaf {
      var items = node.items
      items.remove(at: i)
      return Node(items: items)
    }
    var i = i
    var children = node.children
    var c = 0
    while i >= children[c].count {
      i -= children[c].count
      c += 1
    }
    let child = remove(children[c], i)
    if child.fanout >= minFanout || children.count == 1 {
      if child.fanout == 0 && children.count > 1 {
        children.remove(at: c)
      } else {
        children[c] = child
      }
      return Node(children: children)
    }
    // Underfull: merge with a neighbour (and split again if the two are too many).
    let n = c + 1 < children.count ? c + 1 : c - 1
    let (a, b) = n > c ? (child, children[n]) : (children[n], child)
    let merged = merge(a, b)
    let lo = Swift.min(c, n)
    children.replaceSubrange(lo...(lo + 1), with: merged)
    return Node(children: children)
  }

  private static func merge(_ a: Node, _ b: Node) -> [Node] {
    if a.isLeaf {
      let items = a.items + b.items
      let (l, r) = split(items: items)
      if let r { return [l, r] }
      if items.count > maxFanout * 3 / 4 {
        let half = items.count / 2
        return [Node(items: Array(items[..<half])), Node(items: Array(items[half...]))]
      }
      return items.isEmpty ? [] : [l]
    }
    let children = a.children + b.children
    if children.count > maxFanout * 3 / 4 {
      let half = children.count / 2
      return [Node(children: Array(children[..<half])), Node(children: Array(children[half...]))]
    }
    return [Node(children: children)]
  }

  /// Replaces items `range` with `items`. When the range lies in one leaf (an edit's usual case),
  /// one path is copied; otherwise item by item.
  mutating func replaceSubrange(_ range: Range<Int>, with items: some Collection<Item>) {
    precondition(range.lowerBound >= 0 && range.upperBound <= count, "items \(range) out of 0...\(count)")
    if range.lowerBound == 0 && range.upperBound == count {
      self = SumTree(items)
      return
    }
    if let (left, right) = Self.splice(root, range, Array(items)) {
      root = right.map { Node(children: [left, $0]) } ?? left
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

  /// Replaces `range` of `node`'s items with `items` when the range lies in one leaf and the leaf
  /// stays non-empty and at most twice the fan-out: one path copied, the leaf split if it grew too
  /// big. Nil otherwise.
  private static func splice(_ node: Node, _ range: Range<Int>, _ items: [Item]) -> (Node, Node?)? {
    if node.isLeaf {
      let n = node.items.count - range.count + items.count
      guard n > 0 && n <= 2 * maxFanout else { return nil }
      var all = node.items
      all.replaceSubrange(range, with: items)
      return split(items: all)
    }
    var children = node.children
    var start = 0
    for c in children.indices {
      let end = start + children[c].count
      // The child holding the range (an empty range at a boundary goes to the child before it).
      if range.lowerBound < end || (range.isEmpty && range.lowerBound == end) || c == children.count - 1 {
        guard range.upperBound <= end else { return nil }
        guard let (left, right) = splice(children[c], (range.lowerBound - start)..<(range.upperBound - start), items)
        else { return nil }
        children[c] = left
        if let right { children.insert(right, at: c + 1) }
        return split(children: children)
      }
      start = end
    }
    return nil
  }

  // MARK: Invariants

  /// Checks the tree's invariants (in debug builds): every leaf at the same depth, node sizes
  /// within bounds (the root and nodes along a recent cut may be smaller), counts and summaries
  /// equal to what their contents add up to.
  func invariantCheck() {
    #if DEBUG
      Self.check(root, isRoot: true)
    #endif
  }

  private static func check(_ node: Node, isRoot: Bool) {
    precondition(node.fanout <= maxFanout, "node with \(node.fanout) entries")
    if node.isLeaf {
      var s = Summary.zero
      for item in node.items { s.add(item.summary) }
      precondition(s == node.summary && node.count == node.items.count, "leaf summary out of date")
      return
    }
    precondition(!node.children.isEmpty, "internal node without children")
    var s = Summary.zero
    var n = 0
    for child in node.children {
      precondition(child.height == node.height - 1, "leaves at different depths")
      precondition(child.fanout > 0, "empty child")
      check(child, isRoot: false)
      s.add(child.summary)
      n += child.count
    }
    precondition(s == node.summary && n == node.count, "node summary out of date")
  }
}

extension SumTree: Sendable where Item: Sendable {}
