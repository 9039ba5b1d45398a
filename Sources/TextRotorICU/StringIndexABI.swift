/// `String.Index` values made from and read as UTF-8 offsets without the `String` they index, so
/// that an element's text (a rope, possibly a gigabyte) never has to become a `String` to hand
/// out or take back positions. This uses the standard library's ABI-stable layout of
/// `String.Index` (offset in bits 16..., transcoded offset in bits 14-15, flags for scalar
/// alignment and UTF-8/UTF-16 encoding in bits 0-3), as swift-collections' `BigString` does. On
/// Linux every native `String` is UTF-8, so the encoded offset of an index is its UTF-8 offset.
public enum StringIndexABI {
  private static let scalarAligned: UInt64 = 0x1
  private static let utf8Encoded: UInt64 = 0x4
  private static let utf16Encoded: UInt64 = 0x8

  /// The index at UTF-8 offset `offset`, which must be a scalar boundary of the text it is used on.
  public static func index(utf8Offset offset: Int) -> String.Index {
    precondition(offset >= 0)
    return unsafeBitCast(UInt64(offset) << 16 | utf8Encoded | scalarAligned, to: String.Index.self)
  }

  /// The UTF-8 offset of `index`, and whether it points into a scalar's UTF-16 units (a trailing
  /// surrogate). Nil for an index of a UTF-16 string (bridged from Objective-C; not on Linux).
  public static func utf8Offset(of index: String.Index) -> (offset: Int, insideScalar: Bool)? {
    let bits = unsafeBitCast(index, to: UInt64.self)
    if bits & (utf8Encoded | utf16Encoded) == utf16Encoded { return nil }
    return (Int(truncatingIfNeeded: bits >> 16), (bits >> 14) & 0x3 != 0)
  }
}
