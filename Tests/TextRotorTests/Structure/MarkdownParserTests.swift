import Dispatch
import Synchronization
import Testing
import TextRotor

/// The bottom layer's cmark-gfm parse: offsets under CR LF and a byte order mark, corrected inline
/// positions, and parses on several threads at once.
@Suite struct MarkdownParserTests {
  static func entries(_ text: String, _ kind: StructureRotor) throws -> [String] {
    let bytes = ByteStorage(text)
    return try StructureScan.entries([kind], in: bytes, elements: [0..<bytes.count], format: .markdown)[kind]!.map {
      bytes.string($0.range)
    }
  }

  /// A label is the plain text of a node's first child, found by a walk of at most 4,096 nodes: an
  /// item nested thousands deep before its first text (`- - - … x`) made every item's walk go down
  /// to it, the square of the depth in all (50,000 deep: minutes for `next --rotor listItems`).
  @Test func labelsOfDeepNestingAreBounded() throws {
    let depth = 3000
    let bytes = ByteStorage(String(repeating: "- ", count: depth) + "x\n")
    let items = try StructureScan.entries([.listItems], in: bytes, elements: [0..<bytes.count], format: .markdown)[
      .listItems]!
    #expect(items.count == depth)
    // The innermost items reach the text; the outermost stop before it, with no label.
    #expect(items.last?.label == "x" && items[depth - 100].label == "x")
    #expect(items.first?.label == "")
    // Shallow nesting is labelled as before.
    let shallow = ByteStorage("- - - deep *text*\n- two\n")
    let labels = try StructureScan.entries([.listItems], in: shallow, elements: [0..<shallow.count], format: .markdown)[
      .listItems]!.map(\.label)
    #expect(labels == ["deep text", "deep text", "deep text", "two"])
  }

  @Test func offsetsAreTheSourcesBytes() throws {
    // CR LF line ends, a byte order mark, non-ASCII text before the nodes.
    #expect(try Self.entries("\u{FEFF}# Tîtle\r\n\r\nÉté *très* [lien](x)\r\n", .emphasis) == ["*très*"])
    #expect(try Self.entries("\u{FEFF}# Tîtle\r\n\r\nÉté *très* [lien](x)\r\n", .headings) == ["# Tîtle"])
    #expect(try Self.entries("# Tîtle\r\n\r\nÉté *très* [lien](x)\r\n", .links) == ["[lien](x)"])
    // Later lines of a paragraph in a list item and in a block quote (cmark-gfm's columns there
    // leave out the indentation it strips).
    #expect(try Self.entries("- a\n   b *x*\n", .emphasis) == ["*x*"])
    #expect(try Self.entries("> a\n>    b *x*\nc _y_\n", .emphasis) == ["*x*", "_y_"])
    // A link after a code span that spans lines, a link spanning lines, a backslash line break.
    #expect(try Self.entries("a `b\nc` [d](e)\n", .links) == ["[d](e)"])
    #expect(try Self.entries("x [a\nb](u) y\n", .links) == ["[a\nb](u)"])
    #expect(try Self.entries("a\\\nb [c](d)\n", .links) == ["[c](d)"])
    // Autolinks (cmark-gfm's columns are not the source's) and GFM's bare links.
    #expect(
      try Self.entries("  x\n  y <http://a.b> www.c.de e@f.gh\n", .links) == ["<http://a.b>", "www.c.de", "e@f.gh"])
    // After link reference definitions at a paragraph's start.
    #expect(try Self.entries("[r]: /u\nText [r]\n", .links) == ["[r]"])
  }

  /// cmark-gfm 0.29 ends a setext heading that no blank line follows where the block after it
  /// ends (found by an adversarial review, seventeenth session; comrak#378 is the same bug): the
  /// heading's entry took in the next paragraph, or a heading inside the list after it.
  @Test func setextHeadingsEndWithTheirUnderline() throws {
    #expect(try Self.entries("Setext\n===\nnext para\n", .headings) == ["Setext\n==="])
    #expect(try Self.entries("Setext\n===\n- ## In list\n", .headings) == ["Setext\n===", "## In list"])
    #expect(try Self.entries("a\r\nb\r\n---\r\n[l](/crlf)\r\n", .headings) == ["a\r\nb\r\n---"])
    #expect(try Self.entries("> quoted\n> ===\n> after\n", .headings) == ["quoted\n> ==="])
    #expect(try Self.entries("Fine\n===\n\npara\n", .headings) == ["Fine\n==="])
    #expect(try Self.entries("Two\nlines\n---  \nx\n", .headings) == ["Two\nlines\n---  "])
  }

  /// A setext heading that starts with link reference definitions and that no blank line follows
  /// (found by an adversarial review of the CLI): cmark-gfm 0.29 runs the heading on to the end of
  /// the next block, and its inline lines were counted back from that end, not from the underline,
  /// so the heading's emphasis landed on the underline or the next block and its links were lost.
  @Test func setextHeadingAfterDefinitionsThatNoBlankLineFollows() throws {
    #expect(try Self.entries("[r]: /u\n*a*\n===\n---", .emphasis) == ["*a*"])
    #expect(try Self.entries("[r]: /u\n*a*\n===\nxx\n", .emphasis) == ["*a*"])
    #expect(try Self.entries("[r]: /u\n*a* [x][r]\n===\n- item\n", .links) == ["[x][r]"])
    #expect(try Self.entries("[r]: /u\n[x][r] *a*\n===\nmore\n", .emphasis) == ["*a*"])
    #expect(try Self.entries("[r]: /u\r\n[x][r] *a*\r\n===\r\nmore\r\n", .links) == ["[x][r]"])
    // With a blank line after it, as before.
    #expect(try Self.entries("[r]: /u\n*a* [x][r]\n===\n\n---\n", .links) == ["[x][r]"])
  }

  /// cmark-gfm shares its extensions' trigger characters between parsers (a parser being freed
  /// removes them): parses on several threads must still find every autolink.
  @Test func parsesOnSeveralThreads() throws {
    let bytes = try Fixtures.bytes("markdown/structure.md")
    let serial = try StructureScan.entries(
      StructureRotor.markdownKinds, in: bytes, elements: [0..<bytes.count], format: .markdown)
    let mismatches = Mutex(0)
    DispatchQueue.concurrentPerform(iterations: 16) { _ in
      for _ in 0..<10 {
        let again = try? StructureScan.entries(
          StructureRotor.markdownKinds, in: bytes, elements: [0..<bytes.count], format: .markdown)
        if again != serial { mismatches.withLock { $0 += 1 } }
      }
    }
    #expect(mismatches.withLock { $0 } == 0)
  }
}
