import Testing

@testable import TextRotor

/// Anchors (``AnchorIndex``) against a plain model: a dictionary of (element, offset) updated by
/// the documented rules, over thousands of random text edits, element inserts, removals and moves,
/// anchor creations (both stickinesses, often at equal positions, in bursts that use up the order
/// keys) and removals. Every anchor is compared after every step. A failure names its seed
/// (`TEXTROTOR_SEED=<seed>` replays one).
@Suite struct AnchorIndexTests {
  struct ModelAnchor {
    var element: Int
    var offset: Int
    var stickiness: AnchorStickiness
  }

  static func randomText(_ rng: inout SeededRandom, upTo n: Int) -> String {
    let letters = Array("abcdefgh ij.\n")
    return String((0..<Int(rng.next() % UInt64(n + 1))).map { _ in letters[Int(rng.next() % UInt64(letters.count))] })
  }

  /// One random run; returns false (after recording an issue naming the seed) on the first mismatch.
  @discardableResult
  static func run(seed: UInt64, steps: Int, keySpacing: Int64?) throws -> Bool {
    var rng = SeededRandom(seed: seed)
    var nextElement = 0
    var elements: [TextElement<Int>] = []
    for _ in 0..<4 {
      elements.append(TextElement(id: nextElement, text: randomText(&rng, upTo: 30)))
      nextElement += 1
    }
    let d = try RotorDocument(elements: elements)
    if let keySpacing { d.anchors.keySpacing = keySpacing }
    var model: [TextAnchor: ModelAnchor] = [:]
    var removed: [TextAnchor] = []
    var live: [TextAnchor] = []

    func pick(_ n: Int) -> Int { Int(rng.next() % UInt64(n)) }
    func randomElement() -> Int { d.elementID(at: pick(d.elementCount))! }
    func length(_ e: Int) throws -> Int { try d.utf8Count(of: e) }
    /// An offset in element `e`: often an anchor's, else any.
    func offset(in e: Int) throws -> Int {
      let here = live.filter { model[$0]!.element == e }
      if !here.isEmpty && pick(2) == 0 { return model[here[pick(here.count)]]!.offset }
      return pick(try length(e) + 1)
    }

    for step in 0..<steps {
      var what = ""
      switch pick(100) {
      case 0..<22:
        // A new anchor; sometimes a burst at one position (runs out of keys between two neighbours).
        let e = randomElement()
        let o = try offset(in: e)
        let burst = pick(12) == 0 ? 20 + pick(50) : 1
        what = "anchor x\(burst) at \(e):\(o)"
        for _ in 0..<burst where live.count < 400 {
          let s: AnchorStickiness = pick(2) == 0 ? .staysBefore : .movesAfter
          let anchor = try d.anchor(at: try d.position(in: e, utf8Offset: o), stickiness: s)
          model[anchor] = ModelAnchor(element: e, offset: o, stickiness: s)
          live.append(anchor)
        }
      case 22..<55:
        // A text edit: an insert, a delete or a replace, often starting or ending at an anchor.
        let e = randomElement()
        var a = try offset(in: e)
        var b = pick(3) == 0 ? a : try offset(in: e)
        if a > b { swap(&a, &b) }
        let text = pick(4) == 0 ? "" : randomText(&rng, upTo: 6)
        let n = text.utf8.count
        what = "replace \(a)..<\(b) in \(e) with \(n) bytes"
        try d.replace(utf8Range: a..<b, in: e, with: text)
        for anchor in live where model[anchor]!.element == e {
          let o = model[anchor]!.offset
          let moved: Int
          if o < a {
            moved = o
          } else if o == a {
            moved = model[anchor]!.stickiness == .staysBefore ? a : a + n
          } else if o < b {
            moved = a + n
          } else {
            moved = o + n - (b - a)
          }
          model[anchor]!.offset = moved
        }
      case 55..<65:
        // Stop tracking an anchor (sometimes one already gone).
        if !live.isEmpty && pick(5) != 0 {
          let k = pick(live.count)
          let anchor = live.remove(at: k)
          what = "remove anchor \(anchor.id)"
          d.removeAnchor(anchor)
          model[anchor] = nil
          removed.append(anchor)
        } else if !removed.isEmpty {
          what = "remove a removed anchor"
          d.removeAnchor(removed[pick(removed.count)])
        }
      case 65..<75:
        let at = pick(d.elementCount + 1)
        what = "insert element \(nextElement) at \(at)"
        try d.insert(TextElement(id: nextElement, text: randomText(&rng, upTo: 20)), at: at)
        nextElement += 1
      case 75..<82:
        guard d.elementCount > 1 else { continue }
        let e = randomElement()
        what = "remove element \(e)"
        try d.remove(e)
        for anchor in live where model[anchor]!.element == e {
          model[anchor] = nil
          removed.append(anchor)
        }
        live.removeAll { model[$0] == nil }
      default:
        let e = randomElement()
        let to = pick(d.elementCount)
        what = "move element \(e) to \(to)"
        try d.move(e, to: to)
      }
      d.anchors.invariantCheck()
      for anchor in live {
        let expected = model[anchor]!
        let found = d.position(of: anchor)
        guard let found, found.element == expected.element,
          try d.utf8Offset(of: found) == expected.offset
        else {
          Issue.record(
            "seed \(seed) step \(step) (\(what)): anchor \(anchor.id) at \(String(describing: found)), expected \(expected)"
          )
          return false
        }
      }
      for anchor in removed where d.position(of: anchor) != nil {
        Issue.record("seed \(seed) step \(step) (\(what)): removed anchor \(anchor.id) still has a position")
        return false
      }
      if d.anchors.count != live.count {
        Issue.record("seed \(seed) step \(step) (\(what)): \(d.anchors.count) anchors tracked, \(live.count) expected")
        return false
      }
    }
    #expect(d.anchors.relabels > 0, "seed \(seed): the bursts never relabeled keys")
    return true
  }

  @Test(arguments: [(UInt64(0xA1), Int64?.none), (0xA2, nil), (0xA3, 64), (0xA4, 4)])
  func randomEditsAgainstAModel(seed: UInt64, keySpacing: Int64?) throws {
    try Self.run(seed: SeededRandom.seedFromEnvironment(default: seed), steps: 1500, keySpacing: keySpacing)
  }

  @Test func equalPositionsKeepTheirOrderAndStickiness() throws {
    let d = try RotorDocument(elements: [TextElement(id: 0, text: "abcdef"), TextElement(id: 1, text: "xyz")])
    d.anchors.keySpacing = 2
    let at = try d.position(in: 0, utf8Offset: 2)
    // Anchors after them, so that the keys between run out.
    let later = try d.anchor(at: try d.position(in: 0, utf8Offset: 4), stickiness: .staysBefore)
    let laterMoving = try d.anchor(at: try d.position(in: 0, utf8Offset: 4), stickiness: .movesAfter)
    var stays: [TextAnchor] = []
    var moves: [TextAnchor] = []
    for k in 0..<200 {
      if k % 3 == 0 {
        moves.append(try d.anchor(at: at, stickiness: .movesAfter))
      } else {
        stays.append(try d.anchor(at: at, stickiness: .staysBefore))
      }
    }
    d.anchors.invariantCheck()
    #expect(d.anchors.relabels > 0)
    // An anchor at 3 (inside the replaced range) and those at 2 meet at the end of the new text.
    let inside = try d.anchor(at: try d.position(in: 0, utf8Offset: 3), stickiness: .staysBefore)
    try d.replace(utf8Range: 2..<4, in: 0, with: "XYZ")
    #expect(try stays.allSatisfy { try d.utf8Offset(of: d.position(of: $0)!) == 2 })
    #expect(try moves.allSatisfy { try d.utf8Offset(of: d.position(of: $0)!) == 5 })
    #expect(try d.utf8Offset(of: d.position(of: inside)!) == 5)
    // Typed at 5: the moving anchors go after it, the one that stays does not.
    try d.replace(utf8Range: 5..<5, in: 0, with: "++")
    #expect(try moves.allSatisfy { try d.utf8Offset(of: d.position(of: $0)!) == 7 })
    #expect(try d.utf8Offset(of: d.position(of: inside)!) == 5)
    try d.move(0, to: 1)
    #expect(moves.allSatisfy { d.position(of: $0)?.element == 0 })
    #expect(try moves.allSatisfy { try d.utf8Offset(of: d.position(of: $0)!) == 7 })
    d.anchors.invariantCheck()
    for anchor in stays { d.removeAnchor(anchor) }
    #expect(try d.utf8Offset(of: d.position(of: later)!) == 5 && d.utf8Offset(of: d.position(of: laterMoving)!) == 7)
    #expect(d.anchors.count == moves.count + 3)
    #expect(stays.allSatisfy { d.position(of: $0) == nil })
    try d.remove(0)
    #expect(d.anchors.count == 0)
    #expect(moves.allSatisfy { d.position(of: $0) == nil } && d.position(of: inside) == nil)
    #expect(d.position(of: later) == nil)
    d.anchors.invariantCheck()
  }
}
