import Foundation
import Testing

@Suite("textrotor next / prev / stats")
struct NavigateCommandTests {
  static let text = "One two. Three four!\r\nFive.\n\nSix seven."

  /// All word segments of the text, from `segment --json` (itself checked against Swift's String
  /// in SegmentCommandTests), as (start, label).
  static func words(_ path: String) throws -> [(Int, String)] {
    try CLI.run(["segment", "--by", "word", "--json", path]).lines.map {
      let o = try CLI.jsonObject($0)
      return (o["start"] as! Int, o["label"] as! String)
    }
  }

  @Test("next/prev at every offset agree with the full segmentation")
  func everyOffset() throws {
    let path = try CLI.temporaryFile(Array(Self.text.utf8))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let words = try Self.words(path)
    for offset in TestScale.sample(0...Self.text.utf8.count) {
      let next = try CLI.run(["next", "--rotor", "words", "--at", "\(offset)", "--json", path])
      if let expected = words.first(where: { $0.0 > offset }) {
        #expect(next.status == 0)
        let o = try CLI.jsonObject(try #require(next.lines.first))
        #expect(o["start"] as? Int == expected.0, "next at \(offset)")
        #expect(o["label"] as? String == expected.1)
      } else {
        #expect(next.status == 1, "next at \(offset): nothing after")
        #expect(next.stdout.isEmpty)
      }
      let prev = try CLI.run(["prev", "--rotor", "words", "--at", "\(offset)", "--json", path])
      if let expected = words.last(where: { $0.0 < offset }) {
        let o = try CLI.jsonObject(try #require(prev.lines.first))
        #expect(o["start"] as? Int == expected.0, "prev at \(offset)")
      } else {
        #expect(prev.status == 1)
      }
    }
  }

  @Test("next over other rotors, human output and --words-only")
  func rotors() throws {
    let path = try CLI.temporaryFile(Array(Self.text.utf8))
    defer { try? FileManager.default.removeItem(atPath: path) }
    #expect(try CLI.run(["next", "--rotor", "sentences", "--at", "0", path]).stdout == "1:10:Three four!\\r\\n\n")
    #expect(try CLI.run(["next", "--rotor", "lines", "--at", "3", path]).stdout == "2:1:Five.\n")
    #expect(try CLI.run(["next", "--rotor", "paragraphs", "--at", "0", path]).stdout == "4:1:Six seven.\n")
    #expect(try CLI.run(["prev", "--rotor", "paragraphs", "--at", "39", path]).stdout == "4:1:Six seven.\n")
    #expect(try CLI.run(["next", "--rotor", "words", "--words-only", "--at", "3", path]).stdout == "1:5:two\n")
    #expect(try CLI.run(["prev", "--rotor", "characters", "--at", "22", path]).stdout == "1:21:\\r\\n\n")
  }

  @Test("an offset past the end or inside a UTF-8 sequence is an error saying which")
  func badOffsets() throws {
    let path = try CLI.temporaryFile(Array("añb".utf8))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let past = try CLI.run(["next", "--rotor", "words", "--at", "5", path])
    #expect(past.status == 2)
    #expect(past.stderr.contains("offset 5 is beyond the end of the file (4 bytes)"))
    let inside = try CLI.run(["next", "--rotor", "characters", "--at", "2", path])
    #expect(inside.status == 2)
    #expect(inside.stderr.contains("offset 2 is inside a UTF-8 sequence (its character starts at byte 1)"))
    let negative = try CLI.run(["next", "--rotor", "words", "--at", "-3", path])
    #expect(negative.status == 2)
    let missing = try CLI.run(["next", "--rotor", "words", "--at", "0", "/nonexistent"])
    #expect(missing.status == 2)
    #expect(missing.stderr.contains("/nonexistent: No such file or directory"))
  }

  /// An adversarial review (seventeenth session) found offsets that `segment` starts entries at
  /// refused as "inside a UTF-8 sequence": a stray continuation byte after a complete character,
  /// and the bytes of overlong and surrogate sequences, each read as its own U+FFFD.
  @Test("next/prev accept every offset where segment starts a character in ill-formed UTF-8")
  func illFormedBoundaries() throws {
    for bytes: [UInt8] in [
      [0xE2, 0x82, 0xAC, 0x80, 0x78], [0x61, 0xC0, 0xAF, 0x62], [0x61, 0xED, 0xA0, 0x80, 0x62],
      [0xF0, 0x9F, 0x98, 0x80, 0x80, 0x80, 0x61], [0x61, 0xE2, 0x82, 0x62], [0xF4, 0x90, 0x80, 0x80, 0x61],
    ] {
      let path = try CLI.temporaryFile(bytes)
      defer { try? FileManager.default.removeItem(atPath: path) }
      let starts = try CLI.run(["segment", "--by", "grapheme", "--json", path]).lines.map {
        try CLI.jsonObject($0)["start"] as! Int
      }
      for offset in 0...bytes.count {
        let next = try CLI.run(["next", "--rotor", "characters", "--at", "\(offset)", "--json", path])
        let boundary = starts.contains(offset) || offset == bytes.count
        #expect(next.status == (boundary ? (starts.contains { $0 > offset } ? 0 : 1) : 2), "\(bytes) at \(offset)")
        if let after = starts.first(where: { $0 > offset }), boundary {
          #expect(try CLI.jsonObject(next.lines[0])["start"] as? Int == after, "\(bytes) at \(offset)")
        }
      }
    }
  }

  @Test("stats reports every system rotor's entries, and the links and misspelled words of plain text")
  func stats() throws {
    let path = try CLI.temporaryFile(Array(Self.text.utf8))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let result = try CLI.run(["stats", "--json", path])
    #expect(result.status == 0)
    let o = try CLI.jsonObject(try #require(result.lines.first))
    #expect(o["bytes"] as? Int == Self.text.utf8.count)
    let rotors = try #require(o["rotors"] as? [String: [String: Any]])
    #expect(
      Set(rotors.keys) == [
        "characters", "words", "sentences", "proseSentences", "lines", "paragraphs", "linebreaks", "links",
        "misspelled",
      ])
    #expect(rotors["characters"]?["entries"] as? Int == Self.text.count)
    #expect(rotors["lines"]?["entries"] as? Int == 4)
    #expect(rotors["paragraphs"]?["entries"] as? Int == 2)
    let some = try CLI.run(["stats", "--rotors", "words,lines", "--json", path])
    let firstLine = try #require(some.lines.first)
    let subset = try #require(try CLI.jsonObject(firstLine)["rotors"] as? [String: Any])
    #expect(Set(subset.keys) == ["words", "lines"])
    #expect(try CLI.run(["stats", "--rotors", "words,syllables", path]).status == 2)
  }
}

@Suite("textrotor next / prev --rotor matches")
struct NavigateMatchesTests {
  @Test("next/prev on matches agree with find --json at every offset, also with --elements lines")
  func everyOffset() throws {
    let text = "Important: a.\nnothing\r\nImportant Important\n\nnot important\nImportant"
    let path = try CLI.temporaryFile(Array(text.utf8))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let find = try CLI.run(["find", "--pattern", "Important", "--json", path])
    let starts: [Int] = try find.lines.compactMap { line -> [Int]? in
      let o = try CLI.jsonObject(line)
      guard o["type"] as? String == "match", let data = o["data"] as? [String: Any],
        let base = data["absolute_offset"] as? Int, let subs = data["submatches"] as? [[String: Any]]
      else { return nil }
      return subs.map { base + ($0["start"] as! Int) }
    }.flatMap { $0 }
    #expect(starts == [0, 23, 33, 58])
    for elements in ["whole", "lines"] {
      for offset in TestScale.sample(0...text.utf8.count, rotation: elements == "whole" ? 0 : 5) {
        let next = try CLI.run(
          [
            "next", "--rotor", "matches", "--pattern", "Important", "--elements", elements, "--at", "\(offset)",
            "--json", path,
          ])
        if let expected = starts.first(where: { $0 > offset }) {
          let o = try CLI.jsonObject(try #require(next.lines.first))
          #expect(o["start"] as? Int == expected, "next at \(offset)")
          #expect(o["label"] as? String == "Important")
          #expect(o["rotor"] as? String == "matches")
        } else {
          #expect(next.status == 1, "next at \(offset)")
        }
        let prev = try CLI.run(
          [
            "prev", "--rotor", "matches", "--pattern", "Important", "--elements", elements, "--at", "\(offset)",
            "--json", path,
          ])
        if let expected = starts.last(where: { $0 < offset }) {
          let o = try CLI.jsonObject(try #require(prev.lines.first))
          #expect(o["start"] as? Int == expected, "prev at \(offset)")
        } else {
          #expect(prev.status == 1, "prev at \(offset)")
        }
      }
    }
    let lines = try CLI.run([
      "next", "--rotor", "matches", "--pattern", "Important", "--elements", "lines", "--at", "1", "--json", path,
    ])
    #expect(try CLI.jsonObject(try #require(lines.lines.first))["element"] as? Int == 2)
  }

  @Test("--rotor matches without --pattern, and --pattern with another rotor, are usage errors")
  func usage() throws {
    #expect(try CLI.run(["next", "--rotor", "matches", "--at", "0", "x"]).status == 2)
    #expect(try CLI.run(["next", "--rotor", "words", "--pattern", "a", "--at", "0", "x"]).status == 2)
  }
}

@Suite("textrotor next / prev --elements lines and paragraphs")
struct NavigateElementsTests {
  static let pieces: [[UInt8]] =
    [
      "Hello", " ", "world", ". ", "\n", "\r\n", "\r", "\n\n", "  \n", "\t\r\n", "Mr. Smith", "😀", "e\u{301}",
      "中文", "?! ", "Wait\u{2029}",
    ].map { Array($0.utf8) } + [[0xFF], [0xC3]]

  /// `next`/`prev --json` (the elements read around the offset) agree with `segment --json` (every
  /// element listed) for every system rotor, both directions and both kinds of element, at random
  /// and edge offsets of random texts (a byte order mark, CR-only text, invalid UTF-8 sometimes);
  /// human output too. The seed is printed on failure (TEXTROTOR_SEED replays it).
  @Test("next/prev agree with segment's element, offsets, line, column and UTF-16 offsets")
  func agreeWithSegment() throws {
    let seed: UInt64 = {
      if let text = getenv("TEXTROTOR_SEED"), let value = UInt64(String(cString: text)) { return value }
      return UInt64.random(in: 1...UInt64.max)
    }()
    var rng = SplitMix(state: seed)
    let units: [(rotor: String, segment: [String])] = [
      ("characters", ["--by", "grapheme"]), ("words", ["--by", "word"]), ("sentences", ["--by", "sentence"]),
      ("proseSentences", ["--by", "sentence", "--prose"]), ("lines", ["--by", "line"]),
      ("paragraphs", ["--by", "paragraph"]), ("linebreaks", ["--by", "linebreak"]),
    ]
    for round in 0..<TestScale.count(3) {
      var text: [UInt8] = round % 2 == 1 ? [0xEF, 0xBB, 0xBF] : []
      for _ in 0..<Int.random(in: 8...30, using: &rng) { text += Self.pieces.randomElement(using: &rng)! }
      if round == 2 { text.removeAll { $0 == 0x0A } }
      let path = try CLI.temporaryFile(text)
      defer { try? FileManager.default.removeItem(atPath: path) }
      let starts = (0...text.count).filter { $0 == text.count || text[$0] & 0xC0 != 0x80 }
      let offsets = Set([0, text.count, starts.randomElement(using: &rng)!]).sorted()
      for elements in ["lines", "paragraphs"] {
        // Every other rotor in a round (each in two rounds of three), to keep the processes few.
        for (k, unit) in units.enumerated() where (k + round) % 2 == 0 || round == 2 {
          let listed = try CLI.run(["segment"] + unit.segment + ["--elements", elements, "--json", path]).lines.map {
            var o = try CLI.jsonObject($0)
            o["rotor"] = nil
            return o
          }
          for offset in offsets {
            for direction in ["next", "prev"] {
              let context =
                "seed \(seed) round \(round) \(direction) --rotor \(unit.rotor) --elements \(elements) at \(offset)"
              let expected =
                direction == "next"
                ? listed.first { ($0["start"] as! Int) > offset } : listed.last { ($0["start"] as! Int) < offset }
              let arguments = [direction, "--rotor", unit.rotor, "--elements", elements, "--at", "\(offset)", path]
              let json = try CLI.run(arguments + ["--json"])
              guard let expected else {
                #expect(json.status == 1 && json.stdout.isEmpty, "\(context): \(json.stdout)")
                continue
              }
              var got = try CLI.jsonObject(try #require(json.lines.first, "\(context)"))
              #expect(got["rotor"] as? String == unit.rotor)
              got["rotor"] = nil
              #expect(NSDictionary(dictionary: got) == NSDictionary(dictionary: expected), "\(context)")
              if direction == "next" {
                let human = try CLI.run(arguments)
                #expect(human.stdout.hasPrefix("\(expected["line"]!):\(expected["column"]!):"), "\(context)")
              }
            }
          }
        }
      }
    }
  }
}
