import CTextRotorShim

/// Unicode case folding by ICU (`ucasemap_utf8FoldCase`, default options, no Turkic dotless-i
/// mapping): **full** folding, so `ß` folds to `ss` and `ﬁ` to `fi`, as ICU's case-insensitive
/// regular expressions match literal text.
public final class CaseFolding: @unchecked Sendable {
  private let map: OpaquePointer

  public init() throws(ICUError) {
    var status = CICU_ZERO_ERROR
    let opened = cicu_ucasemap_open("", 0, &status)
    try ICUError.check(status, "opening a case map")
    guard let opened else { throw ICUError(CICU_MEMORY_ALLOCATION_ERROR, "opening a case map") }
    map = opened
  }

  deinit { cicu_ucasemap_close(map) }

  /// The full case folding of `text`'s UTF-8 bytes.
  public func fold(_ text: String) throws(ICUError) -> String {
    let source = ByteStorage(text)
    var capacity = max(16, source.count * 3)
    while true {
      var status = CICU_ZERO_ERROR
      var out = [CChar](repeating: 0, count: capacity)
      let n = out.withUnsafeMutableBufferPointer { dest in
        cicu_ucasemap_utf8FoldCase(
          map, dest.baseAddress, Int32(capacity), source.pointer(at: 0), Int32(source.count), &status)
      }
      if status == CICU_BUFFER_OVERFLOW_ERROR {
        capacity = Int(n) + 1
        continue
      }
      try ICUError.check(status, "folding case")
      return String(decoding: out[0..<Int(n)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
  }
}
