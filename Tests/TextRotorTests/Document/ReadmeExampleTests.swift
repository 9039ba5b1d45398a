import Testing
import TextRotor

/// The README's "Library" lines, as written there, run on the bundled demo document.
@Suite("README example")
struct ReadmeExampleTests {
  @Test("the five lines of the README compile and do what the README says")
  func readmeLines() throws {
    let path = Fixtures.path("demo.txt")
    // --- README ---
    let document = try RotorDocument(contentsOf: path, elements: .paragraphs)
    let words = try document.rotor(.words)
    let next = words.entry(after: try document.position(in: 0, utf8Offset: 10))
    let lines = try document.rotor(.lines)
    document.addRotor("Important") { for line in lines where line.label.hasPrefix("Important") { line } }
    // --- end ---
    // "next" is the first word of paragraph 0 that starts after its byte 10.
    let text = try document.text(of: 0)
    func offset(_ entry: RotorEntry<Int>) -> Int? {
      guard entry.id == 0, let r = entry.textRange else { return nil }
      return text.utf8.distance(from: text.startIndex, to: r.lowerBound)
    }
    let expected = words.compactMap(offset).first { $0 > 10 }
    #expect(expected != nil)
    #expect(next.flatMap(offset) == expected)
    let important = try #require(document.rotor(named: "Important"))
    #expect(important.count == 4)
    #expect(important.allSatisfy { $0.label.hasPrefix("Important") })
  }
}
