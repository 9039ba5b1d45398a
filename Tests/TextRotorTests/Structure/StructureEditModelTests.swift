import Glibc
import Testing
import TextRotor

/// Random edits of Markdown and plain-text documents: after every edit each structure rotor (which
/// re-parses only the blocks around the edit) must equal the one of a document built from scratch
/// with the same text. A failure prints its seed (TEXTROTOR_SEED replays a random run).
///
/// Reference definitions are inserted with blank lines around them: a definition on a line typed
/// into the middle of a paragraph is a known limit (README). A table whose header row is the last
/// line of a paragraph was a divergence (`tableSplittingAParagraph`).
@Suite struct StructureEditModelTests {
  static let pieces = [
    "\n", "\n\n", "# ", "## ", "- ", "* ", "1. ", "> ", "  ", "    ", "```", "~~~", "```swift\n", "*", "**", "_",
    "[a](http://a.example)", "[ref]", "\n\n[ref]: http://ref.example\n\n", "<http://b.example>", "www.c.example",
    "d@e.example", "\n\n| x | y |\n|---|---|\n| 1 | 2 |\n\n", "| z |", "===", "---", "word", "Two words. ", "é", "😀",
    "\t", "`",
    "<div>", "\r\n",
  ]

  static func snapshot(_ document: RotorDocument<Int>, _ kind: StructureRotor) throws -> [String] {
    let rotor = try document.rotor(kind)
    return rotor.indices.map { i in
      let l = rotor.location(at: i)!
      let info = rotor.structureInfo(at: i)!
      return "\(l.element):\(l.utf8Range):\(rotor[i].label):\(info.level ?? 0):\(info.url ?? ""):\(info.items ?? 0)"
    }
  }

  static func randomText(_ rng: inout SeededRandom, count: Int) -> String {
    var s = ""
    for _ in 0..<count { s += pieces[Int(rng.next() % UInt64(pieces.count))] }
    return s
  }

  static func check(
    _ document: RotorDocument<Int>, format: DocumentFormat, seed: UInt64, step: Int, lastEdit: String
  ) throws {
    let fresh = try RotorDocument(elements: document.elements)
    fresh.format = format
    for kind in StructureRotor.allCases {
      let got = try snapshot(document, kind)
      let expected = try snapshot(fresh, kind)
      if got != expected {
        let extra = got.filter { !expected.contains($0) }
        let missing = expected.filter { !got.contains($0) }
        for (k, element) in document.elements.enumerated() {
          let file = fopen("/tmp/structure-failure-\(format)-\(k).md", "w")
          if let file {
            fputs(element.text, file)
            fclose(file)
          }
        }
        for (name, list) in [("got", got), ("expected", expected)] {
          if let file = fopen("/tmp/structure-failure-\(format)-\(name).txt", "w") {
            fputs(list.joined(separator: "\n"), file)
            fclose(file)
          }
        }
        Issue.record("seed \(seed), step \(step), \(kind): extra \(extra), missing \(missing); last edit \(lastEdit)")
        throw CancellationError()
      }
    }
  }

  @Test(arguments: [DocumentFormat.markdown, .text])
  func randomEditsMatchRebuild(format: DocumentFormat) throws {
    let fixture = try Fixtures.bytes("markdown/structure.md")
    let base = fixture.string(0..<fixture.count)
    var seeds = SeededRandom(seed: SeededRandom.seedFromEnvironment(default: format == .markdown ? 0x57AC : 0x7E47))
    for _ in 0..<TestScale.count(40) {
      try Self.run(seed: seeds.next(), base: base, format: format)
    }
  }

  /// One random document and 25 random edits, checked after each.
  static func run(seed: UInt64, base: String, format: DocumentFormat) throws {
    var rng = SeededRandom(seed: seed)
    let texts = [base] + (0..<Int(rng.next() % 3)).map { _ in Self.randomText(&rng, count: Int(rng.next() % 30)) }
    let document = try RotorDocument(
      elements: texts.enumerated().map { TextElement(id: $0.offset, text: $0.element) })
    document.format = format
    for kind in StructureRotor.allCases { _ = try document.rotor(kind) }
    var nextID = texts.count
    for step in 0..<25 {
      let ids = document.elementIDs
      var lastEdit = ""
      let roll = rng.next() % 20
      if roll == 0 && ids.count > 1 {
        try document.remove(ids[Int(rng.next() % UInt64(ids.count))])
      } else if roll == 1 {
        try document.insert(
          TextElement(id: nextID, text: Self.randomText(&rng, count: 8)), at: Int(rng.next() % UInt64(ids.count + 1)))
        nextID += 1
      } else if roll == 2 && ids.count > 1 {
        _ = try document.move(ids[Int(rng.next() % UInt64(ids.count))], to: Int(rng.next() % UInt64(ids.count)))
      } else {
        let id = ids[Int(rng.next() % UInt64(ids.count))]
        let text = try document.text(of: id)
        let scalars = Array(text.unicodeScalars.indices) + [text.endIndex]
        let a = scalars[Int(rng.next() % UInt64(scalars.count))]
        let span = Int(rng.next() % 12)
        let b = text.unicodeScalars.index(a, offsetBy: span, limitedBy: text.endIndex) ?? text.endIndex
        let inserted = rng.next() % 3 == 0 ? "" : Self.randomText(&rng, count: 1 + Int(rng.next() % 2))
        let before = text.utf8.distance(from: text.startIndex, to: a)
        lastEdit =
          "element \(id) bytes \(before)..<\(text.utf8.distance(from: text.startIndex, to: b)) \(String(text[a..<b]).debugDescription) -> \(inserted.debugDescription), context \(String(decoding: Array(text.utf8.dropFirst(Swift.max(0, before - 60)).prefix(140)), as: UTF8.self).debugDescription)"
        var entries: [StructureRotor: [String]] = [:]
        for kind in StructureRotor.allCases where kind != .misspelled { entries[kind] = try snapshot(document, kind) }
        let change = try document.replace(a..<b, in: id, with: inserted)
        // The change names the entries kept: those before its removed ones are as they were, and
        // the counts add up.
        for (kind, old) in entries {
          guard let c = change.rotors[kind.rawValue], !c.rebuilt else { continue }
          let new = try snapshot(document, kind)
          #expect(
            new.count == old.count - c.removed.count + c.added.count && c.removed.lowerBound == c.added.lowerBound
              && Array(old.prefix(c.removed.lowerBound)) == Array(new.prefix(c.added.lowerBound)),
            "seed \(seed), step \(step), \(kind): change \(c), \(old.count) -> \(new.count) entries")
        }
      }
      try Self.check(document, format: format, seed: seed, step: step, lastEdit: lastEdit)
    }
  }

  /// Runs of the random test that diverged from a rebuild (README's known limits, until fixed):
  /// TEXTROTOR_SEED=132142152557369 and 212208729590236 (plain-text links of the line before an
  /// edit, and of the window's last line, depend on whether the line after them is blank) and
  /// 135363125750704 (an autolink in a link's text was looked for after the link, and found in a
  /// later paragraph); found after them, TEXTROTOR_SEED=17495952257300 (a definition after an
  /// unclosed fence in a list item, which cmark-gfm ends on the line after the item) and
  /// 6678737317187 (an indented code block goes on after a blank line).
  @Test(arguments: [
    (UInt64(9_342_200_530_042_174_567), DocumentFormat.text), (10_319_496_316_939_862_749, .text),
    (8_356_355_594_841_474_512, .markdown), (16_088_726_577_002_256_089, .markdown),
    (10_455_665_919_315_582_160, .markdown),
  ])
  func divergedRuns(seed: UInt64, format: DocumentFormat) throws {
    let fixture = try Fixtures.bytes("markdown/structure.md")
    try Self.run(seed: seed, base: fixture.string(0..<fixture.count), format: format)
  }
}

extension StructureEditModelTests {
  /// Top-level blocks come out of cmark-gfm in document order (a check on its positions).
  @Test func blocksInOrder() throws {
    for text in ["a\n\n| x | y |\n|---|---|\n| 1 | 2 |\n\nb", "- a\n\n      code\n- b", "x\n===\n\ny"] {
      let bytes = ByteStorage(text)
      _ = try StructureScan.entries(
        StructureRotor.markdownKinds, in: bytes, elements: [0..<bytes.count], format: .markdown)
    }
  }
}

extension StructureEditModelTests {
  static func texts(_ text: String, _ kind: StructureRotor) throws -> [String] {
    let bytes = ByteStorage(Array(text.utf8))
    let found = try StructureScan.entries([kind], in: bytes, elements: [0..<bytes.count], format: .markdown)
    return (found[kind] ?? []).map { bytes.string($0.range) }
  }

  /// A table whose header row is a paragraph's last line: cmark-gfm splits the paragraph, gives
  /// the part before the header no position (its inlines count lines and columns from 0), and the
  /// header row the columns of the paragraph's text. Positions were garbage (an emphasis at the
  /// document's start), in a full parse and differently in an edit's window.
  @Test func tableSplittingAParagraph() throws {
    let text =
      "Intro *x* text\n\n| Column *a* | Column **b** | Link |\n|------------|:_\n-----:|-----:|\n| 1 | *one* |\n"
    #expect(try Self.texts(text, .emphasis) == ["*x*", "*a*", "*one*"])
    #expect(try Self.texts(text, .strong) == ["**b**"])
    #expect(try Self.texts(text, .tables) == ["|------------|:_\n-----:|-----:|\n| 1 | *one* |"])
    // Inlines of the header row, and of a split paragraph's later lines in a block quote.
    let header = "para *x*\n| *h* | [l](u) |\n|---|---|\n| 1 | 2 |\n"
    #expect(try Self.texts(header, .emphasis) == ["*x*", "*h*"])
    #expect(try Self.texts(header, .links) == ["[l](u)"])
    let quoted = "Intro\n\n> para *one*\n> more *two* x\n> | a | b |\n> |---|---|\n> | 1 | 2 |\n"
    #expect(try Self.texts(quoted, .emphasis) == ["*one*", "*two*"])
    #expect(try Self.texts(quoted, .tables) == ["| a | b |\n> |---|---|\n> | 1 | 2 |"])
  }

  /// The random run that found it (TEXTROTOR_SEED=12345: seed 7224149396417083062, step 4): the
  /// fixture's delimiter row edited so that its first half is a header row under the paragraph
  /// of the old header row.
  @Test func tableSplittingAParagraphAfterAnEdit() throws {
    let fixture = try Fixtures.bytes("markdown/structure.md")
    let text = fixture.string(0..<fixture.count)
    let document = try RotorDocument(elements: [TextElement(id: 0, text: text)])
    document.format = .markdown
    for kind in StructureRotor.allCases { _ = try document.rotor(kind) }
    let row = try #require(text.range(of: "|------------|:------------:|"))
    let dashes = text.utf8.distance(from: text.startIndex, to: row.lowerBound) + 15
    try document.replace(utf8Range: dashes..<(dashes + 7), in: 0, with: "_\r\n")
    try Self.check(document, format: .markdown, seed: 0, step: 0, lastEdit: "the delimiter row split")
    let emphasis = try document.rotor(.emphasis)
    let edited = try document.text(of: 0)
    let labels = emphasis.indices.map { i in
      String(decoding: Array(edited.utf8)[emphasis.location(at: i)!.utf8Range], as: UTF8.self)
    }
    #expect(labels.contains("*a*"))
    #expect(!labels.contains { !$0.hasPrefix("*") && !$0.hasPrefix("_") })
  }
}

extension StructureEditModelTests {
  static func links(_ document: RotorDocument<Int>) throws -> [String] {
    let rotor = try document.rotor(.links)
    return rotor.indices.map { "\(rotor.location(at: $0)!.utf8Range):\(rotor.structureInfo(at: $0)!.url ?? "")" }
  }

  /// Link reference definitions no longer make every edit re-parse the whole element: a window is
  /// parsed after the definitions of the labels it refers to, and only an edit that adds, removes
  /// or changes a definition re-parses everything (so links elsewhere take the new destination).
  @Test func editsBesideReferenceDefinitions() throws {
    var text = ""
    for k in 0..<200 { text += "Paragraph \(k) cites [doc \(k % 7)] and [Doc \(k % 7)][] and [x][spec].\n\n" }
    for k in 0..<7 { text += "[doc \(k)]: https://doc.example/\(k)\n" }
    text += "[SPEC]:\n  https://spec.example/\n"
    let document = try RotorDocument(elements: [TextElement(id: 0, text: text)])
    document.format = .markdown
    #expect(try document.rotor(.links).count == 600)
    // Typing in a paragraph: only its links are parsed again.
    let middle = try #require(text.range(of: "Paragraph 100 "))
    let p = text.utf8.distance(from: text.startIndex, to: middle.upperBound)
    let change = try document.replace(utf8Range: p..<p, in: 0, with: "also ")
    let links = try #require(change.rotors["links"])
    // The paragraph and the next one (which must parse as before): 6 of 600.
    #expect(links.removed.count == 6 && links.added.count == 6, "\(links)")
    let fresh = try RotorDocument(elements: document.elements)
    fresh.format = .markdown
    #expect(try Self.links(document) == Self.links(fresh))
    // A definition changed: every link that uses it follows.
    let edited = try document.text(of: 0)
    let definition = try #require(edited.range(of: "https://doc.example/3"))
    let d = edited.utf8.distance(from: edited.startIndex, to: definition.upperBound)
    try document.replace(utf8Range: (d - 1)..<d, in: 0, with: "33")
    // The destination on the line after `[SPEC]:` changed.
    let spec = try document.text(of: 0)
    let destination = try #require(spec.range(of: "spec.example"))
    let q = spec.utf8.distance(from: spec.startIndex, to: destination.lowerBound)
    try document.replace(utf8Range: q..<(q + 4), in: 0, with: "norm")
    let rebuilt = try RotorDocument(elements: document.elements)
    rebuilt.format = .markdown
    let got = try Self.links(document)
    #expect(got == (try Self.links(rebuilt)))
    #expect(got.filter { $0.hasSuffix("https://doc.example/33") }.count == 2 * (0..<200).filter { $0 % 7 == 3 }.count)
    #expect(got.filter { $0.hasSuffix("https://norm.example/") }.count == 200)
  }
}

extension StructureEditModelTests {
  /// TEXTROTOR_SEED=26633701515156 (seed 18298898622358029555, step 9): cmark-gfm ends an indented
  /// code block at the blank line before the next block, so after an edit below it the window's
  /// parse (which stops at the next non-blank line) and a full parse gave different ends.
  @Test func indentedCodeBlockEnd() throws {
    #expect(try Self.texts("text\n\n\tcode line\n\n\n\n- list\n", .codeBlocks) == ["code line"])
    let text = "text\n\n\tA line of code.\n\n- tight\n- list\n+ other\n"
    let document = try RotorDocument(elements: [TextElement(id: 0, text: text)])
    document.format = .markdown
    for kind in StructureRotor.markdownKinds { _ = try document.rotor(kind) }
    let p = text.utf8.count - "- tight\n- list\n+ other\n".utf8.count
    try document.replace(utf8Range: p..<(p + 7), in: 0, with: "\n")
    try Self.check(document, format: .markdown, seed: 0, step: 0, lastEdit: "- tight -> LF")
  }
}

extension StructureEditModelTests {
  static func edited(_ text: String, format: DocumentFormat, _ edit: Range<Int>, _ inserted: String) throws {
    let document = try RotorDocument(elements: [TextElement(id: 0, text: text)])
    document.format = format
    for kind in StructureRotor.allCases { _ = try document.rotor(kind) }
    try document.replace(utf8Range: edit, in: 0, with: inserted)
    try check(document, format: format, seed: 0, step: 0, lastEdit: "\(edit) -> \(inserted.debugDescription)")
  }

  /// Plain text: `www.` at a line's end is a link only when the next line has text (cmark-gfm reads
  /// the line break as part of the domain), so an edit that blanks a line changes the links of the
  /// line before it (TEXTROTOR_SEED=132142152557369), and an edit's last line needs the line after
  /// it (TEXTROTOR_SEED=212208729590236: `https://com_` is no link before a line of text).
  @Test func plainTextLinksDependOnTheNextLine() throws {
    #expect(Linkifier.links(in: "see www.\nmore\n").map(\.url) == ["http://www"])
    #expect(Linkifier.links(in: "see www.\n x\n").map(\.url) == ["http://www"])
    #expect(Linkifier.links(in: "see www.\n \n").isEmpty)
    #expect(Linkifier.links(in: "see https://com_\nLists\n").isEmpty)
    #expect(Linkifier.links(in: "see https://com_\n").map(\.url) == ["https://com"])
    // The `x` of the second line removed: the first line's link goes.
    try Self.edited("see www.\n x\n", format: .text, 10..<11, "")
    // The first line's `x` removed: `https://com_` stays no link, the next line has text.
    try Self.edited("x see https://com_\nLists\n", format: .text, 0..<1, "")
  }

  /// TEXTROTOR_SEED=135363125750704: an autolink in a link's text (`[a <http://b.example> c](u)`)
  /// was looked for after the link, and found in a later paragraph — a link there twice in a full
  /// parse, once after an edit. It is in the link's text, and a search never leaves the top-level
  /// block.
  @Test func autolinkInsideALink() throws {
    let text = "para [a <http://b.example> c](http://x.example).\n\nlater <http://b.example>\n"
    let bytes = ByteStorage(text)
    let links = try #require(
      try StructureScan.entries([.links], in: bytes, elements: [0..<bytes.count], format: .markdown)[.links])
    #expect(links.map(\.range) == [5..<47, 8..<26, 56..<74])
    #expect(links.map(\.info.url) == ["http://x.example", "http://b.example", "http://b.example"])
    try Self.edited(text, format: .markdown, 0..<4, "Para")
  }
}

extension StructureEditModelTests {
  /// TEXTROTOR_SEED=17495952257300: cmark-gfm ends an unclosed fence in a list item on the line
  /// after the item, so the definition there was taken for code and its removal went unseen (the
  /// link using it stayed).
  @Test func definitionAfterAnUnclosedFenceInAListItem() throws {
    let text = "A [ref] link.\n\n* ~~~~~~>\n\n[ref]: http://ref.example\n"
    #expect(try Self.texts(text, .links) == ["[ref]"])
    let colon = text.utf8.count - " http://ref.example\n".utf8.count
    try Self.edited(text, format: .markdown, (colon - 3)..<colon, "_ ")
  }

  /// TEXTROTOR_SEED=6678737317187: an indented code block goes on after a blank line, so an edit
  /// that makes the next block indented code joins them.
  @Test func indentedCodeAfterABlankLine() throws {
    try Self.edited("\t\u{E9}\n\n\u{E9}  <div>x\n", format: .markdown, 5..<10, "\t")
  }
}

extension StructureEditModelTests {
  /// Labels match case-folded (`[ς]` uses `[Σ]: /url`, as in cmark-gfm): a window holding `[ς]`
  /// is parsed after that definition (lowercasing alone gave `ς` and `σ` different keys).
  @Test func labelsMatchCaseFolded() throws {
    let text = "[\u{3C2}] link\n\nOne.\n\nTwo.\n\n[\u{3A3}]: /url\n"
    #expect(try Self.texts(text, .links) == ["[\u{3C2}]"])
    try Self.edited(text, format: .markdown, 4..<8, "word")
  }
}

extension StructureEditModelTests {
  /// Long top-level lists (a changelog's shape): an edit inside one parses only the items around
  /// it (`itemWindow`), and the list's own entry (its end, its item count) is set from them.
  static func listText(_ rng: inout SeededRandom) -> String {
    var s = "# Changes\n\n"
    for list in 0..<3 {
      let marker = ["- ", "* ", "1. "][list]
      for item in 0..<(6 + Int(rng.next() % 6)) {
        s += marker + "item \(item) *with* [a link](http://a.example) and **strong** text\n"
        switch rng.next() % 6 {
        case 0: s += "  continued on a second line www.c.example\n"
        case 1: s += "\n  A second paragraph [ref].\n\n"
        case 2: s += "  - nested *one*\n  - nested two\n"
        case 3: s += "\n      indented code\n\n"
        case 4: s += "  ```\n  fenced\n  ```\n"
        default: break
        }
      }
      s += "\nBetween the lists.\n\n"
    }
    return s + "[ref]: http://ref.example\n"
  }

  @Test func randomEditsInLongLists() throws {
    var seeds = SeededRandom(seed: SeededRandom.seedFromEnvironment(default: 0x1157))
    for _ in 0..<TestScale.count(40) {
      var rng = SeededRandom(seed: seeds.next())
      try Self.run(seed: rng.next(), base: Self.listText(&rng), format: .markdown)
    }
  }

  /// An edit in a list item that joins it to the item before, ends the list or starts another
  /// one: the window of items does not parse as one list, and the whole list is parsed.
  @Test func editsThatChangeTheList() throws {
    let text = "- one\n- two *x*\n- three\n- four\n\nAfter.\n"
    try Self.edited(text, format: .markdown, 6..<8, "")  // "two" joins "one"
    try Self.edited(text, format: .markdown, 6..<7, "*")  // "* two": a new list
    try Self.edited(text, format: .markdown, 15..<16, "\n\nEnd.\n\n")  // the list ends there
    try Self.edited(text, format: .markdown, 23..<23, "\n- new")  // one item more
    try Self.edited(text, format: .markdown, 28..<29, "")  // in the last item
    try Self.edited(text, format: .markdown, 24..<30, "")  // the last item goes
  }
}

extension StructureEditModelTests {
  /// TEXTROTOR_SEED=12336323824499 (seed 6408994840859374888, step 9): on a lazy continuation line
  /// of a block quote, cmark-gfm's columns count the line's indentation (after the `>` markers it
  /// found), which the column correction stripped: the emphasis was 5 bytes late, in a full parse too.
  @Test func lazyContinuationLineOfABlockQuote() throws {
    #expect(try Self.texts("> para\n     continued *x*\n", .emphasis) == ["*x*"])
    #expect(try Self.texts("> > para\n>     continued *x*\n", .emphasis) == ["*x*"])
    #expect(try Self.texts("> para\n> continued *x*\n\n> para\ncontinued *y*\n", .emphasis) == ["*x*", "*y*"])
    try Self.edited("> para\n     continued *x*\n\nNext.\n", format: .markdown, 28..<28, "word")
  }

  @Test(arguments: [(UInt64(6_408_994_840_859_374_888), DocumentFormat.markdown)])
  func lazyContinuationRun(seed: UInt64, format: DocumentFormat) throws {
    let fixture = try Fixtures.bytes("markdown/structure.md")
    try Self.run(seed: seed, base: fixture.string(0..<fixture.count), format: format)
  }
}

extension StructureEditModelTests {
  /// A label's first valid definition is the one that holds: an edit to a later one parses no block
  /// that uses the label again (its links keep their URL); one to the first, or after a first
  /// line that is no definition, does.
  @Test func editsToALaterDefinition() throws {
    let text = "Use [a] here.\n\n[a]: /one\n\nMore [a].\n\n[a]: /two\n"
    let later = text.utf8.count - 4
    try Self.edited(text, format: .markdown, later..<later, "x")
    let document = try RotorDocument(elements: [TextElement(id: 0, text: text)])
    document.format = .markdown
    _ = try document.rotor(.links)
    try document.replace(utf8Range: later..<later, in: 0, with: "x")
    #expect(try Self.links(document).count == 2)
    #expect(
      try document.rotor(.links).indices.map { try document.rotor(.links).structureInfo(at: $0)!.url } == [
        "/one", "/one",
      ])
    try Self.edited(text, format: .markdown, 21..<21, "x")  // the first one
    let invalid = "Use [a] here.\n\n[a]: <x\n\nMore [a].\n\n[a]: /two\n"
    try Self.edited(invalid, format: .markdown, invalid.utf8.count - 4..<invalid.utf8.count - 4, "x")
  }
}

extension StructureEditModelTests {
  /// Runs of link reference definitions (node.js's docs end each file with hundreds), between
  /// paragraphs that use them, with titles, destinations on the next line, a title on the line
  /// after, a paragraph right after the run and definitions in list items and block quotes: an
  /// edit inside a one-line definition parses only that line (`definitionWindow`).
  static func definitionsText(_ rng: inout SeededRandom) -> String {
    var s = ""
    for run in 0..<3 {
      s += "Paragraph \(run) uses [a], [b][], [Text][c] and [d] *here*.\n\n"
      if run == 1 { s += "- [x]: /in-a-list\n- [a]: /list\n\n> [b]: /quoted\n\n" }
      for k in 0..<(4 + Int(rng.next() % 6)) {
        let label = ["a", "b", "c", "d", "e", "A", "B "][Int(rng.next() % 7)]
        switch rng.next() % 6 {
        case 0: s += "[\(label)]: /u\(k) \"title \(k)\"\n"
        case 1: s += "[\(label)]:\n  /next-line\(k)\n"
        case 2: s += "[\(label)]: /u\(k)\n'title on the next line'\n"
        case 3: s += "[\(label)]: <x\(k)\n"  // no definition
        default: s += "[\(label)]: https://example.org/\(k)\n"
        }
      }
      s += ["\n", "", "\n\n"][Int(rng.next() % 3)]
    }
    return s + "Last [e] and [B] paragraph.\n"
  }

  @Test func randomEditsInDefinitionRuns() throws {
    var seeds = SeededRandom(seed: SeededRandom.seedFromEnvironment(default: 0xDEF5))
    for _ in 0..<TestScale.count(40) {
      var rng = SeededRandom(seed: seeds.next())
      try Self.run(seed: rng.next(), base: Self.definitionsText(&rng), format: .markdown)
    }
  }

  /// An edit inside a later one-line definition of a run parses that line alone: no link (those of
  /// the paragraph before the run were parsed again) and no block changes; links follow a first
  /// definition's new destination.
  @Test func editInsideADefinitionRun() throws {
    var text = "Uses [a] and [b] and [c](/inline).\n\n"
    for k in 0..<50 { text += "[l\(k)]: https://example.org/\(k)\n" }
    text += "[a]: /first\n[b]: /second\n[a]: /later\n\nEnd [l3].\n"
    let later = try #require(text.range(of: "/later"))
    let p = text.utf8.distance(from: text.startIndex, to: later.upperBound)
    let document = try RotorDocument(elements: [TextElement(id: 0, text: text)])
    document.format = .markdown
    for kind in StructureRotor.markdownKinds { _ = try document.rotor(kind) }
    let change = try document.replace(utf8Range: p..<p, in: 0, with: "x")
    let links = try #require(change.rotors["links"])
    #expect(links.removed.isEmpty && links.added.isEmpty, "\(links)")
    try Self.check(document, format: .markdown, seed: 0, step: 0, lastEdit: "/later -> /laterx")
    let first = try #require(text.range(of: "/first"))
    let q = text.utf8.distance(from: text.startIndex, to: first.upperBound)
    try document.replace(utf8Range: q..<q, in: 0, with: "y")
    try Self.check(document, format: .markdown, seed: 0, step: 1, lastEdit: "/first -> /firsty")
    #expect(try Self.links(document).contains { $0.hasSuffix(":/firsty") })
  }

  /// An edit in the first item of a long list parses the items to the next one, not the list.
  @Test func editInTheFirstItemOfALongList() throws {
    var text = "Before.\n\n"
    for k in 0..<100 { text += "- item \(k) [link](/\(k))\n" }
    text += "\nAfter.\n"
    let document = try RotorDocument(elements: [TextElement(id: 0, text: text)])
    document.format = .markdown
    for kind in StructureRotor.markdownKinds { _ = try document.rotor(kind) }
    let p = "Before.\n\n- item".utf8.count
    let change = try document.replace(utf8Range: p..<p, in: 0, with: "x")
    let items = try #require(change.rotors["listItems"])
    #expect(items.removed.count <= 2 && items.added.count <= 2, "\(items)")
    try Self.check(document, format: .markdown, seed: 0, step: 0, lastEdit: "first item")
    // After a list, or with no blank line before it, the whole list is parsed again (and right).
    try Self.edited("- a\n- b\n\n* one\n* two\n* three\n", format: .markdown, 14..<14, "x")
    try Self.edited("Para\n- one\n- two\n- three\n", format: .markdown, 8..<8, "x")
    try Self.edited("Para\n\n- one\n- two\n- three\n", format: .markdown, 6..<7, "")
    try Self.edited("Para\n\n- one\n- two\n- three\n", format: .markdown, 6..<7, "1.")
    try Self.edited("Para\n\n1. one\n2. two\n3. three\n", format: .markdown, 6..<7, "7")
  }
}

extension StructureEditModelTests {
  /// Seed 13801024733143094241 of `randomEditsInDefinitionRuns`, step 20: cmark-gfm takes link
  /// reference definitions off the start of a setext heading as off a paragraph's, and counts the
  /// heading's inline lines from after them. Those definition lines were held as heading text (no
  /// reference line): a link using them was lost after an edit, and an emphasis in the heading was
  /// placed on a definition line, in a full parse too.
  @Test func setextHeadingAfterDefinitions() throws {
    let text = "[b]:\n  /x\n[c]: <x3\nmore *em*\n===\n\nUse [b].\n"
    #expect(try Self.texts(text, .emphasis) == ["*em*"])
    #expect(try Self.texts(text, .links) == ["[b]"])
    let paragraph = "[b]:\n  /x\n[c]: <x3\nmore *em*\n\nUse [b].\n"
    let p = "[b]:\n  /x\n[c]: <x3\nmore *em*".utf8.count
    try Self.edited(paragraph, format: .markdown, p..<p, "\n===")
    try Self.edited(text, format: .markdown, text.utf8.count - 3..<text.utf8.count - 3, "x")
  }
}

extension StructureEditModelTests {
  /// A file repeated (the corpus's shape): typing in the label of a later copy's definition
  /// changes no link. Its old label keeps the first copy's definition; its new label is used by
  /// nothing but the definition's own label, so no block is parsed again.
  @Test func typingInTheLabelOfALaterDefinition() throws {
    let file = "Use [`A.b()`] and [C].\n\n[`A.b()`]: a.md#x\n[C]: c.md\n\n"
    let text = file + file + file
    let label = 2 * file.utf8.count + "Use [`A.b()`] and [C].\n\n[`A".utf8.count
    let document = try RotorDocument(elements: [TextElement(id: 0, text: text)])
    document.format = .markdown
    for kind in StructureRotor.markdownKinds { _ = try document.rotor(kind) }
    for (range, inserted) in [(label..<label, "x"), (label..<(label + 1), "")] {
      let change = try document.replace(utf8Range: range, in: 0, with: inserted)
      let links = try #require(change.rotors["links"])
      #expect(links.removed.isEmpty && links.added.isEmpty, "\(inserted.debugDescription): \(links)")
      try Self.check(document, format: .markdown, seed: 0, step: 0, lastEdit: "label \(inserted.debugDescription)")
    }
  }
}

extension StructureEditModelTests {
  /// A list right after a run of definitions (no blank line: no block before it): an edit that
  /// makes its first item empty (`-`, which cannot interrupt a paragraph) joins it to them.
  @Test func firstItemAfterDefinitions() throws {
    let text = "Text [a].\n\n[a]: /u\n- one\n- two\n- three\n"
    let one = "Text [a].\n\n[a]: /u\n- ".utf8.count
    try Self.edited(text, format: .markdown, one..<(one + 3), "")
    try Self.edited("[a]: /u\n- one\n- two\n", format: .markdown, 10..<13, "")
  }
}
