import Foundation
import Testing

/// Bad input, run as processes: each case with its exit code, message and output (issue 9).
@Suite("CLI: bad input")
struct BadInputTests {
  static func file(_ bytes: [UInt8]) throws -> String { try CLI.temporaryFile(bytes) }
  static func file(_ text: String) throws -> String { try CLI.temporaryFile(Array(text.utf8)) }
  static func remove(_ paths: String...) { for p in paths { try? FileManager.default.removeItem(atPath: p) } }

  @Test("item 1: a line with 40,000 matches is printed at once", .timeLimit(.minutes(1)))
  func manyMatchesOnALine() throws {
    let f = try Self.file(String(repeating: "a ", count: 40_000) + "\n")
    defer { Self.remove(f) }
    let human = try CLI.run(["find", "--pattern", "a", f])
    #expect(human.status == 0)
    #expect(human.lines.count == 1)
    let json = try CLI.run(["find", "--json", "--pattern", "a", f])
    #expect(json.status == 0)
    let match = try CLI.jsonObject(json.lines[1])
    let data = match["data"] as? [String: Any]
    #expect((data?["submatches"] as? [Any])?.count == 40_000)
  }

  @Test("item 2: a literal with CR LF is an error, for find and for the matches rotor")
  func literalWithCRLF() throws {
    let f = try Self.file("x\r\nab\n")
    defer { Self.remove(f) }
    for arguments in [
      ["find", "--json", "--pattern", "\r\nab", f],
      ["next", "--rotor", "matches", "--pattern", "\r\nab", "--at", "0", f],
    ] {
      let result = try CLI.run(arguments)
      #expect(result.status == 2, "\(arguments)")
      #expect(result.stdout == "")
      #expect(result.stderr.contains("holds a line terminator"), "\(result.stderr)")
    }
  }

  @Test("item 6: empty regex matches as ripgrep's")
  func emptyRegexMatches() throws {
    let f = try Self.file("bab\n")
    defer { Self.remove(f) }
    let result = try CLI.run(["find", "--json", "--regex", "--pattern", "a*", f])
    #expect(result.status == 0)
    let data = try CLI.jsonObject(result.lines[1])["data"] as? [String: Any]
    let offsets = (data?["submatches"] as? [[String: Any]])?.map { [$0["start"] as? Int, $0["end"] as? Int] }
    #expect(offsets == [[0, 0], [1, 2], [3, 3]])
    #expect(try CLI.run(["find", "--count", "--regex", "--pattern", "a*", f]).stdout == "3\n")
  }

  @Test(
    "item 5: --pattern=TEXT where TEXT starts with a combining mark, ZWJ or variation selector",
    arguments: ["\u{301}x", "\u{200D}y", "\u{FE0F}z"])
  func attachedValueStartingWithAMark(pattern: String) throws {
    let f = try Self.file("e\(pattern) and more\n")
    defer { Self.remove(f) }
    let result = try CLI.run(["find", "--pattern=\(pattern)", f])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.lines == ["1:2:e\(pattern) and more"])
    #expect(result.stderr == "")
  }

  @Test("item 9: an unknown --locale says so on stderr, exit status unchanged")
  func unknownLocale() throws {
    let f = try Self.file("hello world\n")
    defer { Self.remove(f) }
    for locale in ["xx", "../../etc/passwd", String(repeating: "a", count: 200)] {
      for arguments in [["segment", "--by", "word", "--count"], ["next", "--rotor", "words", "--at", "0"]] {
        let result = try CLI.run(arguments + ["--locale", locale, f])
        #expect(result.status == 0)
        #expect(!result.stdout.isEmpty)
        #expect(result.stderr.contains("ICU has no data for the locale '\(locale.prefix(40))"), "\(result.stderr)")
        #expect(result.stderr.contains("root (language-independent) rules are used"))
      }
    }
    for locale in ["", "de", "th", "ja", "sv", "de_CH", "en_US_POSIX", "root"] {
      let result = try CLI.run(["segment", "--by", "word", "--count", "--locale", locale, f])
      #expect(result.status == 0)
      #expect(result.stderr == "", "\(locale): \(result.stderr)")
    }
  }

  @Test("item 10: --elements lines lists the empty lines that --elements whole lists")
  func emptyLinesAsElements() throws {
    let f = try Self.file("a\n\nb\r\n\r\nc\rd\n")
    defer { Self.remove(f) }
    func starts(_ extra: [String]) throws -> [Int] {
      try CLI.run(["segment", "--by", "line", "--json"] + extra + [f]).lines.map {
        try CLI.jsonObject($0)["start"] as! Int
      }
    }
    let whole = try starts([])
    #expect(whole == [0, 2, 3, 6, 8, 10])
    #expect(try starts(["--elements", "lines"]) == whole)
    #expect(try CLI.run(["segment", "--by", "line", "--count", "--elements", "lines", f]).stdout == "6\n")
    let next = try CLI.run(["next", "--rotor", "lines", "--at", "1", "--elements", "lines", "--json", f])
    #expect(try CLI.jsonObject(next.lines[0])["start"] as? Int == 2)
    let prev = try CLI.run(["prev", "--rotor", "lines", "--at", "8", "--elements", "lines", "--json", f])
    #expect(try CLI.jsonObject(prev.lines[0])["start"] as? Int == 6)
  }

  @Test("items 3 and 4: UTF-16 offsets of ill-formed UTF-8 and grapheme columns in the JSON")
  func utf16AndGraphemeColumns() throws {
    let f = try Self.file([0x61, 0x80, 0x62, 0xFF, 0x63, 0xE0, 0x80, 0x80, 0x64, 0x0A])
    let g = try Self.file(Array("a\u{6DD})bb".utf8))
    defer { Self.remove(f, g) }
    let result = try CLI.run(["segment", "--by", "grapheme", "--json", f])
    #expect(result.status == 0)
    #expect(result.stderr.contains("invalid UTF-8 at byte 1 (0x80)"))
    let last = try CLI.jsonObject(result.lines.last!)
    #expect(last["utf16"] as? [Int] == [9, 10])
    #expect(last["label"] as? String == "\n")
    let words = try CLI.run(["segment", "--by", "word", "--json", "--position-encoding", "grapheme", g])
    let bb = try CLI.jsonObject(words.lines.last!)
    #expect(bb["label"] as? String == "bb")
    #expect(bb["column"] as? Int == 3)
    let prev = try CLI.run(["prev", "--rotor", "words", "--at", "5", "--json", "--position-encoding", "grapheme", g])
    #expect(try CLI.jsonObject(prev.lines[0])["column"] as? Int == 3)
  }
}
