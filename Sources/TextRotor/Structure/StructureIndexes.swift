import TextRotorICU

/// A document's structure rotors: one interval index per kind (entries may nest: a list in a list
/// item, a link in a heading), and, for Markdown, the index of top-level blocks and of the lines
/// that may define link references, which edits use to find what to parse again.
struct StructureIndexes: Sendable {
  var format: DocumentFormat
  var rotors: [StructureRotor: IntervalIndex<StructurePayload>]
  /// Top-level blocks (Markdown), valued by cmark-gfm's node type.
  var blocks: IntervalIndex<Int32>
  /// Lines that may define link references (Markdown): `[label]: destination` (with the next line
  /// when the destination is on it).
  var references: IntervalIndex<Void>
  /// Per element index, its definition lines by label (``ReferenceLines/key(_:)``): what a window
  /// is parsed after. Built on first use; dropped when an edit changes a definition or elements
  /// are inserted or removed.
  var labelMaps: [Int: [String: [[UInt8]]]] = [:]
}

/// Entries found in a stretch of text, in document offsets, sorted by start per kind.
struct StructureEntries {
  var rotors: [StructureRotor: [(Range<Int>, StructurePayload)]] = [:]
  var blocks: [(Range<Int>, Int32)] = []
  var references: [(Range<Int>, Void)] = []

  /// Adds cmark-gfm's nodes (offsets relative to the parsed text) moved by `shift`, and the
  /// reference lines (absolute in the parsed text's storage, at `origin`) that no code or HTML
  /// block holds.
  mutating func add(_ nodes: [MarkdownNode], shift: Int, referenceLines: [Range<Int>] = [], origin: Int = 0) {
    // Leaf blocks, where a line is no definition, and the definitions at paragraphs' starts.
    var opaque: [Range<Int>] = []
    var definitions: [Range<Int>] = []
    var top: [Range<Int>] = []
    for node in nodes {
      switch node.kind {
      case .codeBlock, .htmlBlock, .paragraph, .heading, .table: opaque.append(node.range)
      case .definitions: definitions.append(node.range)
      case .block: top.append(node.range)
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
    for line in referenceLines {
      let p = line.lowerBound - origin
      if holds(definitions, p) || !holds(opaque, p) {
        references.append(((line.lowerBound - origin + shift)..<(line.upperBound - origin + shift), ()))
      }
    }
    for node in nodes {
      let range = (node.range.lowerBound + shift)..<(node.range.upperBound + shift)
      if node.kind == .block {
        blocks.append((range, node.detail))
      } else if let kind = StructureRotor(node.kind) {
        rotors[kind, default: []].append((range, StructurePayload(node)))
      }
    }
  }

  /// Sorts each kind by start (a stable sort, and only if needed: cmark-gfm's order is almost
  /// always already sorted).
  mutating func sort() {
    for kind in Array(rotors.keys) { rotors[kind] = Self.sorted(rotors[kind]!) }
    blocks = Self.sorted(blocks)
    references = Self.sorted(references)
  }

  static func sorted<V>(_ entries: [(Range<Int>, V)]) -> [(Range<Int>, V)] {
    if zip(entries, entries.dropFirst()).allSatisfy({ $0.0.lowerBound <= $1.0.lowerBound }) { return entries }
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
    var result: [Range<Int>] = []
    var p = range.lowerBound
    while let hit = bytes.firstIndex(of: [0x5D, 0x3A], in: p..<range.upperBound) {
      var start = hit
      while start > range.lowerBound && bytes[start - 1] != 0x0A && bytes[start - 1] != 0x0D { start -= 1 }
      var end = hit
      while end < range.upperBound && bytes[end] != 0x0A && bytes[end] != 0x0D { end += 1 }
      if let content = definitionStart(bytes, start..<end) {
        // `[label]:` alone on its line: the destination is on the next one, which belongs to it.
        var k = hit + 2
        while k < end && (bytes[k] == 0x20 || bytes[k] == 0x09) { k += 1 }
        if k == end && end < range.upperBound {
          var next = end + 1
          if bytes[end] == 0x0D && next < range.upperBound && bytes[next] == 0x0A { next += 1 }
          var nextEnd = next
          while nextEnd < range.upperBound && bytes[nextEnd] != 0x0A && bytes[nextEnd] != 0x0D { nextEnd += 1 }
          if nextEnd > next { end = nextEnd }
        }
        result.append(content..<end)
      }
      p = end
    }
    return result
  }

  /// The key of a link label as CommonMark matches labels (case-insensitively, white space
  /// collapsed): lowercased, without white space, `ß` as `ss`. Labels that CommonMark would tell
  /// apart may share a key (a window is then parsed after one definition too many, harmlessly).
  static func key(_ label: some Collection<UInt8>) -> String {
    var key = ""
    for c in String(decoding: label, as: UTF8.self).lowercased() where !c.isWhitespace {
      if c == "ß" || c == "ẞ" { key += "ss" } else { key.append(c) }
    }
    return key
  }

  /// The key of the label a definition line (starting at its `[`) defines, or nil.
  static func definedKey(_ line: [UInt8]) -> String? {
    guard line.first == 0x5B else { return nil }
    var k = 1
    while k < line.count && line[k] != 0x5D {
      k += line[k] == 0x5C ? 2 : 1
    }
    return k < line.count ? key(line[1..<k]) : nil
  }

  /// The keys of every bracketed text in `range` of `bytes` that could be a link label (the
  /// innermost `[...]` of each `]`, at most 999 bytes): the labels a window may refer to.
  static func referencedKeys(in bytes: ByteStorage, range: Range<Int>) -> Set<String> {
    var keys: Set<String> = []
    var p = range.lowerBound
    while let close = bytes.firstIndex(of: 0x5D, in: p..<range.upperBound) {
      var open = close - 1
      while open >= range.lowerBound && close - open <= 1000 && bytes[open] != 0x5B && bytes[open] != 0x5D {
        open -= 1
      }
      if open >= range.lowerBound && bytes[open] == 0x5B && close - open <= 1000 {
        keys.insert(key(bytes.copyBytes((open + 1)..<close)))
      }
      p = close + 1
    }
    return keys
  }

  /// Where a definition would start on the line `line` (at its `[`), or nil.
  static func definitionStart(_ bytes: ByteStorage, _ line: Range<Int>) -> Int? {
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
    for i in 0..<table.count {
      let (bytes, range) = structureBytes(of: i)
      try Self.findStructure(
        in: bytes, range: range, format: format, shift: table.start(of: i) - range.lowerBound, into: &entries)
    }
    entries.sort()
    let width = table.length
    var rotors: [StructureRotor: IntervalIndex<StructurePayload>] = [:]
    let kinds: [StructureRotor] = format == .markdown ? StructureRotor.markdownKinds : [.links]
    for kind in kinds { rotors[kind] = IntervalIndex(sorted: entries.rotors[kind] ?? [], width: width) }
    return StructureIndexes(
      format: format, rotors: rotors, blocks: IntervalIndex(sorted: entries.blocks, width: width),
      references: IntervalIndex(sorted: entries.references, width: width))
  }

  /// The entries of `range` of `bytes` (a whole element, or for plain text any run of whole lines),
  /// moved by `shift`.
  static func findStructure(
    in bytes: ByteStorage, range: Range<Int>, format: DocumentFormat, shift: Int, prelude: [UInt8] = [],
    into entries: inout StructureEntries
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
      let nodes: [MarkdownNode]
      do {
        nodes = try MarkdownParser.parse(bytes, range: range, prelude: prelude)
      } catch {
        throw StructureError(error.description)
      }
      entries.add(
        nodes, shift: shift + range.lowerBound, referenceLines: ReferenceLines.find(in: bytes, range: range),
        origin: range.lowerBound)
    }
  }

  // MARK: Edits

  /// Brings the structure rotors up to date after element `e` (at document offset `s`) had its
  /// bytes `range` replaced by `n` bytes (`old` and `new` are its text before and after). Plain
  /// text: the lines around the edit are searched again for links. Markdown: the top-level
  /// blocks around the edit are parsed again — from the block holding the edit's start (further
  /// back while the block before touches it or is a list or a code block, which could absorb what
  /// follows) to a
  /// block after the edit that parses exactly as before (doubling the blocks taken until one
  /// does: an unclosed code fence runs on), after the element's definitions of the link labels
  /// the window refers to; when the edit adds, removes or changes a definition, the whole element.
  func updateStructure(
    element e: Int, start s: Int, old: TextRope, new: TextRope, range: Range<Int>, inserted n: Int,
    change: inout DocumentChange<ID>
  ) {
    guard var st = structure else { return }
    structure = nil
    let delta = n - range.count
    var entries = StructureEntries()
    var window: Range<Int>
    do throws(StructureError) {
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
        window = ws..<(we - delta)
      case .markdown:
        if let found = try markdownWindow(&st, element: e, start: s, old: old, new: new, range: range, inserted: n) {
          (window, entries) = found
        } else {
          st.labelMaps[e] = nil
          let (bytes, r) = new.contiguous(0..<new.utf8Count)
          try Self.findStructure(in: bytes, range: r, format: .markdown, shift: s - r.lowerBound, into: &entries)
          window = 0..<old.utf8Count
        }
      }
    } catch {
      // Rebuilt in full when next asked for.
      for kind in st.rotors.keys {
        change.rotors[kind.rawValue] = RotorChange(removed: 0..<0, added: 0..<0, rebuilt: true)
      }
      return
    }
    entries.sort()
    st.replace(
      (s + window.lowerBound)..<(s + window.upperBound), newCount: window.count + delta, with: entries, change: &change)
    structure = st
  }

  /// The window (old element offsets) to parse again after an edit, and its new entries; nil when
  /// the whole element must be parsed (a reference definition changed).
  func markdownWindow(
    _ st: inout StructureIndexes, element e: Int, start s: Int, old: TextRope, new: TextRope, range: Range<Int>,
    inserted n: Int
  ) throws(StructureError) -> (Range<Int>, StructureEntries)? {
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
      let newEnd = oldEnd + delta
      // Parsed through the next non-blank line after the window, whose nodes are left out: where
      // cmark-gfm ends an unclosed fence in a list item depends on the line that closes it.
      var parseEnd = new.nextLineStart(afterPosition: newEnd)
      while parseEnd < new.utf8Count {
        let next = new.nextLineStart(afterPosition: parseEnd)
        if !new.isBlank(parseEnd..<next) {
          parseEnd = next
          break
        }
        parseEnd = next
      }
      // The window is parsed after the element's definitions of the labels it refers to.
      let (bytes, r) = new.contiguous(ws..<parseEnd)
      let windowBytes = r.lowerBound..<(r.lowerBound + newEnd - ws)
      let map = Self.labelMap(&st, element: e, start: s, old)
      var prelude: [UInt8] = []
      for key in ReferenceLines.referencedKeys(in: bytes, range: windowBytes) {
        for line in map[key] ?? [] {
          prelude.append(contentsOf: line)
          prelude.append(contentsOf: [0x0A, 0x0A])
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
      if let sentinel {
        let expected = (sentinel.range.lowerBound - s + delta - ws)..<(sentinel.range.upperBound - s + delta - ws)
        let last = nodes.last { $0.kind == .block }
        guard let last, last.range == expected, last.detail == sentinel.value else {
          sentinels *= 2
          continue
        }
      }
      var entries = StructureEntries()
      entries.add(
        nodes, shift: s + ws, referenceLines: ReferenceLines.find(in: bytes, range: windowBytes),
        origin: r.lowerBound)
      // A definition added, removed or changed in the window: the whole element (definitions
      // hold for all of it).
      let before = Self.lines(st.references, in: (s + ws)..<(s + oldEnd), of: old, start: s).map(\.1)
      let after = entries.references.map {
        bytes.copyBytes(($0.0.lowerBound - s - ws + r.lowerBound)..<($0.0.upperBound - s - ws + r.lowerBound))
      }
      guard before == after else { return nil }
      return (ws..<oldEnd, entries)
    }
  }

  /// Element `e`'s definition lines by label key (its text before the edit is `text`, at `start`).
  static func labelMap(_ st: inout StructureIndexes, element e: Int, start: Int, _ text: TextRope)
    -> [String: [[UInt8]]]
  {
    if let map = st.labelMaps[e] { return map }
    var map: [String: [[UInt8]]] = [:]
    for (_, line) in lines(st.references, in: start..<(start + text.utf8Count), of: text, start: start) {
      if let key = ReferenceLines.definedKey(line) { map[key, default: []].append(line) }
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
  static func lines(_ index: IntervalIndex<Void>, in window: Range<Int>, of text: TextRope, start: Int)
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
  /// entries after it move by the change in length.
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
      change.rotors[kind.rawValue] = RotorChange(removed: i0..<i1, added: i0..<(i0 + added.count))
    }
    if format == .markdown {
      blocks.apply(edit: window, newCount: newCount, inserting: entries.blocks) { r, _ in transform(r) }
      references.apply(edit: window, newCount: newCount, inserting: entries.references) { r, _ in transform(r) }
    }
  }
}
