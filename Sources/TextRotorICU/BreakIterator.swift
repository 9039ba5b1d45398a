import CTextRotorShim

/// The four kinds of ICU break iterator.
public enum BreakKind: Sendable, Hashable {
  case character, word, sentence, line

  var icuType: Int32 {
    switch self {
    case .character: CICU_BREAK_CHARACTER
    case .word: CICU_BREAK_WORD
    case .sentence: CICU_BREAK_SENTENCE
    case .line: CICU_BREAK_LINE
    }
  }
}

/// Boundaries returned by one call of ``BreakIterator/nextBatch(_:)``: UTF-8 offsets into the text
/// last given to ``BreakIterator/setText(_:)``, and ICU's rule status of the segment that ends at
/// each boundary.
public struct BoundaryBatch: Sendable {
  public fileprivate(set) var offsets: [Int32]
  public fileprivate(set) var statuses: [Int32]
  public fileprivate(set) var count: Int = 0
  fileprivate let wantsStatus: Bool

  /// - Parameter capacity: boundaries per batch.
  /// - Parameter wantsStatus: whether to ask ICU for rule statuses (words, line breaks).
  public init(capacity: Int = 4096, wantsStatus: Bool) {
    offsets = Array(repeating: 0, count: capacity)
    statuses = Array(repeating: 0, count: wantsStatus ? capacity : 0)
    self.wantsStatus = wantsStatus
  }
}

/// An ICU break iterator over UTF-8 bytes (`utext_openUTF8` + `ubrk_setUText`): every offset it
/// reports is a UTF-8 offset into the bytes, with no conversion to UTF-16.
///
/// Not thread-safe: use one iterator per thread (``copy()`` is much cheaper than opening one).
/// ICU's offsets are 32-bit, so one text may be at most `Int32.max` bytes.
public final class BreakIterator: @unchecked Sendable {
  public let kind: BreakKind
  public let locale: String
  private let iterator: OpaquePointer
  /// The `UText *` over the bytes.
  private var text: OpaquePointer?
  /// Keeps the bytes given to `setText` alive while ICU reads them.
  private var owner: AnyObject?
  /// Whether ICU's Chinese/Japanese dictionary engine is loaded into this (word) iterator.
  private var dictionariesLoaded = false

  /// The largest text ICU's 32-bit break iterator offsets can address.
  public static let maximumTextLength = Int(Int32.max)

  public init(_ kind: BreakKind, locale: String = "") throws(ICUError) {
    var status = CICU_ZERO_ERROR
    let opened = locale.withCString { cicu_ubrk_open(kind.icuType, $0, &status) }
    try ICUError.check(status, "opening the \(kind) break iterator for locale '\(locale)'")
    guard let opened else { throw ICUError(CICU_MEMORY_ALLOCATION_ERROR, "opening a break iterator") }
    self.kind = kind
    self.locale = locale
    self.iterator = opened
  }

  private init(cloning other: BreakIterator) throws(ICUError) {
    var status = CICU_ZERO_ERROR
    let cloned = cicu_ubrk_clone(other.iterator, &status)
    try ICUError.check(status, "cloning a break iterator")
    guard let cloned else { throw ICUError(CICU_MEMORY_ALLOCATION_ERROR, "cloning a break iterator") }
    kind = other.kind
    locale = other.locale
    iterator = cloned
  }

  deinit {
    cicu_ubrk_close(iterator)
    if let text { _ = cicu_utext_close(text) }
  }

  /// Whether ICU has locale data for the language of `locale` (`""` and `"root"`, the
  /// language-independent rules, included). ICU opens an iterator for any name, falling back to
  /// the root rules without an error, so a misspelt locale would otherwise go unnoticed.
  public static func hasLocaleData(_ locale: String) -> Bool {
    locale.withCString { cicu_locale_is_known($0) } != 0
  }

  /// Runs `body` with ICU's handle (for ``BreakRules/load(from:)``).
  func withHandle<R>(_ body: (OpaquePointer) -> R) -> R { body(iterator) }

  /// A new iterator with the same rules and locale and no text (ICU's `ubrk_clone`).
  public func copy() throws(ICUError) -> BreakIterator { try BreakIterator(cloning: self) }

  /// Points the iterator at `range` of `bytes` (UTF-8; ill-formed sequences read as U+FFFD). Offsets
  /// are then relative to `range.lowerBound`. The iterator keeps `bytes` alive.
  ///
  /// A word iterator first loads ICU's Chinese/Japanese dictionary engine (once; copies load their
  /// own): ICU gives the prolonged sound mark ー (U+30FC), ｰ and the halfwidth voicing marks ﾞ ﾟ
  /// (script Common) to that engine only when the iterator loaded it before, so without this a
  /// run like ーーー…のﾞ would be divided or not depending on what the iterator, or the process,
  /// segmented earlier. textrotor's words are always those of an iterator with the engine loaded,
  /// as after any Chinese or Japanese text (see `cicu_ubrk_loadDictionaries`).
  public func setText(_ bytes: ByteStorage, range: Range<Int>) throws(ICUError) {
    precondition(range.lowerBound >= 0 && range.upperBound <= bytes.count, "range outside the bytes")
    guard range.count <= Self.maximumTextLength else {
      throw ICUError(CICU_INDEX_OUTOFBOUNDS_ERROR, "a text of \(range.count) bytes is past ICU's 32-bit offsets")
    }
    let start = bytes.pointer(at: range.lowerBound)
    var status = CICU_ZERO_ERROR
    if kind == .word && !dictionariesLoaded {
      cicu_ubrk_loadDictionaries(iterator, &status)
      try ICUError.check(status, "loading ICU's Chinese/Japanese dictionary")
      dictionariesLoaded = true
    }
    let reopened = cicu_utext_reopenUTF8(text, start, Int64(range.count), &status)
    text = reopened
    try ICUError.check(status, "opening a UTF-8 text")
    cicu_ubrk_setUText(iterator, reopened, &status)
    try ICUError.check(status, "setting the break iterator's text")
    owner = bytes
  }

  /// Moves to the start of the text and returns 0.
  @discardableResult public func first() -> Int { Int(cicu_ubrk_first(iterator)) }

  /// The next boundary, or nil at the end of the text.
  public func next() -> Int? {
    let b = cicu_ubrk_next(iterator)
    return b == CICU_BREAK_DONE ? nil : Int(b)
  }

  /// ICU's rule status of the segment that ends at the current boundary.
  public var ruleStatus: Int { Int(cicu_ubrk_getRuleStatus(iterator)) }

  /// The first boundary after `offset`, or nil.
  public func following(_ offset: Int) -> Int? {
    let b = cicu_ubrk_following(iterator, Int32(clamping: offset))
    return b == CICU_BREAK_DONE ? nil : Int(b)
  }

  /// The last boundary before `offset`, or nil.
  public func preceding(_ offset: Int) -> Int? {
    let b = cicu_ubrk_preceding(iterator, Int32(clamping: offset))
    return b == CICU_BREAK_DONE ? nil : Int(b)
  }

  /// Whether `offset` is a boundary (moves the iterator there or to the next boundary).
  public func isBoundary(_ offset: Int) -> Bool { cicu_ubrk_isBoundary(iterator, Int32(clamping: offset)) != 0 }

  /// Fills `batch` with the boundaries after the current one. Returns false when the text has no
  /// more boundaries (then `batch.count` is 0).
  public func nextBatch(_ batch: inout BoundaryBatch) -> Bool {
    let capacity = Int32(batch.offsets.count)
    let wantsStatus = batch.wantsStatus
    let n = batch.offsets.withUnsafeMutableBufferPointer { offsets in
      batch.statuses.withUnsafeMutableBufferPointer { statuses in
        cicu_ubrk_nextBatch(iterator, offsets.baseAddress, wantsStatus ? statuses.baseAddress : nil, capacity)
      }
    }
    batch.count = Int(n)
    return n > 0
  }
}
