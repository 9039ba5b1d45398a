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
  /// entries in document order.
  public static func entries(
    _ kinds: [StructureRotor], in bytes: ByteStorage, elements: [Range<Int>], format: DocumentFormat
  ) throws(StructureError) -> [StructureRotor: [StructureEntry]] {
    var found = StructureEntries()
    for element in elements {
      try RotorDocument<Int>.findStructure(in: bytes, range: element, format: format, shift: 0, into: &found)
    }
    found.sort()
    var result: [StructureRotor: [StructureEntry]] = [:]
    for kind in kinds {
      result[kind] = (found.rotors[kind] ?? []).map { StructureEntry(range: $0.0, label: $0.1.label, info: $0.1.info) }
    }
    return result
  }
}
