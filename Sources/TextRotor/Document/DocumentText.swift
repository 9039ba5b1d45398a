import Synchronization
import TextRotorICU

/// What a run of elements sums up to: how many, their text with the gaps after them (bytes, UTF-16
/// units, scalars, line breaks), and the largest order key among them.
struct ElementSummary: TreeSummary {
  var count = 0
  var text = TextSummary()
  var maxKey = Int64.min

  static var zero: ElementSummary { ElementSummary() }

  mutating func add(_ next: ElementSummary) {
    count += next.count
    text.add(next.text)
    maxKey = Swift.max(maxKey, next.maxKey)
  }
}

/// One element in the document's tree: the slot of its id (ids live in the shared ``IDTable``, so
/// that the tree is not generic and every descent is specialised), its order key (increasing in
/// document order, so an id is found by one descent), its text, and the gap after it up to the
/// next element (the file's separator bytes for a document read from a file, else one virtual line
/// feed).
struct ElementItem: TreeItem, Sendable {
  let slot: Int
  let key: Int64
  /// A `var` only so that ``DocumentText/replaceText(_:ofElement:with:)`` can edit it in place; the
  /// summary is then rebuilt through `with(text:)`.
  var text: TextRope
  let gap: TextSummary
  let summary: ElementSummary

  init(slot: Int, key: Int64, text: TextRope, gap: TextSummary) {
    self.slot = slot
    self.key = key
    self.text = text
    self.gap = gap
    self.summary = ElementSummary(count: 1, text: text.summary.adding(gap), maxKey: key)
  }

  func with(text: TextRope) -> ElementItem { ElementItem(slot: slot, key: key, text: text, gap: gap) }
  func with(key: Int64) -> ElementItem { ElementItem(slot: slot, key: key, text: text, gap: gap) }

  /// 120-byte items: an insert or remove shifts half a leaf on average, and eight items are 15
  /// cache lines (32 were 60; a cache simulation of moves among 1,000,000 elements: 18 % fewer
  /// last-level misses).
  static var leafCapacity: Int { 8 }
  /// An internal node's entry is 128 bytes (the child's summary and the running one), and a change
  /// refreshes the entries after its child on each level of its path: half of 4 KB a level with 32
  /// children. Among 1,000,000 elements the first level above the leaves alone is 28 MB, mostly
  /// out of cache. With 8, a move among 1,000,000 elements misses the last level 167 times, not
  /// 204 (16: 186), for 1 % more instructions (cache simulation, `Benchmarks/results/engine.md`).
  static var innerCapacity: Int { 8 }

  /// The gap of a document built from elements: one line feed.
  static var virtualGap: TextSummary {
    var g = TextSummary()
    g.utf8 = 1
    g.utf16 = 1
    g.scalars = 1
    g.lineBreaks = 1
    g.firstIsLF = true
    g.isVirtualGap = true
    return g
  }
}

/// The ids of a document's elements: each id's slot (an index into `ids`, never given to another
/// id, so a snapshot's slots stay valid; a moved element keeps its own) and order key. Shared by a document and its snapshots: the slots
/// are append-only, and the keys are only a hint for a snapshot (it checks the element it finds,
/// and searches when the hint is stale), so the table is updated in place, under a lock, and
/// never copied.
final class IDTable<ID: Hashable>: @unchecked Sendable {
  // @unchecked: every stored property is only touched while holding `lock`.
  private let lock = Mutex<Void>(())
  private var ids: [ID] = []
  private var entries: [ID: (slot: Int, key: Int64)] = [:]
  private var _version = 0

  /// Bumped whenever a key is set or removed: a snapshot whose version equals it can trust a miss.
  var version: Int {
    get { lock.withLock { _ in _version } }
    set { lock.withLock { _ in _version = newValue } }
  }

  func lookup(_ id: ID) -> (slot: Int, key: Int64)? { lock.withLock { _ in entries[id] } }

  func id(ofSlot slot: Int) -> ID { lock.withLock { _ in ids[slot] } }

  /// A new slot for `id` with `key`.
  func register(_ id: ID, key: Int64) -> Int {
    lock.withLock { _ in
      ids.append(id)
      entries[id] = (ids.count - 1, key)
      return ids.count - 1
    }
  }

  func setKey(_ key: Int64, ofSlot slot: Int) {
    lock.withLock { _ in entries[ids[slot]] = (slot, key) }
  }

  func remove(_ id: ID) { lock.withLock { _ in entries[id] = nil } }

  /// How many slots were ever handed out (tests: a move reuses its element's).
  var slotCount: Int { lock.withLock { _ in ids.count } }
}

/// The text of a document: its elements in a ``SumTree`` (ids, order keys, text ropes, gaps), with
/// the bytes before the first element (`origin`). A value: a copy is an O(1) snapshot.
///
/// Document offsets: the origin, then each element's UTF-8 bytes followed by its gap. For a document
/// read from a file they are the file's byte offsets; lines and UTF-16 offsets of the whole file
/// come from the same sums.
struct DocumentText<ID: Hashable> {
  var tree: SumTree<ElementItem>
  let keys: IDTable<ID>
  var origin: TextSummary
  /// The id table's version this text matches (see ``IDTable/version``).
  var keysVersion = 0
  /// The last line (from its start to the CR ending it) of each separator that ends in CR and
  /// starts no later than that line: the origin's (key -1) and each gap of several line breaks
  /// (the slot of the element before it). Where an LF is typed at the start of the next element,
  /// the CR and that LF are one line break of the document, so a position between them is on the
  /// CR's line, whose start only the separator's bytes tell. Gaps are never edited: set once.
  let separatorLastLines: [Int: TextSummary]
  /// What follows the last line break of each separator that does not end in one (same keys): a
  /// byte order mark that is the whole origin, or the spaces after a file's last blank line, in
  /// front of an element moved or inserted after them. They are on the element's first line.
  let separatorTails: [Int: TextSummary]

  static var keySpacing: Int64 { 1 << 24 }

  /// `separatorLastLines`, `separatorTails`: by element index (-1: the origin), see the properties.
  init(
    elements: [(ID, TextRope, TextSummary)], origin: TextSummary = TextSummary(),
    separatorLastLines: [Int: TextSummary] = [:], separatorTails: [Int: TextSummary] = [:]
  ) throws(DocumentError) {
    keys = IDTable()
    self.origin = origin
    // Slots are handed out in order: element i's slot is i.
    self.separatorLastLines = separatorLastLines
    self.separatorTails = separatorTails
    var items: [ElementItem] = []
    items.reserveCapacity(elements.count)
    for (i, (id, text, gap)) in elements.enumerated() {
      guard keys.lookup(id) == nil else { throw .duplicateElement("\(id)") }
      let key = Int64(i) * Self.keySpacing
      items.append(ElementItem(slot: keys.register(id, key: key), key: key, text: text, gap: gap))
    }
    tree = SumTree(items)
  }

  var count: Int { tree.count }
  /// Bytes of the document: origin, elements and gaps.
  var length: Int { origin.utf8 + tree.summary.text.utf8 }

  subscript(i: Int) -> ElementItem { tree[i] }

  /// Replaces the UTF-8 range `range` of element `i`'s text with `new` and returns the element.
  /// The element's rope is detached from the tree while it changes, so that (unless a snapshot
  /// shares it) it is edited in place rather than copied along its path.
  mutating func replaceText(_ range: Range<Int>, ofElement i: Int, with new: [UInt8]) -> ElementItem {
    var item = tree[i]
    tree.update(at: i, with: item.with(text: TextRope()))
    item.text.replace(range, with: new)
    let changed = item.with(text: item.text)
    tree.update(at: i, with: changed)
    return changed
  }

  /// The id of element `i`.
  func id(at i: Int) -> ID { keys.id(ofSlot: tree[i].slot) }

  /// The id of `item`.
  func id(of item: ElementItem) -> ID { keys.id(ofSlot: item.slot) }

  /// The index of element `id`, or nil. O(log n).
  func index(of id: ID) -> Int? {
    if let (slot, key) = keys.lookup(id) {
      let i = tree.seek { $0.maxKey >= key }.index
      if i < tree.count && tree[i].slot == slot { return i }
    }
    // The keys are this text's own: a miss is final.
    if keys.version == keysVersion { return nil }
    // A stale hint (a snapshot of an older document): search.
    var found: Int? = nil
    tree.forEach { i, _, item in
      if keys.id(ofSlot: item.slot) == id { found = i }
      return found == nil
    }
    return found
  }

  func require(_ id: ID) throws(DocumentError) -> Int {
    guard let i = index(of: id) else { throw .unknownElement("\(id)") }
    return i
  }

  /// The last line of the separator before element `i` (the origin for the first) when it ends
  /// in CR and that line starts inside it, else nil. See ``separatorLastLines``.
  func separatorLastLine(before i: Int) -> TextSummary? {
    if separatorLastLines.isEmpty { return nil }
    if i == 0 { return separatorLastLines[-1] }
    // A moved element keeps its slot but not its file gap (it gets the virtual one).
    let before = tree[i - 1]
    return before.gap.lastIsCR && before.gap.lineBreaks > 1 ? separatorLastLines[before.slot] : nil
  }

  /// The bytes after the last line break of the separator before element `i` (the origin for the
  /// first), when it does not end in one, else nil. See ``separatorTails``.
  func separatorTail(before i: Int) -> TextSummary? {
    if separatorTails.isEmpty { return nil }
    if i == 0 { return separatorTails[-1] }
    let before = tree[i - 1]
    return before.gap.isVirtualGap ? nil : separatorTails[before.slot]
  }

  /// Whether the byte at element `i`'s start is an LF: its text's first byte, or (an empty element)
  /// its gap's, unless that gap is the virtual line feed after the last element, which is no text.
  func startsWithLF(_ i: Int) -> Bool {
    let item = tree[i]
    if item.text.utf8Count > 0 { return item.text.byte(at: 0) == 0x0A }
    return item.gap.firstIsLF && !(i + 1 == count && item.gap.isVirtualGap)
  }

  /// Document offset where element `i` starts.
  func start(of i: Int) -> Int { origin.utf8 + tree.summary(before: i).text.utf8 }

  /// The element whose span (text and gap) holds document offset `offset` (0 before the first,
  /// the last past the end).
  func element(at offset: Int) -> (index: Int, start: Int) {
    let relative = offset - origin.utf8
    var (i, before) = tree.seek { $0.text.utf8 > relative }
    if i == tree.count {
      i = tree.count - 1
      before = tree.summary(before: i)
    }
    return (i, origin.utf8 + before.text.utf8)
  }

  // MARK: Positions

  /// The UTF-8 offset in element `i` of `index`: validated against its length and rounded down to
  /// a scalar boundary, as Swift rounds an index.
  func utf8Offset(in i: Int, _ index: String.Index) throws(DocumentError) -> Int {
    try utf8OffsetAndHalf(in: i, index).offset
  }

  /// ``utf8Offset(in:_:)``, and 1 when `index` is an index of `String.UTF16View` between the
  /// halves of the surrogate pair of the scalar starting there (its trailing surrogate), else 0:
  /// what a UTF-16 offset or column adds to the scalar's, as Swift counts it. One reading of the
  /// element (its text), as before.
  func utf8OffsetAndHalf(in i: Int, _ index: String.Index) throws(DocumentError) -> (offset: Int, half: Int) {
    guard let (offset, inside) = StringIndexABI.utf8Offset(of: index) else { throw .foreignIndex }
    let text = tree[i].text
    guard offset <= text.utf8Count else { throw .offsetOutOfRange(offset, length: text.utf8Count) }
    let o = text.scalarBoundary(atOrBefore: offset)
    return (o, inside && o == offset && o < text.utf8Count && text.byte(at: o) >= 0xF0 ? 1 : 0)
  }

  /// The document offset of `position`. Unless `roundingToScalar` (navigation to the first entry
  /// after a position: entries start on scalar boundaries, so the first one after an offset inside
  /// a UTF-8 sequence is the first one after that scalar's start), an offset inside a UTF-8
  /// sequence is kept as it is, without reading the text (a descent of its rope).
  func documentOffset(_ position: TextPosition<ID>, roundingToScalar: Bool = true) throws(DocumentError) -> Int {
    let i = try require(position.element)
    guard !roundingToScalar else { return start(of: i) + (try utf8Offset(in: i, position.index)) }
    guard let (offset, _) = StringIndexABI.utf8Offset(of: position.index) else { throw .foreignIndex }
    let length = tree[i].text.utf8Count
    guard offset <= length else { throw .offsetOutOfRange(offset, length: length) }
    return start(of: i) + offset
  }

  /// The position at document offset `offset`, clamped into the element it falls in or after.
  func position(atDocumentOffset offset: Int) -> TextPosition<ID> {
    let (i, s) = element(at: offset)
    let text = tree[i].text
    let local = text.scalarBoundary(atOrBefore: Swift.min(Swift.max(offset - s, 0), text.utf8Count))
    return TextPosition(element: id(at: i), index: StringIndexABI.index(utf8Offset: local))
  }

  func location(documentRange range: Range<Int>) -> EntryLocation<ID> {
    let (e, s) = element(at: range.lowerBound)
    return EntryLocation(
      elementIndex: e, element: id(at: e), utf8Range: (range.lowerBound - s)..<(range.upperBound - s),
      documentRange: range)
  }

  func stringRange(_ location: EntryLocation<ID>) -> Range<String.Index> {
    StringIndexABI.index(
      utf8Offset: location.utf8Range.lowerBound)..<StringIndexABI.index(
        utf8Offset: location.utf8Range.upperBound)
  }

  func text(_ location: EntryLocation<ID>) -> String {
    tree[location.elementIndex].text.string(location.utf8Range)
  }

  /// The UTF-16 range of `location`, counted from the start of its element and of the document.
  func utf16Range(_ location: EntryLocation<ID>) -> (inElement: Range<Int>, inDocument: Range<Int>) {
    let text = tree[location.elementIndex].text
    let lo = text.utf16Offset(ofUTF8: location.utf8Range.lowerBound)
    let hi =
      lo + text.summary(upTo: location.utf8Range.upperBound).utf16
      - text.summary(upTo: location.utf8Range.lowerBound).utf16
    let base = origin.utf16 + tree.summary(before: location.elementIndex).text.utf16
    return (lo..<hi, (base + lo)..<(base + hi))
  }

  // MARK: Order keys

  /// A key for an element inserted at index `i`, between its neighbours; relabels a neighbourhood
  /// evenly when there is no room left between them (amortised O(log n)).
  mutating func key(forInsertionAt i: Int) -> Int64 {
    let lower = i > 0 ? tree[i - 1].key : nil
    let upper = i < count ? tree[i].key : nil
    switch (lower, upper) {
    case (nil, nil): return 0
    case (let l?, nil) where l < Int64.max / 2: return l + Self.keySpacing
    case (nil, let u?) where u > Int64.min / 2: return u - Self.keySpacing
    case (let l?, let u?) where u - l >= 2: return l + (u - l) / 2
    default:
      relabel(around: i)
      return key(forInsertionAt: i)
    }
  }

  /// Spreads the keys of a window of elements around index `i` evenly, growing the window until
  /// its keys leave room; the whole document as the last resort.
  private mutating func relabel(around i: Int) {
    var w = 16
    while true {
      let lo = Swift.max(0, i - w)
      let hi = Swift.min(count, i + w)
      if lo == 0 && hi == count {
        relabel(lo..<hi, from: 0, spacing: Self.keySpacing)
        return
      }
      let low = lo > 0 ? tree[lo - 1].key : tree[lo].key - Self.keySpacing * Int64(w)
      let high = hi < count ? tree[hi].key : tree[hi - 1].key + Self.keySpacing * Int64(w)
      let slots = Int64(hi - lo + 1)
      let spacing = (high - low) / (slots + 1)
      if spacing >= 1 << 12 {
        relabel(lo..<hi, from: low + spacing, spacing: spacing)
        return
      }
      w *= 2
    }
  }

  /// Records that the keys changed (an element inserted, removed or relabelled).
  mutating func keysChanged() {
    keysVersion += 1
    keys.version = keysVersion
  }

  private mutating func relabel(_ range: Range<Int>, from first: Int64, spacing: Int64) {
    var key = first
    for j in range {
      tree.update(at: j, with: tree[j].with(key: key))
      keys.setKey(key, ofSlot: tree[j].slot)
      key += spacing
    }
    keysChanged()
  }

  /// Checks the trees and the keys (debug builds).
  func invariantCheck() {
    #if DEBUG
      tree.invariantCheck()
      var last = Int64.min
      tree.forEach { _, _, item in
        precondition(item.key > last, "order keys not increasing")
        last = item.key
        item.text.invariantCheck()
        return true
      }
    #endif
  }
}

extension DocumentText: Sendable where ID: Sendable {}
