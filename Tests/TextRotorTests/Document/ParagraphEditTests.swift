import Testing

@testable import TextRotor

/// Paragraphs split and joined by an edit (a blank line typed into a paragraph or deleted, a line
/// made blank or non-blank, line breaks pasted or removed) are updated from the lines around the
/// edit and the old paragraphs (`RotorDocument.paragraphUpdate`), not by segmenting the paragraphs
/// around it. After every random edit each system rotor must equal a rebuild's.
@Suite struct ParagraphEditTests {
  /// Lines of words, of spaces and tabs only (blank), empty, and longer than the 64 bytes the
  /// update reads on each side (a blank run that long leaves an edge line undecided: the fallback).
  static let lines = [
    "word", "Hello, world.", " ", "\t ", "", "x", "  indented", "tail  ", "日本語", String(repeating: " ", count: 70),
    String(repeating: "y", count: 90), String(repeating: " ", count: 66) + "z",
  ]
  static let breaks = ["\n", "\r\n", "\r"]
  static let typed = ["\n", "\n\n", "\r\n", "\r\n\r\n", "\n \n", "\n\t\n", " ", "\t", "x", "\r", "a\n\nb", "\n\n\n"]

  static func randomText(_ rng: inout SeededRandom, lines count: Int) -> String {
    var text = ""
    for i in 0..<count {
      if i > 0 { text += breaks[Int(rng.next() % UInt64(breaks.count))] }
      text += lines[Int(rng.next() % UInt64(lines.count))]
    }
    return text
  }

  @Test func randomEditsMatchRebuild() throws {
    var seeds = SeededRandom(seed: 0x9A_4A)
    var edits = 0
    var updates = 0
    var proseUpdates = 0
    for _ in 0..<TestScale.count(40) {
      let seed = seeds.next()
      var rng = SeededRandom(seed: seed)
      // One to three elements, some empty; edits often at their edges.
      let elements = (0..<(1 + Int(rng.next() % 3))).map { id in
        TextElement(id: id, text: rng.next() % 5 == 0 ? "" : Self.randomText(&rng, lines: 2 + Int(rng.next() % 30)))
      }
      let document = try RotorDocument(elements: elements)
      for kind in SystemRotor.allCases { _ = try document.rotor(kind) }
      let before = document.paragraphUpdates
      let proseBefore = document.proseLineBreakUpdates
      for step in 0..<30 {
        let id = Int(rng.next() % UInt64(elements.count))
        let current = try document.text(of: id)
        let bytes = Array(current.utf8)
        var a = DocumentEditModelTests.randomIndex(in: current, &rng)
        switch rng.next() % 5 {
        case 0: a = rng.next() % 2 == 0 ? current.endIndex : current.startIndex
        case 1:
          // Next to a line break, or at the start of a blank run.
          if let k = bytes.indices.filter({ bytes[$0] == 0x0A || bytes[$0] == 0x0D || bytes[$0] == 0x20 })
            .randomElement(using: &rng)
          {
            a = current.utf8.index(current.startIndex, offsetBy: k + Int(rng.next() % 2))
          }
        default: break
        }
        var b = a
        let inserted: String
        switch rng.next() % 4 {
        case 0:
          // Delete one to four scalars (a line break or the last non-blank byte of a line, often).
          let scalars = current.unicodeScalars
          b = scalars.index(a, offsetBy: 1 + Int(rng.next() % 4), limitedBy: scalars.endIndex) ?? scalars.endIndex
          inserted = rng.next() % 3 == 0 ? Self.typed[Int(rng.next() % UInt64(Self.typed.count))] : ""
        case 1:
          // A paste of a few lines over a selection.
          b = DocumentEditModelTests.randomIndex(in: current, &rng)
          if b < a { swap(&a, &b) }
          inserted = rng.next() % 2 == 0 ? "" : Self.randomText(&rng, lines: 1 + Int(rng.next() % 4))
        default:
          inserted = Self.typed[Int(rng.next() % UInt64(Self.typed.count))]
        }
        let u8 = current.utf8
        let description =
          "seed \(seed) step \(step): element \(id), replace \(u8.distance(from: u8.startIndex, to: a))..<\(u8.distance(from: u8.startIndex, to: b)) of \(current.debugDescription) with \(inserted.debugDescription)"
        try document.replace(a..<b, in: id, with: inserted)
        edits += 1
        guard try DocumentEditModelTests.matchesRebuild(document, description) else { return }
      }
      updates += document.paragraphUpdates - before
      proseUpdates += document.proseLineBreakUpdates - proseBefore
    }
    // Most edits change a line's blankness or its line breaks; those beside a blank run longer
    // than 64 bytes, or in an element emptied, fall back.
    #expect(updates * 3 > edits, "\(updates) paragraph updates in \(edits) edits")
    #expect(proseUpdates * 3 > edits, "\(proseUpdates) prose sentence updates in \(edits) edits")
  }

  /// Prose sentences across edits inside blank lines of several spaces and next to line breaks:
  /// a line made blank or non-blank changes how the line breaks on each side of it read (a space
  /// between two non-blank lines, else a break), also a few bytes away from the edit. Lines
  /// without full stops make sentences that run across many lines; with `boundaryReach` 0 no old
  /// boundary is looked for and the rule machine re-synchronizes over prose copies of the old and
  /// the new bytes, each read on its own.
  @Test(arguments: [0, 4096]) func proseSentencesAcrossLineBreaksMatchRebuild(boundaryReach: Int) throws {
    let lines = ["alpha beta", "gamma", "    ", "      ", "\t  ", "delta. Epsilon", "zeta eta theta iota", " "]
    let typed = ["x", "\n", "\n\n", " ", "\r\n", "y\n", "\nz"]
    var seeds = SeededRandom(seed: 0x9B_05 &+ UInt64(boundaryReach))
    var edits = 0
    var updates = 0
    for _ in 0..<TestScale.count(20) {
      let seed = seeds.next()
      var rng = SeededRandom(seed: seed)
      var text = ""
      for i in 0..<(20 + Int(rng.next() % 40)) {
        if i > 0 { text += rng.next() % 8 == 0 ? "\r\n" : "\n" }
        text += lines[Int(rng.next() % UInt64(lines.count))]
      }
      let document = try RotorDocument(elements: [TextElement(id: 0, text: text)])
      document.boundaryReach = boundaryReach
      document.runEdits = false
      for kind in SystemRotor.allCases { _ = try document.rotor(kind) }
      let before = document.proseLineBreakUpdates
      for step in 0..<30 {
        let bytes = Array(try document.text(of: 0).utf8)
        // Inside a run of spaces (a blank line, often), or next to a line break.
        let places = bytes.indices.filter { bytes[$0] == 0x20 || bytes[$0] == 0x0A }
        var a = places.randomElement(using: &rng) ?? 0
        if bytes.indices.contains(a) && bytes[a] == 0x0A { a += Int(rng.next() % 2) }
        if a > 0 && a < bytes.count && bytes[a - 1] == 0x0D && bytes[a] == 0x0A { a -= 1 }
        var b = a
        var inserted = typed[Int(rng.next() % UInt64(typed.count))]
        if rng.next() % 3 == 0 {
          // Delete the byte there (a space, or a line break joining two lines), maybe typing.
          b = Swift.min(bytes.count, a + (a < bytes.count && bytes[a] == 0x0D ? 2 : 1))
          if rng.next() % 2 == 0 { inserted = "" }
        }
        let description = "seed \(seed) step \(step): replace \(a)..<\(b) with \(inserted.debugDescription)"
        try document.replace(utf8Range: a..<b, in: 0, with: inserted)
        edits += 1
        guard try DocumentEditModelTests.matchesRebuild(document, description) else { return }
      }
      updates += document.proseLineBreakUpdates - before
    }
    #expect(updates * 2 > edits, "\(updates) prose sentence updates in \(edits) edits")
  }

  /// A blank line typed into a paragraph that is one long line, and deleted again: the paragraph
  /// is split and joined from the bytes around the edit every time, and equals a rebuild.
  @Test func blankLinesInALongParagraph() throws {
    var line = ""
    for w in 0..<3000 { line += w % 7 == 0 ? "Word \(w). " : "word\(w) " }
    var rng = SeededRandom(seed: 0x6B_1A)
    let document = try RotorDocument(elements: [TextElement(id: 0, text: line)])
    for kind in SystemRotor.allCases { _ = try document.rotor(kind) }
    let rounds = TestScale.count(40)
    for step in 0..<rounds {
      let length = try document.utf8Count(of: 0)
      var a = Int(rng.next() % UInt64(length + 1))
      while (try? document.position(in: 0, utf8Offset: a)) == nil { a -= 1 }
      let typed = ["\n\n", "\r\n\r\n", "\n \n", "\n\n\n"][Int(rng.next() % 4)]
      let description = "step \(step): \(typed.debugDescription) at \(a)"
      let before = document.paragraphUpdates
      try document.replace(utf8Range: a..<a, in: 0, with: typed)
      #expect(document.paragraphUpdates == before + 1, "\(description): paragraphs segmented again")
      guard try DocumentEditModelTests.matchesRebuild(document, description) else { return }
      // Deleted again, or its middle line made non-blank (the paragraphs joined).
      if rng.next() % 2 == 0 {
        try document.replace(utf8Range: a..<(a + typed.utf8.count), in: 0, with: "")
      } else {
        let middle = Array(typed.utf8).firstIndex(of: 0x0A)! + 1
        try document.replace(utf8Range: (a + middle)..<(a + middle), in: 0, with: "x")
      }
      #expect(document.paragraphUpdates == before + 2, "\(description): paragraphs segmented again when joined")
      guard try DocumentEditModelTests.matchesRebuild(document, description + ", joined") else { return }
    }
  }

  /// Prose sentences of indented lines (code, tables) with trailing blanks: the copy read around an
  /// edit often starts or ends inside a line's blanks, in its margins, where how a line break reads matters to
  /// no one; the update stays local (the copy was taken as undecided and the paragraph
  /// re-segmented: 394 sentences for a keystroke in perluniprops' table). Every rotor equals a
  /// rebuild, and nearly every edit is local.
  @Test(arguments: [0, 4096]) func indentedProseStaysLocal(boundaryReach: Int) throws {
    let words = ["alpha", "beta.", "Gamma", "(delta)", "e.g.", "U+0041..0042,", "x"]
    var rng = SeededRandom(seed: 0x1D_E7 &+ UInt64(boundaryReach))
    var text = ""
    for i in 0..<400 {
      if i > 0 { text += rng.next() % 10 == 0 ? "\r\n" : "\n" }
      if rng.next() % 25 == 0 { continue }  // an empty line now and then
      text += String(repeating: " ", count: Int(rng.next() % 41)) + (rng.next() % 7 == 0 ? "\t" : "")
      text += (0..<(1 + Int(rng.next() % 6))).map { _ in words[Int(rng.next() % UInt64(words.count))] }.joined(
        separator: " ")
      // Trailing blanks, as an editor leaves them.
      text += String(repeating: " ", count: Int(rng.next() % 2 == 0 ? rng.next() % 41 : 0))
    }
    let document = try RotorDocument(elements: [TextElement(id: 0, text: text)])
    document.boundaryReach = boundaryReach
    document.runEdits = false
    for kind in SystemRotor.allCases { _ = try document.rotor(kind) }
    let before = document.proseLocalUpdates + document.proseLineBreakUpdates
    var edits = 0
    for step in 0..<TestScale.count(60) {
      let length = try document.utf8Count(of: 0)
      var a = Int(rng.next() % UInt64(length + 1))
      while (try? document.position(in: 0, utf8Offset: a)) == nil { a -= 1 }
      let typed = ["x", " ", "y.", "Z"][Int(rng.next() % 4)]
      let description = "step \(step): \(typed.debugDescription) at \(a)"
      try document.replace(utf8Range: a..<a, in: 0, with: typed)
      edits += 1
      if rng.next() % 2 == 0 {
        try document.replace(utf8Range: a..<(a + typed.utf8.count), in: 0, with: "")
        edits += 1
      }
      guard try DocumentEditModelTests.matchesRebuild(document, description) else { return }
    }
    let local = document.proseLocalUpdates + document.proseLineBreakUpdates - before
    #expect(local * 10 >= edits * 9, "\(local) local prose sentence updates in \(edits) edits")
  }
}
