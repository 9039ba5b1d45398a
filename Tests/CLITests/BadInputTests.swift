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
}
