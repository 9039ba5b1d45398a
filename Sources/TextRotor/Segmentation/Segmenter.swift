import Dispatch
import Synchronization
import TextRotorICU

/// Computes system rotors over UTF-8 bytes: ICU break iterators run directly on the bytes
/// (`utext_openUTF8`), so every boundary is a byte offset. Elements longer than ``pieceSize`` are
/// cut after hard line breaks, which every UAX #29 and UAX #14 segmenter treats as a boundary
/// (WB3a/b, SB4, GB4/5, LB4/5), so the pieces can be segmented independently and in parallel with
/// the same result.
public struct Segmenter: Sendable {
  public var locale: String
  /// Threads to use; 1 segments on the calling thread (less than 1 is taken as 1).
  public var threads: Int {
    didSet { if threads < 1 { threads = 1 } }
  }
  /// Target bytes per independently segmented piece (less than 1 is taken as 1: a piece that
  /// ended before it started never ended).
  public var pieceSize: Int {
    didSet { if pieceSize < 1 { pieceSize = 1 } }
  }
  /// Called after each piece with the bytes segmented so far and the total (from any thread).
  public var progress: (@Sendable (_ done: Int, _ total: Int) -> Void)?
  /// Whether words and characters use the native ASCII fast path where the locale allows it (its
  /// output is identical to ICU's; see `FastPath`). Off by default when `TEXTROTOR_NO_FAST_PATH` is set.
  public var useFastPaths: Bool = Segmenter.fastPathsByDefault
  /// Bytes beyond which next/previous do not segment a whole line around the offset, for rotors
  /// with safe points inside lines (words and characters, under locales whose rules for ASCII are
  /// root's; see `FastPath`): a line of gigabytes is then answered from a few bytes around it.
  var narrowing = 1 << 16

  public init(locale: String = "", threads: Int = 1, pieceSize: Int = 1 << 20) {
    self.locale = locale
    self.threads = max(1, threads)
    self.pieceSize = max(1, pieceSize)
  }

  /// A warning when ICU has no data for `locale` (a misspelt or made-up name): ICU then uses its
  /// root rules, which this says; nil for a locale ICU knows (`""` and `"root"` included).
  public static func localeWarning(_ locale: String) -> String? {
    if BreakIterator.hasLocaleData(locale) { return nil }
    let shown = locale.count > 40 ? String(locale.prefix(40)) + "…" : locale
    return "ICU has no data for the locale '\(shown)'; its root (language-independent) rules are used"
  }

  /// The number of cores of this machine.
  public static var availableCores: Int { Int(sysconfCores()) }

  /// Starts loading `rotor`'s break rules for `locale` (ICU's iterator and the native machine's
  /// tables) on another thread, and returns at once: a command that knows what it will segment
  /// calls this before it parses the rest of its arguments and maps its files, so that the load
  /// (1-2 ms) runs on a core that is idle then instead of between reading a file and segmenting
  /// it. The segmenter then finds them loaded (or waits for the load under way); the entries are
  /// the same either way.
  public static func prepare(_ rotor: SystemRotor, locale: String) {
    guard let kind = rotor.breakKind else { return }
    DispatchQueue.global().async {
      _ = IteratorCache.shared.rules(kind, locale: locale)
    }
  }

  /// Segments `elements` (byte ranges of `bytes`, sorted and disjoint) into `rotor`'s entries.
  /// For `lines`, an empty element among several is one empty line, as in a document.
  public func segment(_ bytes: ByteStorage, elements: [Range<Int>], rotor: SystemRotor) throws(ICUError)
    -> SegmentStore
  {
    try segment(bytes, elements: elements, rotor: rotor, counting: false)
  }

  /// The number of `rotor`'s entries in `elements`, and how many of them are words (ICU's status
  /// letters, numbers, kana or ideographs), without storing the entries: faster, and no memory
  /// for an index. With `words: false` the second number is 0 and ICU is not asked for rule
  /// statuses (as a plain `ubrk_next` loop does not).
  public func count(_ bytes: ByteStorage, elements: [Range<Int>], rotor: SystemRotor, words: Bool = true)
    throws(ICUError) -> (entries: Int, words: Int)
  {
    let store = try segment(
      bytes, elements: elements, rotor: rotor, counting: true, countingWords: words, checkingUTF8: false
    ).store
    return (store.count, words ? store.wordCount : 0)
  }

  /// ``count(_:elements:rotor:words:)`` that also checks the elements for ill-formed UTF-8, piece by
  /// piece, each piece just before the thread that segments it reads it: no separate pass over the
  /// text, and no separate parallel phase (with its wait for the slowest thread) before the
  /// segmentation. `firstInvalidUTF8` is the first offset in the elements (in order) where
  /// ``ByteStorage/firstInvalidUTF8(in:)`` finds ill-formed UTF-8, or nil.
  ///
  /// With `lastRead`, the caller reads these bytes no more: each piece's pages of a mapped file
  /// are handed back to the system (`MADV_DONTNEED`) by the thread that counted them, so that the
  /// mapping's teardown, one serial step of a few milliseconds per 100 MB when the file is
  /// unmapped, is done in parallel as the work goes. The bytes stay readable (from the page cache).
  public func count(
    _ bytes: ByteStorage, elements: [Range<Int>], rotor: SystemRotor, words: Bool = true, checkingUTF8: Bool,
    lastRead: Bool = false
  ) throws(ICUError) -> (entries: Int, words: Int, firstInvalidUTF8: Int?) {
    let (store, invalid) = try segment(
      bytes, elements: elements, rotor: rotor, counting: true, countingWords: words, checkingUTF8: checkingUTF8,
      lastRead: lastRead)
    return (store.count, words ? store.wordCount : 0, invalid)
  }

  /// ``segment(_:elements:rotor:)`` that also checks the elements for ill-formed UTF-8 as
  /// ``count(_:elements:rotor:words:checkingUTF8:lastRead:)`` does.
  public func segment(_ bytes: ByteStorage, elements: [Range<Int>], rotor: SystemRotor, checkingUTF8: Bool)
    throws(ICUError) -> (store: SegmentStore, firstInvalidUTF8: Int?)
  {
    let (store, invalid) = try segment(
      bytes, elements: elements, rotor: rotor, counting: false, checkingUTF8: checkingUTF8)
    return (store, invalid)
  }

  private func segment(
    _ bytes: ByteStorage, elements: [Range<Int>], rotor: SystemRotor, counting: Bool
  ) throws(ICUError) -> SegmentStore {
    try segment(bytes, elements: elements, rotor: rotor, counting: counting, checkingUTF8: false).store
  }

  /// The first offset in `elements` (in order) where the text is not well-formed UTF-8.
  static func firstInvalidUTF8(_ bytes: ByteStorage, elements: [Range<Int>]) -> Int? {
    for element in elements {
      if let bad = bytes.firstInvalidUTF8(in: element) { return bad }
    }
    return nil
  }

  /// Whether a unit's spans hold ill-formed UTF-8 as checked span by span. A span is cut after a
  /// line break, where no sequence continues, except in a line longer than ICU's 32-bit offsets
  /// (see ``cutPoint(_:from:limit:paragraphs:)``): there a span may start or end inside a
  /// character and be reported ill-formed wrongly. So a `true` is checked again over the whole
  /// elements (``firstInvalidUTF8(_:elements:)``); a `false` is exact.
  static func mayHoldInvalidUTF8(_ bytes: ByteStorage, _ unit: WorkUnit) -> Bool {
    unit.spans.contains { bytes.firstInvalidUTF8(in: $0) != nil }
  }

  /// Hands a counted unit's pages back to the system (`lastRead`). (Unit by unit: handing several
  /// units back at once saves TLB flushes of the other cores but costs more than it saves, the
  /// page tables and pages being colder by then: `perf record`, 100 MB English graphemes on two
  /// threads, unmap + flush 3.2 ms per unit, 3.9 ms per MB, 4.5 ms per 4 MB.)
  static func release(_ bytes: ByteStorage, _ unit: WorkUnit) {
    guard let first = unit.spans.first, let last = unit.spans.last else { return }
    bytes.dropMappedPages(in: first.lowerBound..<last.upperBound)
  }

  private func segment(
    _ bytes: ByteStorage, elements: [Range<Int>], rotor: SystemRotor, counting: Bool, countingWords: Bool = true,
    checkingUTF8: Bool, lastRead: Bool = false
  ) throws(ICUError) -> (store: SegmentStore, invalid: Int?) {
    switch rotor {
    case .lines, .paragraphs:
      let invalid = checkingUTF8 ? Self.firstInvalidUTF8(bytes, elements: elements) : nil
      if counting {
        // Counted by the vectorised line-break and paragraph-start kernels, on every thread,
        // with no entry stored (50 MB of line feeds: 1.65 s and 166 MB for an index counted).
        var chunk = SegmentStore.Chunk(origin: elements.first?.lowerBound ?? 0, layout: .counting)
        for element in elements {
          let n =
            rotor == .lines
            ? Self.lineCount(bytes, element, emptyIsLine: elements.count > 1, threads: threads)
            : bytes.paragraphStarts(in: element, threads: threads)
          chunk.addCounted(n, through: Swift.max(chunk.lastEnd, element.upperBound))
        }
        return (SegmentStore(chunks: [chunk]), invalid)
      }
      // Among several elements an empty one is an empty line, as in a document's `lines` rotor
      // (the lines of a file read as elements: a blank line is an empty element).
      let store =
        rotor == .lines
        ? Self.lines(bytes, elements: elements, emptyElementsAreLines: elements.count > 1)
        : Self.paragraphs(bytes, elements: elements)
      return (store, invalid)
    default: break
    }
    let units = workUnits(bytes, elements: elements, paragraphs: rotor.spansLines).map { unit in
      var unit = unit
      unit.counting = counting
      unit.countsWords = countingWords
      return unit
    }
    let kind = rotor.breakKind!
    let prototype = try IteratorCache.shared.iterator(kind, locale: locale)
    let release = lastRead && counting
    var mayBeInvalid = false
    let store: SegmentStore
    if threads == 1 || units.count == 1 {
      let iterator = try prototype.copy()
      var serial = SegmentStore()
      let total = units.reduce(0) { $0 + $1.byteCount }
      var done = 0
      for unit in units {
        let (chunk, invalid) = try Self.run(
          iterator, bytes, unit, rotor, fastPaths: useFastPaths, checkingUTF8: checkingUTF8 && !mayBeInvalid)
        if invalid { mayBeInvalid = true }
        serial.append(chunk)
        if release { Self.release(bytes, unit) }
        done += unit.byteCount
        progress?(done, total)
      }
      store = serial
    } else {
      let workers = min(threads, units.count)
      let results = ParallelResults(count: units.count, workers: workers)
      let total = units.reduce(0) { $0 + $1.byteCount }
      let progress = self.progress
      let fastPaths = useFastPaths
      DispatchQueue.concurrentPerform(iterations: workers) { worker in
        do {
          let iterator = try prototype.copy()
          while let i = results.claim(worker) {
            let (chunk, invalid) = try Self.run(
              iterator, bytes, units[i], rotor, fastPaths: fastPaths, checkingUTF8: checkingUTF8)
            if invalid { results.noteInvalidUTF8() }
            if release { Self.release(bytes, units[i]) }
            let done = results.store(chunk, at: i, bytes: units[i].byteCount)
            progress?(done, total)
          }
        } catch {
          results.fail(error)
        }
      }
      store = try results.store()
      mayBeInvalid = results.mayBeInvalidUTF8
    }
    return (store, mayBeInvalid ? Self.firstInvalidUTF8(bytes, elements: elements) : nil)
  }

  /// A piece of work: text spans segmented one after the other into one chunk.
  struct WorkUnit: Sendable {
    var spans: [Range<Int>]
    /// Whether the unit's chunk only counts (``SegmentStore/Chunk/Layout/counting``).
    var counting = false
    /// Whether a counting unit counts words too (so needs ICU's rule statuses).
    var countsWords = true
    var byteCount: Int { spans.reduce(0) { $0 + $1.count } }

    /// The chunk layout for `rotor`'s segments of this unit: the compact contiguous layouts only
    /// when the spans follow each other with no gap (one element cut into pieces).
    func layout(for rotor: SystemRotor) -> SegmentStore.Chunk.Layout {
      if counting { return .counting }
      for k in spans.indices.dropFirst() where spans[k - 1].upperBound != spans[k].lowerBound { return .general }
      return rotor.chunkLayout
    }
  }

  /// Groups elements (cut at hard line breaks when longer than `pieceSize`) into units of about
  /// `pieceSize` bytes.
  func workUnits(_ bytes: ByteStorage, elements: [Range<Int>], paragraphs: Bool = false) -> [WorkUnit] {
    var units: [WorkUnit] = []
    var current = WorkUnit(spans: [])
    var currentSize = 0
    func flush() {
      if !current.spans.isEmpty { units.append(current) }
      current = WorkUnit(spans: [])
      currentSize = 0
    }
    for element in elements where !element.isEmpty {
      var start = element.lowerBound
      while start < element.upperBound {
        let end = cutPoint(bytes, from: start, limit: element.upperBound, paragraphs: paragraphs)
        current.spans.append(start..<end)
        currentSize += end - start
        if currentSize >= pieceSize { flush() }
        start = end
      }
    }
    flush()
    return units
  }

  /// The end of a piece starting at `start`: just after the first hard line break at or after
  /// `start + pieceSize`, or `limit`. A line longer than ICU's 32-bit offsets is cut after a space
  /// (the documented fallback: a sentence or line-break segment may then be split there).
  /// With `paragraphs`, the cut is after a blank line (a prose sentence may cross line breaks).
  func cutPoint(_ bytes: ByteStorage, from start: Int, limit: Int, paragraphs: Bool = false) -> Int {
    if limit - start <= pieceSize { return limit }
    var cut = LineScanner.nextLineStart(in: bytes, from: start + pieceSize, end: limit)
    if paragraphs {
      for line in LineScanner(bytes, range: cut..<limit) {
        cut = line.next
        if LineScanner.isBlank(bytes, line.content) || cut - start > BreakIterator.maximumTextLength { break }
      }
    }
    if cut - start <= BreakIterator.maximumTextLength { return cut }
    let hardLimit = start + BreakIterator.maximumTextLength
    if let space = bytes.lastIndex(of: 0x20, in: (hardLimit - (1 << 20))..<hardLimit) { return space + 1 }
    return hardLimit - 4  // no space in the last MiB: a cut that may split a character
  }

  static func run(
    _ iterator: BreakIterator, _ bytes: ByteStorage, _ unit: WorkUnit, _ rotor: SystemRotor, fastPaths: Bool = false,
    machine: RuleMachine? = nil
  ) throws(ICUError) -> SegmentStore.Chunk {
    try run(iterator, bytes, unit, rotor, fastPaths: fastPaths, machine: machine, checkingUTF8: false).chunk
  }

  /// ``run(_:_:_:_:fastPaths:machine:)`` that, with `checkingUTF8`, also says whether the unit's
  /// spans may hold ill-formed UTF-8 (as ``mayHoldInvalidUTF8(_:_:)`` does). The check reads what
  /// the segmenter has just read, from the cache, instead of a pass of its own ahead of it that
  /// brings the text from memory: after a native segmenter's unit (about 1 MiB: the shared
  /// cache holds it), and inside ICU's loop after each batch of boundaries (the bytes ICU has just
  /// read, in the core's own cache), so that the ICU path reads the text once, as the ICU C loop
  /// does. (English graphemes, 100 MB: 42.6 → 40.1 ms on one thread, 26.1 → 23.6 ms on two; the
  /// ICU path's sentences 1.011 → 1.007 × the C loop; the check first cost more.)
  static func run(
    _ iterator: BreakIterator, _ bytes: ByteStorage, _ unit: WorkUnit, _ rotor: SystemRotor, fastPaths: Bool = false,
    machine: RuleMachine? = nil, checkingUTF8: Bool
  ) throws(ICUError) -> (chunk: SegmentStore.Chunk, mayBeInvalid: Bool) {
    // Prose sentences run ICU over a copy in which single line breaks are spaces (below).
    if fastPaths, rotor != .proseSentences, let kind = rotor.breakKind {
      let rules = machine?.rules ?? IteratorCache.shared.rules(kind, locale: iterator.locale)
      if rules != nil || FastPath.applies(to: rotor, locale: iterator.locale) {
        let chunk = try FastPath.run(iterator, bytes, unit, rotor, rules: rules, machine: machine)
        return (chunk, checkingUTF8 && mayHoldInvalidUTF8(bytes, unit))
      }
    }
    if fastPaths, rotor == .proseSentences, let rules = IteratorCache.shared.rules(.sentence, locale: iterator.locale) {
      let invalid = checkingUTF8 && mayHoldInvalidUTF8(bytes, unit)
      return (try proseSentences(iterator, bytes, unit, rules: rules), invalid)
    }
    // ICU's own loop. `checked`: the bytes of the span before it are checked (ICU's boundaries
    // are character boundaries, so a check cut there cuts no well-formed sequence).
    var invalid = false
    var checked = 0
    func check(to end: Int) {
      if checkingUTF8 && !invalid && end > checked {
        invalid = bytes.firstInvalidUTF8(in: checked..<end) != nil
        checked = end
      }
    }
    var chunk = SegmentStore.Chunk(origin: unit.spans[0].lowerBound, layout: unit.layout(for: rotor))
    chunk.reserveCapacity(forTextBytes: unit.byteCount)
    // Counting needs a status only to count words; line-break segments keep theirs when stored.
    let withStatus =
      (rotor == .words && (!unit.counting || unit.countsWords)) || (rotor == .linebreaks && !unit.counting)
    // A batch no larger than the unit can fill (a window of one line allocates little).
    var batch = BoundaryBatch(capacity: min(4096, unit.byteCount + 2), wantsStatus: withStatus)
    for span in unit.spans {
      if rotor == .proseSentences {
        // ICU reads a copy in which single line breaks are spaces; offsets are the same.
        try iterator.setText(bytes.proseCopy(span), range: 0..<span.count)
      } else {
        try iterator.setText(bytes, range: span)
      }
      var previous = span.lowerBound
      let base = span.lowerBound
      checked = span.lowerBound
      while iterator.nextBatch(&batch) {
        check(to: base + Int(batch.offsets[batch.count - 1]))
        if unit.counting && !withStatus {
          previous = base + Int(batch.offsets[batch.count - 1])
          chunk.addCounted(batch.count, through: previous)
          continue
        }
        for k in 0..<batch.count {
          let end = base + Int(batch.offsets[k])
          let status: SegmentStatus
          if !withStatus {
            status = .none
          } else if rotor == .words {
            status = SegmentStatus(icuWordStatus: Int(batch.statuses[k]))
          } else {
            status = batch.statuses[k] >= 100 ? .hardBreak : .none
          }
          chunk.append(start: previous, end: end, status: status)
          previous = end
        }
      }
      check(to: span.upperBound)
    }
    return (chunk, invalid)
  }

  /// Prose sentences with the native rule machine: each span's copy in which single line breaks are
  /// spaces (the same offsets) is segmented as sentences, and the entries are moved back into place.
  private static func proseSentences(
    _ iterator: BreakIterator, _ bytes: ByteStorage, _ unit: WorkUnit, rules: BreakRules
  ) throws(ICUError) -> SegmentStore.Chunk {
    var chunk = SegmentStore.Chunk(origin: unit.spans[0].lowerBound, layout: unit.layout(for: .proseSentences))
    for span in unit.spans where !span.isEmpty {
      var local = WorkUnit(spans: [0..<span.count])
      local.counting = unit.counting
      let part = try FastPath.run(iterator, bytes.proseCopy(span), local, .sentences, rules: rules)
      if unit.counting {
        chunk.addCounted(part.count, through: span.lowerBound + part.lastEnd)
        continue
      }
      let base = span.lowerBound
      _ = part.forEach(from: 0, to: part.count) { s in
        chunk.append(start: s.start + base, end: s.end + base)
        return true
      }
    }
    return chunk
  }

  /// The `lines` rotor's entries of `elements`. With `emptyElementsAreLines`, an empty element is
  /// one empty line (among several elements, the lines of a file read as elements, a blank line
  /// is an empty element), as ``FileNavigation`` counts it.
  static func lines(_ bytes: ByteStorage, elements: [Range<Int>], emptyElementsAreLines: Bool = false)
    -> SegmentStore
  {
    var store = SegmentStore()
    var chunk = SegmentStore.Chunk(origin: elements.first?.lowerBound ?? 0)
    for element in elements {
      if element.isEmpty && emptyElementsAreLines {
        chunk.append(start: element.lowerBound, end: element.lowerBound)
        continue
      }
      for line in LineScanner(bytes, range: element) {
        chunk.append(start: line.content.lowerBound, end: line.content.upperBound)
        if chunk.count >= 1 << 16 {
          store.append(chunk)
          chunk = SegmentStore.Chunk(origin: chunk.lastEnd)
        }
      }
    }
    store.append(chunk)
    return store
  }

  /// The entries ``lines(_:elements:emptyElementsAreLines:)`` finds in `element`: a line a hard
  /// line break, and one more when the element does not end with a terminator (nothing follows a
  /// final one); an empty element is one empty line when `emptyIsLine`, else none.
  static func lineCount(_ bytes: ByteStorage, _ element: Range<Int>, emptyIsLine: Bool, threads: Int) -> Int {
    guard let last = element.last else { return emptyIsLine ? 1 : 0 }
    let breaks = bytes.lineBreaks(in: element, threads: threads)
    return bytes[last] == 0x0A || bytes[last] == 0x0D ? breaks : breaks + 1
  }

  static func paragraphs(_ bytes: ByteStorage, elements: [Range<Int>]) -> SegmentStore {
    var chunk = SegmentStore.Chunk(origin: elements.first?.lowerBound ?? 0)
    for element in elements {
      for p in ElementKind.paragraphs(in: bytes, range: element) {
        chunk.append(start: p.lowerBound, end: p.upperBound)
      }
    }
    return SegmentStore(chunks: [chunk])
  }
}

/// Opened break iterators, one per (kind, locale), kept as prototypes to clone: opening one loads
/// and compiles ICU's rules, cloning copies them.
final class IteratorCache: Sendable {
  static let shared = IteratorCache()
  private struct Key: Equatable {
    var kind: BreakKind
    var locale: String
  }
  // Arrays searched in order (a process opens one or two), not dictionaries: a dictionary's
  // storage type is made by the Swift runtime at its first use, with a search of every protocol
  // conformance in the binary for `Key: Hashable` (300,000 instructions, callgrind, of the load
  // that the first segmentation of every run waits for).
  private struct Opened {
    var key: Key
    var iterator: BreakIterator
  }
  private struct Loaded {
    var key: Key
    var rules: BreakRules?
  }
  private let prototypes = Mutex<[Opened]>([])

  /// A prototype; callers use `copy()` of it, never the prototype itself.
  func iterator(_ kind: BreakKind, locale: String) throws(ICUError) -> Prototype {
    let key = Key(kind: kind, locale: locale)
    let found: BreakIterator? = prototypes.withLock { $0.first { $0.key == key }?.iterator }
    if let found { return Prototype(iterator: found, lock: self) }
    // One load at a time: a second caller (a worker, or the command after `Segmenter.prepare`)
    // waits for the load under way instead of doing it again beside it.
    return try openLock.withLock { _ throws(ICUError) in
      if let found = prototypes.withLock({ $0.first { $0.key == key }?.iterator }) {
        return Prototype(iterator: found, lock: self)
      }
      let opened = try BreakIterator(kind, locale: locale)
      prototypes.withLock { $0.append(Opened(key: key, iterator: opened)) }
      return Prototype(iterator: opened, lock: self)
    }
  }

  private let openLock = Mutex<Void>(())
  private let rulesLock = Mutex<Void>(())

  private let cloneLock = Mutex<Void>(())

  private let loadedRules = Mutex<[Loaded]>([])

  /// The compiled rules of (kind, locale) for the native rule machine, read from ICU once; nil when
  /// ICU's rules cannot be run natively (then ICU segments everything).
  func rules(_ kind: BreakKind, locale: String) -> BreakRules? {
    let key = Key(kind: kind, locale: locale)
    if let found = loadedRules.withLock({ $0.first { $0.key == key } }) { return found.rules }
    let prototype = try? iterator(kind, locale: locale)
    return rulesLock.withLock { _ in
      if let found = loadedRules.withLock({ $0.first { $0.key == key } }) { return found.rules }
      let loaded = prototype.flatMap { prototype in
        prototype.lock.cloneLock.withLock { _ in BreakRules.load(from: prototype.iterator) }
      }
      loadedRules.withLock { $0.append(Loaded(key: key, rules: loaded)) }
      return loaded
    }
  }

  struct Prototype: Sendable {
    let iterator: BreakIterator
    let lock: IteratorCache
    func copy() throws(ICUError) -> BreakIterator {
      try lock.cloneLock.withLock { _ throws(ICUError) in try iterator.copy() }
    }
  }
}

/// Results of parallel segmentation, filled in by the workers.
///
/// Each worker takes the units of its own contiguous share in order, and when its share is done,
/// the last unit of the share with the most units left: so the workers read parts of the text far
/// apart (a mapped file's page faults of two threads then seldom meet on the lock of one page
/// table, which covers 2 MB) until the very end.
final class ParallelResults: Sendable {
  private struct State {
    var chunks: [SegmentStore.Chunk?]
    /// Worker k's share is `next[k]..<end[k]`.
    var next: [Int]
    var end: [Int]
    var bytesDone = 0
    var error: ICUError?
    var mayBeInvalidUTF8 = false
  }
  private let state: Mutex<State>

  init(count: Int, workers: Int) {
    let workers = max(1, workers)
    let bounds = (0...workers).map { count * $0 / workers }
    state = Mutex(
      State(
        chunks: Array(repeating: nil, count: count), next: Array(bounds.dropLast()), end: Array(bounds.dropFirst())))
  }

  /// The next unit for `worker`, or nil when every unit is taken (or one failed).
  func claim(_ worker: Int) -> Int? {
    state.withLock { s in
      guard s.error == nil else { return nil }
      if s.next[worker] < s.end[worker] {
        defer { s.next[worker] += 1 }
        return s.next[worker]
      }
      var most = 0
      var from = -1
      for k in s.next.indices where s.end[k] - s.next[k] > most {
        most = s.end[k] - s.next[k]
        from = k
      }
      guard from >= 0 else { return nil }
      s.end[from] -= 1
      return s.end[from]
    }
  }

  /// Stores a finished chunk; returns the bytes done so far.
  func store(_ chunk: SegmentStore.Chunk, at i: Int, bytes: Int) -> Int {
    state.withLock {
      $0.chunks[i] = chunk
      $0.bytesDone += bytes
      return $0.bytesDone
    }
  }
  func noteInvalidUTF8() { state.withLock { $0.mayBeInvalidUTF8 = true } }
  var mayBeInvalidUTF8: Bool { state.withLock { $0.mayBeInvalidUTF8 } }

  func fail(_ error: any Error) {
    state.withLock { s in
      if s.error == nil { s.error = (error as? ICUError) ?? ICUError.unknown }
    }
  }

  func store() throws(ICUError) -> SegmentStore {
    let s = state.withLock { s in (s.chunks, s.error) }
    if let e = s.1 { throw e }
    return SegmentStore(chunks: s.0.map { $0! })
  }
}

/// Segments the small windows that edits re-segment, on the calling thread, with break iterators
/// it keeps (cloning an ICU iterator costs more than segmenting a line). One per document; not
/// thread-safe, as a document is not.
final class WindowSegmenter {
  let segmenter: Segmenter
  private var iterators: [SystemRotor: BreakIterator] = [:]
  private var machines: [SystemRotor: RuleMachine?] = [:]

  init(_ segmenter: Segmenter) { self.segmenter = segmenter }

  /// The native rule machine of `rotor`, kept across edits; nil for prose sentences, for rules
  /// ICU must run itself, and when the segmenter does not use fast paths.
  func machine(_ rotor: SystemRotor) -> RuleMachine? {
    guard segmenter.useFastPaths, rotor != .proseSentences, let kind = rotor.breakKind else { return nil }
    if let known = machines[rotor] { return known }
    let made = IteratorCache.shared.rules(kind, locale: segmenter.locale).map(RuleMachine.init)
    machines[rotor] = made
    return made
  }

  /// `rotor`'s entries in `range` of `bytes` (one element's window).
  func segment(_ bytes: ByteStorage, _ range: Range<Int>, rotor: SystemRotor) throws(ICUError) -> SegmentStore {
    guard let kind = rotor.breakKind, !range.isEmpty else {
      return try segmenter.segment(bytes, elements: [range], rotor: rotor)
    }
    let iterator: BreakIterator
    if let cached = iterators[rotor] {
      iterator = cached
    } else {
      iterator = try IteratorCache.shared.iterator(kind, locale: segmenter.locale).copy()
      iterators[rotor] = iterator
    }
    var store = SegmentStore()
    for unit in segmenter.workUnits(bytes, elements: [range], paragraphs: rotor.spansLines) {
      store.append(
        try Segmenter.run(iterator, bytes, unit, rotor, fastPaths: segmenter.useFastPaths, machine: machine(rotor)))
    }
    return store
  }
}
