/// What a column counts, as in LSP 3.17's `PositionEncodingKind` (plus graphemes).
public enum PositionEncoding: String, CaseIterable, Sendable {
  case utf8 = "utf-8"
  case utf16 = "utf-16"
  case utf32 = "utf-32"
  case grapheme
}

/// Where a byte offset is, as an editor counts it.
public struct TextLocation: Equatable, Sendable {
  /// 1-based line (hard lines, ended by LF, CRLF or CR).
  public var line: Int
  /// 1-based column, in the cursor's ``PositionEncoding``.
  public var column: Int
  /// UTF-16 code units from the start of the text.
  public var utf16Offset: Int

  public init(line: Int, column: Int, utf16Offset: Int) {
    self.line = line
    self.column = column
    self.utf16Offset = utf16Offset
  }
}
