import TextRotorICU

/// Structure rotors: headings, links, lists, ... of a Markdown document (links only, of plain
/// text). Built on first use, then kept up to date by every edit, as system rotors are.
extension RotorDocument {
  /// The structure rotor `kind`, parsed on first use (see ``StructureRotor``) and then kept up to
  /// date by edits (``StructureRotor/misspelled``: ``misspelledWords(locale:)`` for the
  /// segmenter's locale). Its entries' labels are the heading's, link's or item's text (other kinds: the
  /// text at the entry); ``Rotor/structureInfo(at:)`` gives levels, URLs and item counts. Throws
  /// when an element is past cmark-gfm's 32-bit sizes (2 GB).
  public func rotor(_ kind: StructureRotor) throws(StructureError) -> Rotor<ID> {
    if kind == .misspelled { return try misspelledWords() }
    let st = try structureIndexes()
    let index = st.rotors[kind] ?? IntervalIndex(width: table.length)
    return Rotor(name: kind.rawValue, storage: .structure(index), table: table)
  }

  /// The headings of level `level` (1-6), as SwiftUI's `.headings(level:)`.
  public func headings(level: Int) throws(StructureError) -> Rotor<ID> {
    let st = try structureIndexes()
    let all = st.rotors[.headings] ?? IntervalIndex(width: table.length)
    let kept = all.all.filter { $0.1.info.level == level }
    return Rotor(
      name: "headings(level: \(level))", storage: .structure(IntervalIndex(sorted: kept, width: table.length)),
      table: table)
  }

  /// The structure rotor `kind` if it is already built.
  public func cachedRotor(_ kind: StructureRotor) -> Rotor<ID>? {
    if kind == .misspelled {
      return spelling.map { Rotor(name: kind.rawValue, storage: .structure($0.index), table: table) }
    }
    guard let st = structure, st.format == format else { return nil }
    return Rotor(
      name: kind.rawValue, storage: .structure(st.rotors[kind] ?? IntervalIndex(width: table.length)), table: table)
  }

  func structureIndexes() throws(StructureError) -> StructureIndexes {
    if let st = structure, st.format == format { return st }
    let built = try buildStructure(format: format)
    structure = built
    return built
  }

  /// After element `index` was inserted (its span is `x..<x + span` in document offsets).
  func structureInserted(at index: Int, _ x: Int, span: Int, change: inout DocumentChange<ID>) {
    spellingInserted(at: index, x, span: span, change: &change)
    guard var st = structure else { return }
    structure = nil
    var entries = StructureEntries()
    let (bytes, range) = table[index].text.contiguous(0..<table[index].text.utf8Count)
    do {
      try Self.findStructure(in: bytes, range: range, format: st.format, shift: x - range.lowerBound, into: &entries)
    } catch {
      return
    }
    entries.sort()
    st.replace(x..<x, newCount: span, with: entries, insertingElement: true, change: &change)
    st.labelMaps = [:]  // keyed by element index
    structure = st
  }

  /// Before the element spanning `old` (document offsets) is removed.
  func structureRemoved(_ old: Range<Int>, change: inout DocumentChange<ID>) {
    spellingRemoved(old, change: &change)
    guard var st = structure else { return }
    structure = nil  // the only reference: the indexes change in place
    st.replace(old, newCount: 0, with: StructureEntries(), change: &change)
    st.labelMaps = [:]
    structure = st
  }
}

extension Rotor {
  /// The level, URL or item count of entry `i` of a structure rotor (nil for other rotors).
  public func structureInfo(at i: Int) -> StructureInfo? {
    guard case .structure(let index) = storage, i >= 0, i < index.count else { return nil }
    return index[i].value.info
  }
}
