import CTextRotorShim
import Glibc

/// The compiled rules of one ICU break iterator (its kind and locale), read from the installed ICU
/// at first use (`ubrk_getBinaryRules`): the forward state table, the character-category trie and
/// the rule status table. Nothing is hard-coded: a newer ICU brings its own rules, Unicode data and
/// tailorings (a locale's rules, the root locale's colon, UAX #14 tailorings) with it.
///
/// ``RuleMachine`` runs these tables over UTF-8 exactly as ICU's `RuleBasedBreakIterator::handleNext`
/// does over its UText (ill-formed UTF-8 read as U+FFFD, as ICU's UTF-8 text reads it), so its
/// boundaries and rule statuses are ICU's; it declines (returns nil) where ICU would do more than
/// run the table: characters of a dictionary category that one of ICU's language break engines
/// handles (Thai, Lao, Khmer, Burmese, Chinese and Japanese words, Southeast Asian line breaks).
/// Those spans go to ICU itself. Hangul syllables are of a dictionary category of the word rules,
/// but ICU 72 has no Korean dictionary, so ICU keeps its rules' segments there, and so does the
/// machine (see `init`).
///
/// Only ICU's RBBI data format 6 (ICU 68 and later) is read; any other format, or an iterator that
/// is not rule-based (a locale whose sentence iterator filters abbreviations), gives no tables
/// (`load` returns nil), and ICU segments everything.
public final class BreakRules: @unchecked Sendable {
  public let kind: BreakKind
  public let locale: String
  /// Categories per state row.
  @usableFromInline let categoryCount: Int
  /// Rows of the state table (state 0 is the stop state, 1 the start state).
  @usableFromInline let stateCount: Int
  /// The first dictionary category that an ICU engine handles (after the renumbering of `init`): a
  /// character of this category or above needs ICU.
  @usableFromInline let dictionaryStart: UInt16
  /// ICU's own first dictionary category (before the renumbering): categories from here up to
  /// ``dictionaryStart`` are those no ICU engine handles (Hangul in ICU 72).
  @usableFromInline let icuDictionaryStart: UInt16
  /// Whether every iteration starts with one step on the {bof} category (ICU's RBBI_BOF_REQUIRED:
  /// ICU takes that step at the start of each `next`, not only at the start of the text).
  @usableFromInline let bofRequired: Bool
  /// `next[state * categoryCount + category]`: the state table, rows widened to 16 bits.
  @usableFromInline let next: UnsafeMutablePointer<UInt16>
  /// Per state: 0, 1 (accepting) or a look-ahead rule completed.
  @usableFromInline let accepting: UnsafeMutablePointer<UInt16>
  /// Per state: 0 or the look-ahead rule whose '/' position this state is.
  @usableFromInline let lookAhead: UnsafeMutablePointer<UInt16>
  /// Per state: ICU's `getRuleStatus()` value for the state's tag set.
  @usableFromInline let status: UnsafeMutablePointer<Int32>
  /// The status of a segment the machine forced one character ahead (ICU's tag set 0).
  @usableFromInline let defaultStatus: Int32
  /// Slots of the look-ahead results array.
  @usableFromInline let lookAheadSlots: Int
  /// Categories of U+0000...U+FFFF; supplementary code points ask the trie.
  @usableFromInline let bmp: UnsafeMutablePointer<UInt16>
  @usableFromInline let trie: OpaquePointer
  /// `asciiNext[state * 128 + byte]`: the next state on an ASCII byte (its category looked up
  /// already), for the machine's inner loop over ASCII runs.
  @usableFromInline let asciiNext: UnsafeMutablePointer<UInt16>
  /// Per state: bit 0 accepting (1), bit 1 anything else to do (a look-ahead rule completed or
  /// recorded), which the inner loop leaves to the general step, bit 2 the stop state (the
  /// iteration ends there, nothing recorded).
  @usableFromInline let flags: UnsafeMutablePointer<UInt8>
  /// Whether no ASCII character is of a dictionary category (so the inner loop may run).
  @usableFromInline let asciiLoop: Bool
  /// Per category: the state the machine is in after the first character of a segment, when
  /// that state only accepts (no look-ahead rule, nothing else to do), else `0xFFFF`. Then a
  /// second character whose category leads from it to the stop state ends the segment after the
  /// first: the pair step of ``RuleMachine/run(_:from:end:)``, no general step needed.
  @usableFromInline let firstState: UnsafeMutablePointer<UInt16>
  /// Per category: that state's row in ``next`` (`state * categoryCount`), or -1 ...
  @usableFromInline let firstRow: UnsafeMutablePointer<Int32>
  /// ... and its rule status.
  @usableFromInline let firstStatus: UnsafeMutablePointer<Int32>
  /// ICU's category numbers (the trie's values) to the machine's (see `init`).
  @usableFromInline let permutation: UnsafeMutablePointer<UInt16>
  /// Per state whose ``flags`` have bit 3 (8): the run scan of ``RuleMachine`` (see
  /// `makeRunScans`). `runBytes[state]`: the bytes where a run of characters that keep the machine
  /// in the state's class may end; `runTargets[state * categoryCount + category]`: the state of the
  /// class a character of that category leads to from any state of the class, or `0xFFFF`.
  @usableFromInline let runBytes: UnsafeMutablePointer<cicu_byteset>?
  @usableFromInline let runTargets: UnsafeMutablePointer<UInt16>?
  /// ICU's binary rules, which the trie reads in place.
  private var data: UnsafeMutableRawPointer?

  private init?(kind: BreakKind, locale: String, data: UnsafeRawBufferPointer) {
    func u32(_ offset: Int) -> Int? {
      guard offset >= 0, offset + 4 <= data.count else { return nil }
      return Int(data.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }
    // RBBIDataHeader: magic, format version[4], length, category count, forward table offset and
    // length, reverse table, trie offset and length, rule source, status table offset and length.
    guard u32(0) == 0xB1A0, data.count >= 80, data[4] == 6 else { return nil }
    guard let categories = u32(12), let forward = u32(16), let trieOffset = u32(32), let trieLength = u32(36),
      let statusOffset = u32(48), let statusLength = u32(52), categories > 3
    else { return nil }
    // RBBIStateTable: states, row length (bytes), first dictionary category, look-ahead slots, flags.
    guard let states = u32(forward), let rowLength = u32(forward + 4), let dictionary = u32(forward + 8),
      let slots = u32(forward + 12), let flags = u32(forward + 16)
    else { return nil }
    let bofRequired = flags & 2 != 0
    let eightBits = flags & 4 != 0
    let width = eightBits ? 1 : 2
    let rows = forward + 20
    guard rowLength == width * (3 + categories), rows + states * rowLength <= data.count,
      statusOffset + statusLength <= data.count, trieOffset + trieLength <= data.count, states > 1
    else { return nil }
    func cell(_ state: Int, _ column: Int) -> Int {
      let at = rows + state * rowLength + column * width
      return eightBits ? Int(data[at]) : Int(data.loadUnaligned(fromByteOffset: at, as: UInt16.self))
    }
    let statusCount = statusLength / 4
    func statusValue(_ index: Int) -> Int32? {
      guard index >= 0, index < statusCount else { return nil }
      let count = Int(data.loadUnaligned(fromByteOffset: statusOffset + 4 * index, as: Int32.self))
      let last = index + count
      guard count >= 1, last < statusCount else { return nil }
      return data.loadUnaligned(fromByteOffset: statusOffset + 4 * last, as: Int32.self)
    }
    guard let fallbackStatus = statusValue(0) else { return nil }

    var trieStatus = CICU_ZERO_ERROR
    guard let trie = cicu_trie_open(data.baseAddress! + trieOffset, Int32(trieLength), &trieStatus),
      cicu_isFailure(trieStatus) == 0
    else { return nil }

    let next = UnsafeMutablePointer<UInt16>.allocate(capacity: states * categories)
    let accepting = UnsafeMutablePointer<UInt16>.allocate(capacity: states)
    let lookAhead = UnsafeMutablePointer<UInt16>.allocate(capacity: states)
    let status = UnsafeMutablePointer<Int32>.allocate(capacity: states)
    var valid = true
    for state in 0..<states {
      accepting[state] = UInt16(cell(state, 0))
      lookAhead[state] = UInt16(cell(state, 1))
      if let value = statusValue(cell(state, 2)) { status[state] = value } else { valid = false }
      if Int(accepting[state]) >= max(slots, 2) || Int(lookAhead[state]) >= max(slots, 2) { valid = false }
      for category in 0..<categories {
        let target = cell(state, 3 + category)
        if target >= states { valid = false }
        next[state * categories + category] = UInt16(target)
      }
    }
    let bmp = UnsafeMutablePointer<UInt16>.allocate(capacity: 0x10000)
    if Int(cicu_trie_fill(trie, bmp, 0x10000)) >= categories { valid = false }
    let permutation = UnsafeMutablePointer<UInt16>.allocate(capacity: categories)
    guard valid else {
      next.deallocate()
      accepting.deallocate()
      lookAhead.deallocate()
      status.deallocate()
      bmp.deallocate()
      permutation.deallocate()
      cicu_trie_close(trie)
      return nil
    }
    // Dictionary categories whose characters no ICU language break engine handles (Hangul in
    // ICU 72: no Korean dictionary) are renumbered below the first dictionary category, so the
    // machine runs over them: ICU's rules' segments stand there (see
    // `cicu_trie_unhandled_categories`). Columns of the table and the categories of characters
    // are renumbered alike.
    var dictionaryStart = min(dictionary, categories)
    for k in 0..<categories { permutation[k] = UInt16(k) }
    if dictionaryStart < categories {
      var unhandled = [UInt8](repeating: 0, count: categories - dictionaryStart)
      cicu_trie_unhandled_categories(trie, Int32(dictionaryStart), Int32(categories), &unhandled)
      let moved = (dictionaryStart..<categories).filter { unhandled[$0 - dictionaryStart] != 0 }
      let kept = (dictionaryStart..<categories).filter { unhandled[$0 - dictionaryStart] == 0 }
      for (n, k) in (moved + kept).enumerated() { permutation[k] = UInt16(dictionaryStart + n) }
      dictionaryStart += moved.count
      if !moved.isEmpty {
        var copy = [UInt16](repeating: 0, count: categories)
        for state in 0..<states {
          for k in 0..<categories { copy[Int(permutation[k])] = next[state * categories + k] }
          for k in 0..<categories { next[state * categories + k] = copy[k] }
        }
        for c in 0..<0x10000 { bmp[c] = permutation[Int(bmp[c])] }
      }
    }
    self.permutation = permutation
    self.kind = kind
    self.locale = locale
    self.categoryCount = categories
    self.stateCount = states
    self.dictionaryStart = UInt16(clamping: dictionaryStart)
    self.icuDictionaryStart = UInt16(clamping: min(dictionary, categories))
    self.bofRequired = bofRequired
    self.next = next
    self.accepting = accepting
    self.lookAhead = lookAhead
    self.status = status
    self.defaultStatus = fallbackStatus
    self.lookAheadSlots = max(slots, 2)
    self.bmp = bmp
    self.trie = trie
    let asciiNext = UnsafeMutablePointer<UInt16>.allocate(capacity: states * 128)
    let stateFlags = UnsafeMutablePointer<UInt8>.allocate(capacity: states)
    for state in 0..<states {
      for byte in 0..<128 { asciiNext[state * 128 + byte] = next[state * categories + Int(bmp[byte])] }
      let special = accepting[state] > 1 || lookAhead[state] > 1
      // The stop state (row 0, all zeros in ICU's tables) ends the iteration: nothing to record.
      let stop = state == 0 && !special && accepting[state] == 0
      stateFlags[state] = stop ? 4 : (accepting[state] == 1 ? 1 : 0) | (special || state == 0 ? 2 : 0)
    }
    self.asciiNext = asciiNext
    self.flags = stateFlags
    self.asciiLoop = (0..<128).allSatisfy { Int(bmp[$0]) < dictionaryStart }
    // The pair step needs a plain start: the {bof} step (when required) into a state with
    // nothing to do, and a stop state that records nothing.
    let firstState = UnsafeMutablePointer<UInt16>.allocate(capacity: categories)
    firstState.initialize(repeating: 0xFFFF, count: categories)
    let begin = bofRequired ? next[1 * categories + 2] : 1
    if stateFlags[0] == 4 && stateFlags[Int(begin)] & 6 == 0 && begin != 0 {
      for category in 3..<dictionaryStart {
        let state = next[Int(begin) * categories + category]
        if state != 0 && stateFlags[Int(state)] == 1 { firstState[category] = state }
      }
    }
    self.firstState = firstState
    let firstRow = UnsafeMutablePointer<Int32>.allocate(capacity: categories)
    let firstStatus = UnsafeMutablePointer<Int32>.allocate(capacity: categories)
    for category in 0..<categories {
      let state = Int(firstState[category])
      firstRow[category] = state == 0xFFFF ? -1 : Int32(state * categories)
      firstStatus[category] = state == 0xFFFF ? 0 : status[state]
    }
    self.firstRow = firstRow
    self.firstStatus = firstStatus
    // After the pair step's states are chosen (they compare flags with 1), so bit 3 changes none.
    if kind == .sentence,
      let scans = Self.makeRunScans(
        next: next, flags: stateFlags, status: status, bmp: bmp, states: states, categories: categories,
        dictionaryStart: dictionaryStart)
    {
      runBytes = scans.bytes
      runTargets = scans.targets
    } else {
      runBytes = nil
      runTargets = nil
    }
  }

  /// The run scans of the states that have one (their ``flags`` get bit 3), or nil when none has.
  ///
  /// A state's *class* is a set of states S and a set of categories K such that a character of a
  /// category k in K leads from every state of S to one same state of S, and every state of S has
  /// the same flags (nothing to do but accept, or not) and status: while the machine reads
  /// characters of K it stays in S, accepting (or not) at each, and the state it ends in is the
  /// target of the last character's category. So a run of such characters can be skipped whole: a
  /// byte scan (SIMD) finds where it may end, and the state is that of the run's last character.
  /// The class is grown greedily from the state: the state reached by another category is added when
  /// the categories of the larger class cover more code points (the sentence rules' "in a
  /// sentence" states after a letter and after anything else: letters, digits, spaces,
  /// punctuation that ends nothing and ideographs are one run).
  ///
  /// The bytes where a run may end: ASCII bytes of a category outside K, lead bytes of 2- and
  /// 3-byte sequences of which some code point is outside K, and every 4-byte lead; never a
  /// continuation byte, so a run ends on a character boundary. Ill-formed sequences read as U+FFFD,
  /// which must be in K (else no scan).
  static func makeRunScans(
    next: UnsafeMutablePointer<UInt16>, flags: UnsafeMutablePointer<UInt8>, status: UnsafeMutablePointer<Int32>,
    bmp: UnsafeMutablePointer<UInt16>, states: Int, categories: Int, dictionaryStart: Int
  ) -> (bytes: UnsafeMutablePointer<cicu_byteset>, targets: UnsafeMutablePointer<UInt16>)? {
    guard categories <= 64, dictionaryStart > 3 else { return nil }
    // The categories of the code points behind each lead byte (a block of 64 or 4,096 code
    // points, read in runs of one category: this runs at every rules' load), and each category's
    // code points, one in 16 counted (only to compare classes).
    var leadMask = [UInt64](repeating: 0, count: 256)
    var c = 0x80
    while c < 0x10000 {
      let lead = c < 0x800 ? 0xC0 | c >> 6 : 0xE0 | c >> 12
      let blockEnd = c < 0x800 ? (c | 0x3F) + 1 : c < 0xD800 ? min((c | 0xFFF) + 1, 0xD800) : (c | 0xFFF) + 1
      var mask: UInt64 = 0
      var previous = -1
      for x in c..<blockEnd {
        let k = Int(bmp[x])
        if k != previous {
          mask |= 1 &<< UInt64(k)
          previous = k
        }
      }
      leadMask[lead] |= mask
      c = blockEnd == 0xD800 ? 0xE000 : blockEnd
    }
    var weight = [Int](repeating: 0, count: categories)
    for x in stride(from: 0, to: 0x10000, by: 16) { weight[Int(bmp[x])] += 1 }
    let replacement = UInt64(1) << UInt64(bmp[0xFFFD])
    // The categories that lead from every state of `set` to one same state of `set`.
    func covered(_ set: [Int]) -> UInt64 {
      var mask: UInt64 = 0
      for k in 3..<dictionaryStart {
        let t = Int(next[set[0] * categories + k])
        if t != 0, set.contains(t), set.allSatisfy({ Int(next[$0 * categories + k]) == t }) { mask |= 1 << UInt64(k) }
      }
      return mask
    }
    func cover(_ mask: UInt64) -> Int {
      (0..<categories).reduce(0) { mask >> UInt64($1) & 1 != 0 ? $0 + weight[$1] : $0 }
    }
    var bytes: UnsafeMutablePointer<cicu_byteset>?
    var targets: UnsafeMutablePointer<UInt16>?
    for start in 1..<states where flags[start] & 6 == 0 {
      var set = [start]
      var mask = covered(set)
      while true {
        var best: (set: [Int], mask: UInt64)?
        for k in 3..<dictionaryStart where mask >> UInt64(k) & 1 == 0 {
          let t = Int(next[start * categories + k])
          guard t != 0, !set.contains(t), flags[t] & 7 == flags[start] & 7, status[t] == status[start] else {
            continue
          }
          let larger = set + [t]
          let m = covered(larger)
          if cover(m) > cover(best?.mask ?? mask) { best = (larger, m) }
        }
        guard let found = best else { break }
        (set, mask) = (found.set, found.mask)
      }
      // Worth a scan when ASCII letters are in the run (the text a class is for), and possible
      // when U+FFFD is.
      let letters = (0x41...0x7A).filter { mask >> UInt64(bmp[$0]) & 1 != 0 }.count
      guard mask & replacement != 0, letters >= 40 else { continue }
      if bytes == nil {
        bytes = .allocate(capacity: states)
        targets = .allocate(capacity: states * categories)
        targets!.initialize(repeating: 0xFFFF, count: states * categories)
      }
      var scan = cicu_byteset()
      withUnsafeMutableBytes(of: &scan.member) { member in
        for b in 0..<256 {
          let ends: Bool
          switch b {
          case 0..<0x80: ends = mask >> UInt64(bmp[b]) & 1 == 0
          case 0x80..<0xC2: ends = false  // continuation bytes and C0, C1 (U+FFFD)
          case 0xC2..<0xF0: ends = leadMask[b] & ~mask != 0
          case 0xF0..<0xF5: ends = true
          default: ends = false  // U+FFFD
          }
          member[b] = ends ? 1 : 0
        }
      }
      cicu_byteset_prepare(&scan)
      bytes![start] = scan
      for k in 3..<dictionaryStart where mask >> UInt64(k) & 1 != 0 {
        targets![start * categories + k] = next[set[0] * categories + k]
      }
      flags[start] |= 8
    }
    guard let bytes, let targets else { return nil }
    return (bytes, targets)
  }

  deinit {
    next.deallocate()
    accepting.deallocate()
    lookAhead.deallocate()
    status.deallocate()
    bmp.deallocate()
    asciiNext.deallocate()
    flags.deallocate()
    firstState.deallocate()
    firstRow.deallocate()
    firstStatus.deallocate()
    permutation.deallocate()
    runBytes?.deallocate()
    runTargets?.deallocate()
    cicu_trie_close(trie)
    free(data)
  }

  /// The rules of `iterator` (its kind and locale), or nil when they cannot be run natively (see
  /// the type's documentation).
  public static func load(from iterator: BreakIterator) -> BreakRules? {
    var length: Int32 = 0
    var status = CICU_ZERO_ERROR
    guard let copy = iterator.withHandle({ cicu_ubrk_copyBinaryRules($0, &length, &status) }) else { return nil }
    guard cicu_isFailure(status) == 0,
      let rules = BreakRules(
        kind: iterator.kind, locale: iterator.locale, data: UnsafeRawBufferPointer(start: copy, count: Int(length)))
    else {
      free(copy)
      return nil
    }
    rules.data = UnsafeMutableRawPointer(copy)  // the trie reads it in place
    return rules
  }

  /// One code point of each category the rules give a character (the first in code point order,
  /// surrogates skipped), and of each category's 2-, 3- and 4-byte UTF-8 forms where it has them:
  /// an alphabet that reaches every column of the state table, for the identity tests.
  public func representatives() -> [UInt32] {
    var found: [UInt32] = []
    var seen = [Bool](repeating: false, count: (categoryCount + 1) * 4)
    var c: UInt32 = 0
    while c <= 0x10FFFF {
      if c & 0xFFFF_F800 != 0xD800 {
        let length = c < 0x80 ? 0 : c < 0x800 ? 1 : c < 0x10000 ? 2 : 3
        let slot = min(Int(category(c)), categoryCount) * 4 + length
        if !seen[slot] {
          seen[slot] = true
          found.append(c)
        }
      }
      c += 1
    }
    return found
  }

  /// The category of code point `c`.
  @inlinable @inline(__always) func category(_ c: UInt32) -> UInt16 {
    if c < 0x10000 { return bmp[Int(c)] }
    let k = Int(cicu_trie_get(trie, Int32(bitPattern: c)))
    return k < categoryCount ? permutation[k] : UInt16(categoryCount - 1)
  }
}

/// Runs ``BreakRules`` over UTF-8 text: ICU's forward iteration (`handleNext`) without a UText.
/// One per thread (it keeps the look-ahead positions of the current call).
public final class RuleMachine {
  public let rules: BreakRules
  @usableFromInline let positions: UnsafeMutablePointer<Int>
  @usableFromInline let table: UnsafeMutablePointer<UInt16>
  @usableFromInline let accepting: UnsafeMutablePointer<UInt16>
  @usableFromInline let lookAhead: UnsafeMutablePointer<UInt16>
  @usableFromInline let status: UnsafeMutablePointer<Int32>
  @usableFromInline let bmp: UnsafeMutablePointer<UInt16>
  @usableFromInline let categories: Int
  @usableFromInline let dictionaryStart: UInt16
  @usableFromInline let defaultStatus: Int32
  @usableFromInline let bofRequired: Bool
  @usableFromInline let asciiNext: UnsafeMutablePointer<UInt16>
  @usableFromInline let flags: UnsafeMutablePointer<UInt8>
  @usableFromInline let asciiLoop: Bool

  public init(_ rules: BreakRules) {
    asciiNext = rules.asciiNext
    flags = rules.flags
    asciiLoop = rules.asciiLoop
    self.rules = rules
    ends = .allocate(capacity: Self.batchCapacity)
    statuses = .allocate(capacity: Self.batchCapacity)
    positions = .allocate(capacity: rules.lookAheadSlots)
    positions.initialize(repeating: -1, count: rules.lookAheadSlots)
    table = rules.next
    accepting = rules.accepting
    lookAhead = rules.lookAhead
    status = rules.status
    bmp = rules.bmp
    categories = rules.categoryCount
    dictionaryStart = rules.dictionaryStart
    defaultStatus = rules.defaultStatus
    bofRequired = rules.bofRequired
  }

  deinit {
    positions.deallocate()
    ends.deallocate()
    statuses.deallocate()
    dictionaryEnds?.deallocate()
    if let cjk { cicu_cjk_close(cjk) }
  }

  /// ICU's Chinese/Japanese dictionary engine run natively (see `RuleMachine+Dictionary.swift`),
  /// opened at first use; nil when not used.
  var cjk: OpaquePointer?
  var cjkOpened = false
  /// The boundaries found by the last ``dictionarySegment(_:from:end:)``.
  public internal(set) var dictionaryEnds: UnsafeMutablePointer<Int>?
  var dictionaryCapacity = 0

  /// Boundaries per ``run(_:from:end:)``.
  public static let batchCapacity = 1024
  /// The boundaries found by the last ``run(_:from:end:)``: the end of each segment...
  public let ends: UnsafeMutablePointer<Int>
  /// ... and its rule status.
  public let statuses: UnsafeMutablePointer<Int32>

  /// ICU's boundaries after the boundary `start` of `text[..<end]`, as many as ``next(_:from:end:)``
  /// finds one after the other (at most ``batchCapacity``), into ``ends`` and ``statuses``: how many,
  /// and whether the machine then met a character of a dictionary category (the text from the
  /// last boundary found, or `start`, needs ICU). One loop, so that nothing is set up per boundary.
  public func run(_ text: UnsafePointer<UInt8>, from start: Int, end: Int) -> (count: Int, declined: Bool) {
    var position = start
    var n = 0
    let ends = self.ends
    let statuses = self.statuses
    let firstRow = rules.firstRow
    let firstStatus = rules.firstStatus
    let extendsPairs = rules.kind != .sentence
    let bmp = self.bmp
    let table = self.table
    let dictionaryStart = Int(self.dictionaryStart)
    let flags = self.flags
    let status = self.status
    let categories = self.categories
    // The category and length of the character at `position` when the pair step read it already.
    var category = -1
    var length = 0
    while position < end && n < Self.batchCapacity {
      // The pair step: a character whose segment the next character ends at once (most
      // graphemes; a word's punctuation; an ideograph's line-break opportunity).
      if category < 0 {
        let (c, l) = Self.decodeShort(text, position, end)
        category = l != 0 ? Int(bmp[c]) : -1
        length = l
      }
      if category >= 0 {
        let row = Int(firstRow[category])
        if row >= 0 {
          let (b, lengthB) = Self.decodeShort(text, position &+ length, end)
          if lengthB != 0 {
            let k = Int(bmp[b])
            if k < dictionaryStart {
              var t = Int(table[row &+ k])
              if t == 0 {
                position &+= length
                ends[n] = position
                statuses[n] = firstStatus[category]
                n &+= 1
                category = k
                length = lengthB
                continue
              }
              // A longer segment (a word, a line-break segment): the machine goes on from the
              // state after the first character here, while its states have nothing to do but
              // accept, and the segment ends where it stops (ICU's result: the last accepting
              // position). Anything else (a look-ahead state, the end of the text, a 4-byte,
              // ill-formed or dictionary character) leaves the segment to the general step.
              // Rule sets with short segments (words, line-break segments, graphemes; not
              // sentences, whose long segments the general step's loops read faster).
              var f = flags[t]
              if extendsPairs && f & 6 == 0 {
                var p = position &+ length
                var last = p
                var lastStatus = firstStatus[category]
                var c = b
                var l = lengthB
                var kk = k
                while true {
                  p &+= l
                  if f & 1 != 0 {
                    last = p
                    lastStatus = status[t]
                  }
                  let state = t
                  (c, l) = Self.decodeShort(text, p, end)
                  if l == 0 { break }
                  kk = Int(bmp[c])
                  if kk >= dictionaryStart { break }
                  t = Int(table[state &* categories &+ kk])
                  f = flags[t]
                  if f & 6 != 0 { break }
                }
                if l != 0 && kk < dictionaryStart && t == 0 {
                  ends[n] = last
                  statuses[n] = lastStatus
                  n &+= 1
                  position = last
                  // The character that stopped the machine starts the next segment when the
                  // segment ends just before it.
                  if last == p {
                    category = kk
                    length = l
                  } else {
                    category = -1
                  }
                  continue
                }
                // Else the general step reads the segment again from its start.
              }
            }
          }
        }
      }
      category = -1
      guard let found = general(text, from: position, end: end) else { return (n, true) }
      ends[n] = found.end
      statuses[n] = found.status
      n &+= 1
      position = found.end
    }
    return (n, false)
  }

  /// The code point at `i` and its length in bytes. An ill-formed sequence is U+FFFD over its
  /// maximal subpart (the bytes that could start a well-formed sequence, at least one), as ICU's
  /// UTF-8 text (`U8_NEXT_OR_FFFD`) reads it.
  @inlinable @inline(__always)
  static func decode(_ text: UnsafePointer<UInt8>, _ i: Int, _ end: Int) -> (UInt32, Int) {
    let b0 = UInt32(text[i])
    if b0 < 0x80 { return (b0, 1) }
    if b0 < 0xC2 || b0 > 0xF4 || i + 1 >= end { return (0xFFFD, 1) }
    let b1 = UInt32(text[i + 1])
    if b0 < 0xE0 {
      guard b1 & 0xC0 == 0x80 else { return (0xFFFD, 1) }
      return ((b0 & 0x1F) << 6 | (b1 & 0x3F), 2)
    }
    if b0 < 0xF0 {
      let low: UInt32 = b0 == 0xE0 ? 0xA0 : 0x80
      let high: UInt32 = b0 == 0xED ? 0x9F : 0xBF
      guard b1 >= low, b1 <= high else { return (0xFFFD, 1) }
      guard i + 2 < end, text[i + 2] & 0xC0 == 0x80 else { return (0xFFFD, 2) }
      return ((b0 & 0x0F) << 12 | (b1 & 0x3F) << 6 | (UInt32(text[i + 2]) & 0x3F), 3)
    }
    let low: UInt32 = b0 == 0xF0 ? 0x90 : 0x80
    let high: UInt32 = b0 == 0xF4 ? 0x8F : 0xBF
    guard b1 >= low, b1 <= high else { return (0xFFFD, 1) }
    guard i + 2 < end, text[i + 2] & 0xC0 == 0x80 else { return (0xFFFD, 2) }
    guard i + 3 < end, text[i + 3] & 0xC0 == 0x80 else { return (0xFFFD, 3) }
    return (
      (b0 & 0x07) << 18 | (b1 & 0x3F) << 12 | (UInt32(text[i + 2]) & 0x3F) << 6 | (UInt32(text[i + 3]) & 0x3F), 4
    )
  }

  /// The run scan of `state` (a state whose flags have bit 3: see `BreakRules.makeRunScans`) from
  /// `start`: the characters that keep the machine in the state's class, skipped, and the state
  /// and position after them. Runs are found by a byte scan; a byte where a run may end is looked
  /// at as a character, and the run goes on when it is one of the class's.
  @usableFromInline @inline(never)
  func skipRun(_ text: UnsafePointer<UInt8>, state: Int, from start: Int, end: Int) -> (state: Int, position: Int) {
    let bytes = rules.runBytes! + state
    let targets = rules.runTargets! + state &* categories
    var state = state
    var p = start
    while true {
      let q = Int(cicu_byteset_find(text, Int64(p), Int64(end), bytes))
      if q > p { state = Int(targets[lastCategory(text, from: p, to: q)]) }
      p = q
      guard q < end else { break }
      let (c, l) = Self.decodeShort(text, q, end)
      guard l != 0 else { break }
      let t = targets[Int(bmp[c])]  // 0xFFFF for a dictionary category too (never in a class)
      guard t != 0xFFFF else { break }
      state = Int(t)
      p = q &+ l
    }
    return (state, p)
  }

  /// The category of the last character of `text[start..<end]`, both character boundaries,
  /// `start < end`: the character that begins at the last byte that is not a continuation byte
  /// (of the last 4), or U+FFFD when continuation bytes that belong to no sequence end the range.
  @inline(__always)
  func lastCategory(_ text: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Int {
    var j = end &- 1
    let lowest = max(start, end &- 4)
    while j > lowest && text[j] & 0xC0 == 0x80 { j &-= 1 }
    if text[j] & 0xC0 != 0x80 {
      let (c, length) = Self.decode(text, j, end)
      if j &+ length == end { return Int(c < 0x10000 ? bmp[Int(c)] : rules.category(c)) }
    }
    return Int(bmp[0xFFFD])
  }

  /// ``next(_:from:end:)`` out of line, so that the pair step's loop keeps its values in registers.
  @inline(never)
  func general(_ text: UnsafePointer<UInt8>, from start: Int, end: Int) -> (end: Int, status: Int32)? {
    next(text, from: start, end: end)
  }

  /// The code point at `i` and its length when it is ASCII or a well-formed 2- or 3-byte
  /// sequence, else length 0 (a 4-byte or ill-formed sequence, or `i == end`).
  @inlinable @inline(__always)
  static func decodeShort(_ text: UnsafePointer<UInt8>, _ i: Int, _ end: Int) -> (Int, Int) {
    guard i < end else { return (0, 0) }
    let b = text[i]
    if b < 0x80 { return (Int(b), 1) }
    if b < 0xE0 {
      guard b >= 0xC2, i &+ 1 < end else { return (0, 0) }
      let b1 = text[i &+ 1]
      guard b1 & 0xC0 == 0x80 else { return (0, 0) }
      return (Int(b & 0x1F) << 6 | Int(b1 & 0x3F), 2)
    }
    guard b < 0xF0, i &+ 2 < end else { return (0, 0) }
    let b1 = text[i &+ 1]
    let b2 = text[i &+ 2]
    guard b1 & 0xC0 == 0x80, b2 & 0xC0 == 0x80 else { return (0, 0) }
    let c = Int(b & 0x0F) << 12 | Int(b1 & 0x3F) << 6 | Int(b2 & 0x3F)
    guard c >= 0x800, c & 0xF800 != 0xD800 else { return (0, 0) }
    return (c, 3)
  }

  /// ICU's next boundary after the boundary `start` of the text `text[..<end]` (the text ICU would
  /// be given ends at `end`), and the rule status of the
  /// segment ending there; nil when the machine met a character of a dictionary category while
  /// looking for it (ICU's dictionaries segment those). `start < end`.
  @inlinable @inline(__always)
  public func next(_ text: UnsafePointer<UInt8>, from start: Int, end: Int) -> (end: Int, status: Int32)? {
    guard let found = step(text, from: start, end: end, throughDictionary: false) else { return nil }
    return (found.end, found.status)
  }

  /// ICU's next boundary after the boundary `start` as ``next(_:from:end:)`` finds it, but with
  /// characters of a dictionary category run through the table as ICU's `handleNext` does, and
  /// whether the machine read one (then ICU's dictionary engines may divide the segment: see
  /// ``dictionarySegment(_:from:end:)``).
  @inline(never)
  public func nextThroughDictionary(_ text: UnsafePointer<UInt8>, from start: Int, end: Int) -> (
    end: Int, status: Int32, dictionary: Bool
  ) {
    step(text, from: start, end: end, throughDictionary: true)!
  }

  /// ICU's handleNext: nil when it reads a character of a dictionary category and
  /// `throughDictionary` is false.
  @inlinable @inline(__always)
  func step(_ text: UnsafePointer<UInt8>, from start: Int, end: Int, throughDictionary: Bool) -> (
    end: Int, status: Int32, dictionary: Bool
  )? {
    var sawDictionary = false
    let next = table
    let categories = self.categories
    // ICU's handleNext. `position` is the UText's native index: just after the last character
    // the machine consumed.
    var state = 1
    var result = start
    var statusState = -1  // the state whose tag set gives the status; -1: ICU's tag set 0
    var position = start
    if bofRequired {
      // RBBI_START: one step on the {bof} category, the first character already read (so the
      // native index is after it), the result not moved.
      state = Int(next[state * categories + 2])
      let after = start + Self.decode(text, start, end).1
      let accept = accepting[state]
      if accept == 1 {
        statusState = state
      } else if accept > 1, positions[Int(accept)] >= 0 {
        return (positions[Int(accept)], status[state], false)
      }
      if lookAhead[state] > 1 { positions[Int(lookAhead[state])] = after }
    }
    while state != 0 {
      // The inner loop: characters (ASCII, and well-formed 2- and 3-byte sequences of no
      // dictionary category) into states with nothing to do but, when accepting, move the result.
      let flags = self.flags
      let bmp = self.bmp
      let dictionaryStart = self.dictionaryStart
      let asciiNext = self.asciiNext
      let asciiLoop = self.asciiLoop
      scan: do {
        if asciiLoop {
          while position < end {
            let b = text[position]
            if b >= 0x80 { break }
            let t = Int(asciiNext[state &* 128 &+ Int(b)])
            let f = flags[t]
            if f & 6 != 0 {
              if f & 4 != 0 { state = 0 }  // the stop state: the iteration ends before this character
              break scan
            }
            state = t
            position &+= 1
            if f != 0 {
              if f & 1 != 0 {
                result = position
                statusState = t
              }
              if f & 8 != 0 {
                (state, position) = skipRun(text, state: state, from: position, end: end)
                if f & 1 != 0 {
                  result = position
                  statusState = state
                }
              }
            }
          }
        }
        // Mixed text: ASCII (when the ASCII loop may run) and well-formed 2- and 3-byte sequences
        // of no dictionary category, in one loop with one tail, so that a run of non-ASCII words
        // with spaces and punctuation between them stays here.
        while position < end {
          let b = text[position]
          let t: Int
          let length: Int
          if b < 0x80 {
            guard asciiLoop else { break }
            t = Int(asciiNext[state &* 128 &+ Int(b)])
            length = 1
          } else if b < 0xE0 {
            guard b >= 0xC2, position &+ 1 < end else { break }
            let b1 = text[position &+ 1]
            guard b1 & 0xC0 == 0x80 else { break }
            let k = bmp[Int(b & 0x1F) << 6 | Int(b1 & 0x3F)]
            if k >= dictionaryStart { break }
            t = Int(next[state &* categories &+ Int(k)])
            length = 2
          } else if b < 0xF0 {
            guard position &+ 2 < end else { break }
            let b1 = text[position &+ 1]
            let b2 = text[position &+ 2]
            guard b1 & 0xC0 == 0x80, b2 & 0xC0 == 0x80 else { break }
            let c = Int(b & 0x0F) << 12 | Int(b1 & 0x3F) << 6 | Int(b2 & 0x3F)
            // E0 needs A0...BF after it (no overlong form), ED 80...9F (no surrogate).
            guard c >= 0x800, c & 0xF800 != 0xD800 else { break }
            let k = bmp[c]
            if k >= dictionaryStart { break }
            t = Int(next[state &* categories &+ Int(k)])
            length = 3
          } else {
            break  // 4 bytes or ill-formed: the general step
          }
          let f = flags[t]
          if f & 6 != 0 {
            if f & 4 != 0 { state = 0 }
            break
          }
          state = t
          position &+= length
          if f != 0 {
            if f & 1 != 0 {
              result = position
              statusState = t
            }
            if f & 8 != 0 {
              (state, position) = skipRun(text, state: state, from: position, end: end)
              if f & 1 != 0 {
                result = position
                statusState = state
              }
            }
          }
        }
      }
      if state == 0 { break }
      let category: Int
      let atEOF = position >= end
      if !atEOF {
        let (c, length) = Self.decode(text, position, end)
        let k: UInt16 = c < 0x10000 ? bmp[Int(c)] : rules.category(c)
        if k >= dictionaryStart {
          if !throughDictionary { return nil }
          sawDictionary = true
        }
        category = Int(k)
        position += length
      } else {
        category = 1  // RBBI_END: one step on the {eof} category
      }
      state = Int(next[state * categories + category])
      let accept = accepting[state]
      if accept == 1 {
        result = position
        statusState = state
      } else if accept > 1, positions[Int(accept)] >= 0 {
        return (positions[Int(accept)], status[state], sawDictionary)
      }
      if lookAhead[state] > 1 { positions[Int(lookAhead[state])] = position }
      if atEOF { break }
    }
    if result == start { return (start + Self.decode(text, start, end).1, defaultStatus, sawDictionary) }
    return (result, statusState >= 0 ? status[statusState] : defaultStatus, sawDictionary)
  }
}
