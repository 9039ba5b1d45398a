import TextRotorICU

/// A long Markdown element parsed by cmark-gfm in pieces of about ``pieceLength`` bytes, with the
/// nodes a parse of the whole element gives: cmark-gfm's syntax tree of 100 MB of Markdown took
/// 1.5–2 GB, whose page faults and cache misses were a third of the CPU time; the tree of one piece
/// stays small.
///
/// Where a piece may end: at a line where a top-level paragraph or heading starts. cmark-gfm parses
/// blocks line by line without looking ahead, and a block that starts in the document itself was
/// opened with every other block closed, so the text from that line on parses as a document of its
/// own, and the blocks before it are closed there, whatever follows. A piece is therefore parsed a
/// little past its nominal end; the last such line in it ends it, and what follows is parsed again
/// with the next piece (when there is no such line, the piece is parsed again twice as long).
///
/// Link reference definitions are document-wide, the first one of a label wins: each piece is
/// parsed after the first definitions of the labels it may use (its bracketed texts, by
/// ``ReferenceLines/keyHash(_:)``) that earlier pieces hold, as an edit's window is; a piece that
/// may use a label first defined only in a later piece (past the text parsed with it) is parsed
/// again with those definitions after it. Definitions are the lines that
/// ``StructureEntries/referenceLines(_:bytes:scanned:)`` finds, as the edit path uses them.
enum MarkdownPieces {
  /// The length of a piece: 512 KB kept cmark-gfm's heap in the caches (CPU time of 100 MB of
  /// Markdown, a C harness: 7.4 s whole, 4.8 s in 2 MB pieces, 4.1 s in 512 KB).
  static let pieceLength = 512 * 1024

  /// One definition: the first of its label.
  private struct Definition {
    var line: [UInt8]
    var range: Range<Int>
    var piece: Int
  }

  /// Bookkeeping of the definitions met so far.
  private struct Definitions {
    /// Key hashes of every line that may define a label (parsed or not): usages of other labels
    /// need no definitions.
    var candidates: Set<Int> = []
    private(set) var list: [Definition] = []
    private(set) var byHash: [Int: [Int]] = [:]
    var labels: Set<[UInt8]> = []

    /// Adds the definition `line` of `bytes` (from its `[`) met in piece `piece`, unless its label
    /// was defined before.
    mutating func add(_ bytes: ByteStorage, _ line: Range<Int>, piece: Int) {
      guard let hash = ReferenceLines.definedKeyHash(bytes, line) else { return }
      let text = bytes.copyBytes(line)
      guard labels.insert(Self.label(text)).inserted else { return }
      byHash[hash, default: []].append(list.count)
      list.append(Definition(line: text, range: line, piece: piece))
    }

    /// The label a definition line defines, as CommonMark compares labels but finer (ASCII letters
    /// lowercased, white space collapsed, other bytes kept): two lines with one such label define
    /// one label, and only the first counts.
    static func label(_ line: [UInt8]) -> [UInt8] {
      var k = 1
      while k < line.count && line[k] != 0x5D { k += line[k] == 0x5C ? 2 : 1 }
      var result: [UInt8] = []
      var space = false
      for c in line[1..<Swift.min(k, line.count)] {
        if c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D {
          space = !result.isEmpty
          continue
        }
        if space { result.append(0x20) }
        space = false
        result.append(c >= 0x41 && c <= 0x5A ? c | 0x20 : c)
      }
      return result
    }

    /// The definitions of the labels with key hash in `used` for which `take` holds, in document
    /// order, one per line followed by a blank line.
    func text(for used: Set<Int>, where take: (Definition) -> Bool) -> [UInt8] {
      var chosen: [Int] = []
      for hash in used { chosen += (byHash[hash] ?? []).filter { take(list[$0]) } }
      var text: [UInt8] = []
      for k in chosen.sorted() {
        text += list[k].line
        text += [0x0A, 0x0A]
      }
      return text
    }
  }

  /// One piece: its range of the bytes (nodes relative to its start), the end of the text parsed
  /// with it, the end of its next piece's first line, and the key hashes it may use.
  struct Piece {
    var range: Range<Int>
    var nodes: [MarkdownNode]
    fileprivate var parsedEnd: Int
    fileprivate var lineEnd: Int
    fileprivate var used: Set<Int>
  }

  /// The nodes of `range` of `bytes`, parsed as one Markdown document, in pieces of about
  /// `pieceLength` bytes (nodes relative to each piece's start; pieces in order, adjacent).
  static func parse(_ bytes: ByteStorage, range: Range<Int>, pieceLength: Int = Self.pieceLength)
    throws(MarkdownParser.ParseError) -> [Piece]
  {
    var definitions = Definitions()
    for line in ReferenceLines.find(in: bytes, range: range) {
      if let hash = ReferenceLines.definedKeyHash(bytes, line) { definitions.candidates.insert(hash) }
    }
    func used(_ r: Range<Int>) -> Set<Int> {
      guard !definitions.candidates.isEmpty else { return [] }
      var result: Set<Int> = []
      for (_, hash) in ReferenceLines.usages(in: bytes, range: r) where definitions.candidates.contains(hash) {
        result.insert(hash)
      }
      return result
    }
    func prelude(_ used: Set<Int>, piece k: Int) -> [UInt8] {
      var text = definitions.text(for: used) { $0.piece < k }
      if !text.isEmpty { text += Array("***\n\n".utf8) }
      return text
    }

    var pieces: [Piece] = []
    var start = range.lowerBound
    var length = Swift.max(pieceLength, 1)
    while start < range.upperBound {
      let cut = start + length >= range.upperBound ? range.upperBound : lineEnd(bytes, start + length, range)
      let usedHashes = used(start..<cut)
      var nodes = try MarkdownParser.parse(
        bytes, range: start..<cut, prelude: prelude(usedHashes, piece: pieces.count))
      var split = cut
      if cut < range.upperBound {
        guard let found = lastSplit(nodes, bytes, start: start) else {
          length *= 2
          continue
        }
        split = found
      }
      nodes.removeAll { $0.range.lowerBound >= split - start }
      for line in StructureEntries.referenceLines(nodes, bytes: bytes, scanned: start..<split) {
        definitions.add(bytes, line, piece: pieces.count)
      }
      pieces.append(
        Piece(
          range: start..<split, nodes: nodes, parsedEnd: cut, lineEnd: lineEnd(bytes, split, range),
          used: usedHashes))
      start = split
      length = Swift.max(pieceLength, 1)
    }

    // Labels used in a piece and first defined after it, past the text parsed with it.
    for k in pieces.indices where !pieces[k].used.isEmpty {
      let piece = pieces[k]
      let unseen = piece.used.contains { hash in
        (definitions.byHash[hash] ?? []).contains {
          definitions.list[$0].piece > k && definitions.list[$0].range.upperBound >= piece.parsedEnd
        }
      }
      guard unseen else { continue }
      // Without the text parsed past the piece: every later definition after it.
      let later = definitions.text(for: piece.used) { $0.piece > k }
      let start = piece.range.lowerBound
      var nodes = try MarkdownParser.parse(
        bytes, range: start..<piece.lineEnd, prelude: prelude(piece.used, piece: k), postlude: [0x0A, 0x0A] + later)
      nodes.removeAll { $0.range.lowerBound >= piece.range.count }
      pieces[k].nodes = nodes
    }
    return pieces
  }

  /// The end of the line holding `p` (after its line break), at most `range.upperBound`.
  private static func lineEnd(_ bytes: ByteStorage, _ p: Int, _ range: Range<Int>) -> Int {
    guard p < range.upperBound else { return range.upperBound }
    var q = p
    while q < range.upperBound && bytes[q] != 0x0A && bytes[q] != 0x0D { q += 1 }
    guard q < range.upperBound else { return range.upperBound }
    if bytes[q] == 0x0D && q + 1 < range.upperBound && bytes[q + 1] == 0x0A { return q + 2 }
    return q + 1
  }

  /// The start of the line of the last top-level paragraph or heading after the piece's start
  /// (nodes relative to `start`), or nil.
  private static func lastSplit(_ nodes: [MarkdownNode], _ bytes: ByteStorage, start: Int) -> Int? {
    for node in nodes.reversed()
    where node.kind == .block && node.range.lowerBound > 0
      && (node.detail == MarkdownParser.paragraphType || node.detail == MarkdownParser.headingType)
    {
      // Up to three spaces before it on its line.
      var p = start + node.range.lowerBound
      while p > start && bytes[p - 1] == 0x20 { p -= 1 }
      if p > start && (bytes[p - 1] == 0x0A || bytes[p - 1] == 0x0D) && start + node.range.lowerBound - p <= 3 {
        return p
      }
    }
    return nil
  }
}
