import Foundation
import Testing
import TextRotor

@testable import textrotor

@Suite("textrotor segment")
struct SegmentCommandTests {
  @Test("--json prints the SPEC's keys, in order, with offsets that slice the file")
  func jsonSchema() throws {
    let text = "Héllo wörld.\r\nZweite Zeile 😀 hier.\n"
    let path = try CLI.temporaryFile(Array(text.utf8))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let result = try CLI.run(["segment", "--by", "word", "--json", path])
    #expect(result.status == 0)
    #expect(result.stderr.isEmpty)
    let bytes = Array(text.utf8)
    var previousEnd = 0
    for line in result.lines {
      #expect(CLI.keyOrder(line) == ["rotor", "path", "element", "label", "start", "end", "line", "column", "utf16"])
      let object = try CLI.jsonObject(line)
      let start = try #require(object["start"] as? Int)
      let end = try #require(object["end"] as? Int)
      #expect(start == previousEnd, "word segments cover the text")
      previousEnd = end
      #expect(object["rotor"] as? String == "words")
      #expect(object["path"] as? String == path)
      #expect(object["element"] as? Int == 0)
      #expect(object["label"] as? String == String(decoding: bytes[start..<end], as: UTF8.self))
      // line and UTF-16 offsets computed independently with Swift's String.
      let prefix = String(decoding: bytes[0..<start], as: UTF8.self)
      let lineBreaks = prefix.utf8.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
      #expect(object["line"] as? Int == lineBreaks + 1)
      let utf16 = try #require(object["utf16"] as? [Int])
      #expect(utf16 == [prefix.utf16.count, String(decoding: bytes[0..<end], as: UTF8.self).utf16.count])
      let lineStart = bytes[0..<start].lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
      #expect(object["column"] as? Int == start - lineStart + 1)
    }
    #expect(previousEnd == bytes.count)
  }

  @Test(
    "--position-encoding changes what column counts",
    arguments: [
      ("utf-8", 17), ("utf-16", 12), ("utf-32", 10), ("grapheme", 8),
    ])
  func positionEncoding(encoding: String, column: Int) throws {
    // "🇩🇪 é" then the word "x": 🇩🇪 is 8 UTF-8 bytes, 4 UTF-16 units, 2 scalars, 1 grapheme;
    // "é" as e + U+0301 is 3 bytes, 2 units, 2 scalars, 1 grapheme.
    let text = "ab 🇩🇪 e\u{301} x"
    let path = try CLI.temporaryFile(Array(text.utf8))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let result = try CLI.run([
      "segment", "--by", "word", "--words-only", "--json", "--position-encoding", encoding, path,
    ])
    #expect(result.status == 0)
    let last = try CLI.jsonObject(try #require(result.lines.last))
    #expect(last["label"] as? String == "x")
    // Before "x": "ab " (3 bytes, units, scalars, graphemes) + flag + " " + é + " ".
    #expect(last["column"] as? Int == column)
  }

  @Test("--count, --words-only and several files")
  func counts() throws {
    let a = try CLI.temporaryFile(Array("One two, three.\n".utf8))
    let b = try CLI.temporaryFile(Array("Four 5.\n".utf8))
    defer {
      try? FileManager.default.removeItem(atPath: a)
      try? FileManager.default.removeItem(atPath: b)
    }
    let all = try CLI.run(["segment", "--by", "word", "--count", a])
    // One|␠|two|,|␠|three|.|\n
    #expect(all.stdout == "8\n")
    let words = try CLI.run(["segment", "--by", "word", "--words-only", "--count", a, b])
    #expect(words.stdout == "\(a):3\n\(b):2\n")
    #expect(words.status == 0)
  }

  @Test("a missing file is reported by name, the others are still processed, exit 2")
  func missingFile() throws {
    let a = try CLI.temporaryFile(Array("Hello.\n".utf8))
    defer { try? FileManager.default.removeItem(atPath: a) }
    let result = try CLI.run(["segment", "--by", "sentence", "--count", "/nonexistent/file.txt", a])
    #expect(result.status == 2)
    #expect(result.stderr.contains("/nonexistent/file.txt: No such file or directory"))
    #expect(result.stdout == "\(a):1\n")
  }

  @Test("a directory is an error naming it")
  func directory() throws {
    let result = try CLI.run(["segment", "--by", "word", "--count", "/tmp"])
    #expect(result.status == 2)
    #expect(result.stderr.contains("/tmp: Is a directory"))
  }

  @Test("an empty file has no entries: exit 1")
  func emptyFile() throws {
    let path = try CLI.temporaryFile([])
    defer { try? FileManager.default.removeItem(atPath: path) }
    for unit in ["grapheme", "word", "sentence", "line", "paragraph", "linebreak"] {
      let result = try CLI.run(["segment", "--by", unit, "--count", path])
      #expect(result.stdout == "0\n", "\(unit)")
      #expect(result.status == 1, "\(unit)")
    }
  }

  @Test("standard input is read with -")
  func standardInput() throws {
    let result = try CLI.run(["segment", "--by", "line", "--json", "-"], stdin: Data("a\nb".utf8))
    #expect(result.status == 0)
    #expect(result.lines.count == 2)
    let first = try CLI.jsonObject(result.lines[0])
    #expect(first["path"] as? String == "<stdin>")
  }

  @Test("invalid UTF-8 is read as U+FFFD, offsets stay the file's, stderr says where")
  func invalidUTF8() throws {
    let bytes: [UInt8] = Array("ab ".utf8) + [0xC3, 0x28] + Array(" cd".utf8)
    let path = try CLI.temporaryFile(bytes)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let result = try CLI.run(["segment", "--by", "word", "--json", path])
    #expect(result.status == 0)
    #expect(result.stderr.contains("\(path): invalid UTF-8 at byte 3"))
    let objects = try result.lines.map(CLI.jsonObject)
    #expect(objects.last?["end"] as? Int == bytes.count)
    #expect(objects.contains { ($0["label"] as? String)?.contains("\u{FFFD}") == true })
  }

  @Test(
    "--count says where invalid UTF-8 starts, once, on any number of threads, after a BOM too; the count is unchanged")
  func invalidUTF8Counted() throws {
    var text: [UInt8] = []
    for k in 0..<3000 { text += Array("line \(k) naïve 中文\n".utf8) }
    let bad = text.count - 5000
    text[bad] = 0xFF
    text[bad + 100] = 0x80
    for bom in [[], [0xEF, 0xBB, 0xBF] as [UInt8]] {
      let bytes = bom + text
      let path = try CLI.temporaryFile(bytes)
      defer { try? FileManager.default.removeItem(atPath: path) }
      for rotor in ["grapheme", "word", "sentence", "linebreak", "line"] {
        var counts: Set<String> = []
        for threads in ["1", "2", "3"] {
          let result = try CLI.run(["segment", "--by", rotor, "--count", "--threads", threads, path])
          #expect(result.status == 0)
          let warnings = result.stderr.split(separator: "\n").filter { $0.contains("invalid UTF-8") }
          #expect(
            warnings == [
              "textrotor: \(path): invalid UTF-8 at byte \(bom.count + bad) (0xFF); such bytes are read as U+FFFD"
            ])
          counts.insert(result.stdout)
        }
        #expect(counts.count == 1, "\(rotor): \(counts)")
      }
    }
  }

  @Test("lines exclude CRLF/CR terminators; a BOM is not content")
  func linesAndBOM() throws {
    let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("one\r\ntwo\rthree\n\nfive".utf8)
    let path = try CLI.temporaryFile(bytes)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let result = try CLI.run(["segment", "--by", "line", "--json", path])
    let objects = try result.lines.map(CLI.jsonObject)
    #expect(objects.map { $0["label"] as? String } == ["one", "two", "three", "", "five"])
    #expect(objects.first?["start"] as? Int == 3)
    #expect(objects.map { $0["line"] as? Int } == [1, 2, 3, 4, 5])
  }

  @Test("--elements lines numbers elements and never segments across them")
  func elementsLines() throws {
    let path = try CLI.temporaryFile(Array("First one. Second\nthird.\n\nLast".utf8))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let result = try CLI.run(["segment", "--by", "sentence", "--elements", "lines", "--json", path])
    let objects = try result.lines.map(CLI.jsonObject)
    #expect(objects.map { $0["label"] as? String } == ["First one. ", "Second", "third.", "Last"])
    #expect(objects.map { $0["element"] as? Int } == [0, 0, 1, 3])
    let paragraphs = try CLI.run(["segment", "--by", "paragraph", "--count", path])
    #expect(paragraphs.stdout == "2\n")
  }

  @Test("bad arguments exit 2 with a message")
  func badArguments() throws {
    let result = try CLI.run(["segment", "--by", "syllable", "x"])
    #expect(result.status == 2)
    #expect(result.stderr.contains("syllable"))
    let both = try CLI.run(["segment", "--by", "word", "--count", "--json", "x"])
    #expect(both.status == 2)
    let wordsOnly = try CLI.run(["segment", "--by", "sentence", "--words-only", "x"])
    #expect(wordsOnly.status == 2)
  }

  @Test("Thai is split into dictionary words with --locale th")
  func thai() throws {
    let path = try CLI.temporaryFile(Array("สวัสดีครับ".utf8))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let result = try CLI.run(["segment", "--by", "word", "--locale", "th", path])
    // Columns count UTF-8 bytes by default: สวัสดี is 18 bytes.
    #expect(result.stdout == "1:1:สวัสดี\n1:19:ครับ\n")
  }

  @Test("--prose reads single line breaks in a paragraph as spaces, on files and streamed input alike")
  func proseSentences() throws {
    let path = CLI.corpus("wrapped-prose.txt")
    let prose = try CLI.run(["segment", "--by", "sentence", "--prose", "--count", path])
    #expect(prose.status == 0)
    #expect(prose.stdout == "25\n")
    let icu = try CLI.run(["segment", "--by", "sentence", "--count", path])
    #expect(icu.stdout == "39\n")
    let json = try CLI.run(["segment", "--by", "sentence", "--prose", "--json", path])
    let fifth = try CLI.jsonObject(json.lines[5])
    #expect(fifth["rotor"] as? String == "proseSentences")
    #expect(
      (fifth["label"] as? String)?.hasSuffix("harbour,\nand the whole town went down to the quay to see her. ") == true)
    // Streamed in blocks of 64 bytes: the same entries (blocks are cut after blank lines).
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    let streamed = try CLI.run(
      ["segment", "--by", "sentence", "--prose", "--json", "-"], stdin: data,
      environment: ["TEXTROTOR_STREAM_BLOCK_SIZE": "64"])
    #expect(
      streamed.lines.map { try? CLI.jsonObject($0)["start"] as? Int }
        == json.lines.map { try? CLI.jsonObject($0)["start"] as? Int })
    let next = try CLI.run(["prev", "--rotor", "proseSentences", "--at", "300", path])
    #expect(next.stdout.hasPrefix("8:38:Nobody believed him; but nobody\\ncontradicted"))
    let wrong = try CLI.run(["segment", "--by", "word", "--prose", path])
    #expect(wrong.status == 2)
    #expect(wrong.stderr.contains("--prose goes with --by sentence"))
  }
}

/// `StreamCutScan`: where a stream's block may be cut, read incrementally as the buffer grows (a
/// review found `segment --by paragraph -` quadratic: each read of a pipe scanned every line
/// buffered again, 40 s for 32 MB of `yes`; now 1.6 s). It must find the cuts a scan of the whole
/// buffer finds, at every size the buffer grows through.
@Suite struct StreamCutScanTests {
  @Test func incrementalCutsAreTheWholeBuffersCuts() {
    var random = SplitMix(state: 0x5EED_CA7)
    let alphabet: [UInt8] = [0x0A, 0x0D, 0x20, 0x09, 0x78, 0x78, 0x79]
    for _ in 0..<300 {
      let n = Int(random.next() % 80) + 1
      let bytes = (0..<n).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }
      var lines = StreamCutScan()
      var paragraphs = StreamCutScan()
      var size = 0
      while size < n {
        size = min(n, size + Int(random.next() % 5) + 1)
        let prefix = ByteStorage(Array(bytes[0..<size]))
        #expect(lines.lastLineCut(prefix) == SegmentOptions.lastLineCut(prefix), "\(bytes[0..<size])")
        #expect(
          paragraphs.lastParagraphCut(prefix) == Self.wholeParagraphCut(prefix), "\(bytes[0..<size])")
      }
    }
  }

  /// The scan of the whole buffer, as `lastParagraphCut` was before it became incremental.
  static func wholeParagraphCut(_ bytes: ByteStorage) -> Int? {
    var cut: Int? = nil
    for line in LineScanner(bytes, range: 0..<bytes.count) {
      guard line.hasTerminator, line.next < bytes.count else { break }
      if line.content.allSatisfy({ bytes[$0] == 0x20 || bytes[$0] == 0x09 }) { cut = line.next }
    }
    return cut
  }
}
