import Testing
import TextRotor

/// The code of the article "An editor's Headings rotor", run.
@Suite struct StructureArticleTests {
  @Test func headingsRotor() throws {
    let document = try RotorDocument(elements: [
      TextElement(id: 0, text: "# Guide\n\nIntro text.\n\n## Install\n\nRun it.\n\n## Use\n\nType.\n")
    ])
    document.format = .markdown

    // The rotor: each entry's label is the heading's text; its level is in structureInfo.
    var headings = try document.rotor(.headings)
    let names = headings.indices.map { "\(headings.structureInfo(at: $0)!.level!): \(headings[$0].label)" }
    #expect(names == ["1: Guide", "2: Install", "2: Use"])

    // VoiceOver's "next heading" from the caret (here: in "Intro text.").
    let caret = try document.position(in: 0, utf8Offset: 12)
    let next = headings.entry(after: caret)?.label
    #expect(next == "Install")

    // The user types a new section; the rotor follows.
    try document.replace(utf8Range: 42..<42, in: 0, with: "\n### Options\n")
    headings = try document.rotor(.headings)
    let after = headings.map(\.label)
    #expect(after == ["Guide", "Install", "Options", "Use"])
    let level2 = try document.headings(level: 2).map(\.label)
    #expect(level2 == ["Install", "Use"])
  }

  @Test func misspelledWords() throws {
    let notes = try RotorDocument(elements: [TextElement(id: 0, text: "Teh meeting is in 東京.\n")])
    var misspelled = try notes.rotor(.misspelled)
    #expect(misspelled.map(\.label) == ["Teh"])
    try notes.replace(utf8Range: 0..<3, in: 0, with: "The")
    misspelled = try notes.rotor(.misspelled)
    #expect(misspelled.map(\.label) == [])
  }
}
