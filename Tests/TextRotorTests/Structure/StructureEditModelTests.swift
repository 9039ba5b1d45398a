import Glibc
import Testing
import TextRotor

/// Random edits of Markdown and plain-text documents: after every edit each structure rotor (which
/// re-parses only the blocks around the edit) must equal the one of a document built from scratch
/// with the same text. A failure prints its seed (TEXTROTOR_SEED replays a random run).
///
/// Tables and reference definitions are inserted with blank lines around them: a table whose
/// header row is the last line of a paragraph (cmark-gfm splits the paragraph, and its inline
/// positions after the split are wrong, in a full parse as in a partial one) and a definition on
/// a line typed into the middle of a paragraph are known limits (README).
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
          let file = fopen("/tmp/structure-failure-\(k).md", "w")
          if let file {
            fputs(element.text, file)
            fclose(file)
          }
        }
        for (name, list) in [("got", got), ("expected", expected)] {
          if let file = fopen("/tmp/structure-failure-\(name).txt", "w") {
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
      let seed = seeds.next()
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
          try document.replace(a..<b, in: id, with: inserted)
        }
        try Self.check(document, format: format, seed: seed, step: step, lastEdit: lastEdit)
      }
    }
  }
}

extension StructureEditModelTests {
  /// Top-level blocks come out of cmark-gfm in document order (a check on its positions).
  @Test func blocksInOrder() throws {
    for text in ["a\n\n| x | y |\n|---|---|\n| 1 | 2 |\n\nb", "- a\n\n      code\n- b", "x\n===\n\ny"] {
      let bytes = ByteStorage(text)
      _ = try StructureScan.entries(StructureRotor.allCases, in: bytes, elements: [0..<bytes.count], format: .markdown)
    }
  }
}
