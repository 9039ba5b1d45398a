import Glibc
import Testing

@testable import TextRotor

/// `documentLocation` (line and column in the file) and `documentOffset` against a plain count on
/// the file's text, for a file opened as line elements whose terminators are LF, CR or CR LF, after
/// random edits that put line breaks at the ends and starts of elements (where a CR of one meets an
/// LF of the next, the two are one line break of the file).
@Suite("Document: file positions against a plain count")
struct DocumentLocationModelTests {
  @Test("random files and edits: every position's file line, column and offset are the plain count's")
  func randomEdits() throws {
    let seed = SeededRandom.seedFromEnvironment()
    var random = SeededRandom(seed: seed)
    let path = "/tmp/textrotor-location-model-\(getpid()).txt"
    defer { unlink(path) }
    for round in 0..<60 {
      let terminators = ["\n", "\r", "\r\n"]
      var texts: [String] = []
      var gaps: [String] = []
      for _ in 0..<Int.random(in: 1...6, using: &random) {
        texts.append(["", "a", "bc", "é", "x y"].randomElement(using: &random)!)
        gaps.append(terminators.randomElement(using: &random)!)
      }
      // The last line may have no terminator (then it is not empty: the file would end before it).
      if Bool.random(using: &random) { gaps[gaps.count - 1] = "" }
      if gaps.last == "" && texts.last == "" { texts[texts.count - 1] = "a" }
      // An empty line after a CR would read as the LF of a CR LF: not generated.
      for k in 1..<texts.count where gaps[k - 1] == "\r" && texts[k].isEmpty { texts[k] = "b" }
      try writeFile(path, zip(texts, gaps).map { $0 + $1 }.joined())
      let document = try RotorDocument<Int>(contentsOf: path, elements: .lines)
      texts = document.elements.map(\.text)
      #expect(texts.count == document.elementCount)
      for _ in 0..<8 {
        let k = Int.random(in: 0..<texts.count, using: &random)
        let n = texts[k].utf8.count
        let at = [0, n, Int.random(in: 0...n, using: &random)].randomElement(using: &random)!
        guard String.Index(texts[k].utf8.index(texts[k].utf8.startIndex, offsetBy: at), within: texts[k]) != nil
        else { continue }
        let insert = ["\n", "\r", "\r\n", "z"].randomElement(using: &random)!
        try document.replace(utf8Range: at..<at, in: document.elementID(at: k)!, with: insert)
        var bytes = Array(texts[k].utf8)
        bytes.insert(contentsOf: Array(insert.utf8), at: at)
        texts[k] = String(decoding: bytes, as: UTF8.self)
        try check(document, texts, gaps, "round \(round), seed \(seed)")
      }
    }
  }

  /// Every position of every element against the file's text (`texts` joined by `gaps`).
  func check(_ document: RotorDocument<Int>, _ texts: [String], _ gaps: [String], _ what: String) throws {
    let file = Array(zip(texts, gaps).map { $0 + $1 }.joined().utf8)
    var base = 0
    for (k, text) in texts.enumerated() {
      let id = document.elementID(at: k)!
      for o in 0...text.utf8.count {
        guard String.Index(text.utf8.index(text.utf8.startIndex, offsetBy: o), within: text) != nil else { continue }
        let position = try document.position(in: id, utf8Offset: o)
        let offset = base + o
        #expect(try document.documentOffset(of: position) == offset, "\(what): element \(k) offset \(o)")
        // Lines as LSP counts them (LF, CR LF and CR end a line; a position between a CR and its
        // LF is on the CR's line, after it), in every encoding: the naive walk of PositionCursor's tests.
        for encoding in [PositionEncoding.utf8, .utf16, .utf32] {
          let want = PositionCursorTests.model(file, offset, encoding)
          let location = try document.documentLocation(of: position, encoding: encoding)
          #expect(
            location == want,
            "\(what): element \(k) offset \(o) in \(texts) \(gaps), \(encoding): \(location), want \(want)")
        }
      }
      base += text.utf8.count + gaps[k].utf8.count
    }
  }
}
