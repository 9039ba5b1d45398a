import Testing

@testable import TextRotor

/// The text rope against a plain `String` over random edits: its bytes, UTF-16 and scalar counts,
/// lines (LF, CR, CR LF, also split across chunks) and every conversion, computed plainly.
@Suite struct TextRopeModelTests {
  static let pieces = [
    "a", "word ", "\n", "\r", "\r\n", "é", "日本", "😀", "e\u{301}", " ", "\n\n", String(repeating: "x", count: 700),
    String(repeating: "ü", count: 300),
  ]

  /// Line starts of `bytes` computed plainly: after every LF, and after every CR not followed by LF.
  static func lineStarts(_ bytes: [UInt8]) -> [Int] {
    var starts = [0]
    for (i, b) in bytes.enumerated() {
      if b == 0x0A || (b == 0x0D && (i + 1 == bytes.count || bytes[i + 1] != 0x0A)) { starts.append(i + 1) }
    }
    return starts
  }

  static func check(_ rope: TextRope, _ model: String, _ rng: inout SeededRandom, _ seed: UInt64) {
    rope.invariantCheck()
    let bytes = Array(model.utf8)
    #expect(rope.bytes(0..<rope.utf8Count) == bytes, "seed \(seed)")
    #expect(rope.utf16Count == model.utf16.count, "seed \(seed)")
    #expect(rope.summary.scalars == model.unicodeScalars.count, "seed \(seed)")
    let starts = lineStarts(bytes)
    #expect(rope.lineCount == starts.count, "seed \(seed)")
    for (l, s) in starts.enumerated() where l < 4 || rng.next() % 8 == 0 {
      #expect(rope.lineStart(l) == s, "seed \(seed) line \(l)")
    }
    #expect(rope.lineStart(starts.count) == nil, "seed \(seed)")
    for _ in 0..<6 {
      let scalars = model.unicodeScalars
      let k = Int(rng.next() % UInt64(scalars.count + 1))
      let index = scalars.index(scalars.startIndex, offsetBy: k)
      let o = model.utf8.distance(from: model.utf8.startIndex, to: index)
      let u = model.utf16.distance(from: model.utf16.startIndex, to: index)
      #expect(rope.utf16Offset(ofUTF8: o) == u, "seed \(seed)")
      #expect(rope.scalarOffset(ofUTF8: o) == k, "seed \(seed)")
      #expect(rope.utf8Offset(advancing: u, .utf16) == o, "seed \(seed)")
      #expect(rope.utf8Offset(advancing: k, .scalars) == o, "seed \(seed)")
      let line = starts.lastIndex { $0 <= o }!
      #expect(rope.line(ofUTF8: o) == line, "seed \(seed) offset \(o)")
      #expect(rope.isScalarBoundary(o), "seed \(seed)")
      // The memchr line cuts agree with the line sums.
      #expect(rope.lineStart(holdingPosition: o) == starts[line], "seed \(seed) offset \(o)")
      #expect(
        rope.nextLineStart(afterPosition: o) == (line + 1 < starts.count ? starts[line + 1] : bytes.count),
        "seed \(seed) offset \(o)")
    }
  }

  @Test func randomEditsMatchAString() {
    var seeds = SeededRandom(seed: 0x7E47)
    for _ in 0..<TestScale.count(60) {
      let seed = seeds.next()
      var rng = SeededRandom(seed: seed)
      var model = ""
      for _ in 0..<Int(rng.next() % 20) { model += Self.pieces[Int(rng.next() % UInt64(Self.pieces.count))] }
      // Half start as slices of one storage (as a file does), half as typed text.
      var rope: TextRope
      if rng.next() % 2 == 0 {
        let storage = ByteStorage(model)
        rope = TextRope(storage, 0..<storage.count)
      } else {
        rope = TextRope(model)
      }
      Self.check(rope, model, &rng, seed)
      for _ in 0..<60 {
        let scalars = model.unicodeScalars
        let a = Int(rng.next() % UInt64(scalars.count + 1))
        let b = a + Int(rng.next() % UInt64(Swift.min(scalars.count - a, 40) + 1))
        let ia = scalars.index(scalars.startIndex, offsetBy: a)
        let ib = scalars.index(ia, offsetBy: b - a)
        var new = ""
        for _ in 0..<Int(rng.next() % 3) { new += Self.pieces[Int(rng.next() % UInt64(Self.pieces.count))] }
        let oa = model.utf8.distance(from: model.utf8.startIndex, to: ia)
        let ob = model.utf8.distance(from: model.utf8.startIndex, to: ib)
        let snapshot = rope
        let before = model
        model.unicodeScalars.replaceSubrange(ia..<ib, with: new.unicodeScalars)
        rope.replace(oa..<ob, with: Array(new.utf8))
        Self.check(rope, model, &rng, seed)
        #expect(snapshot.string == before, "seed \(seed): a copy changed with the edit")
      }
    }
  }

  /// Cuts found in a window of bytes (``TextWindow``) are the rope's own, wherever the window
  /// answers; it throws (and the rope is asked) only when a cut lies beyond it.
  @Test func windowCutsMatchTheRope() {
    let pieces = ["a", "b c", " ", "\t", "\n", "\r", "\r\n", "\n\n", " \n", "é", "日本"]
    var seeds = SeededRandom(seed: 0xC075)
    var answered = 0
    var thrown = 0
    for _ in 0..<300 {
      let seed = seeds.next()
      var rng = SeededRandom(seed: seed)
      var model = ""
      for _ in 0..<Int(rng.next() % 60) { model += pieces[Int(rng.next() % UInt64(pieces.count))] }
      let rope = TextRope(model)
      let n = rope.utf8Count
      let a = Int(rng.next() % UInt64(n + 1))
      let b = a + Int(rng.next() % UInt64(n - a + 1))
      let window =
        rng.next() % 4 == 0
        ? rope.chunkWindow(holding: a..<b)! : rope.window(around: a..<b, margin: Int(rng.next() % 12))
      #expect(window.storage.copyBytes(window.range) == rope.bytes(window.span), "seed \(seed)")
      for p in 0...n {
        for rotor in [nil, SystemRotor.paragraphs, .proseSentences, .words] {
          if let cut = try? window.cut(before: p, rotor: rotor) {
            answered += 1
            #expect(cut == rope.cut(before: p, rotor: rotor), "seed \(seed) before \(p) \(String(describing: rotor))")
          } else {
            thrown += 1
          }
          if let cut = try? window.cut(after: p, rotor: rotor) {
            answered += 1
            #expect(cut == rope.cut(after: p, rotor: rotor), "seed \(seed) after \(p) \(String(describing: rotor))")
          } else {
            thrown += 1
          }
        }
      }
    }
    // Both outcomes occur, so both paths are exercised.
    #expect(answered > 1000 && thrown > 1000, "answered \(answered), thrown \(thrown)")
  }
}
