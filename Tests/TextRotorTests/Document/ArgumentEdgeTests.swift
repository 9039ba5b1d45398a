import Foundation
import Testing

@testable import TextRotor

/// Arguments at the edges that an adversarial review (seventeenth session) found trapping or giving
/// wrong answers: each test failed before its fix.
@Suite("Document: arguments at the edges")
struct ArgumentEdgeTests {
  /// A client's `utf8` index inside a character: next and previous are those of the scalar's start
  /// (where Swift rounds the index), from every byte, on system, pattern and custom rotors.
  @Test("next and previous from an index inside a UTF-8 sequence: as from the scalar's start")
  func navigationInsideScalar() throws {
    let texts = ["日本 word é😀x", "ab\r\nçd 🇩🇪 e", "", "z"]
    let document = try RotorDocument(elements: texts.enumerated().map { TextElement(id: $0.offset, text: $0.element) })
    document.addRotor("custom") { RotorEntry("j", id: 0, textRange: nil) }
    var rotors = try [SystemRotor.characters, .words, .linebreaks].map { try document.rotor($0) }
    rotors.append(try document.rotor(matching: .regex(#"\w"#)))
    rotors.append(document.rotor(named: "custom")!)
    for (id, text) in texts.enumerated() {
      for o in 0...text.utf8.count {
        let index = text.utf8.index(text.utf8.startIndex, offsetBy: o)
        var s = o
        while s > 0 && s < text.utf8.count && Array(text.utf8)[s] & 0xC0 == 0x80 { s -= 1 }
        let inside = TextPosition(element: id, index: index)
        let start = try document.position(in: id, utf8Offset: s)
        for rotor in rotors {
          #expect(rotor.indexOfEntry(after: inside) == rotor.indexOfEntry(after: start), "\(rotor.name) \(id):\(o)")
          #expect(rotor.indexOfEntry(before: inside) == rotor.indexOfEntry(before: start), "\(rotor.name) \(id):\(o)")
          // As the SPEC says: the first entry whose start is after the scalar's start.
          let want = rotor.indices.first {
            rotor.location(at: $0)!.documentRange.lowerBound > (try! document.documentOffset(of: start))
          }
          #expect(rotor.indexOfEntry(after: inside) == want, "\(rotor.name) \(id):\(o)")
        }
      }
    }
  }

  /// A pattern that matches empty text at the element's end (`$`, `b*`) kept the old match there
  /// after an edit whose re-matched lines ran to that end, and found it again: one more duplicate
  /// per edit, reported as added.
  @Test("an empty match at an element's end is replaced, not duplicated, by an edit before it")
  func emptyMatchAtElementEnd() throws {
    for (pattern, text, edit, inserted) in [
      ("$", "ab", 2..<2, "c"), ("$", "ab\ncd", 5..<5, "e"), ("b*", "b cé", 0..<1, ""), ("x?", "abc", 1..<2, "zz"),
      ("$", "ab", 0..<2, ""),
    ] {
      let document = try RotorDocument(elements: [TextElement(id: 0, text: text), TextElement(id: 1, text: "next")])
      _ = try document.rotor(matching: .regex(pattern), named: "p")
      let before = document.rotor(named: "p")!.count
      let change = try document.replace(utf8Range: edit, in: 0, with: inserted)
      let rebuilt = try RotorDocument(elements: document.elements)
      _ = try rebuilt.rotor(matching: .regex(pattern), named: "p")
      let got = document.rotor(named: "p")!
      let want = rebuilt.rotor(named: "p")!
      let ranges = { (r: Rotor<Int>) in
        r.indices.map { "\(r.location(at: $0)!.element):\(r.location(at: $0)!.utf8Range)" }
      }
      #expect(
        ranges(got) == ranges(want), "\(pattern) on \(text.debugDescription), \(edit) → \(inserted.debugDescription)")
      let c = try #require(change[rotor: "p"])
      #expect(before - c.removed.count + c.added.count == got.count, "\(pattern) on \(text.debugDescription): \(c)")
    }
  }

  @Test("a document offset in a document without elements is an error, not a trap")
  func positionInEmptyDocument() throws {
    let empty = try RotorDocument<Int>(elements: [])
    #expect(throws: DocumentError.elementIndexOutOfRange(0, count: 0)) { try empty.position(atDocumentOffset: 0) }
    let emptied = try RotorDocument(elements: [TextElement(id: 7, text: "gone")])
    try emptied.remove(7)
    #expect(throws: DocumentError.self) { try emptied.position(atDocumentOffset: 3) }
    try emptied.insert(TextElement(id: 8, text: "back"), at: 0)
    #expect(try emptied.utf8Offset(of: emptied.position(atDocumentOffset: Int.max)) == 4)
  }

  @Test("extreme characters and offsets are clamped, as the documentation says, without overflow")
  func extremeIntegers() throws {
    let document = try RotorDocument(elements: [TextElement(id: 0, text: "ab\nčd"), TextElement(id: 1, text: "x y")])
    for encoding in [PositionEncoding.utf8, .utf16, .utf32, .grapheme] {
      // The character is clamped to the line's end (LSP): "čd" is 3 bytes from byte 3.
      let end = try document.position(in: 0, line: 1, character: Int.max, encoding: encoding)
      #expect(try document.utf8Offset(of: end) == 6, "\(encoding)")
      let start = try document.position(in: 0, line: 1, character: Int.min, encoding: encoding)
      #expect(try document.utf8Offset(of: start) == 3, "\(encoding)")
    }
    let words = try document.rotor(.words)
    #expect(words.indexOfEntry(afterDocumentOffset: Int.max) == nil)
    #expect(words.indexOfEntry(afterDocumentOffset: Int.min) == 0)
    #expect(words.indexOfEntry(beforeDocumentOffset: Int.min) == nil)
    #expect(words.indexOfEntry(beforeDocumentOffset: Int.max) == words.count - 1)
    #expect(words.indices(overlappingDocumentRange: Int.min..<Int.max) == Array(words.indices))
    #expect(words.indices(overlappingDocumentRange: Int.min..<(-5)).isEmpty)
    #expect(words.indices(overlappingDocumentRange: (Int.max - 1)..<Int.max).isEmpty)
    let matches = try document.rotor(matching: .regex("$"))
    // The empty match at the end of the last element, and only it, is at the document's end.
    #expect(matches.indices(overlappingDocumentRange: Int.min..<Int.max) == Array(matches.indices))
    #expect(matches.indexOfEntry(beforeDocumentOffset: Int.max) == matches.count - 1)
    #expect(matches.indices(overlappingDocumentRange: (Int.max - 1)..<(Int.max - 1)).isEmpty)
  }

  @Test("an entry index that is not one gives nil (or .none), not a trap")
  func staleEntryIndices() throws {
    let document = try RotorDocument(elements: [TextElement(id: 0, text: "one two three")])
    let words = try document.rotor(.words)
    for i in [-1, words.count, 10_000, Int.max, Int.min] {
      #expect(words.location(at: i) == nil, "\(i)")
      #expect(words.utf16Range(at: i) == nil, "\(i)")
      #expect(words.segmentStatus(at: i) == .none, "\(i)")
    }
    #expect(words.location(at: 0)?.utf8Range == 0..<3)
    #expect(words.segmentStatus(at: 0) != .none)
  }

  /// The library counted the first line's columns from the first element (after the byte order
  /// mark) while its UTF-16 offsets, and the CLI's columns, are the file's.
  @Test("a file's first line's columns count its byte order mark, as its offsets and the CLI do")
  func byteOrderMarkColumns() throws {
    let path = NSTemporaryDirectory() + "textrotor-bom-\(UUID().uuidString).txt"
    defer { try? FileManager.default.removeItem(atPath: path) }
    try Data([0xEF, 0xBB, 0xBF] + Array("ab\ncd".utf8)).write(to: URL(fileURLWithPath: path))
    for kind in [ElementKind.whole, .lines, .paragraphs] {
      let document = try RotorDocument<Int>(contentsOf: path, elements: kind)
      let first = try document.position(atDocumentOffset: 4)  // "b"
      let c = try document.position(atDocumentOffset: 6)  // "c"
      for (encoding, column) in [(PositionEncoding.utf8, 5), (.utf16, 3), (.utf32, 3), (.grapheme, 3)] {
        let l = try document.documentLocation(of: first, encoding: encoding)
        #expect(l.line == 1 && l.column == column && l.utf16Offset == 2, "\(kind) \(encoding): \(l)")
        let m = try document.documentLocation(of: c, encoding: encoding)
        #expect(m.line == 2 && m.column == 1 && m.utf16Offset == 4, "\(kind) \(encoding): \(m)")
      }
      // In the element, the mark is not content: columns from the element's start.
      #expect(try document.location(of: first).column == 2)
    }
  }
}
