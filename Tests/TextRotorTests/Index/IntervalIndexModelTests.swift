import Testing

@testable import TextRotor

/// `IntervalIndex` against a plain sorted array, on thousands of random rotors (overlapping,
/// nested, empty entries) with random queries and edits. A failure names its seed.
@Suite struct IntervalIndexModelTests {
  typealias Entry = (range: Range<Int>, value: Int)

  static func randomEntries(_ rng: inout SeededRandom, next: inout Int) -> [Entry] {
    let count: Int
    switch rng.next() % 6 {
    case 0: count = [0, 1, 63, 64, 65, 128, 129][Int(rng.next() % 7)]
    case 1: count = Int(rng.next() % 2000)
    default: count = Int(rng.next() % 200)
    }
    var start = Int(rng.next() % 50)
    var result: [Entry] = []
    for _ in 0..<count {
      start += Int(rng.next() % 4 == 0 ? rng.next() % 30 : rng.next() % 3)
      let kind = rng.next() % 10
      let length = kind == 0 ? 0 : kind < 7 ? Int(rng.next() % 10) : Int(rng.next() % 400)
      result.append((start..<(start + length), next))
      next += 1
    }
    return result
  }

  static func overlaps(_ r: Range<Int>, _ q: Range<Int>) -> Bool {
    let hi = max(q.upperBound, q.lowerBound + 1)
    return r.lowerBound < hi && (r.upperBound > q.lowerBound || (r.isEmpty && r.lowerBound >= q.lowerBound))
  }

  static func check(_ index: IntervalIndex<Int>, _ model: [Entry], _ rng: inout SeededRandom, seed: UInt64) {
    #expect(index.count == model.count, "seed \(seed)")
    let all = index.all
    if let bad = model.indices.first(where: { all[$0].0 != model[$0].range || all[$0].1 != model[$0].value }) {
      Issue.record("seed \(seed): entry \(bad) is \(all[bad]), expected \(model[bad])")
      return
    }
    guard !model.isEmpty || rng.next() % 2 == 0 else { return }
    let top = (model.last?.range.upperBound ?? 10) + 20
    for _ in 0..<8 {
      let x = Int(rng.next() % UInt64(top + 10)) - 5
      let after = model.firstIndex { $0.range.lowerBound > x } ?? model.count
      #expect(index.firstIndex(startingAfter: x) == after, "seed \(seed) after \(x)")
      let atLeast = model.firstIndex { $0.range.lowerBound >= x } ?? model.count
      #expect(index.firstIndex(startingAtLeast: x) == atLeast, "seed \(seed) atLeast \(x)")
      let length = rng.next() % 3 == 0 ? 0 : Int(rng.next() % 60)
      let q = x..<(x + length)
      // The entries starting in `q` (one descent when a leaf holds both ends): a run of the model.
      let startingIn = model.indices.filter { q.contains(model[$0].range.lowerBound) }
      let run = index.indices(startingIn: q)
      #expect(
        Array(run) == startingIn && run.lowerBound == atLeast, "seed \(seed) starting in \(q): \(run)")
      let expected = model.indices.filter { overlaps(model[$0].range, q) }
      #expect(index.indices(overlapping: q) == expected, "seed \(seed) overlapping \(q)")
      if !model.isEmpty {
        let i = Int(rng.next() % UInt64(model.count))
        #expect(index[i].range == model[i].range && index[i].value == model[i].value, "seed \(seed) [\(i)]")
      }
    }
  }

  @Test func randomRotorsQueriesAndEdits() {
    var seeds = SeededRandom(seed: 0x1D3)
    for _ in 0..<TestScale.count(1500) {
      let seed = seeds.next()
      var rng = SeededRandom(seed: seed)
      var next = 0
      var model = Self.randomEntries(&rng, next: &next)
      var index = IntervalIndex(
        sorted: model.map { ($0.range, $0.value) }, width: (model.map(\.range.upperBound).max() ?? 0) + 1000)
      Self.check(index, model, &rng, seed: seed)
      for _ in 0..<6 {
        let top = (model.last?.range.upperBound ?? 10) + 20
        // Now and then a copy is held across the edit (a snapshot): edits made in place in the
        // index's leaves must leave it as it was.
        let held = rng.next() % 3 == 0 ? (index, model) : nil
        defer {
          if let (copy, old) = held {
            copy.invariantCheck()
            let all = copy.all
            #expect(
              all.count == old.count && zip(all, old).allSatisfy { $0.0 == $1.range && $0.1 == $1.value },
              "seed \(seed): a copy held across an edit changed")
            // Its nodes' largest ends too: an overlap query reads them.
            let lo = old.isEmpty ? 0 : old[old.count / 2].range.lowerBound
            let q = lo..<(lo + 50)
            #expect(
              copy.indices(overlapping: q) == old.indices.filter { Self.overlaps(old[$0].range, q) },
              "seed \(seed): a copy held across an edit answers another overlap")
          }
        }
        switch rng.next() % 4 {
        case 0:
          // A text edit: replace a..<b with `inserted` positions.
          let a = Int(rng.next() % UInt64(top))
          let b = a + (rng.next() % 2 == 0 ? 0 : Int(rng.next() % 40))
          let inserted = rng.next() % 2 == 0 ? 0 : Int(rng.next() % 40)
          let d = inserted - (b - a)
          model = model.map { e in
            let p = e.range.lowerBound
            let start = p <= a ? p : (p >= b ? p + d : a)
            var end = start
            if !e.range.isEmpty {
              let q = e.range.upperBound
              end = max(start, q < a ? q : (q >= b ? q + d : a + inserted))
            }
            return (start..<end, e.value)
          }
          index.apply(edit: a..<b, newCount: inserted) { r, _ in
            RotorDocument<Int>.remap(r, a: a, b: b, inserted: inserted)
          }
        case 1:
          // Shift a suffix forward.
          let p = Int(rng.next() % UInt64(top))
          let d = Int(rng.next() % 50)
          model = model.map {
            $0.range.lowerBound >= p ? (($0.range.lowerBound + d)..<($0.range.upperBound + d), $0.value) : $0
          }
          index.apply(edit: p..<p, newCount: d) { r, _ in
            r.lowerBound >= p ? (r.lowerBound + d)..<(r.upperBound + d) : r
          }
        case 2:
          // An element inserted at p: entries from p on move by d, new ones go in p..<p + d.
          let p = Int(rng.next() % UInt64(top))
          let d = Int(rng.next() % 50) + 1
          var fresh: [Entry] = []
          var s = p
          for _ in 0..<Int(rng.next() % 6) {
            fresh.append((s..<(s + Int(rng.next() % UInt64(p + d - s + 1))), next))
            next += 1
            s += Int(rng.next() % UInt64(p + d - s))
          }
          let shifted = model.map {
            $0.range.lowerBound >= p ? (($0.range.lowerBound + d)..<($0.range.upperBound + d), $0.value) : $0
          }
          let at = model.firstIndex { $0.range.lowerBound >= p } ?? model.count
          model = Array(shifted[..<at]) + fresh + Array(shifted[at...])
          index.apply(edit: p..<p, newCount: d, inserting: fresh.map { ($0.range, $0.value) }) { r, _ in
            r.lowerBound >= p ? (r.lowerBound + d)..<(r.upperBound + d) : r
          }
        default:
          // Replace the entries starting in lo..<hi by new ones.
          let lo = Int(rng.next() % UInt64(top))
          let hi = lo + Int(rng.next() % 300)
          var fresh: [Entry] = []
          var s = lo
          for _ in 0..<Int(rng.next() % 150) {
            s += Int(rng.next() % 3)
            if s >= hi { break }
            fresh.append((s..<(s + Int(rng.next() % 20)), next))
            next += 1
          }
          let at = model.firstIndex { $0.range.lowerBound >= lo } ?? model.count
          model.removeAll { $0.range.lowerBound >= lo && $0.range.lowerBound < hi }
          model.insert(contentsOf: fresh, at: at)
          index.replace(startingIn: lo..<hi, with: fresh.map { ($0.range, $0.value) })
        }
        index.invariantCheck()
        Self.check(index, model, &rng, seed: seed)
      }
    }
  }

  /// Entries inserted by an edit whose `transform` reorders the entries it is given are sorted
  /// from before the first entry past the edit, ties in that order: the inserted entry that ties
  /// with a moved one comes after it.
  @Test func insertedEntriesAmongReorderedOnes() {
    var index = IntervalIndex(sorted: [(10..<12, 0), (11..<13, 1), (30..<31, 3)], width: 100)
    index.apply(edit: 10..<14, newCount: 10, inserting: [(15..<16, 2)]) { _, value in
      value == 0 ? 20..<21 : 15..<17
    }
    index.invariantCheck()
    #expect(index.all.map(\.1) == [1, 2, 0, 3])
    #expect(index.all.map(\.0) == [15..<17, 15..<16, 20..<21, 36..<37])
  }

  @Test func nestedIntervalsStabbing() {
    // 1000 nested intervals [i, 2000 - i): every caret inside sees the right ones.
    let model = (0..<1000).map { ($0..<(2000 - $0), $0) }
    let index = IntervalIndex(sorted: model, width: 2000)
    for p in stride(from: 0, to: 2000, by: 37) {
      let expected = model.indices.filter { model[$0].0.contains(p) }
      #expect(index.indices(overlapping: p..<p) == expected)
    }
  }

  /// `firstEntry(where:)` (a binary search on values increasing along the entries), `remove(at:)`
  /// and `updateValues(in:)` against an array, with leaves left empty by removals.
  @Test func firstEntryRemoveAndUpdateValues() {
    var seeds = SeededRandom(seed: 0xF1E)
    for _ in 0..<40 {
      let seed = seeds.next()
      var rng = SeededRandom(seed: seed)
      var next = 0
      var model = Self.randomEntries(&rng, next: &next).enumerated().map { ($0.element.range, $0.offset * 3) }
      var index = IntervalIndex(sorted: model, width: (model.last?.0.lowerBound ?? 0) + 500)
      for round in 0..<60 {
        for _ in 0..<5 {
          let value = Int(rng.next() % UInt64(3 * model.count + 4)) - 2
          let expected = model.firstIndex { $0.1 >= value }
          let found = index.firstEntry { $0 >= value }
          guard found?.index == expected, found?.range == expected.map({ model[$0].0 }),
            found?.value == expected.map({ model[$0].1 })
          else {
            Issue.record("seed \(seed) round \(round): first value >= \(value) is \(String(describing: found))")
            return
          }
        }
        // Now and then a copy is held across the removal or update, which edit leaves in place.
        let held = rng.next() % 3 == 0 ? (index, model) : nil
        defer {
          if let (copy, old) = held {
            copy.invariantCheck()
            #expect(
              copy.all.map(\.0) == old.map(\.0) && copy.all.map(\.1) == old.map(\.1),
              "seed \(seed) round \(round): a copy held across a removal or update changed")
          }
        }
        if !model.isEmpty && rng.next() % 4 != 0 {
          // Removals in runs, emptying leaves.
          let k = Int(rng.next() % UInt64(model.count))
          for _ in 0..<Swift.min(Int(rng.next() % 40) + 1, model.count - k) {
            model.remove(at: k)
            index.remove(at: k)
          }
        } else if !model.isEmpty {
          let a = Int(rng.next() % UInt64(model.count))
          let b = a + Int(rng.next() % UInt64(model.count - a + 1))
          index.updateValues(in: a..<b) { i, value in value = 3 * model.count + i }
          for i in a..<b { model[i].1 = 3 * model.count + i }
          // Keep the values increasing for the search: renumber them all.
          index.updateValues(in: 0..<model.count) { i, value in value = 3 * i }
          for i in model.indices { model[i].1 = 3 * i }
        }
        index.invariantCheck()
        guard index.all.map(\.0) == model.map(\.0), index.all.map(\.1) == model.map(\.1) else {
          Issue.record("seed \(seed) round \(round): entries differ after a removal or update")
          return
        }
      }
    }
  }

  /// Leaves are cut evenly, at most three quarters full (room for an element inserted with its
  /// entries), also after a run of entries sharing a start (kept in one leaf) passes a cut.
  @Test func leavesAreCutEvenly() {
    func sizes(_ starts: [Int]) -> [Int] {
      let index = IntervalIndex(sorted: starts.enumerated().map { ($1..<($1 + 1), $0) }, width: (starts.last ?? 0) + 10)
      index.invariantCheck()
      var result: [Int] = []
      index.tree.forEach { _, _, leaf in
        result.append(leaf.count)
        return true
      }
      return result
    }
    let fill = IntervalIndex<Int>.leafFill
    #expect(fill == 24)
    for n in [1, 23, 24, 25, 47, 48, 49, 100, 1000] {
      let s = sizes(Array(0..<n))
      #expect(s.reduce(0, +) == n && s.max()! <= fill && s.max()! - s.min()! <= 1, "\(n) entries: leaves \(s)")
      #expect(s.count == (n + fill - 1) / fill, "\(n) entries: leaves \(s)")
    }
    // Entries 0...70 share a start: one leaf of 71, then the other 29 shared out evenly.
    let ties = sizes(Array(repeating: 5, count: 71) + Array(6..<35))
    #expect(ties == [71, 15, 14], "leaves \(ties)")
  }
}
