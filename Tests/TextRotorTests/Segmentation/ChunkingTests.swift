import Testing
import TextRotor

/// The segmenter cuts long elements after hard line breaks and segments the pieces independently,
/// on several threads. On random texts mixing scripts, tricky sequences and every kind of line end,
/// the result must be exactly that of one piece on one thread.
@Suite struct ChunkingTests {
  static let snippets: [String] = [
    "The quick brown fox.", "Mr. Smith arrived at 3.30 p.m. today!", "equals .35 cents", "-foo", ",0", "a:b",
    "e.g. this", "don't", "U.S.A.", "$(12.35)", "Grüße aus Köln.", "Привет, мир!", "Καλημέρα; ναι.",
    "مرحبا بالعالم؟", "שלום עולם.", "नमस्ते दुनिया।", "你好，世界。", "日本語のテキストです。", "カタカナ",
    "ภาษาไทยไม่มีช่องว่าง", "สวัสดีครับ", "👨‍👩‍👧‍👦", "🇫🇷🇩🇪", "🇯", "👍🏽", "1️⃣", "\u{0308}", "e\u{0301}",
    "\u{200D}", "\u{FEFF}", "\u{00A0}", "\u{2028}", "\u{0085}", "\u{000C}", "\t", " ", "  ", "\"", "(", ")",
    "42", "3.14", "x", "...", "?!", "。", "\u{3000}",
  ]
  static let lineEnds = ["\n", "\r\n", "\r", "\n\n", "\r\n\r\n", " \n", "\t\r\n", "\r\r", "\n\r"]

  static func randomText(_ rng: inout SeededRandom) -> String {
    var text = ""
    let parts = Int(rng.next() % 120)
    for _ in 0..<parts {
      if rng.next() % 4 == 0 {
        text += lineEnds[Int(rng.next() % UInt64(lineEnds.count))]
      } else {
        text += snippets[Int(rng.next() % UInt64(snippets.count))]
        if rng.next() % 2 == 0 { text += " " }
      }
    }
    return text
  }

  @Test func randomTextsGiveTheSameSegments() throws {
    for seed in UInt64(1)...300 {
      var rng = SeededRandom(seed: seed)
      let text = Self.randomText(&rng)
      let bytes = ByteStorage(text)
      let pieceSize = rng.next() % 2 == 0 ? 64 : Int(rng.next() % 100) + 1
      for kind in ElementKind.allCases {
        let elements = kind.ranges(in: bytes)
        for rotor in SystemRotor.allCases {
          let one = try Segmenter(threads: 1, pieceSize: 1 << 30).segment(bytes, elements: elements, rotor: rotor)
          let cut = try Segmenter(threads: 2, pieceSize: pieceSize).segment(bytes, elements: elements, rotor: rotor)
          if cut.segments != one.segments {
            let a = one.segments
            let b = cut.segments
            let k = (0..<min(a.count, b.count)).first { a[$0] != b[$0] } ?? min(a.count, b.count)
            let inOne = k < a.count ? "\(a[k])" : "-"
            let inCut = k < b.count ? "\(b[k])" : "-"
            Issue.record(
              "seed \(seed), pieceSize \(pieceSize), \(kind), \(rotor): first difference at segment \(k): one piece \(inOne), cut \(inCut) in \(String(reflecting: text))"
            )
            return
          }
          if rotor.coversText {
            expectCovers(cut, bytes, elements: elements, rotor: rotor, valid: true, "seed \(seed)")
          }
        }
      }
    }
  }

  /// A sanity check that the random texts do get cut: many chunks for a small piece size.
  @Test func piecesAreReallyCut() throws {
    var rng = SeededRandom(seed: 99)
    var text = ""
    while text.utf8.count < 4000 { text += Self.randomText(&rng) + "\n" }
    let bytes = ByteStorage(text)
    let store = try Segmenter(threads: 2, pieceSize: 64).segment(bytes, elements: [0..<bytes.count], rotor: .words)
    #expect(store.chunks.count > 20)
  }
}
