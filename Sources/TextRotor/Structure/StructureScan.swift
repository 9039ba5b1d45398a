import TextRotorICU

/// One entry of a structure rotor found in bytes (see ``StructureScan``).
public struct StructureEntry: Sendable, Equatable {
  /// UTF-8 offsets in the bytes.
  public var range: Range<Int>
  /// The heading's, link's or list item's text; nil when the label is the text at `range`.
  public var label: String?
  public var info: StructureInfo
}

/// Structure rotors of bytes without a document (what the command line uses, as it uses
/// ``Segmenter`` for system rotors): each element parsed as its own Markdown document, or searched
/// for links in plain text.
public enum StructureScan {
  /// The entries of `kinds` in `elements` (sorted, disjoint byte ranges of `bytes`), each kind's
  /// entries in document order. ``StructureRotor/misspelled`` checks the words `segmenter` finds
  /// with the Hunspell dictionary of its locale (empty: `en_US`); the other kinds are parsed only
  /// when asked for. Without `labels`, Markdown entries have no label and no URL (the same
  /// entries otherwise: what a count needs, without making a string for each).
  public static func entries(
    _ kinds: [StructureRotor], in bytes: ByteStorage, elements: [Range<Int>], format: DocumentFormat,
    segmenter: Segmenter = Segmenter(), labels: Bool = true
  ) throws(StructureError) -> [StructureRotor: [StructureEntry]] {
    var found = StructureEntries()
    if kinds.contains(where: { $0 != .misspelled }) {
      for element in elements {
        try RotorDocument<Int>.findStructure(
          in: bytes, range: element, format: format, shift: 0, forEdits: false, kinds: Set(kinds), texts: labels,
          into: &found)
      }
      found.sort()
    }
    var result: [StructureRotor: [StructureEntry]] = [:]
    if kinds.contains(.misspelled) {
      do {
        let speller = try Speller.forLocale(segmenter.locale)
        result[.misspelled] = try Misspellings.find(
          in: bytes, elements: elements, speller: speller, segmenter: segmenter
        )
        .map { StructureEntry(range: $0, label: nil, info: StructureInfo()) }
      } catch let error as SpellerError {
        throw StructureError(error.description)
      } catch {
        throw StructureError("\(error)")
      }
    }
    for kind in kinds where kind != .misspelled {
      result[kind] = (found.rotors[kind] ?? []).map { StructureEntry(range: $0.0, label: $0.1.label, info: $0.1.info) }
    }
    return result
  }
}
