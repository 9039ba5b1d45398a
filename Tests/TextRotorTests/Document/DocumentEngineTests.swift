import Foundation
import Testing

@testable import TextRotor

/// The engine's promises from issue 8: invalid arguments never corrupt state, whole-element entries
/// follow their element, positions convert every way, edits report what changed, anchors move,
/// snapshots stay intact.
@Suite struct DocumentEngineTests {
  @Test func indexInsideAUTF8SequenceIsRoundedDownAndLabelsStayValid() throws {
    let d = try RotorDocument(elements: [TextElement(id: 0, text: "日本\nword here"), TextElement(id: 1, text: "next")])
    _ = try d.rotor(.words)
    // A client's UTF-8 view index into the middle of 日 (offset 1) and of 本 (offset 4).
    let text = try d.text(of: 0)
    let i1 = text.utf8.index(text.utf8.startIndex, offsetBy: 1)
    let i4 = text.utf8.index(text.utf8.startIndex, offsetBy: 4)
    try d.replace(i1..<i4, in: 0, with: "Y")
    // Swift rounds both down to scalar starts: 0..<3 replaced, as String.replaceSubrange does.
    var expected = text
    expected.replaceSubrange(i1..<i4, with: "Y")
    #expect(try d.text(of: 0) == expected)
    let labels = try d.rotor(.words).map(\.label)
    let rebuilt = try RotorDocument(elements: [TextElement(id: 0, text: expected), TextElement(id: 1, text: "next")])
    #expect(labels == (try rebuilt.rotor(.words).map(\.label)))
  }

  @Test func invalidArgumentsThrowAndChangeNothing() throws {
    let d = try RotorDocument(elements: [TextElement(id: 0, text: "日本"), TextElement(id: 1, text: "x")])
    #expect(throws: DocumentError.unknownElement("7")) { try d.position(in: 7, utf8Offset: 0) }
    #expect(throws: DocumentError.insideUTF8Sequence(1)) { try d.position(in: 0, utf8Offset: 1) }
    #expect(throws: DocumentError.offsetOutOfRange(9, length: 6)) { try d.position(in: 0, utf8Offset: 9) }
    #expect(throws: DocumentError.duplicateElement("1")) { try d.insert(TextElement(id: 1, text: "y"), at: 0) }
    #expect(throws: DocumentError.elementIndexOutOfRange(5, count: 3)) {
      try d.insert(TextElement(id: 2, text: "y"), at: 5)
    }
    #expect(throws: DocumentError.duplicateElement("0")) {
      try RotorDocument(elements: [TextElement(id: 0, text: "a"), TextElement(id: 0, text: "b")])
    }
    // A stale index past the end of a shortened text.
    let stale = try d.position(in: 0, utf8Offset: 6)
    try d.replace(utf8Range: 0..<6, in: 0, with: "a")
    #expect(throws: DocumentError.offsetOutOfRange(6, length: 1)) { try d.utf16Offset(of: stale) }
    #expect(try d.text(of: 0) == "a")
    #expect(d.elementCount == 2)
  }

  @Test func wholeElementEntryFollowsItsText() throws {
    let d = try RotorDocument(elements: [TextElement(id: 0, text: "first"), TextElement(id: 1, text: "")])
    d.addRotor("headings") { RotorEntry("heading", id: 1) }
    try d.insert("Now typed", at: try d.text(of: 1).startIndex, in: 1)
    let hits = d.rotor(named: "headings")!.entries(containing: try d.position(in: 1, utf8Offset: 4))
    #expect(hits.map(\.label) == ["heading"])
    #expect(hits.first?.textRange == nil)
  }

  @Test func positionsConvertEveryWay() throws {
    let text = "a😀\r\nb日\rc\n\nxé"
    let d = try RotorDocument(elements: [TextElement(id: "p", text: text)])
    for (k, index) in text.unicodeScalars.indices.enumerated() {
      let o = text.utf8.distance(from: text.startIndex, to: index)
      let u = text.utf16.distance(from: text.startIndex, to: index)
      let p = try d.position(in: "p", utf8Offset: o)
      #expect(try d.utf16Offset(of: p) == u)
      #expect(try d.utf8Offset(of: try d.position(in: "p", utf16Offset: u)) == o)
      // Line and character, against a plain computation.
      let before = text.utf8.prefix(o)
      var line = 0
      var lineStart = 0
      var previous: UInt8 = 0
      for (i, byte) in before.enumerated() {
        if byte == 0x0A || (byte == 0x0D) {
          if !(byte == 0x0A && previous == 0x0D) { line += 1 }
          lineStart = i + 1
        }
        previous = byte
      }
      if o > 0 && before.last == 0x0D && o < text.utf8.count && Array(text.utf8)[o] == 0x0A { continue }
      let lineIndex = text.utf8.index(text.startIndex, offsetBy: lineStart)
      let character = text.utf16.distance(from: lineIndex, to: index)
      let location = try d.location(of: p, encoding: .utf16)
      #expect(location.line == line + 1 && location.column == character + 1, "scalar \(k)")
      #expect(try d.utf8Offset(of: try d.position(in: "p", line: line, character: character)) == o, "scalar \(k)")
    }
    // Past the line's end: clamped, as LSP says.
    #expect(try d.utf8Offset(of: try d.position(in: "p", line: 0, character: 99)) == 5)
    #expect(throws: DocumentError.self) { try d.position(in: "p", line: 9, character: 0) }
  }

  @Test func editsReportWhatChangedAndBumpTheGeneration() throws {
    let d = try RotorDocument(elements: [TextElement(id: 0, text: "one two three")])
    let words = try d.rotor(.words)
    let g = d.generation
    let change = try d.replace(utf8Range: 4..<7, in: 0, with: "2 2")
    #expect(d.generation == g + 1 && change.generation == d.generation)
    #expect(change.editedRange == 4..<7 && change.insertedCount == 3)
    let words2 = try d.rotor(.words)
    let c = change.rotors["words"]!
    // Unchanged entries before the removed run, and the added run equals the new rotor's.
    #expect(
      Array(words.prefix(c.removed.lowerBound).map(\.label)) == Array(words2.prefix(c.added.lowerBound).map(\.label)))
    #expect(words2.count - c.added.count == words.count - c.removed.count)
    #expect(words.map(\.label).joined() == "one two three")
    #expect(words2.map(\.label).joined() == "one 2 2 three")
  }

  /// `remove` and `move` return the element and the announcement; what they changed is in
  /// `lastChange`, as `replace` and `insert` return it.
  @Test func removesAndMovesReportWhatChanged() throws {
    let d = try RotorDocument(elements: [
      TextElement(id: 0, text: "a b"), TextElement(id: 1, text: "c"), TextElement(id: 2, text: "d e"),
    ])
    #expect(try d.rotor(.words).map(\.label) == ["a", " ", "b", "c", "d", " ", "e"])
    d.addRotor("heads") { RotorEntry("first", id: 0) }
    _ = try d.move(0, to: 2)
    #expect(try d.rotor(.words).map(\.label) == ["c", "d", " ", "e", "a", " ", "b"])
    var change = try #require(d.lastChange)
    #expect(change.element == 0 && change.generation == d.generation)
    #expect(change.rotors["words"] == RotorChange(removed: 0..<3, added: 4..<7))
    #expect(change.rotors["heads"] == RotorChange(removed: 0..<1, added: 0..<1))
    let generation = d.generation
    _ = try d.remove(1)
    change = try #require(d.lastChange)
    #expect(change.element == 1 && change.generation == generation + 1 && change.editedRange == 0..<1)
    #expect(change.rotors["words"] == RotorChange(removed: 0..<1, added: 0..<0))
    #expect(change.rotors["heads"] == RotorChange(removed: 0..<0, added: 0..<0))
    let typed = try d.insert("x ", at: d.position(in: 2, utf8Offset: 0).index, in: 2)
    #expect(d.lastChange?.generation == typed.generation && d.lastChange?.rotors == typed.rotors)
  }

  @Test func patternRotorsLiveSideBySide() throws {
    let d = try RotorDocument(elements: [TextElement(id: 0, text: "alpha beta alpha")])
    let a = try d.rotor(matching: .literal("alpha"))
    let b = try d.rotor(matching: .literal("beta"))
    #expect(d.rotorNames.count == 2)
    #expect(a.map(\.label) == ["alpha", "alpha"] && b.map(\.label) == ["beta"])
    try d.replace(utf8Range: 0..<0, in: 0, with: "beta ")
    #expect(d.rotor(named: d.rotorNames[0])!.count == 2)
    #expect(d.rotor(named: d.rotorNames[1])!.count == 2)
  }

  @Test func anchorsMoveWithTheText() throws {
    let d = try RotorDocument(elements: [TextElement(id: 0, text: "abc"), TextElement(id: 1, text: "xyz")])
    let before = try d.anchor(at: try d.position(in: 0, utf8Offset: 1), stickiness: .staysBefore)
    let after = try d.anchor(at: try d.position(in: 0, utf8Offset: 1), stickiness: .movesAfter)
    let later = try d.anchor(at: try d.position(in: 1, utf8Offset: 2))
    try d.replace(utf8Range: 1..<1, in: 0, with: "NEW")
    #expect(try d.utf8Offset(of: d.position(of: before)!) == 1)
    #expect(try d.utf8Offset(of: d.position(of: after)!) == 4)
    try d.move(1, to: 0)
    #expect(d.position(of: later)?.element == 1)
    #expect(try d.utf8Offset(of: d.position(of: later)!) == 2)
    try d.remove(0)
    #expect(d.position(of: before) == nil)
  }

  @Test func moveAnnouncementIsShortAndTrimmed() throws {
    let long = "   " + String(repeating: "Spanish words ", count: 10) + "\nsecond line"
    let d = try RotorDocument(elements: [TextElement(id: 0, text: long), TextElement(id: 1, text: "English")])
    let said = try d.move(1, to: 1)
    #expect(said.hasPrefix("Moved below Spanish words"))
    #expect(said.count < 60 && said.hasSuffix("…"))
  }

  @Test func snapshotsStayIntactAndAreReadableOnOtherTasks() async throws {
    let d = try RotorDocument(elements: (0..<200).map { TextElement(id: $0, text: "Element \($0). Words here.") })
    let words = try d.rotor(.words)
    let snapshot = d.snapshot()
    let labels = words.map(\.label)
    async let read: [String] = Task.detached { words.map(\.label) }.value
    for i in 0..<200 { try d.replace(utf8Range: 0..<7, in: i, with: "E") }
    #expect(await read == labels)
    #expect(words.map(\.label) == labels)
    #expect(snapshot.text(of: 3) == "Element 3. Words here.")
    #expect(try d.text(of: 3) == "E 3. Words here.")
    #expect(snapshot.generation < d.generation)
  }

  /// The id table is shared by a document and its snapshots (slots are append-only, keys a hint):
  /// a snapshot resolving ids and texts on another task while the document inserts, removes and
  /// moves elements (registering and dropping ids in that table) sees its own elements throughout.
  @Test func snapshotsResolveIdsWhileElementsChange() async throws {
    let d = try RotorDocument(elements: (0..<300).map { TextElement(id: $0, text: "Element \($0).") })
    _ = try d.rotor(.words)
    let snapshot = d.snapshot()
    let reader = Task.detached { () -> Int in
      var seen = 0
      for round in 0..<40 {
        for i in 0..<snapshot.elementCount {
          guard let id = snapshot.elementID(at: i), snapshot.text(of: id) == "Element \(id)." else { return -1 }
          seen += round == 0 ? 1 : 0
        }
      }
      return seen
    }
    var next = 300
    for step in 0..<600 {
      switch step % 3 {
      case 0:
        try d.insert(TextElement(id: next, text: "New \(next)."), at: step % (d.elementCount + 1))
        next += 1
      case 1: try d.remove(at: (step * 7) % d.elementCount)
      default: try d.move(d.elementID(at: (step * 13) % d.elementCount)!, to: (step * 5) % d.elementCount)
      }
    }
    #expect(await reader.value == 300)
    #expect(snapshot.elementCount == 300 && snapshot.text(of: 299) == "Element 299.")
  }

  @Test func manyElementsInsertRemoveMoveAndLookUp() throws {
    var rng = SeededRandom(seed: 0xE1E)
    var model = Array(0..<2000)
    let d = try RotorDocument(elements: model.map { TextElement(id: $0, text: "e\($0)") })
    var next = 2000
    for step in 0..<3000 {
      switch rng.next() % 3 {
      case 0:
        // Insert at one spot repeatedly now and then, to exhaust the order keys there.
        let at = step % 5 == 0 ? 1000 % (model.count + 1) : Int(rng.next() % UInt64(model.count + 1))
        try d.insert(TextElement(id: next, text: "e\(next)"), at: at)
        model.insert(next, at: at)
        next += 1
      case 1 where model.count > 1:
        let at = Int(rng.next() % UInt64(model.count))
        try d.remove(at: at)
        model.remove(at: at)
      default:
        let from = Int(rng.next() % UInt64(model.count))
        let to = Int(rng.next() % UInt64(model.count))
        let id = model.remove(at: from)
        model.insert(id, at: to)
        try d.move(id, to: to)
      }
      if step % 100 == 0 {
        d.table.invariantCheck()
        #expect(d.elementIDs == model, "seed \(rng.seed) step \(step)")
      }
      let probe = model[Int(rng.next() % UInt64(model.count))]
      #expect(d.index(of: probe) == model.firstIndex(of: probe), "seed \(rng.seed) step \(step)")
    }
  }
  /// `shortName` walks at most `limit` characters of the first non-blank line; it equals the plain
  /// definition (trim the whole line, then cut at the last space in the second half of the limit)
  /// on random texts of spaces, line ends, letters, combining marks and wide characters, and on
  /// ASCII texts (the byte path).
  @Test func shortNameEqualsThePlainDefinition() {
    func plain(_ text: String, limit: Int) -> String {
      let lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
      let line = lines.first { $0.contains { !$0.isWhitespace } } ?? ""
      let chars = Array(line.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
      if chars.count <= limit { return String(chars) }
      let cut = chars[..<limit]
      if let space = cut.lastIndex(where: \.isWhitespace), space > limit / 2 { return String(cut[..<space]) + "…" }
      return String(cut) + "…"
    }
    let seed = SeededRandom.seedFromEnvironment()
    var random = SeededRandom(seed: seed)
    let mixed: [String] = ["a", "b", " ", " ", "\t", "\n", "\r\n", "\r", "e\u{301}", "日", "\u{3000}", "👍🏽", "x"]
    // ASCII alone takes the byte path (`asciiShortName`), vertical tab and form feed included.
    let ascii: [String] = ["a", "b", " ", " ", "\t", "\n", "\r\n", "\r", "\u{0B}", "\u{0C}", "\u{1F}", "x", "."]
    for round in 0..<4000 {
      let alphabet = round % 2 == 0 ? mixed : ascii
      let limit = Int.random(in: 1...12, using: &random)
      let text = (0..<Int.random(in: 0...40, using: &random)).map { _ in alphabet.randomElement(using: &random)! }
        .joined()
      let got = RotorDocument<Int>.shortName(text, limit: limit)
      let want = plain(text, limit: limit)
      #expect(got == want, "seed \(seed): \(text.debugDescription) limit \(limit)")
      if got != want { return }
      if alphabet == ascii { #expect(RotorDocument<Int>.asciiShortName(text, limit: limit) != nil) }
      // A limit of 0 or less keeps nothing but the ellipsis, on either path.
      #expect(RotorDocument<Int>.shortName(text, limit: round % 3 - 2) == (want.isEmpty ? "" : "…"), "seed \(seed)")
    }
  }

  /// A long editing session does not fragment the system indexes: one-character inserts and
  /// deletes at random places (the text ends as it began) leave each index within 2 n / 16 pieces
  /// of the one built, and every rotor equal to a rebuild. Without merging small pieces, each edit
  /// left two more pieces for good: here 286 pieces where 80 are allowed, and 200 where 30 are.
  @Test func editsDoNotFragmentTheIndexes() throws {
    let line = "The quick brown fox jumps over the lazy dog. Él añadió: ¿qué? 日本語のテキスト。\n"
    let text = String(repeating: line, count: 200)
    let d = try RotorDocument(elements: [TextElement(id: 0, text: text)])
    let kinds: [SystemRotor] = [.characters, .words, .sentences, .linebreaks, .lines, .paragraphs]
    for kind in kinds { _ = try d.rotor(kind) }
    let built = kinds.map { d.systemIndexes[$0]!.tree.count }
    var rng = SeededRandom(seed: 0xF2A6)
    let length = try d.utf8Count(of: 0)
    for _ in 0..<2000 {
      var o = Int(rng.next() % UInt64(length))
      while (try? d.position(in: 0, utf8Offset: o)) == nil { o -= 1 }
      try d.replace(utf8Range: o..<o, in: 0, with: rng.next() % 2 == 0 ? "x" : " ")
      try d.replace(utf8Range: o..<(o + 1), in: 0, with: "")
    }
    #expect(try d.text(of: 0) == text)
    let rebuilt = try RotorDocument(elements: [TextElement(id: 0, text: text)])
    for (kind, before) in zip(kinds, built) {
      let index = d.systemIndexes[kind]!
      index.invariantCheck()
      #expect(
        index.tree.count <= before + 2 * index.count / SegmentIndex.smallPiece + 4,
        "\(kind): \(index.tree.count) pieces for \(index.count) entries (built: \(before))")
      _ = try rebuilt.rotor(kind)
      #expect(index.segments == rebuilt.systemIndexes[kind]!.segments, "\(kind)")
    }
  }

  /// A moved element keeps its entries without being segmented again (its pieces are carried):
  /// elements large and small, empty, multi-line and not Latin, moved back and forth with every
  /// system rotor held, match a rebuild each time and keep every rotor's count; and so do the line
  /// elements of a file, whose CR LF terminators make their span change when moved (those are
  /// segmented again).
  @Test func movedElementsCarryTheirEntries() throws {
    let big = String(repeating: "A sentence here. Ένα κείμενο! 日本語の文。\nNext line, with words.\n\n", count: 120)
    let path = NSTemporaryDirectory() + "textrotor-move-\(UUID().uuidString).txt"
    defer { try? FileManager.default.removeItem(atPath: path) }
    let file =
      "first line\r\nsecond, with words.\n\nThird one. Fourth?\r\n" + big.replacingOccurrences(of: "\n\n", with: "\r\n")
      + "last"
    try Data(file.utf8).write(to: URL(fileURLWithPath: path))
    let documents = [
      try RotorDocument(elements: [
        TextElement(id: 0, text: big), TextElement(id: 1, text: ""), TextElement(id: 2, text: "one\r\ntwo"),
        TextElement(id: 3, text: "x"), TextElement(id: 4, text: "\n"), TextElement(id: 5, text: big + "tail"),
      ]),
      try RotorDocument<Int>(contentsOf: path, elements: .lines),
    ]
    for d in documents {
      for kind in SystemRotor.allCases { _ = try d.rotor(kind) }
      var rng = SeededRandom(seed: 0x30E)
      for step in 0..<24 {
        let ids = d.elements.map(\.id)
        let id = ids[Int(rng.next() % UInt64(ids.count))]
        let to = Int(rng.next() % UInt64(ids.count))
        let counts = SystemRotor.allCases.map { d.cachedRotor($0)!.count }
        try d.move(id, to: to)
        let rebuilt = try RotorDocument(elements: d.elements)
        for (kind, count) in zip(SystemRotor.allCases, counts) {
          #expect(
            try DocumentEditModelTests.systemSnapshot(d, kind) == DocumentEditModelTests.systemSnapshot(rebuilt, kind),
            "step \(step): move \(id) to \(to), \(kind)")
          #expect(d.cachedRotor(kind)!.count == count, "step \(step): \(kind)")
        }
      }
    }
  }

}
