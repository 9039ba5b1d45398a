import TextRotorICU

/// A document's structure rotors: one interval index per kind (entries may nest: a list in a list
/// item, a link in a heading), and, for Markdown, the indexes of top-level blocks, of the lines
/// that may define link references and of the bracketed texts that may use them, which edits use
/// to find what to parse again.
struct StructureIndexes: Sendable {
  var format: DocumentFormat
  var rotors: [StructureRotor: IntervalIndex<StructurePayload>]
  /// Top-level blocks (Markdown), valued by cmark-gfm's node type.
  var blocks: IntervalIndex<Int32>
  /// Lines that may define link references (Markdown): `[label]: destination` (with the next line
  /// when the destination is on it), valued by the hash of the label they define
  /// (``ReferenceLines/keyHash(_:)``; 0: none).
  var references: IntervalIndex<Int>
  /// Bracketed texts that may use a link label (Markdown), valued by the hash of their key: where
  /// a changed definition can change links.
  var usages: IntervalIndex<Int>
  /// The items of top-level lists (Markdown): an edit inside a long list parses only the items
  /// around it (see ``RotorDocument/itemWindow(_:element:start:old:new:range:inserted:)``).
  var units: IntervalIndex<Int32>
  /// Per element index, its definition lines by label key hash: what a window is parsed after.
  /// Built on first use; kept up to date when an edit changes definitions; dropped when elements
  /// are inserted or removed.
  var labelMaps: [Int: [Int: [[UInt8]]]] = [:]
  /// How many entries of `usages` have each key hash (Markdown), but for the labels of reference
  /// lines (a definition's own label is no link): a changed definition whose label nothing uses (a
  /// label being typed) parses nothing again, without walking every usage.
  var usageCounts: [Int: Int] = [:]

  /// Counts `found`'s usages (+1) or removes them (-1), but for those at the start of one of
  /// `references` (sorted by start).
  static func count(
    _ found: [(Range<Int>, Int)], but references: [(Range<Int>, Int)], by step: Int, into counts: inout [Int: Int]
  ) {
    var r = 0
    for (range, hash) in found {
      while r < references.count && references[r].0.lowerBound < range.lowerBound { r += 1 }
      if r < references.count && references[r].0.lowerBound == range.lowerBound { continue }
      let n = (counts[hash] ?? 0) + step
      counts[hash] = n > 0 ? n : nil
    }
  }
}

/// Entries found in a stretch of text, in document offsets, sorted by start per kind.
struct StructureEntries {
  var rotors: [StructureRotor: [(Range<Int>, StructurePayload)]] = [:]
  var blocks: [(Range<Int>, Int32)] = []
  var references: [(Range<Int>, Int)] = []
  var usages: [(Range<Int>, Int)] = []
  var units: [(Range<Int>, Int32)] = []
  /// After an edit parsed only some items of a top-level list: the list's entry (in the lists
  /// rotor and the blocks), which starts before the window, with its new range and item count.
  var list: (range: Range<Int>, payload: StructurePayload)? = nil

  /// Adds cmark-gfm's nodes (offsets relative to the parsed text) moved by `shift` (with `kinds`,
  /// the rotors' entries of those kinds only); with `bytes`, also the reference lines that no code
  /// or HTML block holds and the bracketed texts of `scanned` (the parsed text in `bytes`).
  mutating func add(
    _ nodes: [MarkdownNode], shift: Int, bytes: ByteStorage? = nil, scanned: Range<Int> = 0..<0,
    kinds: Set<StructureRotor>? = nil
  ) {
    let origin = scanned.lowerBound
    if let bytes {
      for (r, hash) in ReferenceLines.usages(in: bytes, range: scanned) {
        usages.append(((r.lowerBound - origin + shift)..<(r.upperBound - origin + shift), hash))
      }
      for line in Self.referenceLines(nodes, bytes: bytes, scanned: scanned) {
        references.append(
          (
            (line.lowerBound - origin + shift)..<(line.upperBound - origin + shift),
            ReferenceLines.definedKeyHash(bytes, line) ?? 0
          ))
      }
    }
    // By index, each kind's entries gathered in an array of their own and appended to `rotors`
    // once: a node copied retained and released its strings, and `rotors` hashed its key (a
    // String-valued enum) for every entry.
    let all = StructureRotor.allCases
    var found: [[(Range<Int>, StructurePayload)]] = Array(repeating: [], count: all.count)
    var wanted = Array(repeating: kinds == nil, count: all.count)
    for kind in kinds ?? [] { wanted[kind.ordinal] = true }
    for k in nodes.indices {
      let kind = nodes[k].kind
      let range = (nodes[k].range.lowerBound + shift)..<(nodes[k].range.upperBound + shift)
      if kind == .block {
        blocks.append((range, nodes[k].detail))
      } else if kind == .listItem && nodes[k].depth == 1 {
        units.append((range, 0))
        if wanted[StructureRotor.listItems.ordinal] {
          found[StructureRotor.listItems.ordinal].append((range, StructurePayload(nodes[k])))
        }
      } else if let rotor = StructureRotor(kind), wanted[rotor.ordinal] {
        found[rotor.ordinal].append((range, StructurePayload(nodes[k])))
      }
    }
    for (ordinal, entries) in found.enumerated() where !entries.isEmpty {
      rotors[all[ordinal], default: []].append(contentsOf: entries)
    }
  }

  /// The lines of `scanned` (in `bytes`) that may define link references and that no code or HTML
  /// block, paragraph, heading or table of the parse `nodes` (offsets relative to `scanned`) holds
  /// but as definitions at a paragraph's start (`lines`: those of the lines that may define labels,
  /// when already found).
  static func referenceLines(
    _ nodes: [MarkdownNode], bytes: ByteStorage, scanned: Range<Int>, lines: [Range<Int>]? = nil
  ) -> [Range<Int>] {
    let origin = scanned.lowerBound
    let referenceLines = lines ?? ReferenceLines.find(in: bytes, range: scanned)
    if referenceLines.isEmpty { return [] }
    // Leaf blocks, where a line is no definition, and the definitions at paragraphs' starts.
    var opaque: [Range<Int>] = []
    var definitions: [Range<Int>] = []
    var top: [Range<Int>] = []
    opaque.reserveCapacity(nodes.count)
    top.reserveCapacity(nodes.count)
    // By index: a node copied (for node in nodes) retained and released its label and URL.
    for k in nodes.indices {
      switch nodes[k].kind {
      case .codeBlock, .htmlBlock, .paragraph, .heading, .table: opaque.append(nodes[k].range)
      case .definitions: definitions.append(nodes[k].range)
      case .block: top.append(nodes[k].range)
      default: break
      }
    }
    // Within their top-level block: cmark-gfm ends an unclosed fence in a list item on the line
    // after the item (which may be a definition).
    top.sort { $0.lowerBound < $1.lowerBound }
    for k in opaque.indices {
      var lo = 0
      var hi = top.count
      while lo < hi {
        let mid = (lo + hi) / 2
        if top[mid].lowerBound <= opaque[k].lowerBound { lo = mid + 1 } else { hi = mid }
      }
      if lo > 0 && opaque[k].upperBound > top[lo - 1].upperBound {
        opaque[k] = opaque[k].lowerBound..<Swift.max(opaque[k].lowerBound, top[lo - 1].upperBound)
      }
    }
    // Leaf blocks never nest: sorted by start, the one that may hold `p` is the last starting at
    // or before it.
    opaque.sort { $0.lowerBound < $1.lowerBound }
    definitions.sort { $0.lowerBound < $1.lowerBound }
    func holds(_ ranges: [Range<Int>], _ p: Int) -> Bool {
      var lo = 0
      var hi = ranges.count
      while lo < hi {
        let mid = (lo + hi) / 2
        if ranges[mid].lowerBound <= p { lo = mid + 1 } else { hi = mid }
      }
      return lo > 0 && p < ranges[lo - 1].upperBound
    }
    return referenceLines.filter {
      let p = $0.lowerBound - origin
      return holds(definitions, p) || !holds(opaque, p)
    }
  }

  /// Sorts each kind by start (a stable sort, and only if needed: cmark-gfm's order is almost
  /// always already sorted).
  mutating func sort() {
    for kind in Array(rotors.keys) { rotors[kind] = Self.sorted(rotors[kind]!) }
    blocks = Self.sorted(blocks)
    references = Self.sorted(references)
    usages = Self.sorted(usages)
    units = Self.sorted(units)
  }

  static func sorted<V>(_ entries: [(Range<Int>, V)]) -> [(Range<Int>, V)] {
    // By index: a zip of the entries copied each payload (its strings retained and released) twice,
    // 7 % of a heading count's instructions.
    var inOrder = true
    var k = 1
    while inOrder && k < entries.count {
      inOrder = entries[k - 1].0.lowerBound <= entries[k].0.lowerBound
      k += 1
    }
    if inOrder { return entries }
    return entries.enumerated().sorted {
      ($0.element.0.lowerBound, $0.offset) < ($1.element.0.lowerBound, $1.offset)
    }.map(\.element)
  }
}

/// Finding the lines of a Markdown text that may define link references.
enum ReferenceLines {
  /// Lines of `range` of `bytes` that hold `]:` and, after container markers (`>`, list markers)
  /// and spaces, start with `[`: every line that can begin a link reference definition.
  static func find(in bytes: ByteStorage, range: Range<Int>) -> [Range<Int>] {
    precondition(range.lowerBound >= 0 && range.upperBound <= bytes.count, "range outside the bytes")
    var result: [Range<Int>] = []
    // Over the raw bytes: ByteStorage's subscript is a call (another module), and the scans to
    // each `]:`'s line start and end took 3 M of it on 5 MB.
    bytes.withUnsafeBytes { text in
      var p = range.lowerBound
      // `]` by memchr, then its `:` (memmem of `]:` took 8 instructions a byte).
      while let hit = bytes.firstIndex(of: 0x5D, in: p..<range.upperBound) {
        guard hit + 1 < range.upperBound && text[hit + 1] == 0x3A else {
          p = hit + 1
          continue
        }
        var start = hit
        while start > range.lowerBound && text[start - 1] != 0x0A && text[start - 1] != 0x0D { start -= 1 }
        var end = hit
        while end < range.upperBound && text[end] != 0x0A && text[end] != 0x0D { end += 1 }
        if let content = definitionStart(text, start..<end) {
          // `[label]:` alone on its line: the destination is on the next one, which belongs to it.
          var k = hit + 2
          while k < end && (text[k] == 0x20 || text[k] == 0x09) { k += 1 }
          if k == end && end < range.upperBound {
            var next = end + 1
            if text[end] == 0x0D && next < range.upperBound && text[next] == 0x0A { next += 1 }
            var nextEnd = next
            while nextEnd < range.upperBound && text[nextEnd] != 0x0A && text[nextEnd] != 0x0D { nextEnd += 1 }
            if nextEnd > next { end = nextEnd }
          }
          result.append(content..<end)
        }
        p = end
      }
    }
    return result
  }

  /// The key of a link label as CommonMark matches labels (case-insensitively, white space
  /// collapsed): case-folded, without white space. Labels that CommonMark would tell
  /// apart may share a key (a window is then parsed after one definition too many, harmlessly).
  static func key(_ label: some Collection<UInt8>) -> String {
    // Upper- then lowercased: close to Unicode's case folding, which CommonMark uses (`ς` and `σ`
    // are one key, `ß` is `ss`).
    var key = ""
    for c in String(decoding: label, as: UTF8.self).uppercased().lowercased() where !c.isWhitespace {
      key.append(c)
    }
    return key
  }

  /// A hash of ``key(_:)`` (never 0), without making the key for ASCII labels.
  static func keyHash(_ label: some Collection<UInt8>) -> Int {
    var h: UInt64 = 0xcbf2_9ce4_8422_2325
    for c in label {
      if c >= 0x80 { return hash(Array(key(label).utf8)) }
      if c == 0x20 || (c >= 0x09 && c <= 0x0D) { continue }
      h = (h ^ UInt64(c >= 0x41 && c <= 0x5A ? c | 0x20 : c)) &* 0x100_0000_01B3
    }
    return h == 0 ? 1 : Int(bitPattern: UInt(h))
  }

  /// FNV-1a of `bytes` (never 0).
  static func hash(_ bytes: [UInt8]) -> Int {
    var h: UInt64 = 0xcbf2_9ce4_8422_2325
    for c in bytes { h = (h ^ UInt64(c)) &* 0x100_0000_01B3 }
    return h == 0 ? 1 : Int(bitPattern: UInt(h))
  }

  /// The key hash of the label a definition line (starting at its `[`) defines, or nil.
  static func definedKeyHash(_ line: [UInt8]) -> Int? {
    guard line.first == 0x5B else { return nil }
    var k = 1
    while k < line.count && line[k] != 0x5D {
      k += line[k] == 0x5C ? 2 : 1
    }
    return k < line.count ? keyHash(line[1..<k]) : nil
  }

  /// The same for the line `line` of `bytes`.
  static func definedKeyHash(_ bytes: ByteStorage, _ line: Range<Int>) -> Int? {
    guard line.lowerBound < line.upperBound, bytes[line.lowerBound] == 0x5B else { return nil }
    var k = line.lowerBound + 1
    while k < line.upperBound && bytes[k] != 0x5D {
      k += bytes[k] == 0x5C ? 2 : 1
    }
    return k < line.upperBound ? keyHash(bytes.copyBytes((line.lowerBound + 1)..<k)) : nil
  }

  /// Every bracketed text in `range` of `bytes` that could be a link label (the innermost `[...]`
  /// of each `]`, at most 999 bytes), with its key hash: the labels a text may refer to.
  static func usages(in bytes: ByteStorage, range: Range<Int>) -> [(Range<Int>, Int)] {
    var result: [(Range<Int>, Int)] = []
    forEachLabel(in: bytes, range: range) { open, close, text in
      result.append((open..<(close + 1), keyHash(UnsafeBufferPointer(rebasing: text[(open + 1)..<close]))))
    }
    return result
  }

  /// The key hashes of ``usages(in:range:)`` for which `keep` holds, without copying labels.
  static func usageHashes(in bytes: ByteStorage, range: Range<Int>, keep: (Int) -> Bool) -> Set<Int> {
    var result: Set<Int> = []
    forEachLabel(in: bytes, range: range) { open, close, text in
      let hash = keyHash(UnsafeBufferPointer(rebasing: text[(open + 1)..<close]))
      if keep(hash) { result.insert(hash) }
    }
    return result
  }

  /// Calls `body` with the `[` and `]` of every bracketed text of ``usages(in:range:)``, and the
  /// raw bytes (the scan back to each `]`'s `[` reads them directly: through ByteStorage's
  /// subscript, a call, it took 8 M instructions on 5 MB).
  private static func forEachLabel(
    in bytes: ByteStorage, range: Range<Int>, _ body: (Int, Int, UnsafeBufferPointer<UInt8>) -> Void
  ) {
    precondition(range.lowerBound >= 0 && range.upperBound <= bytes.count, "range outside the bytes")
    bytes.withUnsafeBytes { text in
      var p = range.lowerBound
      while let close = bytes.firstIndex(of: 0x5D, in: p..<range.upperBound) {
        var open = close - 1
        while open >= range.lowerBound && close - open <= 1000 && text[open] != 0x5B && text[open] != 0x5D {
          open -= 1
        }
        if open >= range.lowerBound && text[open] == 0x5B && close - open <= 1000 { body(open, close, text) }
        p = close + 1
      }
    }
  }

  /// Where a definition would start on the line `line` (at its `[`), or nil.
  static func definitionStart(_ bytes: UnsafeBufferPointer<UInt8>, _ line: Range<Int>) -> Int? {
    var i = line.lowerBound
    while i < line.upperBound {
      let b = bytes[i]
      if b == 0x20 || b == 0x09 || b == 0x3E {  // space, tab, >
        i += 1
      } else if (b == 0x2D || b == 0x2A || b == 0x2B) && i + 1 < line.upperBound && bytes[i + 1] == 0x20 {
        i += 2  // - * + list markers
      } else if b >= 0x30 && b <= 0x39 {
        var j = i
        while j < line.upperBound && bytes[j] >= 0x30 && bytes[j] <= 0x39 { j += 1 }
        guard j + 1 < line.upperBound, bytes[j] == 0x2E || bytes[j] == 0x29, bytes[j + 1] == 0x20 else { return nil }
        i = j + 2
      } else {
        return b == 0x5B ? i : nil
      }
    }
    return nil
  }
}

extension RotorDocument {
  /// The bytes of element `i`: the mapped file itself for an unedited file, else a copy.
  func structureBytes(of i: Int) -> (ByteStorage, Range<Int>) {
    if let source { return (source.bytes, source.ranges[i]) }
    let text = table[i].text
    return text.contiguous(0..<text.utf8Count)
  }

  /// Every structure entry of the document, parsed element by element.
  func buildStructure(format: DocumentFormat) throws(StructureError) -> StructureIndexes {
    var entries = StructureEntries()
    // Each element's label map, made here from its bytes at hand (on first use, a copy from the
    // rope per definition line took 9 ms on 100 MB of node.js's docs: the first edit's cost).
    var labelMaps: [Int: [Int: [[UInt8]]]] = [:]
    for i in 0..<table.count {
      let (bytes, range) = structureBytes(of: i)
      let shift = table.start(of: i) - range.lowerBound
      let known = entries.references.count
      try Self.findStructure(in: bytes, range: range, format: format, shift: shift, into: &entries)
      if format == .markdown {
        var map: [Int: [[UInt8]]] = [:]
        for (line, hash) in entries.references[known...] where hash != 0 {
          map[hash, default: []].append(bytes.copyBytes((line.lowerBound - shift)..<(line.upperBound - shift)))
        }
        labelMaps[i] = map
      }
    }
    entries.sort()
    let width = table.length
    var rotors: [StructureRotor: IntervalIndex<StructurePayload>] = [:]
    let kinds: [StructureRotor] = format == .markdown ? StructureRotor.markdownKinds : [.links]
    for kind in kinds { rotors[kind] = IntervalIndex(sorted: entries.rotors[kind] ?? [], width: width) }
    var usageCounts: [Int: Int] = [:]
    StructureIndexes.count(entries.usages, but: entries.references, by: 1, into: &usageCounts)
    return StructureIndexes(
      format: format, rotors: rotors, blocks: IntervalIndex(sorted: entries.blocks, width: width),
      references: IntervalIndex(sorted: entries.references, width: width),
      usages: IntervalIndex(sorted: entries.usages, width: width),
      units: IntervalIndex(sorted: entries.units, width: width), labelMaps: labelMaps, usageCounts: usageCounts)
  }

  /// The entries of `range` of `bytes` (a whole element, or for plain text any run of whole lines),
  /// moved by `shift`; with `forEdits` (Markdown), also the reference lines and bracketed texts
  /// that edits use. A Markdown element longer than twice `pieceLength` is parsed in pieces (see
  /// ``MarkdownPieces``), with the same entries. With `kinds`, the entries of those rotors only
  /// (and the blocks). Without `texts` (Markdown), no label or URL is made (a count needs neither).
  static func findStructure(
    in bytes: ByteStorage, range: Range<Int>, format: DocumentFormat, shift: Int, prelude: [UInt8] = [],
    forEdits: Bool = true, pieceLength: Int = MarkdownPieces.pieceLength, kinds: Set<StructureRotor>? = nil,
    texts: Bool = true, into entries: inout StructureEntries
  ) throws(StructureError) {
    switch format {
    case .text:
      for link in Linkifier.links(in: bytes, range: range) {
        entries.rotors[.links, default: []].append(
          (
            (link.range.lowerBound + shift)..<(link.range.upperBound + shift),
            StructurePayload(label: nil, info: StructureInfo(url: link.url))
          ))
      }
    case .markdown:
      // Only the kinds asked for, and the blocks that tell where definitions are.
      let nodeKinds = kinds.map { kinds in
        Set(kinds.compactMap(\.nodeKind)).union([
          .block, .paragraph, .htmlBlock, .definitions, .codeBlock, .heading, .table,
        ])
      }
      do {
        if prelude.isEmpty && range.count > 2 * pieceLength {
          for piece in try MarkdownPieces.parse(
            bytes, range: range, pieceLength: pieceLength, kinds: nodeKinds, texts: texts)
          {
            entries.add(
              piece.nodes, shift: shift + piece.range.lowerBound, bytes: forEdits ? bytes : nil, scanned: piece.range,
              kinds: kinds)
          }
        } else {
          let nodes = try MarkdownParser.parse(bytes, range: range, prelude: prelude, kinds: nodeKinds, texts: texts)
          entries.add(
            nodes, shift: shift + range.lowerBound, bytes: forEdits ? bytes : nil, scanned: range, kinds: kinds)
        }
      } catch {
        throw StructureError(error.description)
      }
    }
  }

  // MARK: Edits

  /// Brings the structure rotors up to date after element `e` (at document offset `s`) had its
  /// bytes `range` replaced by `n` bytes (`old` and `new` are its text before and after). Plain
  /// text: the lines around the edit are searched again for links. Markdown: the top-level
  /// blocks around the edit are parsed again — from the block holding the edit's start (further
  /// back while the block before touches it or is a list or a code block, which could absorb what
  /// follows) to a block after the edit that parses exactly as before (doubling the blocks taken
  /// until one does: an unclosed code fence runs on), after the element's definitions of the link
  /// labels the window refers to. When the edit adds, removes or changes definitions, the blocks
  /// that may use their labels (the bracketed texts with their keys) are parsed again too.
  func updateStructure(
    element e: Int, start s: Int, old: TextRope, new: TextRope, range: Range<Int>, inserted n: Int,
    change: inout DocumentChange<ID>
  ) {
    guard var st = structure else { return }
    structure = nil
    let delta = n - range.count
    do throws(StructureError) {
      var entries = StructureEntries()
      switch st.format {
      case .text:
        // A line's links depend on whether the line after it is blank (see ``Linkifier``): the
        // lines of the edit, the line before them, and the line after them read but not kept.
        var ws = new.cut(before: range.lowerBound, rotor: nil)
        if ws > 0 { ws = new.lineStart(holdingPosition: ws - 1) }
        let we = new.cut(after: range.lowerBound + n, rotor: nil)
        let readEnd = we < new.utf8Count ? new.nextLineStart(afterPosition: we) : we
        let (bytes, r) = new.contiguous(ws..<readEnd)
        var found = StructureEntries()
        try Self.findStructure(in: bytes, range: r, format: .text, shift: s + ws - r.lowerBound, into: &found)
        entries.rotors[.links] = found.rotors[.links]?.filter { $0.0.lowerBound < s + we }
        st.replace((s + ws)..<(s + we - delta), newCount: we - ws, with: entries, change: &change)
      case .markdown:
        if let (window, found, changed) = try markdownWindow(
          &st, element: e, start: s, old: old, new: new, range: range, inserted: n)
        {
          entries = found
          entries.sort()
          st.replace(
            (s + window.lowerBound)..<(s + window.upperBound), newCount: window.count + delta, with: entries,
            change: &change)
          if !changed.isEmpty {
            try reparseUsages(
              &st, element: e, start: s, text: new, keys: changed, edit: range.lowerBound, from: window.lowerBound,
              change: &change)
          }
        } else {
          st.labelMaps[e] = nil
          let (bytes, r) = new.contiguous(0..<new.utf8Count)
          try Self.findStructure(in: bytes, range: r, format: .markdown, shift: s - r.lowerBound, into: &entries)
          entries.sort()
          st.replace(s..<(s + old.utf8Count), newCount: new.utf8Count, with: entries, change: &change)
        }
      }
    } catch {
      // Rebuilt in full when next asked for.
      for kind in st.rotors.keys {
        change.named[kind.rawValue] = RotorChange(removed: 0..<0, added: 0..<0, rebuilt: true)
      }
      return
    }
    structure = st
  }

  /// The window (old element offsets) to parse again after an edit, its new entries, and the key
  /// hashes of the labels whose definitions the edit added, removed or changed; nil when the whole
  /// element must be parsed (a changed line whose label has no key).
  func markdownWindow(
    _ st: inout StructureIndexes, element e: Int, start s: Int, old: TextRope, new: TextRope, range: Range<Int>,
    inserted n: Int
  ) throws(StructureError) -> (Range<Int>, StructureEntries, Set<Int>)? {
    if let found = definitionWindow(st, start: s, old: old, new: new, range: range, inserted: n) {
      return found
    }
    if let found = try itemWindow(&st, element: e, start: s, old: old, new: new, range: range, inserted: n) {
      return found.map { ($0.window, $0.entries, $0.changed) }
    }
    let a = range.lowerBound
    let b = range.upperBound
    let delta = n - range.count
    let oldLength = old.utf8Count
    let blocks = st.blocks
    // Start: the block holding `a` (or the last before it), and back over blocks that touch it or
    // are lists or code blocks.
    var i = blocks.firstIndex(startingAtLeast: s + a + 1) - 1
    var ws = 0
    if i >= 0 && blocks[i].range.lowerBound >= s {
      while i > 0 {
        let previous = blocks[i - 1]
        guard previous.range.lowerBound >= s else { break }
        let gap =
          (previous.range.upperBound - s)..<Swift.max(previous.range.upperBound - s, blocks[i].range.lowerBound - s)
        // A list, and an indented code block, go on after blank lines.
        if previous.value == MarkdownParser.listBlockType || previous.value == MarkdownParser.codeBlockType
          || !Self.hasBlankLine(old, gap)
        {
          i -= 1
        } else {
          break
        }
      }
      // From the start of its line: a block's start is after its indentation (a code block's
      // after the four spaces or the tab that make it one).
      ws = old.lineStart(holdingPosition: blocks[i].range.lowerBound - s)
      // Back over the lines right before it (link reference definitions, no block): the block
      // may continue their paragraph after the edit (`- one` made `-`, which cannot interrupt one).
      while ws > 0 {
        let before = old.lineStart(holdingPosition: ws - 1)
        if old.isBlank(before..<ws) { break }
        ws = before
      }
    }
    // End: the first block starting after the edit, as a sentinel that must parse as before.
    let j = blocks.firstIndex(startingAtLeast: s + b + 1)
    var sentinels = 1
    while true {
      let k = j + sentinels - 1
      var oldEnd = oldLength
      var sentinel: (range: Range<Int>, value: Int32)? = nil
      if k < blocks.count, blocks[k].range.lowerBound < s + oldLength {
        sentinel = blocks[k]
        oldEnd = blocks[k].range.upperBound - s
      }
      let parsed = try parseWindow(&st, element: e, start: s, old: old, new: new, from: ws, to: oldEnd + delta)
      if let sentinel {
        let expected = (sentinel.range.lowerBound - s + delta - ws)..<(sentinel.range.upperBound - s + delta - ws)
        let last = parsed.nodes.last { $0.kind == .block }
        guard let last, last.range == expected, last.detail == sentinel.value else {
          sentinels *= 2
          continue
        }
      }
      var entries = StructureEntries()
      entries.add(parsed.nodes, shift: s + ws, bytes: parsed.bytes, scanned: parsed.window)
      guard let changed = Self.changedDefinitions(st, entries, parsed, start: s, old: old, window: ws..<oldEnd) else {
        return nil
      }
      return (ws..<oldEnd, entries, changed)
    }
  }

  /// The window for an edit inside one line that defines a link reference, outside every block
  /// (node.js's docs end each file with hundreds of them, which the window of blocks parsed whole):
  /// the line alone, when it is a one-line definition before and after the edit, the line before
  /// it is blank or a one-line definition (so the line starts a definition in both parses) and the
  /// line after it is blank or starts with `[` (no title of it, which starts with a quote or a
  /// parenthesis). A definition line holds no rotor entry: only its reference line and its
  /// bracketed texts change, and the labels it defines (parsed again elsewhere by the caller).
  func definitionWindow(
    _ st: StructureIndexes, start s: Int, old: TextRope, new: TextRope, range: Range<Int>, inserted n: Int
  ) -> (Range<Int>, StructureEntries, Set<Int>)? {
    let delta = n - range.count
    func isBreak(_ c: UInt8) -> Bool { c == 0x0A || c == 0x0D }
    let ls = old.lineStart(holdingPosition: range.lowerBound)
    let oldNext = old.nextLineStart(afterPosition: ls)
    var end = oldNext
    while end > ls && isBreak(old.bytes((end - 1)..<end)[0]) { end -= 1 }
    guard range.upperBound <= end, end - ls >= 4, end - ls <= 4096 else { return nil }
    // The old line is a reference line of its own, in no block.
    let ri = st.references.firstIndex(startingAtLeast: s + ls)
    guard ri < st.references.count, st.references[ri].range == (s + ls)..<(s + end) else { return nil }
    var inBlock = false
    st.blocks.forEach(overlapping: (s + ls)..<(s + end)) { _, _ in
      inBlock = true
      return false
    }
    guard !inBlock else { return nil }
    // The new line: no line break typed into it.
    let newEnd = end + delta
    guard newEnd > ls, newEnd == new.utf8Count || isBreak(new.bytes(newEnd..<(newEnd + 1))[0]) else { return nil }
    let newLine = new.bytes(ls..<newEnd)
    guard !newLine.contains(where: isBreak) else { return nil }
    // The line after: the end, blank, or starting with `[`.
    if oldNext < old.utf8Count {
      let after = old.bytes(oldNext..<old.nextLineStart(afterPosition: oldNext))
      guard after.first == 0x5B || after.allSatisfy({ $0 == 0x20 || $0 == 0x09 || isBreak($0) }) else { return nil }
    }
    // The line before: the start, blank, or a one-line definition.
    if ls > 0 {
      let before = old.lineStart(holdingPosition: ls - 1)
      var previous = old.bytes(before..<ls)
      while let last = previous.last, isBreak(last) { previous.removeLast() }
      if !previous.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) {
        guard ri > 0, st.references[ri - 1].range == (s + before)..<(s + before + previous.count),
          Self.isDefinition(previous)
        else { return nil }
      }
    }
    let oldLine = old.bytes(ls..<end)
    guard Self.isDefinition(oldLine), Self.isDefinition(newLine), let hash = ReferenceLines.definedKeyHash(newLine),
      let changed = Self.changedKeys([oldLine], [newLine])
    else { return nil }
    var entries = StructureEntries()
    entries.references = [((s + ls)..<(s + newEnd), hash)]
    let bytes = ByteStorage(newLine)
    entries.usages = ReferenceLines.usages(in: bytes, range: 0..<bytes.count).map {
      ((s + ls + $0.0.lowerBound)..<(s + ls + $0.0.upperBound), $0.1)
    }
    return (ls..<end, entries, changed)
  }

  /// `from..<to` (new element offsets) parsed again, through the next non-blank line after it,
  /// whose nodes are left out (where cmark-gfm ends an unclosed fence in a list item depends on the
  /// line that closes it), after the element's definitions of the link labels it refers to.
  /// Offsets in `nodes` are relative to `from`; `window` is `from..<to` in `bytes`.
  func parseWindow(
    _ st: inout StructureIndexes, element e: Int, start s: Int, old: TextRope, new: TextRope, from ws: Int,
    to newEnd: Int
  ) throws(StructureError) -> (nodes: [MarkdownNode], bytes: ByteStorage, window: Range<Int>) {
    var parseEnd = new.nextLineStart(afterPosition: newEnd)
    while parseEnd < new.utf8Count {
      let next = new.nextLineStart(afterPosition: parseEnd)
      if !new.isBlank(parseEnd..<next) {
        parseEnd = next
        break
      }
      parseEnd = next
    }
    let (bytes, r) = new.contiguous(ws..<parseEnd)
    let windowBytes = r.lowerBound..<(r.lowerBound + newEnd - ws)
    let map = Self.labelMap(&st, element: e, start: s, old)
    var prelude: [UInt8] = []
    if !map.isEmpty {
      var referenced: Set<Int> = []
      for (_, hash) in ReferenceLines.usages(in: bytes, range: windowBytes) where referenced.insert(hash).inserted {
        for line in map[hash] ?? [] {
          prelude.append(contentsOf: line)
          prelude.append(contentsOf: [0x0A, 0x0A])
        }
      }
    }
    if !prelude.isEmpty { prelude.append(contentsOf: Array("***\n\n".utf8)) }
    var nodes: [MarkdownNode]
    do {
      nodes = try MarkdownParser.parse(bytes, range: r, prelude: prelude)
    } catch {
      throw StructureError(error.description)
    }
    nodes.removeAll { $0.range.lowerBound >= newEnd - ws }
    return (nodes, bytes, windowBytes)
  }

  /// The key hashes of the labels whose definitions differ between the old window `window` (old
  /// element offsets) and its new `entries`: empty when none; nil when a changed line defines no
  /// label key.
  static func changedDefinitions(
    _ st: StructureIndexes, _ entries: StructureEntries,
    _ parsed: (nodes: [MarkdownNode], bytes: ByteStorage, window: Range<Int>), start s: Int, old: TextRope,
    window: Range<Int>
  ) -> Set<Int>? {
    let before = lines(st.references, in: (s + window.lowerBound)..<(s + window.upperBound), of: old, start: s).map(\.1)
    let origin = s + window.lowerBound - parsed.window.lowerBound
    let after = entries.references.map {
      parsed.bytes.copyBytes(($0.0.lowerBound - origin)..<($0.0.upperBound - origin))
    }
    guard before != after else { return [] }
    return changedKeys(before, after)
  }

  /// The window for an edit inside a top-level list, past its first item: the list items from the
  /// one before the item holding the edit to the first item starting after the edit (a sentinel
  /// that must parse as before; past the list's last item, the block after the list), parsed
  /// without the rest of the list. An item of a list parses alone as it does in its list: the
  /// items before it only end at its marker line, which it starts as the one list item open. The
  /// window must parse as one list (or the list and the block after it), else nil: the edit
  /// ended the list, started another one, or joined an item to the one before (then the whole
  /// list is parsed). The list's own entry (its end, its item count) is set by `entries.list`.
  /// `.some(nil)`: as ``markdownWindow(_:element:start:old:new:range:inserted:)``'s nil.
  func itemWindow(
    _ st: inout StructureIndexes, element e: Int, start s: Int, old: TextRope, new: TextRope, range: Range<Int>,
    inserted n: Int
  ) throws(StructureError) -> (window: Range<Int>, entries: StructureEntries, changed: Set<Int>)?? {
    let a = s + range.lowerBound
    let b = s + range.upperBound
    let delta = n - range.count
    let oldLength = old.utf8Count
    let bi = st.blocks.firstIndex(startingAtLeast: a + 1) - 1
    guard bi >= 0 else { return nil }
    let list = st.blocks[bi]
    guard list.value == MarkdownParser.listBlockType, list.range.lowerBound >= s, b <= list.range.upperBound else {
      return nil
    }
    let k = st.units.firstIndex(startingAtLeast: a + 1) - 1
    guard k >= 0, st.units[k].range.lowerBound >= list.range.lowerBound else { return nil }
    // From the item before; further back while a code block of an earlier item reaches into the
    // window (cmark-gfm ends an unclosed fence in a list item on the line after the item). In the
    // list's first item: from the list's start, when the block before it (in the element) is
    // neither a list nor a code block and a blank line ends it, as the window of blocks would start.
    var first = k - 1
    var ws = 0
    if st.units[k].range.lowerBound == list.range.lowerBound {
      if bi > 0 && st.blocks[bi - 1].range.lowerBound >= s {
        let before = st.blocks[bi - 1]
        let gap = (before.range.upperBound - s)..<Swift.max(before.range.upperBound - s, list.range.lowerBound - s)
        guard before.value != MarkdownParser.listBlockType, before.value != MarkdownParser.codeBlockType,
          Self.hasBlankLine(old, gap)
        else { return nil }
      }
      first = k
      ws = old.lineStart(holdingPosition: list.range.lowerBound - s)
      guard list.range.lowerBound - s - ws <= 3 else { return nil }
      // The line before is blank: not a paragraph's (a run of definitions'), which an item that
      // can no longer interrupt it would continue.
      if ws > 0 {
        guard old.isBlank(old.lineStart(holdingPosition: ws - 1)..<ws) else { return nil }
      }
    }
    while first < k {
      let previous = st.units[first].range
      guard previous.lowerBound >= list.range.lowerBound else { return nil }
      ws = old.lineStart(holdingPosition: previous.lowerBound - s)
      // The item marker must start its line (after at most three spaces): the window starts there.
      guard previous.lowerBound - s - ws <= 3 else { return nil }
      var reaching = false
      st.rotors[.codeBlocks]?.forEach(overlapping: (s + ws)..<(s + ws + 1)) { _, r in
        reaching = r.lowerBound < s + ws
        return !reaching
      }
      guard reaching else { break }
      guard first > 0 else { return nil }
      first -= 1
    }
    let previous = st.units[first].range
    // The sentinel: the next item of the list, or the block after the list (or the element's end).
    let j = st.units.firstIndex(startingAtLeast: b + 1)
    var sentinel: Range<Int>? = nil
    var sentinelBlock: (range: Range<Int>, value: Int32)? = nil
    if j < st.units.count, st.units[j].range.lowerBound < list.range.upperBound {
      sentinel = st.units[j].range
    } else if bi + 1 < st.blocks.count, st.blocks[bi + 1].range.lowerBound < s + oldLength {
      sentinelBlock = st.blocks[bi + 1]
    }
    let oldEnd = (sentinel?.upperBound ?? sentinelBlock?.range.upperBound ?? s + oldLength) - s
    let parsed = try parseWindow(&st, element: e, start: s, old: old, new: new, from: ws, to: oldEnd + delta)
    // One list from the window's start (and the sentinel block after it).
    let tops = parsed.nodes.filter { $0.kind == .block }
    let start = previous.lowerBound - s - ws
    guard let top = tops.first, top.detail == MarkdownParser.listBlockType, top.range.lowerBound == start,
      tops.count == (sentinelBlock == nil ? 1 : 2),
      let listNode = parsed.nodes.first(where: { $0.kind == .list && $0.depth == 0 }),
      listNode.range.lowerBound == start
    else { return nil }
    func relative(_ r: Range<Int>) -> Range<Int> { (r.lowerBound - s - ws + delta)..<(r.upperBound - s - ws + delta) }
    if let sentinel {
      let last = parsed.nodes.last { $0.kind == .listItem && $0.depth == 1 }
      guard last?.range == relative(sentinel) else { return nil }
    }
    if let sentinelBlock {
      guard tops[1].range == relative(sentinelBlock.range), tops[1].detail == sentinelBlock.value else { return nil }
    }
    var entries = StructureEntries()
    entries.add(parsed.nodes, shift: s + ws, bytes: parsed.bytes, scanned: parsed.window)
    // The window's list is a part of the list: the list's own entry gets its range and count.
    let lists = st.rotors[.lists]!
    let li = lists.firstIndex(startingAtLeast: list.range.lowerBound)
    guard li < lists.count, lists[li].range.lowerBound == list.range.lowerBound else { return nil }
    var payload = lists[li].value
    let oldItems = st.units.firstIndex(startingAtLeast: Swift.min(s + oldEnd, list.range.upperBound)) - first
    // The window list's items (cmark-gfm's count also has the items on the line read after it).
    let listEnd = sentinelBlock == nil ? Int.max : tops[1].range.lowerBound
    let newItems = parsed.nodes.count { $0.kind == .listItem && $0.depth == 1 && $0.range.lowerBound < listEnd }
    payload.info.items = (payload.info.items ?? 0) - oldItems + newItems
    let end = sentinel == nil ? s + ws + listNode.range.upperBound : list.range.upperBound + delta
    let listStart = s + ws + start
    entries.blocks.removeAll { $0.0.lowerBound == listStart }
    entries.rotors[.lists]?.removeAll { $0.0.lowerBound == listStart }
    if listStart == list.range.lowerBound {
      // The window starts with the list's first item: the list's entry is in it.
      entries.blocks.insert((list.range.lowerBound..<end, MarkdownParser.listBlockType), at: 0)
      entries.rotors[.lists, default: []].insert((list.range.lowerBound..<end, payload), at: 0)
    } else {
      entries.list = (list.range.lowerBound..<end, payload)
    }
    guard let changed = Self.changedDefinitions(st, entries, parsed, start: s, old: old, window: ws..<oldEnd) else {
      return .some(nil)
    }
    return (ws..<oldEnd, entries, changed)
  }

  /// The key hashes whose definition lines differ between `before` and `after`, or nil when a line
  /// defines no label key.
  static func changedKeys(_ before: [[UInt8]], _ after: [[UInt8]]) -> Set<Int>? {
    var old: [Int: [[UInt8]]] = [:]
    var new: [Int: [[UInt8]]] = [:]
    for line in before {
      guard let hash = ReferenceLines.definedKeyHash(line) else { return nil }
      old[hash, default: []].append(line)
    }
    for line in after {
      guard let hash = ReferenceLines.definedKeyHash(line) else { return nil }
      new[hash, default: []].append(line)
    }
    return Set(old.keys).union(new.keys).filter { old[$0] != new[$0] }
  }

  /// After an edit at `edit` (element offset) of element `e` (at `start`; `text` is its new text,
  /// the indexes are up to date but for links' destinations) changed the definitions of the label
  /// key hashes `keys`: the label map follows, and the blocks that may use those labels are
  /// parsed again — the edit's own window too, which was parsed after the old definitions.
  /// Definitions change only inlines (links, and the emphasis around them), never blocks.
  func reparseUsages(
    _ st: inout StructureIndexes, element e: Int, start s: Int, text: TextRope, keys: Set<Int>, edit: Int,
    from: Int, change: inout DocumentChange<ID>
  ) throws(StructureError) {
    let length = text.utf8Count
    // The keys as an array: usually one or two, faster than hashing each entry's key in the walks
    // below (every reference line of the element; every bracketed text).
    let few = Array(keys)
    if st.labelMaps[e] != nil {
      var lines: [Int: [[UInt8]]] = [:]
      let i0 = st.references.firstIndex(startingAtLeast: s)
      let i1 = st.references.firstIndex(startingAtLeast: s + length)
      st.references.forEach(in: i0..<i1) { _, r, hash in
        if few.contains(hash) { lines[hash, default: []].append(text.bytes((r.lowerBound - s)..<(r.upperBound - s))) }
        return true
      }
      for key in keys { st.labelMaps[e]![key] = lines[key] }
    }
    // Labels defined first before the edit's window (`from`), by a valid definition, keep their
    // definition (CommonMark uses a label's first one): their usages are unchanged.
    var keys = keys
    var firstLines: [Int: Range<Int>] = [:]
    let r0 = st.references.firstIndex(startingAtLeast: s)
    let r1 = st.references.firstIndex(startingAtLeast: s + from)
    st.references.forEach(in: r0..<r1) { _, r, hash in
      if few.contains(hash) && firstLines[hash] == nil { firstLines[hash] = r }
      return firstLines.count < keys.count
    }
    for (key, line) in firstLines where Self.isDefinition(text.bytes((line.lowerBound - s)..<(line.upperBound - s))) {
      keys.remove(key)
    }
    // Labels that nothing uses (in the whole document) change no link.
    keys = keys.filter { st.usageCounts[$0] != nil }
    if keys.isEmpty { return }
    var targets = [edit]
    let u0 = st.usages.firstIndex(startingAtLeast: s)
    let u1 = st.usages.firstIndex(startingAtLeast: s + length)
    let remaining = Array(keys)
    st.usages.forEach(in: u0..<u1) { _, r, hash in
      if remaining.contains(hash) { targets.append(r.lowerBound - s) }
      return true
    }
    targets.sort()
    var parsed = 0
    for p in targets where p >= parsed {
      guard
        let (window, found, changed) = try markdownWindow(
          &st, element: e, start: s, old: text, new: text, range: p..<p, inserted: 0), changed.isEmpty
      else {
        throw StructureError("definitions changed while parsing again the blocks that use them")
      }
      var entries = found
      entries.sort()
      st.replace(
        (s + window.lowerBound)..<(s + window.upperBound), newCount: window.count, with: entries, change: &change)
      parsed = Swift.max(window.upperBound, p + 1)
    }
  }

  /// Whether a definition line (`[label]: destination`, with its next line when the destination
  /// is there) defines its label when read alone: it is followed by a use of the label.
  static func isDefinition(_ line: [UInt8]) -> Bool {
    guard line.first == 0x5B else { return false }
    var k = 1
    while k < line.count && line[k] != 0x5D { k += line[k] == 0x5C ? 2 : 1 }
    guard k < line.count else { return false }
    let use = line.count + 2
    let text = line + [0x0A, 0x0A] + line[0...k] + [0x0A]
    let nodes = try? MarkdownParser.parse(ByteStorage(text), range: 0..<text.count)
    return nodes?.contains { $0.kind == .link && $0.range.lowerBound == use } ?? false
  }

  /// Element `e`'s definition lines by label key hash (its text before the edit is `text`, at
  /// `start`).
  static func labelMap(_ st: inout StructureIndexes, element e: Int, start: Int, _ text: TextRope)
    -> [Int: [[UInt8]]]
  {
    if let map = st.labelMaps[e] { return map }
    var map: [Int: [[UInt8]]] = [:]
    let i0 = st.references.firstIndex(startingAtLeast: start)
    let i1 = st.references.firstIndex(startingAtLeast: start + text.utf8Count)
    st.references.forEach(in: i0..<i1) { _, r, hash in
      if hash != 0 {
        map[hash, default: []].append(text.bytes((r.lowerBound - start)..<(r.upperBound - start)))
      }
      return true
    }
    st.labelMaps[e] = map
    return map
  }

  /// Whether `range` of `text` holds a blank line (two line breaks with only spaces and tabs
  /// between them).
  static func hasBlankLine(_ text: TextRope, _ range: Range<Int>) -> Bool {
    guard range.count >= 2 else { return false }
    let bytes = text.bytes(range)
    var breaks = 0
    var k = 0
    while k < bytes.count {
      let c = bytes[k]
      if c == 0x0A || c == 0x0D {
        if c == 0x0D && k + 1 < bytes.count && bytes[k + 1] == 0x0A { k += 1 }
        breaks += 1
        if breaks >= 2 { return true }
      } else if c != 0x20 && c != 0x09 {
        breaks = 0
      }
      k += 1
    }
    return false
  }

  /// The reference lines of `index` starting in `window` (document offsets), with their bytes in
  /// `text` (the element's old text, which starts at `start`).
  static func lines(_ index: IntervalIndex<Int>, in window: Range<Int>, of text: TextRope, start: Int)
    -> [(Range<Int>, [UInt8])]
  {
    var result: [(Range<Int>, [UInt8])] = []
    let i0 = index.firstIndex(startingAtLeast: window.lowerBound)
    let i1 = index.firstIndex(startingAtLeast: window.upperBound)
    index.forEach(in: i0..<i1) { _, r, _ in
      result.append((r, text.bytes((r.lowerBound - start)..<(r.upperBound - start))))
      return true
    }
    return result
  }
}

extension StructureIndexes {
  /// Replaces the entries starting in `window` (document offsets before the edit) with `entries`;
  /// entries after it move by the change in length. Several replacements for one edit add up in
  /// `change` (each kind's removed and added indices span them all).
  /// With `insertingElement`, `window` is empty and everything from it on moves.
  mutating func replace(
    _ window: Range<Int>, newCount: Int, with entries: StructureEntries, insertingElement: Bool = false,
    change: inout DocumentChange<some Hashable>
  ) {
    let transform: (Range<Int>) -> Range<Int>? = { r in
      if insertingElement {
        return r.lowerBound >= window.lowerBound ? (r.lowerBound + newCount)..<(r.upperBound + newCount) : r
      }
      return window.contains(r.lowerBound)
        ? nil : RotorDocument<Int>.remap(r, a: window.lowerBound, b: window.upperBound, inserted: newCount)
    }
    for kind in Array(rotors.keys) {
      let i0 = rotors[kind]!.firstIndex(startingAtLeast: window.lowerBound)
      let i1 = rotors[kind]!.firstIndex(startingAtLeast: window.upperBound)
      let added = entries.rotors[kind] ?? []
      rotors[kind]!.apply(edit: window, newCount: newCount, inserting: added) { r, _ in transform(r) }
      let next = RotorChange(removed: i0..<i1, added: i0..<(i0 + added.count))
      change.named[kind.rawValue] = change.named[kind.rawValue].map { Self.merged($0, then: next) } ?? next
    }
    if format == .markdown {
      blocks.apply(edit: window, newCount: newCount, inserting: entries.blocks) { r, _ in transform(r) }
      if !insertingElement {
        func inWindow(_ index: IntervalIndex<Int>) -> [(Range<Int>, Int)] {
          var found: [(Range<Int>, Int)] = []
          let i0 = index.firstIndex(startingAtLeast: window.lowerBound)
          let i1 = index.firstIndex(startingAtLeast: window.upperBound)
          index.forEach(in: i0..<i1) { _, r, hash in
            found.append((r, hash))
            return true
          }
          return found
        }
        Self.count(inWindow(usages), but: inWindow(references), by: -1, into: &usageCounts)
      }
      Self.count(entries.usages, but: entries.references, by: 1, into: &usageCounts)
      usages.apply(edit: window, newCount: newCount, inserting: entries.usages) { r, _ in transform(r) }
      references.apply(edit: window, newCount: newCount, inserting: entries.references) { r, _ in transform(r) }
      units.apply(edit: window, newCount: newCount, inserting: entries.units) { r, _ in transform(r) }
      if let list = entries.list { setList(list.range, list.payload, change: &change) }
    }
  }

  /// Sets the entry of the top-level list starting at `range.lowerBound` (before the window an
  /// edit parsed again) in the lists rotor and the blocks.
  mutating func setList(
    _ range: Range<Int>, _ payload: StructurePayload, change: inout DocumentChange<some Hashable>
  ) {
    let p = range.lowerBound
    let keep: (Range<Int>) -> Range<Int>? = { $0.lowerBound == p ? nil : $0 }
    let i = rotors[.lists]!.firstIndex(startingAtLeast: p)
    rotors[.lists]!.apply(edit: p..<(p + 1), newCount: 1, inserting: [(range, payload)]) { r, _ in keep(r) }
    let next = RotorChange(removed: i..<(i + 1), added: i..<(i + 1))
    let name = StructureRotor.lists.rawValue
    change.named[name] = change.named[name].map { Self.merged($0, then: next) } ?? next
    blocks.apply(edit: p..<(p + 1), newCount: 1, inserting: [(range, MarkdownParser.listBlockType)]) { r, _ in keep(r) }
  }

  /// One change spanning `first` and then `second` (whose indices are those after `first`): the
  /// indices between the two count as removed and added again.
  static func merged(_ first: RotorChange, then second: RotorChange) -> RotorChange {
    if first.rebuilt || second.rebuilt { return RotorChange(removed: 0..<0, added: 0..<0, rebuilt: true) }
    // The span that either touches, in indices after `first` (a change's removed and added
    // indices start at the same place).
    let low = Swift.min(first.added.lowerBound, second.removed.lowerBound)
    let high = Swift.max(first.added.upperBound, second.removed.upperBound)
    return RotorChange(
      removed: low..<(high - first.added.count + first.removed.count),
      added: low..<(high - second.removed.count + second.added.count))
  }
}
