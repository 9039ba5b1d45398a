import Glibc
import Testing

@testable import TextRotor

/// Regressions found by reviewing the library as an editor would use it.
@Suite struct ReviewRegressionTests {
  /// An element ending in CR, followed by the line feed of its gap (the virtual one of a document
  /// built from elements, or a file's after an edit): its end is between the CR and the LF of the
  /// document's text, on the CR's line, not on the next element's first line.
  @Test func documentLocationAtElementEndBeforeGapLineFeed() throws {
    let document = try RotorDocument(elements: [TextElement(id: 0, text: "ab\r"), TextElement(id: 1, text: "c")])
    let end = try document.position(in: 0, utf8Offset: 3)
    let next = try document.position(in: 1, utf8Offset: 0)
    // The document's text is "ab\r\nc": two lines.
    #expect(try document.documentLocation(of: end) == TextLocation(line: 1, column: 4, utf16Offset: 3))
    #expect(
      try document.documentLocation(of: end, encoding: .grapheme) == TextLocation(line: 1, column: 4, utf16Offset: 3))
    #expect(try document.documentLocation(of: next) == TextLocation(line: 2, column: 1, utf16Offset: 4))
    // Within the element alone, the CR ends its first line.
    #expect(try document.location(of: end) == TextLocation(line: 2, column: 1, utf16Offset: 3))

    // A file's line element made to end in CR before the file's LF.
    let path = "/tmp/textrotor-review-\(getpid()).txt"
    try writeFile(path, "ab\ncd\n")
    defer { unlink(path) }
    let file = try RotorDocument<Int>(contentsOf: path, elements: .lines)
    try file.replace(utf8Range: 2..<2, in: 0, with: "\r")
    #expect(
      try file.documentLocation(of: file.position(in: 0, utf8Offset: 3))
        == TextLocation(line: 1, column: 4, utf16Offset: 3))
    #expect(
      try file.documentLocation(of: file.position(in: 1, utf8Offset: 1))
        == TextLocation(line: 2, column: 2, utf16Offset: 5))
  }
}

extension ReviewRegressionTests {
  /// A move's announcement names the element before (or after) it by its first non-blank line,
  /// also when that line starts near or past the first kilobyte of the element.
  @Test func moveAnnouncementNamesLongElements() throws {
    let split = String(repeating: " ", count: 1022) + "😀😀 tail"
    let late = String(repeating: "\n", count: 1100) + "Title"
    let document = try RotorDocument(elements: [
      TextElement(id: 0, text: split), TextElement(id: 1, text: "x"), TextElement(id: 2, text: late),
    ])
    #expect(RotorDocument<Int>.shortName(split) == "😀😀 tail")
    #expect(try document.move(1, to: 1) == "Moved below 😀😀 tail")
    #expect(try document.move(1, to: 2) == "Moved below Title")
    #expect(try document.move(1, to: 0) == "Moved above 😀😀 tail")
  }
}

extension ReviewRegressionTests {
  /// A change report whose `rotors` dictionary is set answers a system rotor's change both by
  /// name and by ``SystemRotor``.
  @Test func changeRotorsSetterKeepsSystemRotors() throws {
    let document = try RotorDocument(elements: [TextElement(id: 0, text: "a b")])
    _ = try document.rotor(.words)
    var change = try document.replace(utf8Range: 0..<0, in: 0, with: "x")
    let words = try #require(change[rotor: .words])
    change.rotors["extra"] = RotorChange(removed: 0..<0, added: 0..<1)
    #expect(change[rotor: .words] == words)
    #expect(change[rotor: "words"] == words)
    #expect(change[rotor: "extra"] == RotorChange(removed: 0..<0, added: 0..<1))
    #expect(Set(change.rotors.keys) == ["words", "extra"])
    change.rotors = [:]
    #expect(change[rotor: .words] == nil && change[rotor: "words"] == nil)
  }
}

extension ReviewRegressionTests {
  /// A segmenter whose piece size or thread count is set out of range after `init` (which clamps
  /// them) segments as one of piece size 1 or one thread: a negative piece size cut pieces that
  /// ended before they started, and segmenting never ended.
  @Test func segmenterPropertiesOutOfRange() throws {
    let text = String(repeating: "Hello world. Second one.\n", count: 20)
    let bytes = ByteStorage(text)
    let want = try Segmenter().segment(bytes, elements: [0..<bytes.count], rotor: .words).count
    for (threads, pieceSize) in [(2, -5), (1, -1), (0, 0), (-3, Int.min)] {
      var segmenter = Segmenter()
      segmenter.threads = threads
      segmenter.pieceSize = pieceSize
      #expect(segmenter.threads >= 1 && segmenter.pieceSize >= 1)
      #expect(try segmenter.segment(bytes, elements: [0..<bytes.count], rotor: .words).count == want)
      let document = try RotorDocument(elements: [TextElement(id: 0, text: text)], segmenter: segmenter)
      #expect(try document.rotor(.words).count == want)
    }
  }

  /// A file opened with one element per line: a blank line is an empty element, and it is an empty
  /// line of the `lines` rotor (the rotor skipped it, so an editor's line rotor jumped over every
  /// blank line), as when the file is one element and as `FileNavigation` counts lines. Typing in
  /// it, emptying a line, and inserting and removing elements keep that.
  @Test func emptyElementsAreEmptyLines() throws {
    let path = "/tmp/textrotor-empty-lines-\(getpid()).txt"
    defer { unlink(path) }
    try writeFile(path, "a\n\nb\n")
    let lines = try RotorDocument<Int>(contentsOf: path, elements: .lines)
    let whole = try RotorDocument<Int>(contentsOf: path, elements: .whole)
    let ranges = { (d: RotorDocument<Int>) in
      let rotor = try d.rotor(.lines)
      return rotor.indices.map { rotor.location(at: $0)! }
    }
    #expect(try ranges(lines).map(\.element) == [0, 1, 2])
    #expect(try lines.rotor(.lines).map(\.label) == ["a", "", "b"])
    #expect(try whole.rotor(.lines).map(\.label) == ["a", "", "b"])
    let bytes = try ByteStorage.contentsOf(path: path)
    let after = try FileNavigation.entry(
      after: 1, rotor: .lines, in: bytes, elements: ElementKind.lines.ranges(in: bytes))
    #expect(after?.element == 1 && after?.range == 2..<2)
    #expect(try lines.rotor(.lines).indexOfEntry(afterDocumentOffset: 1) == 1)

    let document = try RotorDocument(elements: [TextElement(id: 0, text: "x"), TextElement(id: 1, text: "")])
    #expect(try document.rotor(.lines).map(\.label) == ["x", ""])
    try document.insert("yz", at: try document.text(of: 1).startIndex, in: 1)
    #expect(try document.rotor(.lines).map(\.label) == ["x", "yz"])
    try document.replace(utf8Range: 0..<2, in: 1, with: "")
    #expect(try document.rotor(.lines).map(\.label) == ["x", ""])
    // Alone, an empty element is an empty text: no line. Among two again, a line.
    try document.remove(0)
    #expect(try document.rotor(.lines).isEmpty)
    try document.insert(TextElement(id: 2, text: "w"), at: 1)
    #expect(try document.rotor(.lines).map(\.label) == ["", "w"])
    _ = try document.move(2, to: 0)
    #expect(try document.rotor(.lines).map(\.label) == ["w", ""])
    for (k, entry) in try document.rotor(.lines).enumerated() {
      #expect(entry.id == [2, 1][k])
    }
  }

  /// The same for a pattern's matches: `^$` matches a blank line of a file opened with `.lines`
  /// (an empty element) as it does when the file is one element.
  @Test func patternsMatchEmptyElementsAsEmptyLines() throws {
    let path = "/tmp/textrotor-empty-matches-\(getpid()).txt"
    defer { unlink(path) }
    try writeFile(path, "a\n\nb\n")
    for kind in [ElementKind.lines, .whole] {
      let document = try RotorDocument<Int>(contentsOf: path, elements: kind)
      let blank = try document.rotor(matching: .regex("^$"))
      #expect(blank.count == 1, "\(kind)")
      #expect(blank.location(at: 0)?.utf8Range.isEmpty == true, "\(kind)")
      #expect(try document.rotor(matching: .regex("^")).count == 3, "\(kind)")
    }
    let document = try RotorDocument(elements: [TextElement(id: 0, text: "x"), TextElement(id: 1, text: "")])
    let name = "matches: '^$' (regex)"
    _ = try document.rotor(matching: .regex("^$"))
    #expect(document.rotor(named: name)?.count == 1)
    try document.insert("yz", at: try document.text(of: 1).startIndex, in: 1)
    #expect(document.rotor(named: name)?.count == 0)
    try document.replace(utf8Range: 0..<2, in: 1, with: "")
    #expect(document.rotor(named: name)?.count == 1)
    try document.remove(0)
    #expect(document.rotor(named: name)?.count == 0, "a lone empty element is no line")
    try document.insert(TextElement(id: 2, text: "w"), at: 1)
    #expect(document.rotor(named: name)?.count == 1)
  }
}

extension ReviewRegressionTests {
  /// `\A`, `\z` and look-around saw whatever text ICU was given: a batch of joined elements when a
  /// pattern rotor was built, the lines around an edit after one. So `\Aa` on three elements "a"
  /// found one entry, and a second after an edit that changed nothing. Each line is now its own
  /// text, as in ripgrep: the rotor finds the same however it was computed.
  @Test func textAnchorsAndLookAroundSeeOneLine() throws {
    let document = try RotorDocument(elements: (0..<3).map { TextElement(id: $0, text: "a") })
    let start = try document.rotor(matching: .regex(#"\Aa"#))
    #expect(start.map(\.id) == [0, 1, 2])
    try document.replace(utf8Range: 0..<1, in: 1, with: "a")
    #expect(try document.rotor(matching: .regex(#"\Aa"#)).map(\.id) == [0, 1, 2])

    // In one element: every line's start and end, not the element's; look-behind stops at the line.
    let lines = try RotorDocument(elements: [TextElement(id: 0, text: "ab\nb\nxa\nbx\n")])
    func found(_ regex: String) throws -> [Range<Int>] {
      let rotor = try lines.rotor(matching: .regex(regex))
      return rotor.indices.map { rotor.location(at: $0)!.utf8Range }
    }
    #expect(try found(#"\Ab"#) == [3..<4, 8..<9])
    #expect(try found(#"b\z"#) == [1..<2, 3..<4])
    #expect(try found(#"a\Z"#) == [6..<7])
    #expect(try found(#"(?<=a)b"#) == [1..<2])
    // A line feed in the pattern is refused, as rg refuses it (no line holds one).
    #expect(throws: PatternError.self) { try found(#"(?<=a\n)b"#) }
    #expect(throws: PatternError.self) { try found(#"a(?=\n)"#) }
    // An edit that joins two lines: the rotor follows, as a rebuild would.
    try lines.replace(utf8Range: 2..<3, in: 0, with: "")
    #expect(try found(#"\Ab"#) == [7..<8])
    #expect(try found(#"b\z"#) == [2..<3])
    #expect(try found(#"(?<=a)b"#) == [1..<2])
  }
}

extension ReviewRegressionTests {
  /// Every move registered its element's id again in a new slot of the id table (slots are never
  /// given to another id, for snapshots), so an editor's memory grew with each move for good. A
  /// moved element keeps its slot; snapshots taken before still find every element.
  @Test func movesDoNotGrowTheIDTable() throws {
    let n = 50
    let document = try RotorDocument(elements: (0..<n).map { TextElement(id: "e\($0)", text: "Element \($0).") })
    _ = try document.rotor(.words)
    let slots = document.table.keys.slotCount
    var rng = SeededRandom(seed: 0x5107)
    var snapshots: [(DocumentSnapshot<String>, [String])] = []
    for step in 0..<500 {
      if step % 100 == 0 { snapshots.append((document.snapshot(), document.elementIDs)) }
      let id = "e\(Int(rng.next() % UInt64(n)))"
      try document.move(id, to: Int(rng.next() % UInt64(n)))
    }
    #expect(document.table.keys.slotCount == slots)
    for id in document.elementIDs {
      #expect(try document.text(of: id) == "Element \(id.dropFirst()).")
      #expect(document.index(of: id).map { document.elementIDs[$0] } == id)
    }
    for (snapshot, ids) in snapshots {
      #expect((0..<n).map { snapshot.elementID(at: $0)! } == ids)
      for id in ids { #expect(snapshot.text(of: id) == "Element \(id.dropFirst()).") }
    }
    // An element inserted after the moves still gets a slot of its own.
    try document.insert(TextElement(id: "new", text: "New."), at: 3)
    #expect(document.table.keys.slotCount == slots + 1 && document.elementIDs[3] == "new")
  }
}

extension ReviewRegressionTests {
  /// A line-local pattern on an empty element or an empty line (ICU crashed reading an empty
  /// UTF-8 text for a look-ahead).
  @Test func lineLocalPatternsOnEmptyLines() throws {
    let document = try RotorDocument(elements: [
      TextElement(id: 0, text: "a"), TextElement(id: 1, text: ""), TextElement(id: 2, text: "b\n\nc"),
    ])
    #expect(try document.rotor(matching: .regex("^(?=.)")).map(\.id) == [0, 2, 2])
    #expect(try document.rotor(matching: .regex(#"\A\z"#)).map(\.id) == [1, 2])
    try document.insert("x", at: try document.text(of: 1).startIndex, in: 1)
    #expect(try document.rotor(matching: .regex("^(?=.)")).map(\.id) == [0, 1, 2, 2])
  }
}

extension ReviewRegressionTests {
  /// A file holding ill-formed UTF-8 keeps the file's lines whatever its elements: every element's
  /// start is on the line (and column) it has in the same file with each ill-formed byte replaced
  /// by an ASCII letter, and each of those lines leads back to it. (Its elements were made from
  /// their repaired texts alone, so the blank lines between paragraphs were lost: `b` after three
  /// blank lines was on line 2, and line 5 did not exist.)
  @Test func illFormedFileKeepsItsLines() throws {
    let shapes: [[UInt8]] = [
      Array("a".utf8) + [0xFF] + Array("\n\n\n\nb".utf8),
      [0xEF, 0xBB, 0xBF] + Array("x\n\n  \n".utf8) + [0xC3] + Array("y\r\n\r\nz\n\n".utf8) + [0x80, 0x80],
      [0xFE] + Array("\n\n\n".utf8) + [0xE2, 0x82] + Array("\n\n\nend".utf8),
    ]
    for (n, bytes) in shapes.enumerated() {
      // The same bytes with every byte above 0x7F outside the BOM replaced by "q".
      let plain = bytes.enumerated().map { k, b in
        b >= 0x80 && !(bytes.starts(with: [0xEF, 0xBB, 0xBF]) && k < 3) ? 0x71 : b
      }
      let paths = ["bad", "plain"].map { "/tmp/textrotor-illformed-\(getpid())-\(n)-\($0).txt" }
      for (path, content) in zip(paths, [bytes, plain]) {
        let file = try #require(fopen(path, "wb"))
        _ = content.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, file) }
        fclose(file)
      }
      defer { paths.forEach { unlink($0) } }
      for kind in [ElementKind.whole, .lines, .paragraphs] {
        let bad = try RotorDocument<Int>(contentsOf: paths[0], elements: kind)
        let model = try RotorDocument<Int>(contentsOf: paths[1], elements: kind)
        #expect(bad.elementCount == model.elementCount, "shape \(n), \(kind)")
        for e in 0..<Swift.min(bad.elementCount, model.elementCount) {
          let here = try bad.documentLocation(of: bad.position(in: e, utf8Offset: 0), encoding: .utf16)
          let there = try model.documentLocation(of: model.position(in: e, utf8Offset: 0), encoding: .utf16)
          #expect(here.line == there.line && here.column == there.column, "shape \(n), \(kind), element \(e)")
          let back = try bad.position(atDocumentLine: here.line - 1, character: here.column - 1, encoding: .utf16)
          let offset = try bad.utf8Offset(of: back)
          #expect(back.element == e && offset == 0, "shape \(n), \(kind), element \(e)")
        }
      }
    }
  }

  /// A move is one edit: the generation goes up by one, as for any other edit, and the report
  /// carries it. A move to where the element already is changes nothing.
  @Test func moveIsOneGeneration() throws {
    let document = try RotorDocument(elements: [
      TextElement(id: 1, text: "One."), TextElement(id: 2, text: "Two."), TextElement(id: 3, text: "Three."),
    ])
    _ = try document.rotor(.words)
    document.addRotor("marks") { RotorEntry("m", id: 2) }
    let g = document.generation
    #expect(try document.move(1, to: 2) == "Moved below Three.")
    #expect(document.generation == g + 1 && document.lastChange?.generation == g + 1)
    let before = document.lastChange
    #expect(try document.move(3, to: 1) == "Moved below Two.")
    #expect(document.generation == g + 1 && document.lastChange?.generation == before?.generation)
    #expect(document.elementIDs == [2, 3, 1])
    try document.insert(TextElement(id: 4, text: "Four."), at: 0)
    #expect(document.generation == g + 2)
  }

  /// A rotor built on its own answers "previous" from an element's start as a document's rotor
  /// does: a whole-element entry starts there, so it is not before it.
  @Test func listRotorPreviousAtElementStart() throws {
    let text = "abc def"
    let start = text.startIndex
    let list = Rotor<Int>("x") {
      RotorEntry<Int>("whole", id: 1)
      RotorEntry<Int>("def", id: 1, textRange: text.index(start, offsetBy: 4)..<text.endIndex)
    }
    let document = try RotorDocument(elements: [TextElement(id: 1, text: text), TextElement(id: 2, text: "ghi")])
    _ = document.addRotor(list)
    let indexed = try #require(document.rotor(named: "x"))
    for offset in [0, 1, 4, 5, 7] {
      let p = TextPosition(element: 1, index: text.utf8.index(start, offsetBy: offset))
      #expect(list.entry(before: p)?.label == indexed.entry(before: p)?.label, "offset \(offset)")
      #expect(list.entry(after: p)?.label == indexed.entry(after: p)?.label, "offset \(offset)")
    }
  }

  /// A pattern rotor whose update failed (ICU's time limit) is dropped from the index until asked
  /// for again, but still held: later edits, element inserts and removes report it as rebuilt (it
  /// was left out of their reports, as if the document no longer held it).
  @Test func unindexedPatternRotorStaysInReports() throws {
    var pattern = Pattern.regex("(a+)+(?=c)")
    pattern.timeLimit = 1
    let d = try RotorDocument(elements: [TextElement(id: 0, text: "b\nxc"), TextElement(id: 1, text: "z")])
    _ = try d.rotor(matching: pattern)
    let name = "matches: \(pattern)"
    // `ac`: a line RE2 finds the pattern without its look-ahead on, so ICU searches it.
    let failed = try d.replace(utf8Range: 0..<0, in: 0, with: String(repeating: "a", count: 40) + "b ac")
    #expect(failed[rotor: name]?.rebuilt == true)
    #expect(d.rotorNames.contains(name))
    let edit = try d.replace(utf8Range: 0..<1, in: 1, with: "y")
    #expect(edit[rotor: name]?.rebuilt == true, "an edit elsewhere")
    _ = try d.insert(TextElement(id: 2, text: "new"), at: 2)
    #expect(d.lastChange?[rotor: name]?.rebuilt == true, "an element inserted")
    _ = try d.remove(2)
    #expect(d.lastChange?[rotor: name]?.rebuilt == true, "an element removed")
  }

  /// A move next to a blank element names it by its place (it announced "Moved below ").
  @Test func moveNextToABlankElement() throws {
    let d = try RotorDocument(elements: [
      TextElement(id: 0, text: "  "), TextElement(id: 1, text: "Second"), TextElement(id: 2, text: ""),
    ])
    #expect(try d.move(1, to: 2) == "Moved below element 2")
    #expect(try d.move(1, to: 0) == "Moved above element 2")
    #expect(try d.move(0, to: 1) == "Moved below Second")
  }

  /// An index of `String.UTF16View` between a surrogate pair's halves: its UTF-16 offset and
  /// UTF-16 column are Swift's (`utf16.distance`), not the scalar's start (they were one less).
  @Test func utf16IndexBetweenSurrogates() throws {
    let text = "a😀b\n𝄞x😀"
    let d = try RotorDocument(elements: [TextElement(id: 0, text: text)])
    let lineStart = text.utf16.firstIndex(of: 0x0A).map { text.utf16.distance(from: text.startIndex, to: $0) + 1 }!
    for k in 0...text.utf16.count {
      let index = text.utf16.index(text.startIndex, offsetBy: k)
      let position = TextPosition(element: 0, index: index)
      #expect(try d.utf16Offset(of: position) == k, "UTF-16 offset \(k)")
      let location = try d.location(of: position, encoding: .utf16)
      #expect(location.utf16Offset == k, "UTF-16 offset \(k)")
      #expect(location.column == (k < lineStart ? k : k - lineStart) + 1, "UTF-16 column at \(k)")
    }
  }
}
