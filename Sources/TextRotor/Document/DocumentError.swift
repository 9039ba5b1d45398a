/// Why a document refused a call: the document is left as it was.
public enum DocumentError: Error, Equatable, Sendable, CustomStringConvertible {
  /// No element has this id (it was never there, or was removed).
  case unknownElement(String)
  /// An element with this id is already in the document.
  case duplicateElement(String)
  /// An offset outside `0...length` of the element (or document).
  case offsetOutOfRange(Int, length: Int)
  /// A UTF-8 offset inside a multi-byte sequence.
  case insideUTF8Sequence(Int)
  /// An element index outside the document's elements.
  case elementIndexOutOfRange(Int, count: Int)
  /// A `String.Index` that is not a UTF-8 index (from a UTF-16 string).
  case foreignIndex
  /// A line number past the element's (or document's) last line.
  case lineOutOfRange(Int, lines: Int)

  public var description: String {
    switch self {
    case .unknownElement(let id): "no element with id \(id)"
    case .duplicateElement(let id): "an element with id \(id) is already in the document"
    case .offsetOutOfRange(let o, let n): "offset \(o) is outside 0...\(n)"
    case .insideUTF8Sequence(let o): "offset \(o) is inside a UTF-8 sequence"
    case .elementIndexOutOfRange(let i, let n): "element index \(i) is outside 0..<\(n)"
    case .foreignIndex: "the String.Index does not come from a UTF-8 string"
    case .lineOutOfRange(let l, let n): "line \(l) is past the last line (\(n) lines)"
    }
  }
}
