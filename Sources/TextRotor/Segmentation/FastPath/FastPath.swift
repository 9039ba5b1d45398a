import Glibc
import TextRotorICU

/// Native segmentation of ASCII text whose output is identical to ICU's, for words and characters.
///
/// Each span is cut at *safe points* (see ``AsciiSegmenter``): offsets where every UAX #29 rule and
/// ICU's rules put a boundary whatever surrounds them, and no rule looks across. ICU's forward
/// iteration restarts its state machine at each boundary, so segmenting the pieces between safe
/// points independently gives ICU's boundaries and rule statuses. Pieces of pure ASCII are
/// segmented here; *islands* (pieces holding any non-ASCII byte) are handed to ICU as before.
///
/// Identity with ICU is proven differentially by `FastPathTests` (exhaustive short strings, random
/// mixed texts, every corpus file, per enabled locale).
enum FastPath {
  /// Languages whose ICU 72 word and character rules for ASCII are root's (checked by the tests).
  /// Swedish and Finnish are not here: CLDR keeps ':' as MidLetter for them. (An array: a
  /// `Set<String>`'s type is made by the Swift runtime at its first use, 240,000 instructions
  /// that the first piece of every segmentation waited for.)
  static let languages: [String] = [
    "", "root", "en", "de", "fr", "es", "it", "pt", "nl", "ru", "uk", "pl", "el", "th", "ja", "zh", "ko",
  ]

  /// Whether the fast path gives ICU's exact result for `rotor` under `locale`. Conservative: a
  /// listed language with optional script/region subtags, and no keywords (`@...`), Unicode
  /// extensions (`-u-`) or POSIX variant (`en_US_POSIX` uses word_POSIX.txt, where '.' differs).
  static func applies(to rotor: SystemRotor, locale: String) -> Bool {
    guard rotor == .words || rotor == .characters else { return false }
    return supports(locale: locale)
  }

  static func supports(locale: String) -> Bool {
    // Walked in place (it is asked on every edit's window: no arrays of subtags).
    let utf8 = locale.utf8
    var start = utf8.startIndex
    var first = true
    while true {
      var end = start
      while end != utf8.endIndex && utf8[end] != UInt8(ascii: "_") && utf8[end] != UInt8(ascii: "-") {
        end = utf8.index(after: end)
      }
      let subtag = locale[start..<end]
      if first {
        guard languages.contains(subtag.lowercased()) else { return false }
        first = false
      } else {
        // Scripts (Latn, 4 letters) and regions (US, 2 letters; 419, 3 digits) only.
        let n = subtag.utf8.count
        let isScript = n == 4 && subtag.utf8.allSatisfy(isLetter)
        let isRegion =
          (n == 2 && subtag.utf8.allSatisfy(isLetter))
          || (n == 3 && subtag.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 })
        guard isScript || isRegion else { return false }
      }
      guard end != utf8.endIndex else { return true }
      start = utf8.index(after: end)
    }
  }

  private static func isLetter(_ c: UInt8) -> Bool { (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7A }

  /// The default of ``Segmenter/useFastPaths``: on, unless the environment variable
  /// `TEXTROTOR_NO_FAST_PATH` is set to anything but "" or "0" (for benchmarks and comparisons).
  static let enabledByDefault: Bool = {
    guard let value = getenv("TEXTROTOR_NO_FAST_PATH") else { return true }
    let text = String(cString: value)
    return text.isEmpty || text == "0"
  }()

  /// Segments the spans of `unit` into one chunk: ASCII pieces natively (words and characters,
  /// where the locale allows), the rest with the native rule machine when `rules` is given, and
  /// what the machine leaves to ICU with `iterator`. A caller that segments often (an edit's
  /// windows) passes a `machine` of `rules` to keep.
  static func run(
    _ iterator: BreakIterator, _ bytes: ByteStorage, _ unit: Segmenter.WorkUnit, _ rotor: SystemRotor,
    rules: BreakRules?, machine: RuleMachine? = nil
  ) throws(ICUError) -> SegmentStore.Chunk {
    let layout = unit.layout(for: rotor)
    var islands = IslandSegmenter(
      iterator: iterator, bytes: bytes, rotor: rotor, counting: unit.counting, countsWords: unit.countsWords,
      rules: rules, machine: machine)
    if applies(to: rotor, locale: iterator.locale) {
      switch rotor {
      case .words: return try run(AsciiWordSegmenter.self, &islands, bytes, unit, layout)
      default: return try run(AsciiGraphemeSegmenter.self, &islands, bytes, unit, layout)
      }
    }
    var chunk = SegmentStore.Chunk(origin: unit.spans[0].lowerBound, layout: layout)
    chunk.reserveCapacity(forTextBytes: unit.byteCount)
    try bytes.withUnsafeBytes { (text: UnsafeBufferPointer<UInt8>) throws(ICUError) in
      for span in unit.spans { try islands.segment(text, span, into: &chunk) }
    }
    return chunk
  }

  private static func run<S: AsciiSegmenter>(
    _: S.Type, _ islands: inout IslandSegmenter, _ bytes: ByteStorage, _ unit: Segmenter.WorkUnit,
    _ layout: SegmentStore.Chunk.Layout
  ) throws(ICUError) -> SegmentStore.Chunk {
    var chunk = SegmentStore.Chunk(origin: unit.spans[0].lowerBound, layout: layout)
    chunk.reserveCapacity(forTextBytes: unit.byteCount)
    try bytes.withUnsafeBytes { (text: UnsafeBufferPointer<UInt8>) throws(ICUError) in
      for span in unit.spans {
        var position = span.lowerBound
        for island in Islands<S>(text, span: span) {
          S.segment(text, position..<island.lowerBound, into: &chunk)
          try islands.segment(text, island, into: &chunk)
          position = island.upperBound
        }
        S.segment(text, position..<span.upperBound, into: &chunk)
      }
    }
    return chunk
  }
}

/// A native segmenter of pure-ASCII text between safe points.
protocol AsciiSegmenter {
  /// Whether segments carry ICU rule statuses (words).
  static var hasStatus: Bool { get }
  /// The last safe point in `floor...limit`, where `text[limit]` is the first non-ASCII byte after
  /// `floor` (a safe point or a span start) and everything before it in the range is ASCII.
  static func lastSafePoint(_ text: UnsafeBufferPointer<UInt8>, floor: Int, limit: Int) -> Int
  /// The first safe point after `offset` (a non-ASCII byte's offset), or `end`.
  static func nextSafePoint(_ text: UnsafeBufferPointer<UInt8>, after offset: Int, end: Int) -> Int
  /// Appends ICU's segments of `range` (pure ASCII, between safe points or span ends).
  static func segment(_ text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, into chunk: inout SegmentStore.Chunk)
}

extension Segmenter {
  /// Whether `.words` and `.characters` use the native ASCII fast path (identical output, see
  /// `FastPath`) when the locale allows it. Defaults to true unless `TEXTROTOR_NO_FAST_PATH` is set.
  public static var fastPathsByDefault: Bool { FastPath.enabledByDefault }
}
