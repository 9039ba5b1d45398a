import Foundation
import Testing
import TextRotor
import TextRotorICU

@testable import textrotor

@Suite("textrotor find: output of long lines")
struct LongLineOutputTests {
  /// A line of 5 MB with a match is printed a piece of 1 MiB at a time as the sink takes it, not
  /// built whole in memory (twice, before: an array of its bytes, then the output), coloured or
  /// not; what is printed is the line, with its column counted up to the match alone.
  @Test(arguments: [false, true])
  func aLongLineIsPrintedInPieces(color: Bool) throws {
    let line = String(repeating: "word ", count: 1_000_000) + "Needle" + String(repeating: " tail", count: 10)
    let bytes = ByteStorage(line + "\nnext line\n")
    let matcher = try PatternMatcher(.literal("Needle"))
    var format = FindFormat()
    format.color = color
    var scan = FileScan(matcher: matcher, lineMatcher: matcher, format: format, name: "doc.txt")
    var pieces: [[UInt8]] = []
    scan.sink = { out, _, _ in
      pieces.append(out)
      return true
    }
    try scan.scan(bytes, range: 0..<bytes.count, base: 0, lineBase: 0, floor: 0)
    scan.drain(force: true)
    // The same scan with no sink keeps its output whole until the end.
    var whole = FileScan(matcher: matcher, lineMatcher: matcher, format: format, name: "doc.txt")
    try whole.scan(bytes, range: 0..<bytes.count, base: 0, lineBase: 0, floor: 0)
    #expect(Array(pieces.joined()) == whole.out)
    if !color { #expect(String(decoding: pieces.joined(), as: UTF8.self) == "1:5000001:" + line + "\n") }
    #expect(pieces.count >= 5, "\(pieces.count) pieces")
    #expect(pieces.map(\.count).max()! <= (1 << 20) + (1 << 16) + 64, "\(pieces.map(\.count))")
  }

  /// The byte-at-a-time JSON string escapes these writers replaced: the model.
  static func jsonModel(_ bytes: some Sequence<UInt8>) -> [UInt8] {
    var out: [UInt8] = []
    for byte in bytes {
      switch byte {
      case 0x22: out += Array(#"\""#.utf8)
      case 0x5C: out += Array(#"\\"#.utf8)
      case 0x0A: out += Array(#"\n"#.utf8)
      case 0x0D: out += Array(#"\r"#.utf8)
      case 0x09: out += Array(#"\t"#.utf8)
      case 0x00..<0x20: out += Array(String(format: "\\u%04x", Int(byte)).utf8)
      default: out.append(byte)
      }
    }
    return out
  }

  /// The scalar-at-a-time one-line display these writers replaced: the model.
  static func displayModel(_ s: String) -> String {
    var out = ""
    for scalar in s.unicodeScalars {
      switch scalar {
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      default:
        if scalar.value < 0x20 || scalar.value == 0x7F {
          out += "\\u{\(String(scalar.value, radix: 16))}"
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out
  }

  /// Text dense in what needs an escape (every control byte, quotes, backslashes, DEL) and in
  /// characters past ASCII, `count` pieces long.
  static func escapeHeavyText(_ count: Int, _ rng: inout SplitMix) -> String {
    let pieces = ["word ", "\"", "\\", "\u{7F}", "é", "中", "😀", " ", "\r\n", "\n"]
    var text = ""
    for _ in 0..<count {
      if rng.next() % 6 == 0 {
        text.unicodeScalars.append(Unicode.Scalar(UInt8(rng.next() % 0x20)))
      } else {
        text += pieces[Int(rng.next() % UInt64(pieces.count))]
      }
    }
    return text
  }

  /// Runs without an escape are copied whole now (a label or a line of 100 MB took a second and
  /// two or three copies of itself); what is written must be what the byte-at-a-time writers
  /// wrote, from a string and from the bytes alike, and read back as the text by a JSON parser.
  @Test func escapesMatchTheModel() throws {
    var rng = SplitMix(state: 0xE5CA_9E)
    for round in 0..<300 {
      let text = Self.escapeHeavyText(Int(rng.next() % 60), &rng)
      let bytes = ByteStorage(text)
      var fromString: [UInt8] = []
      JSONText.appendString(text, to: &fromString)
      #expect(fromString == [0x22] + Self.jsonModel(text.utf8) + [0x22], "round \(round): \(text.debugDescription)")
      var fromBytes: [UInt8] = []
      JSONText.appendEscaped(bytes, 0..<bytes.count, to: &fromBytes)
      #expect(fromBytes == Self.jsonModel(text.utf8), "round \(round)")
      let parsed = try JSONSerialization.jsonObject(with: Data(fromString), options: .fragmentsAllowed) as? String
      #expect(parsed == text, "round \(round)")
      #expect(DisplayText.oneLine(text) == Self.displayModel(text), "round \(round): \(text.debugDescription)")
      var display: [UInt8] = []
      DisplayText.appendOneLine(bytes, 0..<bytes.count, to: &display)
      #expect(String(decoding: display, as: UTF8.self) == Self.displayModel(text), "round \(round)")
    }
  }

  /// `--json` wrote a matched line's text into a string, then escaped it into the output a byte at
  /// a time: 414 MB and 1.2 s for a 100 MB line with one match. Its text (and a match's, which can
  /// be as long) is escaped a piece at a time now, each offered to the sink; base64 too, for a
  /// line that is not UTF-8.
  @Test(arguments: [true, false])
  func aLongLineIsStreamedAsJSON(wellFormed: Bool) throws {
    var rng = SplitMix(state: 0x10_4E)
    let text = Self.escapeHeavyText(600_000, &rng).replacingOccurrences(of: "\n", with: " ")
      .replacingOccurrences(of: "\r", with: " ")
    var line = Array(text.utf8) + Array(" Needle tail".utf8)
    if !wellFormed { line[line.count / 2] = 0xFF }
    let needle = line.count - 11
    let bytes = ByteStorage(line + Array("\nnext line\n".utf8))
    let matcher = try PatternMatcher(.literal("Needle"))
    var format = FindFormat()
    format.mode = .json
    var scan = FileScan(matcher: matcher, lineMatcher: matcher, format: format, name: "doc.txt")
    var pieces: [[UInt8]] = []
    scan.sink = { out, _, _ in
      pieces.append(out)
      return true
    }
    try scan.scan(bytes, range: 0..<bytes.count, base: 0, lineBase: 0, floor: 0)
    scan.drain(force: true)
    var whole = FileScan(matcher: matcher, lineMatcher: matcher, format: format, name: "doc.txt")
    try whole.scan(bytes, range: 0..<bytes.count, base: 0, lineBase: 0, floor: 0)
    #expect(Array(pieces.joined()) == whole.out)
    #expect(pieces.count >= 3, "\(pieces.count) pieces")
    // A piece of 1 MiB escaped (at most twice as long here) and what was there before it.
    #expect(pieces.map(\.count).max()! <= (2 << 20) + (1 << 16) + 4096, "\(pieces.map(\.count))")
    let messages = whole.out.split(separator: 0x0A).map {
      try? JSONSerialization.jsonObject(with: Data($0)) as? [String: Any]
    }
    #expect(messages.count == 2 && messages.allSatisfy { $0 != nil }, "begin and one match")
    let data = try #require(messages.last??["data"] as? [String: Any])
    let lines = try #require(data["lines"] as? [String: String])
    if wellFormed {
      #expect(lines["text"].map { Array($0.utf8) } == line + [0x0A])
    } else {
      #expect(lines["bytes"].flatMap { Data(base64Encoded: $0) }.map(Array.init) == line + [0x0A])
    }
    let submatches = try #require(data["submatches"] as? [[String: Any]])
    #expect(submatches.count == 1)
    #expect((submatches.first?["match"] as? [String: String])?["text"] == "Needle")
    #expect(submatches.first?["start"] as? Int == needle)
  }

  /// Printing an entry whose label is a line of 32 MB (`segment --by line`, `prev --rotor lines`,
  /// and `find --json`'s line) held the label as a string and its escaped copy, or three copies:
  /// 315–414 MB and 1–4.5 s for a 100 MB line. The label is written from the file's bytes a piece
  /// at a time now: memory is the mapped file and a piece. The line is a block repeated (escapes
  /// are per character, so the model's output is the block's repeated); at a reduced
  /// ``TestScale`` (the sanitizers', whose memory slack makes the bound moot) 4 MB.
  @Test(
    .timeLimit(.minutes(5)),
    arguments: [
      ["segment", "--by", "line"], ["segment", "--by", "line", "--json"],
      ["prev", "--rotor", "lines", "--at", "1000", "--json"], ["find", "Needle", "--json"],
    ])
  func aLongLabelInBoundedMemory(arguments: [String]) throws {
    var rng = SplitMix(state: 0x32_4D)
    let block = Self.escapeHeavyText(4_000, &rng).replacingOccurrences(of: "\n", with: " ")
      .replacingOccurrences(of: "\r", with: " ")
    let copies = ((TestScale.isReduced ? 4 : 32) << 20) / block.utf8.count + 1
    let line = String(repeating: block, count: copies) + " Needle"
    let file = try BadInputTests.file(line + "\n")
    defer { BadInputTests.remove(file) }
    let peak = try BadInputTests.peakMemory(arguments + [file])
    #expect(peak != nil, "no peak memory: /usr/bin/time (Debian's `time`, which Scripts/test installs) is needed")
    guard let (result, kb) = peak else { return }
    #expect(result.status == 0, "\(arguments): \(result.stderr)")
    let out = result.stdout
    if arguments == ["segment", "--by", "line"] {
      // The byte-at-a-time model's output, the block's repeated.
      let expected =
        "1:1:" + String(repeating: Self.displayModel(block), count: copies) + Self.displayModel(" Needle") + "\n"
      #expect(out == expected, "\(arguments): \(out.utf8.count) bytes where \(expected.utf8.count) were expected")
    } else {
      // The JSON parsed back: the label (a match's line) is the line.
      let objects = out.split(separator: "\n").map {
        try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
      }
      #expect(!objects.isEmpty && objects.allSatisfy { $0 != nil }, "\(arguments): the output is JSON")
      let texts = objects.compactMap { object -> String? in
        if let label = object?["label"] as? String { return label }
        let lines = (object?["data"] as? [String: Any])?["lines"] as? [String: Any]
        return lines?["text"] as? String
      }
      #expect(texts == [arguments[0] == "find" ? line + "\n" : line], "\(arguments): the line")
    }
    let fileKB = line.utf8.count >> 10
    #expect(kb < fileKB + (40 << 10) + CLI.sanitizerMemorySlackKB, "\(arguments): peak \(kb) KiB")
  }
}
