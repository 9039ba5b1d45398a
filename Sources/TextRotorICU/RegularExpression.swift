import CTextRotorShim

/// An ICU regular expression matched over UTF-8 bytes (`uregex_openUText` + `uregex_setUText` on a
/// UTF-8 `UText`), so every index it reports is a 64-bit UTF-8 byte offset into the text, with no
/// conversion to UTF-16.
///
/// Each match operation is bounded: `timeLimit` (ICU's `uregex_setTimeLimit`, in steps of the match
/// engine, roughly milliseconds) and `stackLimit` (bytes of backtracking memory) turn a catastrophic
/// pattern such as `(a+)+$` into an ``ICUError`` (`isTimeOut` / `isStackOverflow`) instead of a hang.
///
/// Not thread-safe: use one per thread (``copy()``).
public final class RegularExpression: @unchecked Sendable {
  public struct Options: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// `UREGEX_CASE_INSENSITIVE`: full Unicode case folding of literal text (so `STRASSE` matches
    /// `straße`); sets and properties fold simply (`[a-z]` does not match `ß`).
    public static let caseInsensitive = Options(rawValue: CICU_REGEX_CASE_INSENSITIVE)
    /// `UREGEX_MULTILINE`: `^` and `$` also match at line starts and ends.
    public static let multiline = Options(rawValue: CICU_REGEX_MULTILINE)
    /// `UREGEX_DOTALL`: `.` matches line terminators too.
    public static let dotAll = Options(rawValue: CICU_REGEX_DOTALL)
  }

  /// Steps of ICU's match engine one match may take by default (about a few seconds).
  public static let defaultTimeLimit = 3000
  /// Bytes of backtracking stack one match may use by default (ICU's own default, 8 MB).
  public static let defaultStackLimit = 8 << 20

  public let pattern: String
  public let options: Options
  public let timeLimit: Int
  public let stackLimit: Int
  private let regex: OpaquePointer
  /// The `UText *` over the bytes.
  private var text: OpaquePointer?
  /// Keeps the bytes given to `setText` alive while ICU reads them.
  private var owner: ByteStorage?
  /// The part of `owner` the `UText` covers. ICU 72's `utext_openUTF8` takes at most 2 GiB − 1
  /// bytes, so a larger text is bound a window at a time around each region (see ``setRegion(_:)``);
  /// ICU's indexes are then relative to `window.lowerBound`.
  private var window: Range<Int> = 0..<0
  /// The largest text bound at once (ICU's limit; smaller in tests).
  var maximumWindow = Int(Int32.max)
  /// Bytes of context kept before and after a region when a window is bound, for look-around.
  var windowContext = 1 << 16
  /// The most matches ``forEachMatch(_:)`` asks ICU for in one C call. ICU has found a whole batch
  /// before `body` sees its first match, so what `body` leaves of a batch (stopping, or the caller
  /// setting the region again) was found for nothing: the batches of one call grow from 4 matches
  /// (``batchCapacity(after:)``), and a caller that sets the region again after some matches does
  /// it after a multiple of this many, where a batch ends.
  public static let matchesPerBatch = 64

  /// How many matches the next batch of one ``forEachMatch(_:)`` call holds once `found` were
  /// found: 1, 1, 2, 4, 8, 16, 32, then ``matchesPerBatch``, so that the call's batches end at
  /// every multiple of ``matchesPerBatch`` and a visitor that stops early wastes at most as many as
  /// it took. (A first batch of one: a search that wants a line's first match and goes on at the
  /// next line, `-c`, asks for one match a line; with a first batch of 4 RE2 searched four times.)
  public static func batchCapacity(after found: Int) -> Int { Swift.min(Swift.max(found, 1), matchesPerBatch) }

  /// Whether a call's batches end after its `found`th match (1, 2, 4, 8, 16, 32, 64, then every
  /// multiple of ``matchesPerBatch``): a visitor that stops there costs no batch it does not read.
  public static func endsBatch(_ found: Int) -> Bool {
    found >= 1 && (found <= matchesPerBatch ? found & (found - 1) == 0 : found % matchesPerBatch == 0)
  }
  private var starts = [Int64](repeating: 0, count: matchesPerBatch)
  private var ends = [Int64](repeating: 0, count: matchesPerBatch)
  /// Matches ICU has found since this matcher was made, every batch counted whole (for tests: a
  /// search that finds each match once finds as many as it reports).
  public private(set) var matchesFound = 0

  /// Compiles `pattern`. An invalid pattern throws an ``ICUError`` whose description says where it
  /// is wrong (line, column and the text before it, from ICU's `UParseError`).
  public init(
    _ pattern: String, options: Options = [], timeLimit: Int = defaultTimeLimit,
    stackLimit: Int = defaultStackLimit
  ) throws(ICUError) {
    var status = CICU_ZERO_ERROR
    var parseError = cicu_parse_error()
    let patternBytes = ByteStorage(pattern)
    var patternText = cicu_utext_openUTF8(patternBytes.pointer(at: 0), Int64(patternBytes.count), &status)
    defer { if let t = patternText { patternText = cicu_utext_close(t) } }
    try ICUError.check(status, "opening the pattern's text")
    let opened = cicu_uregex_openUText(patternText, options.rawValue, &parseError, &status)
    if cicu_isFailure(status) != 0 {
      throw ICUError(status, Self.describe(parseError, in: pattern))
    }
    guard let opened else { throw ICUError(CICU_MEMORY_ALLOCATION_ERROR, "compiling the regular expression") }
    self.regex = opened
    self.pattern = pattern
    self.options = options
    self.timeLimit = timeLimit
    self.stackLimit = stackLimit
    try configureLimits()
  }

  private init(cloning other: RegularExpression) throws(ICUError) {
    var status = CICU_ZERO_ERROR
    let cloned = cicu_uregex_clone(other.regex, &status)
    try ICUError.check(status, "cloning a regular expression")
    guard let cloned else { throw ICUError(CICU_MEMORY_ALLOCATION_ERROR, "cloning a regular expression") }
    regex = cloned
    pattern = other.pattern
    options = other.options
    timeLimit = other.timeLimit
    stackLimit = other.stackLimit
    try configureLimits()
  }

  deinit {
    cicu_uregex_close(regex)
    if let text { _ = cicu_utext_close(text) }
  }

  /// A new matcher for the same pattern, without text.
  public func copy() throws(ICUError) -> RegularExpression { try RegularExpression(cloning: self) }

  private func configureLimits() throws(ICUError) {
    var status = CICU_ZERO_ERROR
    cicu_uregex_setTimeLimit(regex, Int32(clamping: timeLimit), &status)
    cicu_uregex_setStackLimit(regex, Int32(clamping: stackLimit), &status)
    try ICUError.check(status, "setting the regular expression's limits")
  }

  /// "invalid regular expression at line 1, column 4 (after `a(b`)".
  private static func describe(_ error: cicu_parse_error, in pattern: String) -> String {
    var message = "invalid regular expression '\(Self.shown(pattern))'"
    if error.offset >= 0 {
      let column = Int(error.offset) + 1
      message += error.line > 1 ? " at line \(error.line), column \(column)" : " at column \(column)"
      let context = withUnsafeBytes(of: error.preContext) { raw in
        let units = raw.bindMemory(to: UInt16.self).prefix { $0 != 0 }
        return String(decoding: units, as: UTF16.self)
      }
      if !context.isEmpty { message += " (after '\(context)')" }
    }
    return message
  }

  /// Points the matcher at all of `bytes` (UTF-8; ill-formed sequences read as U+FFFD). Offsets are
  /// byte offsets into `bytes`. Bounds are transparent (look-around and `\b` see past a region) and
  /// not anchoring (`^`/`$` match only at real line or text edges). A text over 2 GiB is bound a
  /// window at a time (a region and 64 KiB around it), so look-around sees at most that far.
  ///
  /// With `start`, the text begins there: nothing before it is seen (a file's byte order mark,
  /// which is not content: `^` matches right after it, as at the start of a file without one).
  public func setText(_ bytes: ByteStorage, from start: Int = 0) throws(ICUError) {
    owner = bytes
    textStart = Swift.min(Swift.max(0, start), bytes.count)
    textEnd = bytes.count
    window = 0..<0
    if textEnd - textStart <= maximumWindow { try bind(textStart..<textEnd) }
  }

  /// Points the matcher at exactly `range` of `bytes`: nothing outside it is seen, so `\A`, `\z`,
  /// `^`, `$` and look-around stop at its edges (a line searched on its own, as ripgrep reads each
  /// line). Offsets stay offsets into `bytes`.
  public func setText(_ bytes: ByteStorage, exactly range: Range<Int>) throws(ICUError) {
    let range = range.clamped(to: 0..<bytes.count)
    guard range.count <= maximumWindow else {
      throw ICUError(
        CICU_INDEX_OUTOFBOUNDS_ERROR, "a line of \(range.count) bytes is past ICU's 2 GiB text limit")
    }
    guard !range.isEmpty else {
      // ICU 72 dereferences a null chunk when a look-ahead reads an empty UTF-8 text (`^(?=.)` on
      // an empty line crashed): an empty line is bound as a one-byte stand-in that opaque,
      // anchoring bounds around the empty region hide, so `^`, `$`, `\A`, `\z` match there and
      // look-around sees nothing, as in an empty text. Offsets still map to `range`.
      owner = Self.emptyStandIn
      textStart = range.lowerBound
      textEnd = range.upperBound
      var status = CICU_ZERO_ERROR
      text = cicu_utext_reopenUTF8(text, Self.emptyStandIn.pointer(at: 0), 1, &status)
      try ICUError.check(status, "opening a UTF-8 text")
      cicu_uregex_setUText(regex, text, &status)
      cicu_uregex_useTransparentBounds(regex, 0, &status)
      cicu_uregex_useAnchoringBounds(regex, 1, &status)
      try ICUError.check(status, "setting the regular expression's text")
      window = range.lowerBound..<(range.lowerBound + 1)
      return
    }
    owner = bytes
    textStart = range.lowerBound
    textEnd = range.upperBound
    window = 0..<0
    try bind(range)
  }

  /// What an empty line is bound as (see ``setText(_:exactly:)``).
  private static let emptyStandIn = ByteStorage([0x0A])

  /// Where the text given to ``setText(_:from:)`` begins and ends.
  private var textStart = 0
  private var textEnd = 0

  private func bind(_ range: Range<Int>) throws(ICUError) {
    guard let bytes = owner else { return }
    var status = CICU_ZERO_ERROR
    let reopened = cicu_utext_reopenUTF8(text, bytes.pointer(at: range.lowerBound), Int64(range.count), &status)
    text = reopened
    try ICUError.check(status, "opening a UTF-8 text")
    cicu_uregex_setUText(regex, reopened, &status)
    cicu_uregex_useTransparentBounds(regex, 1, &status)
    cicu_uregex_useAnchoringBounds(regex, 0, &status)
    try ICUError.check(status, "setting the regular expression's text")
    window = range
  }

  /// Limits the search to `range` and starts it at `range.lowerBound`.
  public func setRegion(_ range: Range<Int>) throws(ICUError) {
    if range.lowerBound < window.lowerBound || range.upperBound > window.upperBound || window.isEmpty,
      owner != nil, textEnd - textStart > maximumWindow
    {
      guard range.count <= maximumWindow else {
        throw ICUError(CICU_INDEX_OUTOFBOUNDS_ERROR, "a region of \(range.count) bytes is past ICU's 2 GiB text limit")
      }
      let start = Swift.max(textStart, range.lowerBound - windowContext)
      let end = Swift.min(textEnd, Swift.max(range.upperBound + windowContext, start + maximumWindow / 2))
      try bind(start..<Swift.min(end, start + maximumWindow))
    }
    var status = CICU_ZERO_ERROR
    let base = window.lowerBound
    cicu_uregex_setRegion64(regex, Int64(range.lowerBound - base), Int64(range.upperBound - base), &status)
    try ICUError.check(status, "setting the search region")
  }

  /// The next match in the region (`uregex_findNext`), or nil.
  public func next() throws(ICUError) -> Range<Int>? {
    var status = CICU_ZERO_ERROR
    guard cicu_uregex_findNext(regex, &status) != 0 else {
      try check(status)
      return nil
    }
    let start = cicu_uregex_start64(regex, 0, &status)
    let end = cicu_uregex_end64(regex, 0, &status)
    try check(status)
    return (window.lowerBound + Int(start))..<(window.lowerBound + Int(end))
  }

  /// Calls `body` with the next matches of the region, a batch at a time (one C call per batch),
  /// until `body` returns false or the region has no more matches.
  public func forEachMatch(_ body: (Range<Int>) throws(ICUError) -> Bool) throws(ICUError) {
    var found = 0
    while true {
      var status = CICU_ZERO_ERROR
      let capacity = Self.batchCapacity(after: found)
      let n = starts.withUnsafeMutableBufferPointer { s in
        ends.withUnsafeMutableBufferPointer { e in
          Int(cicu_uregex_findBatch(regex, s.baseAddress, e.baseAddress, Int32(capacity), &status))
        }
      }
      matchesFound += n
      found += n
      let base = window.lowerBound
      for k in 0..<n where try !body((base + Int(starts[k]))..<(base + Int(ends[k]))) { return }
      try check(status)
      if n < capacity { return }
    }
  }

  private func check(_ status: Int32) throws(ICUError) {
    if cicu_isFailure(status) == 0 { return }
    if status == CICU_REGEX_TIME_OUT {
      throw ICUError(
        status, "the regular expression '\(Self.shown(pattern))' ran past its time limit (catastrophic backtracking?)")
    }
    if status == CICU_REGEX_STACK_OVERFLOW {
      throw ICUError(status, "the regular expression '\(Self.shown(pattern))' ran past its backtracking stack limit")
    }
    throw ICUError(status, "matching the regular expression '\(Self.shown(pattern))'")
  }

  /// `text` with every ASCII character that is not a letter or digit escaped, so that the pattern
  /// matches `text` literally.
  /// `pattern` as a message shows it: whole up to 200 characters, else its start and its length
  /// (thousands of `-f` patterns joined are one pattern of megabytes).
  public static func shown(_ pattern: String) -> String {
    guard pattern.unicodeScalars.count > 200 else { return pattern }
    var start = ""
    start.unicodeScalars.append(contentsOf: pattern.unicodeScalars.prefix(160))
    return "\(start)… (\(pattern.utf8.count) bytes)"
  }

  public static func escapedLiteral(_ text: String) -> String {
    var out = ""
    for scalar in text.unicodeScalars {
      if scalar.isASCII && !(scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)) {
        out.append("\\")
      }
      out.unicodeScalars.append(scalar)
    }
    return out
  }
}
