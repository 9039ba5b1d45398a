/// A position in a document: an element and an index into its text. Document order is element
/// order, then the index's UTF-8 offset.
public struct TextPosition<ID: Hashable>: Hashable {
  public var element: ID
  public var index: String.Index

  public init(element: ID, index: String.Index) {
    self.element = element
    self.index = index
  }
}

extension TextPosition: Sendable where ID: Sendable {}

/// Where an entry of a document's rotor is, in numbers: the element (by position in the document
/// and by id) and the entry's UTF-8 range, in the element and in the document's coordinates
/// (file offsets for a document read from a file and not yet edited).
public struct EntryLocation<ID: Hashable>: Hashable {
  /// 0-based index of the element in the document.
  public var elementIndex: Int
  public var element: ID
  /// UTF-8 offsets in the element's text.
  public var utf8Range: Range<Int>
  /// UTF-8 offsets in the document: element start + offset in the element.
  public var documentRange: Range<Int>
}

extension EntryLocation: Sendable where ID: Sendable {}
