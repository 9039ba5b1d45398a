import Testing
import TextRotor

/// The code of the article "Using textrotor from an editor", run.
@Suite struct EditorArticleTests {
  @Test func article() throws {
    // Make a document and navigate
    let document = try RotorDocument(elements: [
      TextElement(id: "intro", text: "Rotors let you jump. Try words first."),
      TextElement(id: "body", text: "Important: back up the disk.\nThen update."),
    ])
    let words = try document.rotor(.words)

    let caret = try document.position(in: "intro", utf8Offset: 6)
    let next = words.entry(after: caret)
    let previous = words.entry(before: caret)
    let sentences = try document.rotor(.sentences)
    let current = sentences.entries(containing: caret).first?.label
    #expect(next?.label == "let")
    #expect(previous?.label == "Rotors")
    #expect(current == "Rotors let you jump. ")

    let utf16 = try document.utf16Offset(of: caret)
    let location = try document.location(of: caret, encoding: .utf16)
    #expect(utf16 == 6)
    #expect(location.line == 1 && location.column == 7)

    // Show what is on screen
    let top = try document.position(in: "intro", utf8Offset: 0)
    let bottom = try document.position(in: "body", utf8Offset: 10)
    let visible = try document.rotor(.sentences).entries(from: top, to: bottom)
    #expect(visible.map(\.label) == ["Rotors let you jump. ", "Try words first.", "Important: back up the disk.\n"])

    // Custom rotors
    let lines = try document.rotor(.lines)
    document.addRotor("Important") {
      for line in lines where line.label.hasPrefix("Important") {
        RotorEntry(id: line.id!, textRange: line.textRange)
      }
    }
    let important = document.rotor(named: "Important")!
    #expect(important.map(\.label) == ["Important: back up the disk."])

    // Edit
    let body = try document.text(of: "body")
    try document.insert("Very ", at: body.startIndex, in: "body")
    let intro = try document.text(of: "intro")
    try document.replace(intro.startIndex..<intro.startIndex, in: "intro", with: "")
    let announcement = try document.move("body", to: 0)
    #expect(announcement == "Moved above Rotors let you jump. Try words first.")
    #expect(document.rotor(named: "Important")!.map(\.label) == ["Very Important: back up the disk."])
    #expect(try document.rotor(.words).first?.label == "Very")

    // Positions in every form
    let lsp = try document.position(in: "body", line: 1, character: 2, encoding: .utf16)
    let anchor = try document.anchor(at: lsp, stickiness: .staysBefore)
    try document.replace(utf8Range: 0..<0, in: "body", with: "New first line\n")
    let moved = document.position(of: anchor)
    #expect(try document.location(of: moved!).line == 3)
    #expect(
      try document.text(of: "body", in: document.utf8Offset(of: moved!)..<(document.utf8Offset(of: moved!) + 10))
        == "en update.")
  }
}
