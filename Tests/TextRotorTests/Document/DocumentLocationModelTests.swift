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
        if Int.random(in: 0..<5, using: &random) == 0 {
          // The whole line deleted: an empty element, between a CR and an LF perhaps.
          try document.replace(utf8Range: 0..<n, in: document.elementID(at: k)!, with: "")
          texts[k] = ""
          try check(document, texts, gaps, "round \(round), seed \(seed), emptied")
          continue
        }
        let insert = ["\n", "\r", "\r\n", "z"].randomElement(using: &random)!
        try document.replace(utf8Range: at..<at, in: document.elementID(at: k)!, with: insert)
        var bytes = Array(texts[k].utf8)
        bytes.insert(contentsOf: Array(insert.utf8), at: at)
        texts[k] = String(decoding: bytes, as: UTF8.self)
        try check(document, texts, gaps, "round \(round), seed \(seed)")
      }
    }
  }

  @Test("paragraph elements: gaps of several blank lines ending in LF, CR or CR LF, then edits at their edges")
  func paragraphEdits() throws {
    let seed = SeededRandom.seedFromEnvironment()
    var random = SeededRandom(seed: seed)
    let path = "/tmp/textrotor-location-paragraphs-\(getpid()).txt"
    defer { unlink(path) }
    let terminators = ["\n", "\r", "\r\n"]
    for round in 0..<60 {
      var texts: [String] = []
      var gaps: [String] = []
      for _ in 0..<Int.random(in: 1...5, using: &random) {
        // A paragraph: one or two non-blank lines.
        var text = ["a", "bc", "é", "x y"].randomElement(using: &random)!
        if Bool.random(using: &random) {
          text += terminators.randomElement(using: &random)! + ["d", "ef"].randomElement(using: &random)!
        }
        texts.append(text)
        // Its last line's terminator, then blank lines (spaces or nothing) with theirs; an empty
        // line after a CR is not generated (it would read as the LF of a CR LF).
        var gap = terminators.randomElement(using: &random)!
        for _ in 0..<Int.random(in: 1...3, using: &random) {
          var blank = ["", " ", "\t "].randomElement(using: &random)!
          let terminator = terminators.randomElement(using: &random)!
          if blank.isEmpty && gap.hasSuffix("\r") && terminator.hasPrefix("\n") { blank = " " }
          gap += blank + terminator
        }
        gaps.append(gap)
      }
      // The last paragraph: its terminator alone, or none, or blank lines after it, the last one
      // of spaces without a terminator.
      gaps[gaps.count - 1] = ["", "\n", "\r\n", "\n  ", "\r\n\n "].randomElement(using: &random)!
      // Blank lines before the first paragraph (the document's origin).
      let origin = ["", "\n", "\r", " \r", "\n\t\r", "\u{FEFF}\r", "\u{FEFF}"].randomElement(using: &random)!
      try writeFile(path, origin + zip(texts, gaps).map { $0 + $1 }.joined())
      let document = try RotorDocument<Int>(contentsOf: path, elements: .paragraphs)
      #expect(document.elements.map(\.text) == texts, "round \(round), seed \(seed)")
      guard document.elements.map(\.text) == texts else { continue }
      try check(document, texts, gaps, "round \(round), seed \(seed)", origin: origin)
      // nil: a virtual gap (one line feed, but none after the last element).
      var separators: [String?] = gaps.map { $0.isEmpty ? nil : $0 }
      func fileGaps() -> [String] {
        separators.enumerated().map { k, gap in gap ?? (k + 1 < separators.count ? "\n" : "") }
      }
      for step in 0..<6 {
        // Sometimes a new element comes in (with a virtual gap), or one is emptied.
        if Int.random(in: 0..<6, using: &random) == 0 {
          let at = Int.random(in: 0...texts.count, using: &random)
          _ = try document.insert(TextElement(id: 1000 + round * 10 + step, text: "new"), at: at)
          texts.insert("new", at: at)
          separators.insert(nil, at: at)
          try check(document, texts, fileGaps(), "round \(round), seed \(seed), inserted", origin: origin)
        } else if Int.random(in: 0..<6, using: &random) == 0 {
          let k = Int.random(in: 0..<texts.count, using: &random)
          try document.replace(utf8Range: 0..<texts[k].utf8.count, in: document.elementID(at: k)!, with: "")
          texts[k] = ""
          try check(document, texts, fileGaps(), "round \(round), seed \(seed), emptied", origin: origin)
        }
        // Sometimes an element moves (it leaves its gap behind and gets a virtual one; a move to
        // where it is changes nothing).
        if texts.count > 1 && Int.random(in: 0..<4, using: &random) == 0 {
          let from = Int.random(in: 0..<texts.count, using: &random)
          let to = Int.random(in: 0..<texts.count, using: &random)
          _ = try document.move(document.elementID(at: from)!, to: to)
          if from != to {
            texts.insert(texts.remove(at: from), at: to)
            separators.remove(at: from)
            separators.insert(nil, at: to)
          }
          #expect(document.elements.map(\.text) == texts, "round \(round), seed \(seed)")
          try check(document, texts, fileGaps(), "round \(round), seed \(seed), moved", origin: origin)
        }
        // Line breaks typed at an element's start or end (next to its gaps) or inside it.
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
        try check(document, texts, fileGaps(), "round \(round), seed \(seed)", origin: origin)
      }
    }
  }

  @Test(
    "files whose separators end in spaces, or all blank, then elements put after them; empty elements between a CR and an LF"
  )
  func separatorEdges() throws {
    let path = "/tmp/textrotor-location-edges-\(getpid()).txt"
    defer { unlink(path) }
    // A file of blank lines only (no paragraph: all of it is the origin), then an element inserted.
    for file in ["\n  ", "\u{FEFF}  ", "  \r\n \n", "\u{FEFF}", "\r\r", " \r"] {
      try writeFile(path, file)
      let document = try RotorDocument<Int>(contentsOf: path, elements: .paragraphs)
      #expect(document.elementCount == 0)
      _ = try document.insert(TextElement(id: 7, text: "xy"), at: 0)
      try check(document, ["xy"], [""], "all blank \(file.debugDescription)", origin: file)
      _ = try document.replace(utf8Range: 0..<0, in: 7, with: "\n")
      try check(document, ["\nxy"], [""], "all blank \(file.debugDescription), LF typed", origin: file)
    }
    // The last paragraph's blank lines end in spaces; the first paragraph moved after them.
    try writeFile(path, "a\n\nb\n  ")
    var document = try RotorDocument<Int>(contentsOf: path, elements: .paragraphs)
    _ = try document.move(0, to: 1)
    try check(document, ["b", "a"], ["\n  ", ""], "moved after spaces")
    // A line emptied between a CR and an LF: its position is between them.
    try writeFile(path, "a\rb\nc")
    document = try RotorDocument<Int>(contentsOf: path, elements: .lines)
    try document.replace(utf8Range: 0..<1, in: 1, with: "")
    try check(document, ["a", "", "c"], ["\r", "\n", ""], "emptied line")
    try writeFile(path, "a\r\rb\n\nc")
    document = try RotorDocument<Int>(contentsOf: path, elements: .paragraphs)
    try document.replace(utf8Range: 0..<1, in: 1, with: "")
    try check(document, ["a", "", "c"], ["\r\r", "\n\n", ""], "emptied paragraph")
  }

  @Test("one element: location(of:) and position(in:line:character:) are the plain count's, lines in any chunk")
  func elementLocations() throws {
    let seed = SeededRandom.seedFromEnvironment()
    var random = SeededRandom(seed: seed)
    // Lines of many sizes: a line may start in an earlier text chunk (2 KB) than a position on it.
    let pieces =
      PositionCursorTests.pieces + [String(repeating: "word ", count: 500), String(repeating: "é", count: 1500)]
    for round in 0..<40 {
      var text = ""
      for _ in 0..<Int.random(in: 0...80, using: &random) { text += pieces.randomElement(using: &random)! }
      let document = try RotorDocument(elements: [TextElement(id: 0, text: text)])
      var bytes = Array(text.utf8)
      // Edits split chunks (typed text is a chunk of its own), so positions fall next to their edges.
      for _ in 0..<Int.random(in: 0...6, using: &random) {
        var at = Int.random(in: 0...bytes.count, using: &random)
        while at < bytes.count && bytes[at] & 0xC0 == 0x80 { at += 1 }
        let insert = ["\n", "\r", "x", "é\r\n"].randomElement(using: &random)!
        try document.replace(utf8Range: at..<at, in: 0, with: insert)
        bytes.insert(contentsOf: Array(insert.utf8), at: at)
      }
      let what = "round \(round), seed \(seed)"
      var offsets = (0..<60).map { _ in Int.random(in: 0...bytes.count, using: &random) }
      offsets += [0, bytes.count]
      for o in offsets where o == bytes.count || bytes[o] & 0xC0 != 0x80 {
        let position = try document.position(in: 0, utf8Offset: o)
        for encoding in [PositionEncoding.utf8, .utf16, .utf32, .grapheme] {
          let want = PositionCursorTests.model(bytes, o, encoding)
          let got = try document.location(of: position, encoding: encoding)
          #expect(got == want, "\(what): offset \(o), \(encoding): \(got), want \(want)")
          guard encoding != .grapheme else { continue }
          // Back from (line, character): the same offset, but between a CR and its LF (no
          // character of the line is there: LSP's position is the line's end).
          let back = try document.position(in: 0, line: want.line - 1, character: want.column - 1, encoding: encoding)
          let betweenCRLF = o > 0 && o < bytes.count && bytes[o - 1] == 0x0D && bytes[o] == 0x0A
          if !betweenCRLF {
            #expect(try document.utf8Offset(of: back) == o, "\(what): offset \(o) from \(want), \(encoding)")
          }
        }
      }
      // A character past a line's end is the line's end (its terminator excluded).
      var lineStart = 0
      var line = 0
      while lineStart <= bytes.count {
        var end = lineStart
        while end < bytes.count && bytes[end] != 0x0A && bytes[end] != 0x0D { end += 1 }
        for encoding in [PositionEncoding.utf8, .utf16, .utf32] {
          let p = try document.position(in: 0, line: line, character: 1 << 40, encoding: encoding)
          #expect(try document.utf8Offset(of: p) == end, "\(what): line \(line), \(encoding)")
        }
        guard end < bytes.count else { break }
        lineStart = end + (bytes[end] == 0x0D && end + 1 < bytes.count && bytes[end + 1] == 0x0A ? 2 : 1)
        line += 1
      }
    }
  }

  /// Every position of every element against the file's text (`origin`, then `texts` joined by `gaps`).
  func check(
    _ document: RotorDocument<Int>, _ texts: [String], _ gaps: [String], _ what: String, origin: String = ""
  ) throws {
    let file = Array((origin + zip(texts, gaps).map { $0 + $1 }.joined()).utf8)
    var base = origin.utf8.count
    for (k, text) in texts.enumerated() {
      let id = document.elementID(at: k)!
      for o in 0...text.utf8.count {
        guard String.Index(text.utf8.index(text.utf8.startIndex, offsetBy: o), within: text) != nil else { continue }
        let position = try document.position(in: id, utf8Offset: o)
        let offset = base + o
        #expect(try document.documentOffset(of: position) == offset, "\(what): element \(k) offset \(o)")
        // Lines as LSP counts them (LF, CR LF and CR end a line; a position between a CR and its
        // LF is on the CR's line, after it), in every encoding: the naive walk of PositionCursor's tests.
        for encoding in [PositionEncoding.utf8, .utf16, .utf32, .grapheme] {
          let want = PositionCursorTests.model(file, offset, encoding)
          let location = try document.documentLocation(of: position, encoding: encoding)
          #expect(
            location == want,
            "\(what): element \(k) offset \(o) in \(texts) \(gaps), \(encoding): \(location), want \(want)")
        }
      }
      base += text.utf8.count + gaps[k].utf8.count
    }
    try checkLines(document, texts, gaps, what, origin: origin)
  }

  /// `position(atDocumentLine:character:encoding:)` for every line of the file and a few
  /// characters, against the plain reading: the line's start in the file, the character counted
  /// from there and clamped to the line's end, then that file offset in its element (a separator's
  /// offset: the next element's start, or the last one's end).
  func checkLines(
    _ document: RotorDocument<Int>, _ texts: [String], _ gaps: [String], _ what: String, origin: String
  ) throws {
    let file = Array((origin + zip(texts, gaps).map { $0 + $1 }.joined()).utf8)
    var starts: [Int] = []
    var at = origin.utf8.count
    for (text, gap) in zip(texts, gaps) {
      starts.append(at)
      at += text.utf8.count + gap.utf8.count
    }
    var lineStarts = [0]
    for i in file.indices where file[i] == 0x0A || (file[i] == 0x0D && !(i + 1 < file.count && file[i + 1] == 0x0A)) {
      lineStarts.append(i + 1)
    }
    for (line, start) in lineStarts.enumerated() {
      var end = start
      while end < file.count && file[end] != 0x0A && file[end] != 0x0D { end += 1 }
      let lineText = String(decoding: file[start..<end], as: UTF8.self)
      for character in [0, 1, 2, 3, 5, 1000, Int.min, Int.max] {
        for encoding in [PositionEncoding.utf8, .utf16, .utf32, .grapheme] {
          // The file offset `character` units into the line (rounded down to a scalar's start, or
          // a grapheme's).
          let pieces: [(bytes: Int, units: Int)] =
            encoding == .grapheme
            ? lineText.map { ($0.utf8.count, 1) }
            : lineText.unicodeScalars.map {
              ($0.utf8.count, encoding == .utf8 ? $0.utf8.count : encoding == .utf16 ? $0.utf16.count : 1)
            }
          var target = start
          var units = 0
          for piece in pieces {
            if units + piece.units > character { break }
            units += piece.units
            target += piece.bytes
          }
          var want = (texts.count - 1, texts[texts.count - 1].utf8.count)
          if let k = starts.indices.first(where: { starts[$0] <= target && target <= starts[$0] + texts[$0].utf8.count }
          ) {
            want = (k, target - starts[k])
          } else if let k = starts.firstIndex(where: { $0 > target }) {
            want = (k, 0)
          }
          let got = try document.position(atDocumentLine: line, character: character, encoding: encoding)
          let gotElement = document.index(of: got.element)!
          let gotOffset = try document.utf8Offset(of: got)
          #expect(
            gotElement == want.0 && gotOffset == want.1,
            "\(what): line \(line) character \(character) \(encoding) in \(origin.debugDescription) \(texts) \(gaps): (\(gotElement), \(gotOffset)), want \(want)"
          )
        }
      }
    }
    #expect(throws: DocumentError.self) {
      try document.position(atDocumentLine: lineStarts.count, character: 0)
    }
    #expect(throws: DocumentError.self) { try document.position(atDocumentLine: -1, character: 0) }
  }
}
