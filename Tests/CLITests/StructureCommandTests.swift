import Foundation
import Testing

@Suite("textrotor structure rotors")
struct StructureCommandTests {
  static let markdown =
    "# Title\n\nSee [the docs](https://docs.example/a) and www.example.com.\n\n## Part *two*\n\n- a\n- b\n"

  @Test("segment --by heading|link|list|listitem|emphasis on a .md file, with levels and URLs in --json")
  func segmentMarkdown() throws {
    let path = try CLI.temporaryFile(Array(Self.markdown.utf8), suffix: ".md")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let headings = try CLI.run(["segment", "--by", "heading", path])
    #expect(headings.status == 0)
    #expect(headings.stdout == "1:1:Title\n5:1:Part two\n")
    let json = try CLI.run(["segment", "--by", "heading", "--json", path])
    let second = try CLI.jsonObject(json.lines[1])
    #expect(
      CLI.keyOrder(json.lines[1]).prefix(9) == [
        "rotor", "path", "element", "label", "start", "end", "line", "column", "utf16",
      ])
    #expect(second["rotor"] as? String == "headings")
    #expect(second["level"] as? Int == 2)
    #expect(second["start"] as? Int == 70)
    let links = try CLI.run(["segment", "--by", "link", "--json", path])
    let urls = try links.lines.map { try CLI.jsonObject($0)["url"] as? String }
    #expect(urls == ["https://docs.example/a", "http://www.example.com"])
    #expect(try CLI.run(["segment", "--by", "list", "--count", path]).stdout == "1\n")
    #expect(try CLI.run(["segment", "--by", "listitem", "--count", path]).stdout == "2\n")
    // The rotors' own names are taken too, in any case (`next --rotor` says listItems).
    for name in ["listItem", "listItems", "LISTITEM"] {
      #expect(try CLI.run(["segment", "--by", name, "--count", path]).stdout == "2\n", "\(name)")
    }
    #expect(try CLI.run(["segment", "--by", "headings", "--count", path]).stdout == "2\n")
    #expect(
      try CLI.run(["segment", "--by", "words", "--count", path]).stdout
        == CLI.run(["segment", "--by", "word", "--count", path]).stdout)
    #expect(try CLI.run(["segment", "--by", "bogus", path]).status == 2)
    #expect(try CLI.run(["segment", "--by", "emphasis", path]).stdout == "5:9:two\n")
    #expect(try CLI.run(["segment", "--by", "table", path]).status == 1)
  }

  @Test("the format comes from the name or --format; plain text has links only")
  func formats() throws {
    let path = try CLI.temporaryFile(Array(Self.markdown.utf8), suffix: ".txt")
    defer { try? FileManager.default.removeItem(atPath: path) }
    #expect(try CLI.run(["segment", "--by", "heading", path]).status == 1)
    #expect(try CLI.run(["segment", "--by", "heading", "--format", "markdown", "--count", path]).stdout == "2\n")
    // Plain text: GFM's bare links only (the Markdown link's URL inside its parentheses is one).
    let links = try CLI.run(["segment", "--by", "link", path])
    #expect(links.stdout == "3:16:https://docs.example/a\n3:44:www.example.com\n")
    let stdin = try CLI.run(
      ["segment", "--by", "heading", "--format", "markdown", "-"], stdin: Data(Self.markdown.utf8))
    #expect(stdin.stdout == "1:1:Title\n5:1:Part two\n")
    let wrong = try CLI.run(["segment", "--by", "word", "--format", "markdown", path])
    #expect(wrong.status == 2)
  }

  @Test("next/prev --rotor headings and stats list the structure rotors")
  func navigateAndStats() throws {
    let path = try CLI.temporaryFile(Array(Self.markdown.utf8), suffix: ".md")
    defer { try? FileManager.default.removeItem(atPath: path) }
    #expect(try CLI.run(["next", "--rotor", "headings", "--at", "0", path]).stdout == "5:1:Part two\n")
    #expect(try CLI.run(["prev", "--rotor", "headings", "--at", "70", path]).stdout == "1:1:Title\n")
    #expect(try CLI.run(["next", "--rotor", "headings", "--at", "70", path]).status == 1)
    let stats = try CLI.run(["stats", "--rotors", "words,headings,links", path])
    #expect(stats.status == 0)
    #expect(stats.stdout.contains("headings"))
    let json = try CLI.jsonObject(try CLI.run(["stats", "--json", path]).lines[0])
    let rotors = try #require(json["rotors"] as? [String: Any])
    #expect((rotors["headings"] as? [String: Any])?["entries"] as? Int == 2)
    #expect((rotors["listItems"] as? [String: Any])?["entries"] as? Int == 2)
    #expect((rotors["words"] as? [String: Any])?["entries"] as? Int != nil)
  }

  @Test("segment --by misspelled, next/prev --rotor misspelled, --locale's dictionary, stats lists it")
  func misspelled() throws {
    let text = "Teh cat recieved a letter.\n東京は大きい。 Viele Grüße\n"
    let path = try CLI.temporaryFile(Array(text.utf8), suffix: ".txt")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let found = try CLI.run(["segment", "--by", "misspelled", path])
    #expect(found.status == 0)
    #expect(found.stdout == "1:1:Teh\n1:9:recieved\n2:23:Viele\n2:29:Grüße\n")
    let german = try CLI.run(["segment", "--by", "misspelled", "--locale", "de_DE", "--json", path])
    let labels = try german.lines.map { try CLI.jsonObject($0)["label"] as? String }
    #expect(labels == ["Teh", "cat", "recieved", "letter"])
    #expect(try CLI.run(["segment", "--by", "misspelled", "--count", path]).stdout == "4\n")
    #expect(try CLI.run(["next", "--rotor", "misspelled", "--at", "0", path]).stdout == "1:9:recieved\n")
    #expect(try CLI.run(["prev", "--rotor", "misspelled", "--at", "8", path]).stdout == "1:1:Teh\n")
    #expect(try CLI.run(["next", "--rotor", "misspelled", "--at", "62", path]).status == 1)
    let stats = try CLI.jsonObject(try CLI.run(["stats", "--json", path]).lines[0])
    let rotors = try #require(stats["rotors"] as? [String: Any])
    #expect((rotors["misspelled"] as? [String: Any])?["entries"] as? Int == 4)
  }

  @Test("no dictionary for --locale: one message naming the locale and the folder, exit 2")
  func missingDictionary() throws {
    let path = try CLI.temporaryFile(Array("Teh cat\n".utf8), suffix: ".txt")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let result = try CLI.run(["segment", "--by", "misspelled", "--locale", "xx_YY", path])
    #expect(result.status == 2)
    #expect(result.stdout == "")
    #expect(result.stderr.contains("no Hunspell dictionary for locale \"xx_YY\" in /usr/share/hunspell"))
    // stats leaves the rotor out when no dictionary is installed for the locale.
    let stats = try CLI.run(["stats", "--locale", "xx_YY", path])
    #expect(stats.status == 0)
    #expect(!stats.stdout.contains("misspelled"))
  }
}
