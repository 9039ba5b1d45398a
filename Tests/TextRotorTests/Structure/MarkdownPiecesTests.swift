import Foundation
import Testing
import TextRotorICU

@testable import TextRotor

/// A long Markdown element is parsed in pieces (``MarkdownPieces``): every entry, block, reference
/// line and bracketed text must equal those of one parse of the whole element, on the Markdown
/// corpora and on random documents whose link definitions are far from their uses (before and
/// after), with fences, lists, tables and HTML blocks across the places where pieces may end. A
/// failure prints its seed (TEXTROTOR_SEED replays a random run).
@Suite struct MarkdownPiecesTests {
  /// Everything found in `text`, parsed whole or in pieces of `pieceLength` bytes.
  static func found(_ bytes: ByteStorage, pieceLength: Int) throws -> [String] {
    var entries = StructureEntries()
    try RotorDocument<Int>.findStructure(
      in: bytes, range: 0..<bytes.count, format: .markdown, shift: 0, pieceLength: pieceLength, into: &entries)
    entries.sort()
    var lines: [String] = []
    for kind in StructureRotor.markdownKinds {
      for (range, payload) in entries.rotors[kind] ?? [] {
        let info = payload.info
        lines.append(
          "\(kind) \(range) \(payload.label ?? "-") \(info.level ?? 0) \(info.url ?? "-") \(info.items ?? 0) \(info.ordered ?? false)"
        )
      }
    }
    lines += entries.blocks.map { "block \($0.0) \($0.1)" }
    lines += entries.references.map { "reference \($0.0) \($0.1)" }
    lines += entries.usages.map { "usage \($0.0) \($0.1)" }
    lines += entries.units.map { "unit \($0.0)" }
    return lines
  }

  static func expectSame(_ bytes: ByteStorage, pieceLength: Int, _ context: @autoclosure () -> String) throws {
    let whole = try found(bytes, pieceLength: Int.max / 4)
    let pieces = try found(bytes, pieceLength: pieceLength)
    guard whole != pieces else { return }
    let extra = Set(pieces).subtracting(whole).sorted().prefix(5)
    let missing = Set(whole).subtracting(pieces).sorted().prefix(5)
    Issue.record(
      "\(context()), pieces of \(pieceLength) bytes: \(pieces.count) vs \(whole.count) lines; extra \(extra), missing \(missing)"
    )
  }

  @Test func corporaParseAsOneDocument() throws {
    let files = MarkdownDifferentialTests.files()
    #expect(!files.isEmpty)
    for file in files {
      let data = try Data(contentsOf: URL(fileURLWithPath: file))
      let bytes = ByteStorage([UInt8](data))
      for length in [2048, 32 * 1024] where bytes.count > 2 * length {
        try Self.expectSame(bytes, pieceLength: length, file)
      }
    }
  }

  static let labels = ["ref", "Ref", "other", "a b", "A  b", "ab", "x", "é", "É", "ß", "SS", "`code`"]

  /// Random Markdown: the edit model's pieces, plus definitions and uses of a few labels (some
  /// defined twice with other destinations, some only after their uses, some equal but for case
  /// and white space), fences and lists that run over blank lines.
  static func randomText(_ rng: inout SeededRandom, count: Int) -> String {
    var s = ""
    for _ in 0..<count {
      let label = labels[Int(rng.next() % UInt64(labels.count))]
      switch rng.next() % 12 {
      case 0: s += "\n\n[\(label)]: http://\(rng.next() % 4).example/\(label.count)\n\n"
      case 1: s += "[\(label)] "
      case 2: s += "[text][\(label)]\n"
      case 3: s += "\n```\ncode\n\nWords in a fence\n\n"
      case 4: s += "\n- item\n\n  Words in an item\n\nWords after\n"
      case 5: s += "\n\nA paragraph of words.\n\n"
      case 6: s += "\n<!--\n\nComment words\n\n-->\n"
      case 7: s += "\n\n# Heading [\(label)]\n"
      default:
        s += StructureEditModelTests.pieces[Int(rng.next() % UInt64(StructureEditModelTests.pieces.count))]
      }
    }
    return s
  }

  @Test func randomDocumentsParseAsOneDocument() throws {
    var seeds = SeededRandom(seed: SeededRandom.seedFromEnvironment(default: 0x91EC))
    for _ in 0..<150 {
      let seed = seeds.next()
      var rng = SeededRandom(seed: seed)
      let text = Self.randomText(&rng, count: 100 + Int(rng.next() % 300))
      let bytes = ByteStorage(Array(text.utf8))
      let length = 16 + Int(rng.next() % 256)
      try Self.expectSame(bytes, pieceLength: length, "seed \(seed)")
      // The command line asks for some kinds only (cmark's walk then makes no nodes, labels or
      // URLs of the others): the same entries of those.
      let all = try StructureScan.entries(
        StructureRotor.markdownKinds, in: bytes, elements: [0..<bytes.count], format: .markdown)
      for kind in StructureRotor.markdownKinds {
        let one = try StructureScan.entries([kind], in: bytes, elements: [0..<bytes.count], format: .markdown)
        #expect(one[kind] == all[kind], "seed \(seed): \(kind)")
        // Without labels (a count): the same entries, with no label and no URL.
        let bare = try StructureScan.entries(
          [kind], in: bytes, elements: [0..<bytes.count], format: .markdown, labels: false)
        #expect(bare[kind]?.map(\.range) == all[kind]?.map(\.range), "seed \(seed): \(kind)")
        #expect(bare[kind]?.allSatisfy { $0.label == nil && $0.info.url == nil } ?? false, "seed \(seed): \(kind)")
      }
    }
  }

  /// Entries are gathered by rotor ordinal and node kinds map to rotors by a switch: both agree
  /// with `allCases` and `nodeKind`.
  @Test func rotorOrdinalsAndNodeKinds() {
    for (k, rotor) in StructureRotor.allCases.enumerated() {
      #expect(rotor.ordinal == k, "\(rotor)")
      if let kind = rotor.nodeKind { #expect(StructureRotor(kind) == rotor, "\(rotor)") }
    }
    for kind in [MarkdownNodeKind.block, .htmlBlock, .paragraph, .definitions] { #expect(StructureRotor(kind) == nil) }
  }

  /// A definition used far before it and far after it: the pieces are parsed after (and with)
  /// the definitions the whole document has.
  @Test func definitionsFarFromTheirUses() throws {
    let filler = String(repeating: "Words and [brackets] of a paragraph.\n\n", count: 200)
    let text =
      "Before [ref] and [text][Other].\n\n" + filler + "[ref]: http://first.example\n\n" + filler
      + "[REF]: http://second.example\n[other]: http://other.example\n\n" + filler + "After [ref] [other].\n"
    let bytes = ByteStorage(Array(text.utf8))
    try Self.expectSame(bytes, pieceLength: 1000, "far definitions")
    var entries = StructureEntries()
    try RotorDocument<Int>.findStructure(
      in: bytes, range: 0..<bytes.count, format: .markdown, shift: 0, pieceLength: 1000, into: &entries)
    let urls = (entries.rotors[.links] ?? []).map { $0.1.info.url ?? "" }
    #expect(
      urls == [
        "http://first.example", "http://other.example", "http://first.example", "http://other.example",
      ])
  }
}
