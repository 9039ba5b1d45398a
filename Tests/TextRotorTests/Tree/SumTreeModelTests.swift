import Testing

@testable import TextRotor

/// A SumTree against a plain array, over thousands of random inserts, removals, updates and
/// replacements; every summary and seek compared with a computation on the array.
@Suite struct SumTreeModelTests {
  /// An item of the model tests: a number, summed as ``Sum``.
  protocol ModelValue: TreeItem where Summary == Sum {
    init(v: Int)
    var v: Int { get }
  }

  struct Value: ModelValue {
    var v: Int
  }

  /// The same with leaves of at most three items (as large items take fewer, ``TreeItem/leafCapacity``):
  /// leaves split, merge and underflow far more often than their parents.
  struct SmallLeafValue: ModelValue {
    var v: Int
    static var leafCapacity: Int { 3 }
  }

  /// Leaves of one item and of two: the smallest capacities, where three quarters of a leaf
  /// rounds down to nothing.
  struct OneLeafValue: ModelValue {
    var v: Int
    static var leafCapacity: Int { 1 }
  }

  struct TwoLeafValue: ModelValue {
    var v: Int
    static var leafCapacity: Int { 2 }
  }

  /// Leaves of two and internal nodes of at most four children: deep trees, whose internal nodes
  /// split and merge as often as leaves.
  struct NarrowValue: ModelValue {
    var v: Int
    static var leafCapacity: Int { 2 }
    static var innerCapacity: Int { 4 }
  }

  /// Count, total and a non-invertible part (a maximum) to check that nothing subtracts.
  struct Sum: TreeSummary {
    var count = 0
    var total = 0
    var maxValue = Int.min
    static var zero: Sum { Sum() }
    mutating func add(_ next: Sum) {
      count += next.count
      total += next.total
      maxValue = Swift.max(maxValue, next.maxValue)
    }
  }

  @Test func randomOperationsMatchAnArray() { randomOperations(Value.self, seed: 0x5EED_7EE) }

  @Test func smallLeavesMatchAnArray() { randomOperations(SmallLeafValue.self, seed: 0x5EED_3) }

  @Test func leavesOfOneAndTwoMatchAnArray() {
    randomOperations(OneLeafValue.self, seed: 0x5EED_1)
    randomOperations(TwoLeafValue.self, seed: 0x5EED_2)
  }

  @Test func narrowNodesMatchAnArray() { randomOperations(NarrowValue.self, seed: 0x5EED_4) }

  /// Leaves and internal nodes of 8, as an element tree has.
  struct EightValue: ModelValue {
    var v: Int
    static var leafCapacity: Int { 8 }
    static var innerCapacity: Int { 8 }
  }

  /// A splice that empties leaves can leave a node with one child (a splice does not merge); when
  /// a removal then empties that child, the node (underfull) is merged with a neighbour, and the
  /// empty leaf must not be carried into the merged node (found by a review: the last item of the
  /// tree then read an empty leaf).
  @Test func spliceThenRemoveLeavesNoEmptyLeaf() {
    var model = Array(0..<200)
    var tree = SumTree(model.map(EightValue.init))
    for (a, b) in [(181, 186), (181, 187), (181, 187), (181, 183)] {
      model.removeSubrange(a..<b)
      tree.replaceSubrange(a..<b, with: [EightValue]())
      tree.invariantCheck()
    }
    model.remove(at: 180)
    tree.remove(at: 180)
    tree.invariantCheck()
    #expect(tree.count == model.count)
    #expect(tree.last.item.v == model.last)
    var items: [Int] = []
    tree.forEach { _, _, item in
      items.append(item.v)
      return true
    }
    #expect(items == model)
  }

  func randomOperations<Value: ModelValue>(_: Value.Type, seed: UInt64) {
    var seeds = SeededRandom(seed: seed)
    for round in 0..<TestScale.count(25) {
      let seed = seeds.next()
      var rng = SeededRandom(seed: seed)
      var model: [Int] = (0..<Int(rng.next() % 300)).map { _ in Int(rng.next() % 100) }
      var tree = SumTree(model.map(Value.init))
      // Copies taken along the way: changes mutate nodes in place only when unshared, so every
      // copy must still hold what it held when taken.
      var snapshots: [(SumTree<Value>, [Int])] = []
      for step in 0..<400 {
        if rng.next() % 10 == 0 { snapshots.append((tree, model)) }
        let op = rng.next() % 7
        switch op {
        case 0:
          let i = Int(rng.next() % UInt64(model.count + 1))
          let v = Int(rng.next() % 100)
          model.insert(v, at: i)
          tree.insert(Value(v: v), at: i)
        case 1 where !model.isEmpty:
          let i = Int(rng.next() % UInt64(model.count))
          model.remove(at: i)
          tree.remove(at: i)
        case 2 where !model.isEmpty:
          let i = Int(rng.next() % UInt64(model.count))
          let v = Int(rng.next() % 100)
          if rng.next() % 2 == 0 {
            tree.update(at: i, with: Value(v: v))
          } else {
            // In place: the closure gets the tree's own item (its path made unique first) and
            // what it returns comes back.
            let old = tree.modify(at: i) { item in
              defer { item = Value(v: v) }
              return item.v
            }
            #expect(old == model[i], "seed \(seed) step \(step): modify saw \(old), not \(model[i])")
          }
          model[i] = v
        case 5, 6:
          // A local splice (an edit's usual case: one leaf, one descent): a few items replaced by
          // none, a few, or enough to split the leaf several times (op 6).
          let a = Int(rng.next() % UInt64(model.count + 1))
          let b = Swift.min(model.count, a + Int(rng.next() % 40))
          let new = (0..<Int(rng.next() % (op == 5 ? 6 : 120))).map { _ in Int(rng.next() % 100) }
          model.replaceSubrange(a..<b, with: new)
          tree.replaceSubrange(a..<b, with: new.map(Value.init))
        default:
          let a = Int(rng.next() % UInt64(model.count + 1))
          let b = a + Int(rng.next() % UInt64(model.count - a + 1))
          let new = (0..<Int(rng.next() % (op == 3 ? 5 : 200))).map { _ in Int(rng.next() % 100) }
          model.replaceSubrange(a..<b, with: new)
          tree.replaceSubrange(a..<b, with: new.map(Value.init))
        }
        tree.invariantCheck()
        #expect(tree.count == model.count, "seed \(seed) round \(round) step \(step)")
        if step % 20 == 0 || model.count < 50 {
          var items: [Int] = []
          tree.forEach { _, _, item in
            items.append(item.v)
            return true
          }
          #expect(items == model, "seed \(seed) step \(step)")
          if !model.isEmpty {
            let i = Int(rng.next() % UInt64(model.count))
            #expect(tree[i].v == model[i], "seed \(seed)")
            let before = tree.summary(before: i)
            #expect(before.total == model[..<i].reduce(0, +), "seed \(seed)")
            #expect(before.maxValue == (model[..<i].max() ?? Int.min), "seed \(seed)")
            // seek: the first index whose running total passes a target.
            let target = Int(rng.next() % UInt64(model.reduce(1, +)))
            var running = 0
            let expected =
              model.firstIndex {
                running += $0; return running > target
              } ?? model.count
            #expect(tree.seek { $0.total > target }.index == expected, "seed \(seed)")
            // find: the same descent, with the item itself (nil past the end).
            let found = tree.find { $0.total > target }
            #expect(found.index == expected && found.item?.v == model[safe: expected], "seed \(seed)")
            #expect(found.before.total == model[..<expected].reduce(0, +), "seed \(seed)")
            let last = tree.last
            #expect(last.index == model.count - 1 && last.item.v == model.last, "seed \(seed)")
            #expect(last.before.total == model.dropLast().reduce(0, +), "seed \(seed)")
            var backward: [Int] = []
            tree.forEachBackward(before: i + 1) { j, s, item in
              #expect(s.total == model[..<j].reduce(0, +), "seed \(seed)")
              backward.append(item.v)
              return true
            }
            #expect(backward == model[...i].reversed(), "seed \(seed)")
          }
        }
      }
      for (snapshot, expected) in snapshots {
        snapshot.invariantCheck()
        var items: [Int] = []
        snapshot.forEach { _, _, item in
          items.append(item.v)
          return true
        }
        #expect(items == expected, "seed \(seed): a copy changed after later edits")
      }
    }
  }

  @Test func oldCopiesStayIntact() {
    var tree = SumTree((0..<1000).map(Value.init))
    let snapshot = tree
    for i in 0..<500 { tree.remove(at: i % tree.count) }
    tree.insert(Value(v: -1), at: 3)
    var items: [Int] = []
    snapshot.forEach { _, _, item in
      items.append(item.v)
      return true
    }
    #expect(items == Array(0..<1000))
    #expect(tree.count == 501)
  }
}

extension Array {
  fileprivate subscript(safe i: Int) -> Element? { indices.contains(i) ? self[i] : nil }
}

extension SumTreeModelTests.ModelValue {
  /// Every test type sums the same way; they differ only in their node capacities.
  var summary: SumTreeModelTests.Sum { SumTreeModelTests.Sum(count: 1, total: v, maxValue: v) }
}
