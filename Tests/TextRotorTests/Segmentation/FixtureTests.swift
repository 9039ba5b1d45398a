import Testing
import TextRotor

/// What a fixture of `Corpora/` must give. Counts were made by hand from the files (each is short)
/// and cross-checked with tools that are not ICU (`grep -P` word runs, `wc`); lines and
/// paragraphs are also recounted by ``LineModel``, characters by Swift's `String.count`, and word
/// boundaries of the alphabetic files by ``WordModel``.
struct Fixture: CustomStringConvertible, Sendable {
  var name: String
  var lines: Int
  var paragraphs: Int
  var sentences: Int
  /// Words with a letter/number/kana/ideograph status; nil where a hand count is not practical
  /// (dictionary and CJK scripts: other tests check those).
  var wordsOnly: Int?
  /// Whether ``WordModel`` (alphabetic scripts only) can reproduce every word boundary.
  var alphabetic: Bool
  var description: String { name }

  static let all: [Fixture] = [
    Fixture(name: "english.txt", lines: 9, paragraphs: 5, sentences: 15, wordsOnly: 119, alphabetic: true),
    Fixture(name: "german.txt", lines: 7, paragraphs: 4, sentences: 11, wordsOnly: 74, alphabetic: true),
    Fixture(name: "russian.txt", lines: 7, paragraphs: 4, sentences: 10, wordsOnly: 57, alphabetic: true),
    // The question "Πόσα ήταν;" uses U+003B (what U+037E normalizes to): SContinue, not a sentence end.
    Fixture(name: "greek.txt", lines: 7, paragraphs: 4, sentences: 9, wordsOnly: 57, alphabetic: true),
    Fixture(name: "arabic.txt", lines: 5, paragraphs: 3, sentences: 8, wordsOnly: 38, alphabetic: true),
    Fixture(name: "hebrew.txt", lines: 5, paragraphs: 3, sentences: 7, wordsOnly: 37, alphabetic: true),
    Fixture(name: "hindi.txt", lines: 7, paragraphs: 4, sentences: 9, wordsOnly: 51, alphabetic: true),
    Fixture(name: "chinese.txt", lines: 7, paragraphs: 4, sentences: 9, wordsOnly: nil, alphabetic: false),
    Fixture(name: "japanese.txt", lines: 7, paragraphs: 4, sentences: 9, wordsOnly: nil, alphabetic: false),
    Fixture(name: "thai.txt", lines: 5, paragraphs: 3, sentences: 5, wordsOnly: nil, alphabetic: false),
    Fixture(name: "emoji.txt", lines: 5, paragraphs: 1, sentences: 5, wordsOnly: 32, alphabetic: false),
    Fixture(name: "combining-nfc.txt", lines: 3, paragraphs: 1, sentences: 3, wordsOnly: 21, alphabetic: true),
    Fixture(name: "combining-nfd.txt", lines: 3, paragraphs: 1, sentences: 3, wordsOnly: 21, alphabetic: true),
    Fixture(name: "crlf.txt", lines: 5, paragraphs: 2, sentences: 5, wordsOnly: 19, alphabetic: true),
    Fixture(name: "cr.txt", lines: 5, paragraphs: 2, sentences: 5, wordsOnly: 19, alphabetic: true),
    Fixture(name: "long-line.txt", lines: 1, paragraphs: 1, sentences: 1130, wordsOnly: 12430, alphabetic: true),
    Fixture(name: "invalid-utf8.bin", lines: 5, paragraphs: 1, sentences: 5, wordsOnly: 11, alphabetic: false),
    Fixture(name: "bom.txt", lines: 2, paragraphs: 1, sentences: 2, wordsOnly: 18, alphabetic: true),
    Fixture(name: "empty.txt", lines: 0, paragraphs: 0, sentences: 0, wordsOnly: 0, alphabetic: true),
    Fixture(name: "no-final-newline.txt", lines: 2, paragraphs: 1, sentences: 2, wordsOnly: 13, alphabetic: true),
    Fixture(name: "demo.txt", lines: 32, paragraphs: 7, sentences: 32, wordsOnly: 210, alphabetic: true),
  ]
}

/// Checks that hold for every rotor whose segments cover the text (characters, words, sentences,
/// linebreaks): segments tile each element exactly, in order, none empty; every boundary of valid
/// text is on a scalar boundary; labels round-trip to the same bytes.
func expectCovers(
  _ store: SegmentStore, _ bytes: ByteStorage, elements: [Range<Int>], rotor: SystemRotor, valid: Bool,
  _ context: String, sourceLocation: SourceLocation = #_sourceLocation
) {
  let segments = store.segments
  #expect(segments.count == store.count, sourceLocation: sourceLocation)
  var k = 0
  for element in elements where !element.isEmpty {
    var position = element.lowerBound
    while k < segments.count && segments[k].start < element.upperBound {
      let s = segments[k]
      guard s.start == position, s.end > s.start, s.end <= element.upperBound else {
        Issue.record(
          "\(context) \(rotor): segment \(k) \(s.range) does not continue \(position) in element \(element)",
          sourceLocation: sourceLocation)
        return
      }
      if valid {
        for b in [s.start, s.end] where b < bytes.count && bytes[b] & 0xC0 == 0x80 {
          Issue.record("\(context) \(rotor): boundary \(b) splits a UTF-8 sequence", sourceLocation: sourceLocation)
        }
        let raw = bytes.copyBytes(s.range)
        let label = bytes.string(s.range)
        if Array(label.utf8) != raw {
          Issue.record("\(context) \(rotor): label of \(s.range) does not round-trip", sourceLocation: sourceLocation)
        }
      }
      position = s.end
      k += 1
    }
    #expect(
      position == element.upperBound, "\(context) \(rotor): element \(element) covered up to \(position)",
      sourceLocation: sourceLocation)
  }
  #expect(k == segments.count, "\(context) \(rotor): segments outside the elements", sourceLocation: sourceLocation)
}

@Suite struct FixtureTests {
  static let coveringRotors: [SystemRotor] = [.characters, .words, .sentences, .linebreaks]

  static func segment(_ bytes: ByteStorage, _ elements: [Range<Int>], _ rotor: SystemRotor, locale: String = "")
    throws -> SegmentStore
  {
    try Segmenter(locale: locale, threads: 1).segment(bytes, elements: elements, rotor: rotor)
  }

  @Test(arguments: Fixture.all) func counts(_ fixture: Fixture) throws {
    let bytes = try Fixtures.bytes(fixture.name)
    let raw = bytes.copyBytes(0..<bytes.count)
    let valid = bytes.firstInvalidUTF8(in: 0..<bytes.count) == nil
    let elements = ElementKind.whole.ranges(in: bytes)
    #expect(elements.count == 1)
    let element = elements[0]
    let text = bytes.string(element)

    // Lines and paragraphs: the hand count, the independent model, the library.
    let modelLines = LineModel.lines(raw, element)
    let modelParagraphs = LineModel.paragraphs(raw, element)
    #expect(modelLines.count == fixture.lines)
    #expect(modelParagraphs.count == fixture.paragraphs)
    let lines = try Self.segment(bytes, elements, .lines)
    #expect(lines.segments.map(\.range) == modelLines)
    let paragraphs = try Self.segment(bytes, elements, .paragraphs)
    #expect(paragraphs.segments.map(\.range) == modelParagraphs)
    #expect(ElementKind.lines.ranges(in: bytes) == modelLines)
    #expect(ElementKind.paragraphs.ranges(in: bytes) == modelParagraphs)

    // Characters: Swift's own grapheme breaking.
    let characters = try Self.segment(bytes, elements, .characters)
    #expect(characters.count == text.count, "graphemes: ICU \(characters.count), Swift \(text.count)")

    let sentences = try Self.segment(bytes, elements, .sentences)
    #expect(sentences.count == fixture.sentences)

    let words = try Self.segment(bytes, elements, .words)
    let wordsOnly = words.segments.filter { $0.status.isWord }
    if let expected = fixture.wordsOnly { #expect(wordsOnly.count == expected) }
    if fixture.alphabetic {
      let model = WordModel.segments(text, base: element.lowerBound)
      #expect(words.segments.map(\.range) == model.map(\.range), "word boundaries differ from the UAX #29 model")
      #expect(wordsOnly.map(\.range) == model.filter(\.isWord).map(\.range), "words-only differs from the model")
    }

    for rotor in Self.coveringRotors {
      let store =
        rotor == .characters
        ? characters
        : rotor == .words
          ? words
          : rotor == .sentences
            ? sentences
            : try Self.segment(bytes, elements, rotor)
      expectCovers(store, bytes, elements: elements, rotor: rotor, valid: valid, fixture.name)
      // The concatenated labels are the text.
      if valid {
        var joined = ""
        store.forEach {
          joined += bytes.string($0.range); return true
        }
        #expect(joined == text)
      }
    }
    // Lines and paragraphs: sorted, inside the element, no terminator inside.
    for store in [lines, paragraphs] {
      var previous = element.lowerBound
      for s in store.segments {
        #expect(s.start >= previous && s.end >= s.start && s.end <= element.upperBound)
        previous = s.end
      }
    }
    for s in lines.segments {
      #expect(!raw[s.range].contains(0x0A) && !raw[s.range].contains(0x0D))
    }
  }

  /// Elements as lines and paragraphs: segments never cross an element, and cover each one.
  @Test(arguments: Fixture.all) func elementsOfLinesAndParagraphs(_ fixture: Fixture) throws {
    let bytes = try Fixtures.bytes(fixture.name)
    let valid = bytes.firstInvalidUTF8(in: 0..<bytes.count) == nil
    for kind in [ElementKind.lines, .paragraphs] {
      let elements = kind.ranges(in: bytes)
      for rotor in Self.coveringRotors {
        let store = try Self.segment(bytes, elements, rotor)
        expectCovers(store, bytes, elements: elements, rotor: rotor, valid: valid, "\(fixture.name) by \(kind)")
      }
    }
  }

  /// Cutting long elements after hard line breaks into 64-byte pieces segmented on two threads
  /// must change nothing.
  @Test(arguments: Fixture.all) func chunkingChangesNothing(_ fixture: Fixture) throws {
    let bytes = try Fixtures.bytes(fixture.name)
    for kind in ElementKind.allCases {
      let elements = kind.ranges(in: bytes)
      for rotor in SystemRotor.allCases {
        let one = try Segmenter(threads: 1, pieceSize: 1 << 30).segment(bytes, elements: elements, rotor: rotor)
        let cut = try Segmenter(threads: 2, pieceSize: 64).segment(bytes, elements: elements, rotor: rotor)
        #expect(cut.segments == one.segments, "\(fixture.name) \(kind) \(rotor)")
        // Prose sentences are cut after blank lines only.
        let cuttable = !rotor.spansLines || bytes.firstIndex(of: [0x0A, 0x0A], in: 0..<bytes.count) != nil
        if bytes.count > 256 && kind == .whole && rotor.coversText && fixture.lines > 2 && cuttable {
          #expect(cut.chunks.count > 1, "the cut must really happen: \(fixture.name) \(rotor)")
        }
      }
    }
  }

  // MARK: scripts

  static func words(_ text: String, locale: String = "") throws -> [(String, SegmentStatus)] {
    let bytes = ByteStorage(text)
    return try segment(bytes, [0..<bytes.count], .words, locale: locale).segments.map {
      (bytes.string($0.range), $0.status)
    }
  }

  /// Thai has no spaces between words: ICU's dictionary must find them.
  @Test func thaiDictionaryWords() throws {
    let sentence = "พ่อซื้อกาแฟเย็นให้ทุกคน"  // "Father bought iced coffee for everyone."
    let found = try Self.words(sentence)
    // father / buy / coffee / cold / give / every / person
    #expect(found.map(\.0) == ["พ่อ", "ซื้อ", "กาแฟ", "เย็น", "ให้", "ทุก", "คน"])
    #expect(found.allSatisfy { $0.1.isWord })
    // "I really like eating mango sticky rice": I / like / eat / rice / sticky / mango / very.
    let second = try Self.words("ฉันชอบกินข้าวเหนียวมะม่วงมาก")
    #expect(second.map(\.0) == ["ฉัน", "ชอบ", "กิน", "ข้าว", "เหนียว", "มะม่วง", "มาก"])
    // The same words inside the fixture.
    let bytes = try Fixtures.bytes("thai.txt")
    let text = bytes.string(0..<bytes.count)
    let store = try Self.segment(bytes, ElementKind.whole.ranges(in: bytes), .words)
    let labels = store.segments.filter(\.status.isWord).map { bytes.string($0.range) }
    #expect(text.contains(sentence))
    #expect(labels.joined().contains(sentence))
    for word in ["พ่อ", "ซื้อ", "กาแฟ", "เย็น", "ตลาด", "น้ำ", "ครอบครัว", "มะม่วง", "ขนม", "ไทย"] {
      #expect(labels.contains(word), "\(word) in \(labels)")
    }
    // Thai letters are never left in a non-word segment, and no segment is a whole line.
    for s in store.segments where !s.status.isWord {
      #expect(!bytes.string(s.range).unicodeScalars.contains { (0x0E01...0x0E5B).contains($0.value) })
    }
    #expect(labels.allSatisfy { $0.utf8.count < 60 })
  }

  /// Chinese and Japanese: words-only finds the ideograph and kana runs, none is dropped.
  @Test(arguments: ["chinese.txt", "japanese.txt"]) func cjkWordsOnly(_ name: String) throws {
    let bytes = try Fixtures.bytes(name)
    let store = try Self.segment(bytes, ElementKind.whole.ranges(in: bytes), .words)
    var ideographs = 0
    for s in store.segments {
      let label = bytes.string(s.range)
      let scalars = label.unicodeScalars
      let han = scalars.contains { $0.properties.isIdeographic }
      let isKana = scalars.contains { (0x3041...0x30FF).contains($0.value) }
      if han || isKana {
        #expect(s.status == .ideograph || s.status == .kana, "\(label) is \(s.status)")
      }
      if s.status == .ideograph { ideographs += 1 }
      if !s.status.isWord {
        #expect(!han && !isKana, "\(label) is a CJK word without a word status")
      }
    }
    #expect(ideographs >= 20)
    if name == "japanese.txt" {
      // Katakana runs are words of their own. Inside Japanese text ICU's CJK dictionary engine
      // handles kana and kanji together and tags every word it finds as an ideograph word; the
      // kana status comes only from the rules, for kana outside the dictionary's reach.
      let words = store.segments.filter(\.status.isWord).map { bytes.string($0.range) }
      for word in ["カタカナ", "コーヒー", "ショップ", "とても", "図書館"] { #expect(words.contains(word), "\(word) in \(words)") }
    }
    let known = name == "chinese.txt" ? ["公园", "孩子", "风筝", "妹妹", "天气"] : ["図書館", "今日", "雨", "駅"]
    let labels = Set(store.segments.map { bytes.string($0.range) })
    for word in known { #expect(labels.contains(word), "\(word) in \(labels.sorted())") }
  }

  /// Hand-made word lists for the emoji fixture: a ZWJ family, flags and skin tones are each one
  /// character; keycaps with a digit are numbers.
  @Test func emoji() throws {
    let bytes = try Fixtures.bytes("emoji.txt")
    let elements = ElementKind.whole.ranges(in: bytes)
    let characters = try Self.segment(bytes, elements, .characters).segments.map { bytes.string($0.range) }
    for cluster in ["👨‍👩‍👧‍👦", "👩‍❤️‍👨", "🇫🇷", "🇩🇪", "🇯🇵", "🇧🇷", "👍🏻", "👍🏿", "1️⃣", "#️⃣", "🏳️‍🌈", "❤️"] {
      #expect(characters.contains(cluster), "\(cluster) must be one character")
    }
    let words = try Self.segment(bytes, elements, .words).segments
    let labels = words.map { bytes.string($0.range) }
    for cluster in ["👨‍👩‍👧‍👦", "👩‍❤️‍👨", "🇫🇷", "👍🏽", "🏳️‍🌈"] { #expect(labels.contains(cluster), "\(cluster) one word segment") }
    let numbers = words.filter { $0.status == .number }.map { bytes.string($0.range) }
    #expect(numbers == ["1️⃣", "2️⃣", "3️⃣"])
    // Words-only: 29 words of letters (6 + 4 + 6 + 4 + 9 by line) plus the three digit keycaps.
    #expect(words.filter { $0.status == .letter }.count == 29)
  }

  /// NFC and NFD spell the same text: the same characters, words and sentences, by label.
  @Test func combiningNFCandNFD() throws {
    let nfc = try Fixtures.bytes("combining-nfc.txt")
    let nfd = try Fixtures.bytes("combining-nfd.txt")
    #expect(nfd.count == nfc.count + 10, "ten precomposed letters are two scalars in NFD")
    for rotor in [SystemRotor.characters, .words, .sentences, .linebreaks, .lines] {
      let a = try Self.segment(nfc, [0..<nfc.count], rotor).segments.map { nfc.string($0.range) }
      let b = try Self.segment(nfd, [0..<nfd.count], rotor).segments.map { nfd.string($0.range) }
      #expect(a.count == b.count, "\(rotor)")
      #expect(a == b, "\(rotor): Swift's String compares canonically")
    }
    let graphemes = try Self.segment(nfd, [0..<nfd.count], .characters).segments
    #expect(graphemes.contains { nfd.string($0.range).unicodeScalars.count == 2 })
  }

  // MARK: line ends, BOM, invalid bytes

  /// A CRLF is never split; lines exclude their terminators.
  @Test(arguments: ["crlf.txt", "cr.txt"]) func lineEnds(_ name: String) throws {
    let bytes = try Fixtures.bytes(name)
    let raw = bytes.copyBytes(0..<bytes.count)
    let crlf = (0..<raw.count - 1).filter { raw[$0] == 0x0D && raw[$0 + 1] == 0x0A }.map { $0 + 1 }
    #expect(crlf.isEmpty == (name == "cr.txt"))
    #expect(!raw.contains(0x0A) || name == "crlf.txt")
    for kind in ElementKind.allCases {
      let elements = kind.ranges(in: bytes)
      for rotor in SystemRotor.allCases {
        for s in try Self.segment(bytes, elements, rotor).segments {
          #expect(!crlf.contains(s.start) && !crlf.contains(s.end), "\(rotor) splits a CRLF at \(s.range)")
        }
      }
    }
    let lines = try Self.segment(bytes, [0..<bytes.count], .lines).segments
    #expect(
      lines.map { bytes.string($0.range) } == [
        name == "crlf.txt" ? "First line of a Windows file." : "Old Macintosh files ended lines with CR.",
        name == "crlf.txt" ? "Second line, with a comma." : "This is the second line.",
        "",
        name == "crlf.txt" ? "Fourth line after a blank one." : "After a blank line.",
        name == "crlf.txt" ? "Last line." : "No LF anywhere.",
      ])
    // A line's terminator belongs to the grapheme before the next line: CRLF is one character.
    let characters = try Self.segment(bytes, [0..<bytes.count], .characters).segments
    if name == "crlf.txt" { #expect(characters.filter { $0.end - $0.start == 2 && raw[$0.start] == 0x0D }.count == 5) }
  }

  /// No element, and so no entry, contains the byte order mark; a second U+FEFF is text.
  @Test func byteOrderMark() throws {
    let bytes = try Fixtures.bytes("bom.txt")
    #expect(bytes.copyBytes(0..<3) == [0xEF, 0xBB, 0xBF])
    for kind in ElementKind.allCases {
      let elements = kind.ranges(in: bytes)
      #expect(elements.allSatisfy { $0.lowerBound >= 3 }, "\(kind): \(elements)")
      #expect(elements.first?.lowerBound == 3)
      for rotor in SystemRotor.allCases {
        let segments = try Self.segment(bytes, elements, rotor).segments
        #expect(segments.allSatisfy { $0.start >= 3 }, "\(kind) \(rotor)")
        #expect(segments.first?.start == 3)
      }
    }
    let only = ByteStorage([0xEF, 0xBB, 0xBF])
    #expect(ElementKind.whole.ranges(in: only) == [3..<3])
    #expect(ElementKind.lines.ranges(in: only).isEmpty)
    #expect(ElementKind.paragraphs.ranges(in: only).isEmpty)
    let twice = ByteStorage("\u{FEFF}\u{FEFF}x")
    #expect(ElementKind.whole.ranges(in: twice) == [3..<7])
    let characters = try Self.segment(twice, ElementKind.whole.ranges(in: twice), .characters).segments
    #expect(characters.map(\.range) == [3..<6, 6..<7])
    #expect(TextFacts.byteOrderMarkLength(ByteStorage([0xEF, 0xBB])) == 0)
  }

  @Test func invalidUTF8() throws {
    let bytes = try Fixtures.bytes("invalid-utf8.bin")
    let raw = bytes.copyBytes(0..<bytes.count)
    let stray = try #require(raw.firstIndex(of: 0x80))
    let overlong = try #require(raw.firstIndex(of: 0xC0))
    let truncated = try #require(raw.firstIndex(of: 0xE2))
    #expect(stray == 19)
    #expect(raw[overlong + 1] == 0xAF && raw[truncated + 1] == 0x82 && raw[truncated + 2] == 0x20)
    #expect(bytes.firstInvalidUTF8(in: 0..<bytes.count) == stray)
    #expect(bytes.firstInvalidUTF8(in: (stray + 1)..<bytes.count) == overlong)
    #expect(bytes.firstInvalidUTF8(in: (overlong + 1)..<bytes.count) == overlong + 1, "AF is a stray continuation")
    #expect(bytes.firstInvalidUTF8(in: (overlong + 2)..<bytes.count) == truncated)
    #expect(bytes.firstInvalidUTF8(in: (truncated + 3)..<bytes.count) == nil)
    #expect(bytes.firstInvalidUTF8(in: 0..<stray) == nil)
    // Truncated at the very end of the range.
    #expect(bytes.firstInvalidUTF8(in: (truncated - 3)..<(truncated + 2)) == truncated)
    let elements = ElementKind.whole.ranges(in: bytes)
    for rotor in Self.coveringRotors {
      let store = try Self.segment(bytes, elements, rotor)
      expectCovers(store, bytes, elements: elements, rotor: rotor, valid: false, "invalid-utf8.bin")
      // Boundaries of ICU's UTF-8 text fall at the start of a (possibly ill-formed) sequence, never
      // inside a well-formed one.
      for s in store.segments where s.end < raw.count {
        let b = raw[s.end]
        if b & 0xC0 == 0x80 { #expect(s.end == stray || s.end == overlong + 1, "\(rotor) boundary \(s.end)") }
      }
    }
    // Labels are valid UTF-8 (U+FFFD for the bad bytes).
    let words = try Self.segment(bytes, elements, .words).segments
    #expect(
      words.filter(\.status.isWord).map { bytes.string($0.range) } == [
        "Valid", "start", "Stray", "continuation", "byte", "Overlong", "slash", "Truncated", "euro", "Valid", "end",
      ])
    #expect(bytes.string(0..<bytes.count).contains("\u{FFFD}"))
  }

  @Test func validUTF8EdgeCases() {
    func first(_ b: [UInt8]) -> Int? { ByteStorage(b).firstInvalidUTF8(in: 0..<b.count) }
    #expect(first(Array("plain ASCII text longer than eight bytes".utf8)) == nil)
    #expect(first(Array("€ 𝄞 ü".utf8)) == nil)
    #expect(first([0xED, 0xA0, 0x80]) == 0, "a surrogate")
    #expect(first([0xF4, 0x90, 0x80, 0x80]) == 0, "past U+10FFFF")
    #expect(first([0xE0, 0x80, 0xAF]) == 0, "overlong 3-byte")
    #expect(first([0x61, 0x62, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0xFF]) == 8)
    #expect(first([0x61, 0xF0, 0x9F, 0x98]) == 1, "truncated at the end")
  }
}
