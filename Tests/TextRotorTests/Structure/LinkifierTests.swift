import Testing

@testable import TextRotor

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

  /// The candidate scan (only the lines holding `://`, `www.` or `@` are read) equals reading every
  /// line, on random texts of many lines (LF, CR, CR LF, blank lines, trailing spaces) and random
  /// ranges of them. The seed is printed on failure (TEXTROTOR_SEED replays it).
  @Test func candidateScanEqualsEveryLine() {
    let seed = SeededRandom.seedFromEnvironment(default: 0x11AC)
    var rng = SeededRandom(seed: seed)
    let pieces = Self.tokens + ["\n", "\n", "\r", "\r\n", "\n\n", "  \n", "\t\n", "www", "://", "@", "w", "ww"]
    for round in 0..<TestScale.count(400) {
      var text = ""
      for _ in 0..<Int(rng.next() % 80) { text += pieces[Int(rng.next() % UInt64(pieces.count))] }
      let bytes = ByteStorage(text)
      let a = Int(rng.next() % UInt64(bytes.count + 1))
      let b = a + Int(rng.next() % UInt64(bytes.count - a + 1))
      for range in [0..<bytes.count, a..<b] {
        let fast = Linkifier.links(in: bytes, range: range).map { "\($0.range) \($0.url)" }
        let slow = Linkifier.linksLineByLine(in: bytes, range: range).map { "\($0.range) \($0.url)" }
        #expect(fast == slow, "seed \(seed), round \(round), \(range) of \(text.debugDescription)")
      }
    }
  }
}
