import Testing
import TextRotor

/// Plain-text links against cmark-gfm's own autolink extension: on random lines with no Markdown
/// syntax (no `* _ ~ [ ] < > \` & |`, no block markers), GFM's rules must find the same links, with
/// the same text and URLs, as cmark-gfm does in a Markdown paragraph.
@Suite struct LinkifierTests {
  static let tokens = [
    " ", " ", "  ", "word", "x", "http://", "https://", "ftp://", "HTTP://", "www.", "a", "b-c", "example", "com",
    "org", ".", ",", "?", "!", ":", ";", "(", ")", "'", "\"", "/", "@", "+", "-", "=", "%", "é", "日本", "x.y",
    "1", "42", "foo@bar.baz", "a.b@c.d", "www.x.y/z", "http://a.b/c?d=e", "(http://a.b/c)", "...", "#", "$",
  ]

  static func links(_ text: String) -> [String] {
    Linkifier.links(in: text).map { link in
      let bytes = Array(text.utf8)
      return "\(String(decoding: bytes[link.range], as: UTF8.self)) -> \(link.url)"
    }
  }

  static func cmarkLinks(_ text: String) throws -> [String] {
    let bytes = ByteStorage(text)
    return try StructureScan.entries([.links], in: bytes, elements: [0..<bytes.count], format: .markdown)[.links]!.map {
      "\(bytes.string($0.range)) -> \($0.info.url ?? "")"
    }
  }

  @Test func examples() {
    #expect(
      Self.links("Visit www.commonmark.org/help for more.") == [
        "www.commonmark.org/help -> http://www.commonmark.org/help"
      ])
    #expect(Self.links("Visit www.commonmark.org.") == ["www.commonmark.org -> http://www.commonmark.org"])
    #expect(
      Self.links("(www.google.com/search?q=Markup+(business))") == [
        "www.google.com/search?q=Markup+(business) -> http://www.google.com/search?q=Markup+(business)"
      ])
    #expect(
      Self.links("www.google.com/search?q=commonmark&hl;") == [
        "www.google.com/search?q=commonmark -> http://www.google.com/search?q=commonmark"
      ])
    #expect(Self.links("www.commonmark.org/he<lp") == ["www.commonmark.org/he -> http://www.commonmark.org/he"])
    #expect(
      Self.links("https://example.com/a.b?c, ftp://files.example") == [
        "https://example.com/a.b?c -> https://example.com/a.b?c", "ftp://files.example -> ftp://files.example",
      ])
    #expect(
      Self.links("foo@bar.baz and hello+xyz@mail.example.") == [
        "foo@bar.baz -> mailto:foo@bar.baz", "hello+xyz@mail.example -> mailto:hello+xyz@mail.example",
      ])
    #expect(Self.links("a.b-c_d@a.b_ and a.b-c_d@a.b- and a@b").isEmpty)
    #expect(Self.links("www.a_b.c and www.x.y_z").isEmpty)
    #expect(Self.links("xhttp://a.b") == [])
    #expect(Self.links("line one\nwww.two.example") == ["www.two.example -> http://www.two.example"])
  }

  @Test func sameAsCmarkGFM() throws {
    var seeds = SeededRandom(seed: SeededRandom.seedFromEnvironment(default: 0x11C))
    var compared = 0
    var linked = 0
    for _ in 0..<TestScale.count(3000) {
      let seed = seeds.next()
      var rng = SeededRandom(seed: seed)
      var line = "x "
      for _ in 0..<Int(1 + rng.next() % 12) { line += Self.tokens[Int(rng.next() % UInt64(Self.tokens.count))] }
      let ours = Self.links(line)
      let theirs = try Self.cmarkLinks(line)
      #expect(ours == theirs, "seed \(seed): \(line.debugDescription)")
      compared += 1
      linked += ours.isEmpty ? 0 : 1
    }
    #expect(linked > TestScale.count(3000) / 10)
  }
}
