import Foundation
import Testing
import TextRotor  // not @testable: only what a client of the library sees

/// SPEC section 3, used as a client uses it: every name it lists, with the behaviour it promises.
/// If this file stops compiling, the vocabulary changed.
@Suite("SPEC section 3: the library's vocabulary")
struct SpecVocabularyTests {
  // "Héllo wörld. Next 😀 one.\r\nSecond line": bytes 0..<42, UTF-16 units 0..<38.
  static let first = "H\u{E9}llo w\u{F6}rld. Next \u{1F600} one.\r\nSecond line"

  @Test func entriesNamespacesAndTheBuilder() {
    let text = "one two"
    let range = text.startIndex..<text.index(text.startIndex, offsetBy: 3)
    let mail = RotorNamespace()
    let other = RotorNamespace()
    let owners = RotorEntry<Int>("owner's range", textRange: range)
    let plain = RotorEntry("element 7", id: 7, textRange: nil)
    let inMail = RotorEntry("in mail", id: 7, in: mail)
    let inOther = RotorEntry("in other", id: 7, in: other, textRange: range, prepare: {})
    #expect(owners.id == nil && owners.textRange == range && owners.label == "owner's range")
    #expect(inMail.namespace == mail && inMail.textRange == nil)
    // The same id in two namespaces (or none) is three different targets.
    #expect(Set([plain.target, inMail.target, inOther.target]).count == 3)

    let vips = [1, 2]
    let flagged: Int? = 3
    let missing: Int? = nil
    let showAll = false
    let rotor = Rotor<Int>("VIPs") {
      for id in vips { RotorEntry("vip \(id)", id: id) }
      if let flagged { RotorEntry("flagged", id: flagged) }
      if let missing { RotorEntry("missing", id: missing) }
      if showAll { RotorEntry("all", id: 0) } else { RotorEntry("some", id: 9) }
      [RotorEntry("array 1", id: 10), RotorEntry("array 2", id: 11)]
      Optional(RotorEntry("optional", id: 12))
    }
    #expect(rotor.name == "VIPs")
    #expect(rotor.map(\.label) == ["vip 1", "vip 2", "flagged", "some", "array 1", "array 2", "optional"])
    #expect(rotor.count == 7 && rotor[rotor.index(before: rotor.endIndex)].id == 12)
  }

  @Test func documentRotorsAndNavigation() throws {
    let document = try RotorDocument(elements: [
      TextElement(id: 0, text: Self.first), TextElement(id: 1, text: "Spanish"),
    ])
    for kind: SystemRotor in [.characters, .words, .sentences, .lines, .paragraphs, .linebreaks] {
      #expect(try document.rotor(kind).count > 0, "\(kind)")
    }
    #expect(try document.rotor(.characters).count == 36 + 7)
    #expect(
      try document.rotor(.lines).map(\.label) == [
        "H\u{E9}llo w\u{F6}rld. Next \u{1F600} one.", "Second line", "Spanish",
      ])
    #expect(
      try document.rotor(.sentences).map(\.label) == [
        "H\u{E9}llo w\u{F6}rld. ", "Next \u{1F600} one.\r\n", "Second line", "Spanish",
      ])

    let words = try document.rotor(.words)
    let space = try document.position(in: 0, utf8Offset: 24)  // the space after the emoji
    let one = try document.position(in: 0, utf8Offset: 25)
    #expect(words.entry(after: space)?.label == "one")
    #expect(words.entry(before: one)?.label == " ")
    #expect(words.entries(containing: try document.position(in: 0, utf8Offset: 26)).map(\.label) == ["one"])
    let text = try document.text(of: 0)
    let world = text.range(of: "w\u{F6}rld")!
    #expect(words.entries(overlapping: world, in: 0).map(\.label) == ["w\u{F6}rld"])
    let found = try #require(words.entry(after: space))
    #expect(found.id == 0 && found.textRange.map { String(text[$0]) } == "one")
    // An entry's UTF-16 range, in its element and in the document.
    let i = try #require(words.indexOfEntry(after: space))
    #expect(words.utf16Range(at: i)?.inElement == 21..<24)
    #expect(words.utf16Range(at: i)?.inDocument == 21..<24)

    #expect(try document.rotor(matching: .literal("o")).count == 3)  // Héllo, one, Second (wörld has ö)
    document.addRotor("headings") { RotorEntry("Spanish", id: 1) }
    #expect(document.rotor(named: "headings")?.map(\.label) == ["Spanish"])
  }

  @Test func positionsInEveryForm() throws {
    let document = try RotorDocument(elements: [TextElement(id: 0, text: Self.first)])
    let one = try document.position(in: 0, utf8Offset: 25)
    #expect(try document.utf8Offset(of: one) == 25)
    #expect(try document.utf16Offset(of: one) == 21)
    #expect(try document.utf8Offset(of: document.position(in: 0, utf16Offset: 21)) == 25)
    #expect(try document.location(of: one, encoding: .utf8) == TextLocation(line: 1, column: 26, utf16Offset: 21))
    #expect(try document.location(of: one, encoding: .utf16).column == 22)
    #expect(try document.location(of: one, encoding: .utf32).column == 21)
    #expect(try document.location(of: one, encoding: .grapheme).column == 21)
    // LSP (line, character): 0-based, the character in the encoding asked for.
    #expect(try document.utf8Offset(of: document.position(in: 0, line: 1, character: 3, encoding: .utf16)) == 34)
    #expect(try document.utf8Offset(of: document.position(in: 0, line: 0, character: 21, encoding: .utf16)) == 25)
    #expect(try document.utf8Offset(of: document.position(in: 0, line: 0, character: 20, encoding: .utf32)) == 25)
    let d = try document.documentOffset(of: one)
    #expect(try document.utf8Offset(of: document.position(atDocumentOffset: d)) == 25)
    // The String.Index is valid for the element's text.
    let text = try document.text(of: 0)
    #expect(text[one.index...].hasPrefix("one."))

    // Invalid arguments throw; the document is unchanged.
    #expect(throws: DocumentError.self) { try document.position(in: 0, utf8Offset: 2) }  // inside "é"
    #expect(throws: DocumentError.self) { try document.position(in: 0, utf8Offset: 43) }
    #expect(throws: DocumentError.self) { try document.position(in: 0, utf8Offset: -1) }
    #expect(throws: DocumentError.self) { try document.position(in: 9, utf8Offset: 0) }
    #expect(throws: DocumentError.self) { try document.position(in: 0, line: 5, character: 0) }
    #expect(try document.text(of: 0) == Self.first)
  }

  @Test func lineNumbersOfTheElementAndOfTheFile() throws {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("spec-vocabulary-\(UUID()).txt")
    try Data("a\nb\r\nc\n".utf8).write(to: url)
    defer { try? FileManager.default.removeItem(at: url) }
    let document = try RotorDocument(contentsOf: url.path, elements: .lines)
    #expect(document.elementCount == 3)
    let c = try document.position(in: 2, utf8Offset: 0)
    #expect(try document.location(of: c).line == 1)
    #expect(try document.documentLocation(of: c) == TextLocation(line: 3, column: 1, utf16Offset: 5))
    #expect(try document.documentOffset(of: c) == 5)
  }

  @Test func editsChangesAnchorsAndSnapshots() async throws {
    let document = try RotorDocument(elements: [
      TextElement(id: 0, text: Self.first), TextElement(id: 1, text: "Spanish"),
    ])
    let wordsBefore = try document.rotor(.words)
    let snapshot = document.snapshot()
    let text = try document.text(of: 0)
    let change = try document.replace(text.range(of: "one")!, in: 0, with: "ONE")
    #expect(change.generation == snapshot.generation + 1)
    // The words rotor reports the entries it replaced: "one" among them, as many added back.
    let wordsChange = try #require(change.rotors["words"])
    #expect(wordsChange.removed.contains(i(wordsBefore, "one").lowerBound))
    #expect(wordsChange.added.count == wordsChange.removed.count && !wordsChange.rebuilt)
    let words = try document.rotor(.words)
    #expect(words.entry(after: try document.position(in: 0, utf8Offset: 24))?.label == "ONE")
    // What was handed out before the edit still reads as it was, on another task too.
    #expect(wordsBefore.entry(after: try document.position(in: 0, utf8Offset: 24))?.label == "one")
    let old = await Task.detached { snapshot.text(of: 0) }.value
    #expect(old == Self.first)

    let at = try document.position(in: 0, utf8Offset: 25)
    let stays = try document.anchor(at: at, stickiness: .staysBefore)
    let moves = try document.anchor(at: at, stickiness: .movesAfter)
    let inserted = try document.insert("X", at: try document.position(in: 0, utf8Offset: 25).index, in: 0)
    #expect(inserted.generation == change.generation + 1)
    #expect(try document.position(of: stays).map { try document.utf8Offset(of: $0) } == 25)
    #expect(try document.position(of: moves).map { try document.utf8Offset(of: $0) } == 26)
    // "... XONE.\r\nSecond line": an anchor inside a replaced range goes to the end of the new text,
    // one after it moves by the change in length.
    let inside = try document.anchor(at: try document.position(in: 0, utf8Offset: 27))
    let second = try document.anchor(at: try document.position(in: 0, utf8Offset: 32))
    try document.replace(utf8Range: 26..<29, in: 0, with: "one!")
    #expect(try document.text(of: 0).hasSuffix("Xone!.\r\nSecond line"))
    #expect(try document.position(of: inside).map { try document.utf8Offset(of: $0) } == 30)
    #expect(try document.position(of: second).map { try document.utf8Offset(of: $0) } == 33)

    try document.insert(TextElement(id: 2, text: "English"), at: 1)
    #expect(document.elementIDs == [0, 2, 1])
    #expect(try document.remove(2).text == "English")
    #expect(try document.move(0, to: 1) == "Moved below Spanish")
    #expect(document.elementIDs == [1, 0])
    #expect(throws: DocumentError.self) { try document.move(7, to: 0) }
    #expect(throws: DocumentError.self) { try document.insert(TextElement(id: 1, text: "again"), at: 0) }
  }

  /// The index range of the first entry labelled `label`.
  private func i(_ rotor: Rotor<Int>, _ label: String) -> Range<Int> {
    let k = rotor.firstIndex { $0.label == label }!
    return k..<(k + 1)
  }
}
