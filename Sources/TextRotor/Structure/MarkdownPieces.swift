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

  /// One line that may define a label: where, its key hash, its label (see ``label(_:)``: the
  /// index of its label among the distinct labels, and whether the label is ASCII), its text.
  fileprivate struct Candidate {
    var range: Range<Int>
    var hash: Int
    var label: Int
    var ascii: Bool
    var line: [UInt8]
  }

  /// A label's bytes with their hash (FNV-1a), hashed by it alone: a Set of byte arrays hashed
  /// every byte through Hasher.
  private struct Label: Hashable {
    var bytes: [UInt8]
    var hash: Int

    func hash(into hasher: inout Hasher) { hasher.combine(hash) }
    static func == (a: Label, b: Label) -> Bool { a.hash == b.hash && a.bytes == b.bytes }
  }

  /// One definition: the first of its label.
  private struct Definition {
    var candidate: Int
    var piece: Int
  }

  /// The label a definition line defines, as CommonMark compares labels but finer (ASCII letters
  /// lowercased, white space collapsed, other bytes kept): two lines with one such label define
  /// one label, and only the first counts.
  private static func label(_ line: [UInt8]) -> [UInt8] {
    var k = 1
    while k < line.count && line[k] != 0x5D { k += line[k] == 0x5C ? 2 : 1 }
    let end = Swift.min(k, line.count)
    var result: [UInt8] = []
    result.reserveCapacity(Swift.max(end - 1, 0))
    var space = false
    var i = 1
    while i < end {
      let c = line[i]
      i += 1
      if c == 0x20 || (c >= 0x09 && c <= 0x0D) {
        space = !result.isEmpty
        continue
      }
      if space { result.append(0x20) }
      space = false
      result.append(c >= 0x41 && c <= 0x5A ? c | 0x20 : c)
    }
    return result
  }

  /// Bookkeeping of the lines that may define labels and of the definitions met so far.
  private struct Definitions {
    /// Every line of the text that may define a label (``ReferenceLines/find(in:range:)``), in
    /// order, and their indices by key hash.
    var candidates: [Candidate] = []
    var byHash: [Int: [Int]] = [:]
    /// The first definition of each label met in the pieces parsed so far, in order.
    var list: [Definition] = []
    /// By label index (``Candidate/label``): whether `list` has a definition of it.
    var defined: [Bool] = []

    init(_ bytes: ByteStorage, range: Range<Int>) {
      var labels: [Label: Int] = [:]
      for line in ReferenceLines.find(in: bytes, range: range) {
        guard let hash = ReferenceLines.definedKeyHash(bytes, line) else { continue }
        let text = bytes.copyBytes(line)
        // A definition's label is followed by its colon (not `[label][]: ...` in a list).
        var k = 1
        while k < text.count && text[k] != 0x5D { k += text[k] == 0x5C ? 2 : 1 }
        guard k + 1 < text.count && text[k + 1] == 0x3A else { continue }
        byHash[hash, default: []].append(candidates.count)
        let bytes = MarkdownPieces.label(text)
        let key = Label(bytes: bytes, hash: ReferenceLines.hash(bytes))
        let index = labels[key] ?? labels.count
        if index == labels.count { labels[key] = index }
        candidates.append(
          Candidate(range: line, hash: hash, label: index, ascii: MarkdownPieces.isASCII(bytes), line: text))
      }
      defined = Array(repeating: false, count: labels.count)
    }

    /// The indices of the candidates in `range`.
    func candidates(in range: Range<Int>) -> Range<Int> {
      func first(_ p: Int) -> Int {
        var lo = 0
        var hi = candidates.count
        while lo < hi {
          let mid = (lo + hi) / 2
          if candidates[mid].range.lowerBound < p { lo = mid + 1 } else { hi = mid }
        }
        return lo
      }
      return first(range.lowerBound)..<first(range.upperBound)
    }

    /// Adds the definition `line` (a candidate's range) met in piece `piece`, unless its label was
    /// defined before.
    mutating func add(_ line: Range<Int>, piece: Int) {
      let k = candidates(in: line.lowerBound..<(line.lowerBound + 1)).lowerBound
      guard k < candidates.count, candidates[k].range == line, !defined[candidates[k].label] else { return }
      defined[candidates[k].label] = true
      list.append(Definition(candidate: k, piece: piece))
    }

    /// The lines of `chosen` (candidate indices) in order, each followed by a blank line.
    func text(_ chosen: [Int]) -> [UInt8] {
      var text: [UInt8] = []
      for k in chosen.sorted() {
        text += candidates[k].line
        text += [0x0A, 0x0A]
      }
      return text
    }

    /// The first definitions (candidate indices) of labels with key hash in `used` for which
    /// `take` holds.
    func definitions(for used: Set<Int>, where take: (Definition) -> Bool) -> [Int] {
      list.filter { used.contains(candidates[$0.candidate].hash) && take($0) }.map(\.candidate)
    }
  }

  /// Which labels a piece is parsed after their first candidate after the text parsed with it:
  /// those of key hashes without candidates in that text, and ASCII labels other than those of
  /// that text's candidates when these are ASCII too (ASCII labels are equal as CommonMark compares
  /// them when ``label(_:)`` makes them equal). Other labels (a definition in the text must come
  /// before them) are checked after all pieces are parsed.
  fileprivate struct Owner {
    var inText: Set<Int> = []
    var notASCII: Set<Int> = []
    /// Label indices (``Candidate/label``).
    var inTextLabels: Set<Int> = []

    func owns(_ candidate: Candidate) -> Bool {
      !inText.contains(candidate.hash)
        || (!notASCII.contains(candidate.hash) && candidate.ascii && !inTextLabels.contains(candidate.label))
    }
  }

  fileprivate static func isASCII(_ label: [UInt8]) -> Bool { label.allSatisfy { $0 < 0x80 } }

  /// One piece: its range of the bytes (nodes relative to its start) and what it was parsed with.
  struct Piece {
    var range: Range<Int>
    var nodes: [MarkdownNode]
    /// The end of the text parsed with it (past its range).
    fileprivate var parsedEnd: Int
    /// The end of the next piece's first line.
    fileprivate var lineEnd: Int
    /// The key hashes it may use.
    fileprivate var used: Set<Int>
    /// The labels whose candidates after the text parsed it was parsed after (the first one of
    /// each label: `later`), checked when their pieces are parsed.
    fileprivate var owner: Owner
    fileprivate var later: Set<Int>
  }

  /// The nodes of `range` of `bytes`, parsed as one Markdown document, in pieces of about
  /// `pieceLength` bytes (nodes relative to each piece's start; pieces in order, adjacent). With
  /// `kinds`, only nodes of those kinds (the blocks that tell where definitions are, always);
  /// without `texts`, no labels or URLs.
  static func parse(
    _ bytes: ByteStorage, range: Range<Int>, pieceLength: Int = Self.pieceLength, kinds: Set<MarkdownNodeKind>? = nil,
    texts: Bool = true
  ) throws(MarkdownParser.ParseError) -> [Piece] {
    var definitions = Definitions(bytes, range: range)
    // A copy: `definitions` changes below, and a closure reading it was checked for exclusive
    // access at every bracketed text.
    let byHash = definitions.byHash
    func used(_ r: Range<Int>) -> Set<Int> {
      guard !byHash.isEmpty else { return [] }
      return ReferenceLines.usageHashes(in: bytes, range: r) { byHash[$0] != nil }
    }

    var pieces: [Piece] = []
    var start = range.lowerBound
    var length = Swift.max(pieceLength, 1)
    while start < range.upperBound {
      let cut = start + length >= range.upperBound ? range.upperBound : lineEnd(bytes, start + length, range)
      let usedHashes = used(start..<cut)
      // Before the piece: the first definitions of the labels it may use in the pieces before it,
      // then the first candidate of each label after the text parsed (unless the text has
      // candidates of its key hash: those must come first), checked when their pieces are parsed.
      var chosen = definitions.definitions(for: usedHashes) { _ in true }
      var owner = Owner()
      var later: Set<Int> = []
      if !usedHashes.isEmpty {
        for k in definitions.candidates(in: start..<cut) {
          let candidate = definitions.candidates[k]
          guard usedHashes.contains(candidate.hash) else { continue }
          owner.inText.insert(candidate.hash)
          owner.inTextLabels.insert(candidate.label)
          if !candidate.ascii { owner.notASCII.insert(candidate.hash) }
        }
        var labels: Set<Int> = []
        for hash in usedHashes {
          for k in definitions.byHash[hash] ?? [] {
            let candidate = definitions.candidates[k]
            if candidate.range.lowerBound >= cut && !definitions.defined[candidate.label]
              && owner.owns(candidate) && labels.insert(candidate.label).inserted
            {
              later.insert(k)
            }
          }
        }
        chosen += later
      }
      var prelude = definitions.text(chosen)
      if !prelude.isEmpty { prelude += Array("***\n\n".utf8) }
      var nodes = try MarkdownParser.parse(bytes, range: start..<cut, prelude: prelude, kinds: kinds, texts: texts)
      var split = cut
      if cut < range.upperBound {
        guard let found = lastSplit(nodes, bytes, start: start) else {
          length *= 2
          continue
        }
        split = found
      }
      nodes.removeAll { $0.range.lowerBound >= split - start }
      if !definitions.candidates.isEmpty {
        let lines = definitions.candidates(in: start..<split).map { definitions.candidates[$0].range }
        for line in StructureEntries.referenceLines(nodes, bytes: bytes, scanned: start..<split, lines: lines) {
          definitions.add(line, piece: pieces.count)
        }
      }
      pieces.append(
        Piece(
          range: start..<split, nodes: nodes, parsedEnd: cut, lineEnd: lineEnd(bytes, split, range),
          used: usedHashes, owner: owner, later: later))
      start = split
      length = Swift.max(pieceLength, 1)
    }

    // A piece parsed with other definitions than the document's first ones of its labels (a
    // candidate after it that was no definition; a label defined first after the text parsed with
    // it, which has a candidate of its key hash) is parsed again, with the first definitions after
    // it placed after it.
    for k in pieces.indices where !pieces[k].used.isEmpty {
      let piece = pieces[k]
      let after = definitions.definitions(for: piece.used) { $0.piece > k }
      var expected: Set<Int> = []
      var unseen = false
      for c in after {
        let candidate = definitions.candidates[c]
        if piece.owner.owns(candidate) {
          expected.insert(c)
        } else if candidate.range.upperBound >= piece.parsedEnd {
          unseen = true
        }
      }
      guard unseen || expected != piece.later else { continue }
      let start = piece.range.lowerBound
      var prelude = definitions.text(definitions.definitions(for: piece.used) { $0.piece < k })
      if !prelude.isEmpty { prelude += Array("***\n\n".utf8) }
      var nodes = try MarkdownParser.parse(
        bytes, range: start..<piece.lineEnd, prelude: prelude, postlude: [0x0A, 0x0A] + definitions.text(after),
        kinds: kinds, texts: texts)
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
