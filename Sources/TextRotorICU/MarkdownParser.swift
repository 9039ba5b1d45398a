import CTextRotorMarkdown

/// What a Markdown node is (the structure rotors' kinds, and top-level blocks).
public enum MarkdownNodeKind: Int32, Sendable {
  /// A block directly in the document (any kind): what an edit re-parses.
  case block = 0
  case heading, link, list, listItem, codeBlock, table, blockQuote, emphasis, strong
  /// An HTML block and a paragraph (no rotors: where link reference definitions cannot be) ...
  case htmlBlock, paragraph
  /// ... but these lines at a paragraph's start were definitions.
  case definitions
}

/// One node of cmark-gfm's parse, with UTF-8 byte offsets.
public struct MarkdownNode: Sendable, Equatable {
  public var kind: MarkdownNodeKind
  /// Heading level (1-6); for a list, 1 when ordered; for a top-level block, cmark's node type.
  public var detail: Int32
  /// A list's items; a table's rows (its header row included).
  public var items: Int32
  /// 0 for a top-level block.
  public var depth: Int32
  public var range: Range<Int>
  /// The node's text for headings, links, list items (their first block), emphasis and strong:
  /// plain text, breaks as spaces, at most 256 bytes.
  public var label: String?
  /// A link's destination; a fenced code block's info string.
  public var url: String?
  /// cmark-gfm's own source position (1-based lines and byte columns, end column inclusive),
  /// relative to the parsed text.
  public var sourcePosition: (startLine: Int32, startColumn: Int32, endLine: Int32, endColumn: Int32)

  public static func == (a: MarkdownNode, b: MarkdownNode) -> Bool {
    a.kind == b.kind && a.detail == b.detail && a.items == b.items && a.depth == b.depth && a.range == b.range
      && a.label == b.label && a.url == b.url
  }
}

/// Markdown is parsed with cmark-gfm (GitHub's CommonMark parser; the GFM extensions tables,
/// autolinks and strikethrough). Line/column positions are turned into byte offsets here, and
/// cmark-gfm's inline columns are corrected where it miscounts them (on a paragraph's later lines
/// it leaves out the indentation it strips; autolinks' columns are not the source's).
public enum MarkdownParser {
  public struct ParseError: Error, CustomStringConvertible, Sendable {
    public var description: String
  }

  /// cmark-gfm's node type of a list (a top-level block's ``MarkdownNode/detail``).
  public static let listBlockType = Int32(CTR_MD_CMARK_LIST_TYPE)
  /// cmark-gfm's node type of a code block.
  public static let codeBlockType = Int32(CTR_MD_CMARK_CODE_BLOCK_TYPE)
  /// cmark-gfm's node type of a paragraph.
  public static let paragraphType = Int32(CTR_MD_CMARK_PARAGRAPH_TYPE)
  /// cmark-gfm's node type of a heading.
  public static let headingType = Int32(CTR_MD_CMARK_HEADING_TYPE)

  /// Texts longer than this are past cmark-gfm's 32-bit sizes.
  public static let maximumLength = Int(Int32.max) - 16

  /// The nodes of `range` of `bytes`, parsed as one Markdown document after `prelude` (parsed
  /// first and not reported: link reference definitions from elsewhere). Offsets are relative to
  /// `range.lowerBound`; parents come before their children, in document order. A `postlude` is
  /// parsed after the range (link reference definitions from after it); its nodes are reported
  /// too (callers drop what starts past the range). With `kinds`, only nodes of those kinds;
  /// without `texts`, no node has a label or a URL (a count needs neither).
  public static func parse(
    _ bytes: ByteStorage, range: Range<Int>, prelude: [UInt8] = [], postlude: [UInt8] = [],
    kinds: Set<MarkdownNodeKind>? = nil, texts: Bool = true
  ) throws(ParseError) -> [MarkdownNode] {
    precondition(range.lowerBound >= 0 && range.upperBound <= bytes.count, "range outside the bytes")
    guard range.count + prelude.count + postlude.count <= maximumLength else {
      throw ParseError(description: "a Markdown text of \(range.count) bytes is past cmark-gfm's 32-bit sizes")
    }
    var result = ctr_md_result()
    // The kinds as cmark's walk takes them (bit k: kind k): it makes no node, label or URL for others.
    var mask = kinds.map { $0.reduce(UInt32(0)) { $0 | 1 << UInt32($1.rawValue) } } ?? UInt32.max & ~CTR_MD_NO_TEXTS
    if !texts { mask |= CTR_MD_NO_TEXTS }
    let status: Int32
    if prelude.isEmpty && postlude.isEmpty {
      status = bytes.withUnsafeBytes { all in
        ctr_md_parse_kinds(
          UnsafeRawPointer(all.baseAddress.map { $0 + range.lowerBound } ?? UnsafePointer(bitPattern: 1)!)
            .assumingMemoryBound(to: CChar.self), Int64(range.count), 0, mask, &result)
      }
    } else {
      var joined = prelude
      joined.reserveCapacity(prelude.count + range.count + postlude.count)
      bytes.withUnsafeBytes { all in joined.append(contentsOf: all[range]) }
      joined.append(contentsOf: postlude)
      status = joined.withUnsafeBufferPointer { buffer in
        buffer.withMemoryRebound(to: CChar.self) {
          ctr_md_parse_kinds($0.baseAddress, Int64($0.count), Int64(prelude.count), mask, &result)
        }
      }
    }
    guard status == 0 else { throw ParseError(description: "cmark-gfm could not parse the text (out of memory)") }
    defer { ctr_md_free(&result) }
    let shift = prelude.count
    var nodes: [MarkdownNode] = []
    nodes.reserveCapacity(Int(result.count))
    let strings = UnsafeBufferPointer(start: result.strings, count: Int(result.stringsLength))
    func string(_ at: Int64, _ length: Int64) -> String? {
      guard length >= 0 else { return nil }
      let slice = UnsafeBufferPointer(rebasing: strings[Int(at)..<Int(at + length)])
      return slice.withMemoryRebound(to: UInt8.self) { String(decoding: $0, as: UTF8.self) }
    }
    for k in 0..<Int(result.count) {
      let n = result.nodes[k]
      guard let kind = MarkdownNodeKind(rawValue: n.kind) else { continue }
      nodes.append(
        MarkdownNode(
          kind: kind, detail: n.detail, items: n.items, depth: n.depth,
          range: (Int(n.start) - shift)..<(Int(n.end) - shift), label: string(n.label, n.labelLength),
          url: string(n.url, n.urlLength),
          sourcePosition: (n.startLine, n.startColumn, n.endLine, n.endColumn)))
    }
    return nodes
  }
}
