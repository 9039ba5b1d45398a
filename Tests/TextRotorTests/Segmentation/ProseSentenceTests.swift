import Testing
import TextRotor

/// The `proseSentences` rotor: UAX #29 sentences in which a single line break inside a paragraph
/// reads as a space. (Edits, pieces and local navigation are covered for every system rotor by
/// DocumentEditModelTests, ChunkingTests and LocalNavigationTests.)
@Suite struct ProseSentenceTests {
  static func segments(_ text: String, _ rotor: SystemRotor) throws -> [String] {
    let bytes = ByteStorage(text)
    let store = try Segmenter().segment(bytes, elements: [0..<bytes.count], rotor: rotor)
    return store.segments.map { bytes.string($0.range) }
  }

  /// Every fixture whose paragraphs are single lines (no line break between two non-blank lines)
  /// gives exactly ICU's sentences.
  @Test func identicalToICUWithoutHardWraps() throws {
    var compared: [String] = []
    for name in [
      "english.txt", "german.txt", "russian.txt", "greek.txt", "arabic.txt", "hebrew.txt", "hindi.txt",
      "chinese.txt", "japanese.txt", "thai.txt", "long-line.txt", "empty.txt",
    ] {
      let bytes = try Fixtures.bytes(name)
      let all = 0..<bytes.count
      guard bytes.proseCopy(all).copyBytes(0..<bytes.count) == bytes.copyBytes(all) else { continue }
      let segmenter = Segmenter()
      let prose = try segmenter.segment(bytes, elements: [all], rotor: .proseSentences).segments.map(\.range)
      let icu = try segmenter.segment(bytes, elements: [all], rotor: .sentences).segments.map(\.range)
      #expect(prose == icu, "\(name)")
      compared.append(name)
    }
    #expect(compared.contains("english.txt") && compared.count >= 8, "compared only \(compared)")
  }

  /// A hard-wrapped text (Project Gutenberg style, `fmt -w 72`): the sentences a reader expects,
  /// where ICU's own rules make every wrapped line end a "sentence".
  @Test func hardWrappedProse() throws {
    let bytes = try Fixtures.bytes("wrapped-prose.txt")
    let text = bytes.string(0..<bytes.count)
    let prose = try Self.segments(text, .proseSentences)
    let icu = try Self.segments(text, .sentences)
    #expect(prose.count == 25)
    #expect(icu.count == 39)
    #expect(prose.joined() == text)  // they cover the text
    #expect(
      prose[5]
        == "It was late in the autumn when the steamer came into the harbour,\nand the whole town went down to the quay to see her. "
    )
    #expect(prose[6] == "Mr. ")  // ICU's root rules end a sentence after "Mr."
    #expect(
      prose[8] == "Nobody believed him; but nobody\ncontradicted him either, for it was not a day for quarrelling.\n")
    #expect(prose[9] == "\n")  // the blank line still ends the paragraph's last sentence
    #expect(
      prose.last
        == "The harbour master turned it\nover three times before he broke the seal; then he read it standing\nat the window, with the light behind him, so that his daughter could\nnot see his face.\n"
    )
    // ICU alone breaks after the line feed in the middle of that sentence.
    #expect(icu.contains("It was late in the autumn when the steamer came into the harbour,\n"))
  }

  /// The same as the text with every lone line break made a space, for LF, CR LF and CR, and for
  /// lines of spaces, which count as blank.
  @Test func equalsICUOnTheUnwrappedText() throws {
    let cases = [
      "One line\nand the next. Second sentence\nwraps too.\n\nNew paragraph.",
      "Windows\r\nline ends. Also\r\nhere.\r\n\r\nNext.",
      "Old Mac\rline ends. Also\rhere.\r\rNext.",
      "Spaces  \n   \nare blank. A\n\tstarts with a tab.",
      "\n\nLeading blank lines.\nThen text.\n",
      "No break at all.",
    ]
    for text in cases {
      var unwrapped = ""
      let lines = text.split(
        omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" })
      let breaks = Array(text).filter { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
      for (k, line) in lines.enumerated() {
        unwrapped += line
        guard k < breaks.count else { break }
        let blank = { (s: Substring) in s.allSatisfy { $0 == " " || $0 == "\t" } }
        let lone = !blank(line) && k + 1 < lines.count && !blank(lines[k + 1])
        unwrapped += lone ? String(repeating: " ", count: String(breaks[k]).utf8.count) : String(breaks[k])
      }
      #expect(unwrapped.utf8.count == text.utf8.count)
      let prose = try Self.segments(text, .proseSentences).map(\.utf8.count)
      let icu = try Self.segments(unwrapped, .sentences).map(\.utf8.count)
      #expect(prose == icu, "\(text.debugDescription)")
    }
  }

  /// A document keeps prose sentences right while a blank line is removed and put back.
  @Test func editsJoinAndSplitParagraphs() throws {
    let document = try RotorDocument(elements: [TextElement(id: 0, text: "First part\nof one.\n\nSecond\npart.")])
    #expect(try document.rotor(.proseSentences).map(\.label) == ["First part\nof one.\n", "\n", "Second\npart."])
    let text = try document.text(of: 0)
    let blank = text.utf8.firstIndex(of: 0x0A)!
    let at = text.index(blank, offsetBy: 9)  // the blank line's line feed
    try document.replace(at..<text.index(after: at), in: 0, with: "")
    #expect(try document.rotor(.proseSentences).map(\.label) == ["First part\nof one.\n", "Second\npart."])
    try document.replace(utf8Range: 0..<0, in: 0, with: "Intro\n\n")
    #expect(
      try document.rotor(.proseSentences).map(\.label) == ["Intro\n", "\n", "First part\nof one.\n", "Second\npart."])
  }
}
