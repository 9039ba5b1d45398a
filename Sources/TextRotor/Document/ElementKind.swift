import TextRotorICU

/// How a file is divided into elements. Segmentation never crosses an element.
public enum ElementKind: String, CaseIterable, Sendable {
  /// The whole file is one element (after a UTF-8 byte order mark, if any).
  case whole
  /// Each hard line is an element, its terminator excluded.
  case lines
  /// Each paragraph (a run of non-blank lines) is an element.
  case paragraphs

  /// The byte ranges of the elements of `bytes`, in order.
  public func ranges(in bytes: ByteStorage) -> [Range<Int>] {
    ranges(in: bytes, from: TextFacts.byteOrderMarkLength(bytes))
  }

  /// The byte ranges of the elements of `bytes` from `start` (no byte order mark is skipped: for a
  /// block of a stream after its first).
  public func ranges(in bytes: ByteStorage, from start: Int) -> [Range<Int>] {
    let all = start..<bytes.count
    switch self {
    case .whole: return [all]
    case .lines: return LineScanner(bytes, range: all).map(\.content)
    case .paragraphs: return Self.paragraphs(in: bytes, range: all)
    }
  }

  /// Runs of non-blank lines in `range`, each from its first line's start to its last line's end.
  static func paragraphs(in bytes: ByteStorage, range: Range<Int>) -> [Range<Int>] {
    var result: [Range<Int>] = []
    var current: Range<Int>? = nil
    for line in LineScanner(bytes, range: range) {
      if LineScanner.isBlank(bytes, line.content) {
        if let c = current { result.append(c) }
        current = nil
      } else {
        current = (current?.lowerBound ?? line.content.lowerBound)..<line.content.upperBound
      }
    }
    if let c = current { result.append(c) }
    return result
  }
}

/// Small facts about a text's bytes.
public enum TextFacts {
  /// 3 when the text starts with a UTF-8 byte order mark (EF BB BF), else 0. The mark is not content:
  /// no element or entry includes it, and offsets stay the file's.
  public static func byteOrderMarkLength(_ bytes: ByteStorage) -> Int {
    bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0
  }

  /// Whether `offset` (in `0...bytes.count`) starts a character (or is the end), ill-formed UTF-8
  /// read as the segmenters read it: a stray continuation byte, or each byte of an overlong or
  /// surrogate sequence, is a character (U+FFFD) of its own.
  public static func isCharacterBoundary(_ bytes: ByteStorage, _ offset: Int) -> Bool {
    UTF8Boundaries.isBoundary(offset, in: bytes)
  }

  /// Whether the first bytes look binary (a NUL byte in the first 64 KiB), as ripgrep decides.
  public static func looksBinary(_ bytes: ByteStorage) -> Bool {
    bytes.firstIndex(of: 0, in: 0..<min(bytes.count, 1 << 16)) != nil
  }
}
