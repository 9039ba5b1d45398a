import Testing

@testable import TextRotor

/// Edits that delete bytes at the edges of an element's chunks (2 KB each: a deletion keeps the
/// chunk's storage and narrows the chunk, so the storage's bytes beside it are not the text's), at
/// the element's start and end, sometimes typing in their place, in elements of 4.5-10.5 KB of
/// words, line breaks of every kind, blank lines, links, Markdown markers, marks, emoji, CJK and
/// Thai; after each, every system rotor, the links or Markdown rotors, misspellings and eight
/// pattern rotors (literals, word assertions, anchors, whole words, runs) compared with a rebuild.
/// (Written by the twenty-ninth session's audit of what reads past a chunk; it found the long
/// element's windows, `windowsOfALongElementReadOnlyTheText`.)
@Suite struct ChunkEdgeEditTests {
  static let pieces = [
    "a", "b", "word", "the", " ", "  ", ".", "! ", "\n", "\r", "\r\n", "\n\n", " \n", "é", "e\u{301}", "😀", "1",
    "2.5", "日本語", "カナ", "Hello, world. ", "\t", "http://x.example/a", "www.c.example", "d@e.example", ",", "'",
    "ภาษาไทย", "teh", "- ", "# ", "[a](http://a.example)", "*", "_", "```", "> ", "    ",
  ]

  static func chunkEdges(_ document: RotorDocument<Int>) -> [Int] {
    var edges: [Int] = []
    document.table[0].text.tree.forEach { _, before, c in
      edges.append(before.utf8)
      edges.append(before.utf8 + c.count)
      return true
    }
    return edges
  }

  static func systemSnapshot(_ document: RotorDocument<Int>, _ kind: SystemRotor) throws -> [String] {
    let rotor = try document.rotor(kind)
    return rotor.indices.map { i in "\(rotor.location(at: i)!.utf8Range)" }
  }

  static func structureSnapshot(_ document: RotorDocument<Int>, _ kind: StructureRotor) throws -> [String] {
    let rotor = try document.rotor(kind)
    return rotor.indices.map { i in
      let l = rotor.location(at: i)!
      let info = rotor.structureInfo(at: i)
      return "\(l.utf8Range):\(rotor[i].label):\(info?.url ?? "")"
    }
  }

  static let patterns: [Pattern] = [
    .literal("the"), .regex(#"\bthe\b"#), .regex("^a"), .regex("a$"), .literal("the", wholeWord: true),
    .regex(#"[0-9]+"#), .regex(#"\w+"#), .literal("é", ignoreCase: true),
  ]

  static func snapshots(_ d: RotorDocument<Int>, format: DocumentFormat, spell: Bool) throws -> [String: [String]] {
    var all: [String: [String]] = [:]
    for kind in SystemRotor.allCases { all["system \(kind)"] = try systemSnapshot(d, kind) }
    if format == .text {
      all["links"] = try structureSnapshot(d, .links)
    } else {
      for kind in StructureRotor.allCases where kind != .misspelled {
        all["md \(kind)"] = try structureSnapshot(d, kind)
      }
    }
    if spell { all["misspelled"] = try structureSnapshot(d, .misspelled) }
    for name in d.rotorNames {
      let rotor = d.rotor(named: name)!
      all[name] = rotor.indices.map { "\(rotor.location(at: $0)!.utf8Range)" }
    }
    return all
  }

  static func prepare(_ d: RotorDocument<Int>, format: DocumentFormat, spell: Bool) throws {
    d.format = format
    for p in patterns { _ = try d.rotor(matching: p) }
    _ = try snapshots(d, format: format, spell: spell)
  }

  static func run(seed: UInt64, format: DocumentFormat, threshold: Int, spell: Bool, texts: Int, steps: Int) throws
    -> Bool
  {
    var rng = SeededRandom(seed: seed)
    for t in 0..<texts {
      var text = ""
      let target = 4500 + Int(rng.next() % 6000)
      while text.utf8.count < target { text += pieces[Int(rng.next() % UInt64(pieces.count))] }
      let d = try RotorDocument(elements: [TextElement(id: 0, text: text)])
      d.longLineThreshold = threshold
      try prepare(d, format: format, spell: spell)
      for step in 0..<steps {
        let current = d.elements[0].text
        let n = current.utf8.count
        guard n > 2 else { break }
        let edges = chunkEdges(d)
        // A deletion at a chunk edge (or the element's start or end), before or after it.
        var at: Int
        switch rng.next() % 4 {
        case 0: at = 0
        case 1: at = n - 1
        default: at = edges[Int(rng.next() % UInt64(edges.count))] - Int(rng.next() % 2)
        }
        at = Swift.max(0, Swift.min(n - 1, at))
        let utf8 = Array(current.utf8)
        while at > 0 && utf8[at] & 0xC0 == 0x80 { at -= 1 }
        var end = at + 1
        let extra = Int(rng.next() % 3)
        for _ in 0..<extra where end < n { end += 1 }
        while end < n && utf8[end] & 0xC0 == 0x80 { end += 1 }
        // Occasionally type instead (with the deletion before it).
        let typed = rng.next() % 4 == 0 ? pieces[Int(rng.next() % UInt64(pieces.count))] : ""
        let removed = String(decoding: utf8[at..<end], as: UTF8.self)
        try d.replace(utf8Range: at..<end, in: 0, with: typed)
        let got = try snapshots(d, format: format, spell: spell)
        let fresh = try RotorDocument(elements: d.elements)
        try prepare(fresh, format: format, spell: spell)
        let want = try snapshots(fresh, format: format, spell: spell)
        for key in want.keys.sorted() where got[key] != want[key] {
          let g = got[key] ?? []
          let w = want[key] ?? []
          let k = (0..<Swift.min(g.count, w.count)).first { g[$0] != w[$0] } ?? Swift.min(g.count, w.count)
          Issue.record(
            """
            seed \(seed) text \(t) step \(step) \(format) threshold \(threshold): \(key) differs after replacing \
            \(at)..<\(end) (\(removed.debugDescription)) with \(typed.debugDescription) in \(n) bytes; \
            first difference at entry \(k): got \(g.count > k ? g[k] : "none") want \(w.count > k ? w[k] : "none"); \
            counts \(g.count) vs \(w.count); edges \(edges.prefix(8))
            """)
          return false
        }
      }
    }
    return true
  }

  @Test(arguments: [16, 1 << 30]) func textFormat(threshold: Int) throws {
    for seed: UInt64 in 1...UInt64(TestScale.count(2)) {
      guard try Self.run(seed: seed, format: .text, threshold: threshold, spell: false, texts: 2, steps: 20) else {
        return
      }
    }
  }

  @Test(arguments: [16, 1 << 30]) func markdownFormat(threshold: Int) throws {
    for seed: UInt64 in 11...UInt64(10 + TestScale.count(2)) {
      guard try Self.run(seed: seed, format: .markdown, threshold: threshold, spell: false, texts: 2, steps: 20) else {
        return
      }
    }
  }

  @Test func spelling() throws {
    for seed: UInt64 in 21...UInt64(20 + TestScale.count(1)) {
      guard try Self.run(seed: seed, format: .text, threshold: 1 << 30, spell: true, texts: 2, steps: 15) else {
        return
      }
    }
  }
}
