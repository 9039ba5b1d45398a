import TextRotorICU

// A rotor is a name and its entries in document order. What backs the entries (`RotorStorage`):
//
// - `.segments(SegmentIndex)`: a system rotor (characters, words, ...). The compact varint chunks
//   of `SegmentStore`, never materialised: labels and `String.Index` values are made only when an
//   entry is asked for.
// - `.matches(IntervalIndex<Void>)`: sorted, possibly overlapping byte ranges whose labels are
//   the text at them. This is what pattern rotors use. To build one from a matcher:
//
//       // ranges: sorted by start, in document coordinates (element start + UTF-8 offset)
//   To have the document keep it correct across edits (re-matching the lines around each
//   edit), register a matcher that returns the matches inside a byte range of a ByteStorage:
//
//       let rotor = try document.addComputedRotor(named: "matches: \(pattern)") { bytes, range in
//         try matcher.matches(in: bytes, range: range)   // sorted byte ranges inside `range`
//       }
//
//   (`RotorDocument.rotor(matching:)` can be a two-line extension doing exactly this.)
// - `.custom(IntervalIndex<CustomPayload>)`: entries from a `@RotorContentBuilder`, added to a
//   document (`RotorDocument.addRotor`), which places them in document order; they may overlap
//   and nest.
// - `.list([RotorEntry])`: a rotor built on its own (`Rotor("VIPs") { ... }`), in the order the
//   builder gave. It is not indexed: navigation scans it (O(n)); add it to a document to index it.
//
// Positions are document offsets: elements' UTF-8 bytes laid end to end with a gap between
// neighbours (see `DocumentText`), so document order is element order, then UTF-8 offset.

/// What a custom entry carries besides its position. Not generic: an entry's id, when it has one,
/// is its element's (entries follow their element), so the index of custom entries is one
/// concrete, specialised type whatever the document's `ID`.
struct CustomPayload: Sendable {
  var label: String?
  /// Whether the entry named its element's id (an entry added under an owner has none).
  var hasID: Bool
  var namespace: RotorNamespace?
  /// False when the entry targets its whole element (its range then spans the element's text).
  var hasTextRange: Bool
  var prepare: @Sendable () -> Void
}

enum RotorStorage<ID: Hashable> {
  case list([RotorEntry<ID>])
  case segments(SegmentIndex)
  case matches(IntervalIndex<Void>)
  case custom(IntervalIndex<CustomPayload>)
  case structure(IntervalIndex<StructurePayload>)

  /// The index behind a document's rotor (nil for a rotor built on its own).
  var index: (any RotorIndex)? {
    switch self {
    case .list: nil
    case .segments(let index): index
    case .matches(let index): index
    case .custom(let index): index
    case .structure(let index): index
    }
  }
}

extension RotorStorage: Sendable where ID: Sendable {}

/// A named list of entries in document order that a user can jump between: VoiceOver's rotor.
///
/// A rotor taken from a ``RotorDocument`` is a snapshot of the document when it was taken, and is
/// indexed: `entry(after:)`, `entry(before:)` and subscripting are O(log n); `entries(overlapping:)`
/// and `entries(containing:)` are O(log n + k) for k entries returned.
public struct Rotor<ID: Hashable>: RandomAccessCollection {
  public typealias Index = Int
  public typealias Element = RotorEntry<ID>

  public let name: String
  /// The system rotor behind the entries, if any.
  public let systemRotor: SystemRotor?
  var storage: RotorStorage<ID>
  /// The document's elements when the rotor was taken (nil for a rotor built on its own).
  var table: DocumentText<ID>?

  /// A rotor built on its own, its entries in the order given.
  ///
  /// It knows no element's text: navigation orders elements as their first entries appear, finds
  /// nothing from a position in an element no entry names, and counts a whole-element entry (no
  /// `textRange`) as holding every caret in its element, its end included. Add it to a document
  /// (``RotorDocument/addRotor(_:owner:)``) for answers from the document's texts, in O(log n).
  public init(_ name: String, @RotorContentBuilder entries: () -> [RotorEntry<ID>]) {
    self.init(name, entries: entries())
  }

  /// A rotor built on its own, its entries in the order given.
  public init(_ name: String, entries: [RotorEntry<ID>]) {
    self.name = name
    self.systemRotor = nil
    self.storage = .list(entries)
    self.table = nil
  }

  init(name: String, systemRotor: SystemRotor? = nil, storage: RotorStorage<ID>, table: DocumentText<ID>) {
    self.name = name
    self.systemRotor = systemRotor
    self.storage = storage
    self.table = table
  }

  // MARK: Collection

  public var startIndex: Int { 0 }
  public var endIndex: Int { count }

  public var count: Int {
    if case .list(let entries) = storage { return entries.count }
    return storage.index!.count
  }

  public subscript(i: Int) -> RotorEntry<ID> {
    switch storage {
    case .list(let entries):
      return entries[i]
    case .segments(let index):
      return textEntry(index[i].range)
    case .matches(let index):
      return textEntry(index.range(at: i))
    case .custom(let index):
      let (range, payload) = index[i]
      let table = table!
      let location = table.location(documentRange: range)
      let textRange = table.stringRange(location)
      return RotorEntry(
        label: payload.label, id: payload.hasID ? location.element : nil, namespace: payload.namespace,
        textRange: payload.hasTextRange ? textRange : nil, prepare: payload.prepare,
        textLabel: payload.label == nil ? table.text(location) : nil)
    case .structure(let index):
      let (range, payload) = index[i]
      let table = table!
      let location = table.location(documentRange: range)
      return RotorEntry(
        label: payload.label, id: location.element, namespace: nil, textRange: table.stringRange(location),
        prepare: {}, textLabel: payload.label == nil ? table.text(location) : nil)
    }
  }

  private func textEntry(_ range: Range<Int>) -> RotorEntry<ID> {
    let table = table!
    let location = table.location(documentRange: range)
    return RotorEntry(
      label: nil, id: location.element, namespace: nil, textRange: table.stringRange(location), prepare: {},
      textLabel: table.text(location))
  }

  /// Where entry `i` is, in numbers (nil for a rotor built on its own). O(log n).
  public func location(at i: Int) -> EntryLocation<ID>? {
    guard let table, let range = documentRange(at: i) else { return nil }
    return table.location(documentRange: range)
  }

  /// The ICU status of entry `i` of a system rotor (words: letters, numbers, ...), else `.none`
  /// (also when `i` is not an entry's index).
  public func segmentStatus(at i: Int) -> SegmentStatus {
    if case .segments(let index) = storage, i >= 0 && i < index.count { return index[i].status }
    return .none
  }

  /// The document range of entry `i`, nil when `i` is not an entry's index (a stale one).
  func documentRange(at i: Int) -> Range<Int>? {
    guard let index = storage.index, i >= 0 && i < index.count else { return nil }
    return index.range(at: i)
  }

  /// `offset` moved into `-1...Int.max / 2`: no entry lies outside `0..<Int.max / 2`, so every
  /// answer is the same, and the `± 1` of the queries cannot overflow.
  private static func clamped(_ offset: Int) -> Int { Swift.min(Swift.max(offset, -1), Int.max / 2) }

  /// The UTF-16 range of entry `i`, from the start of its element and from the start of the
  /// document (of the file, for a document read from a file). O(log n).
  public func utf16Range(at i: Int) -> (inElement: Range<Int>, inDocument: Range<Int>)? {
    guard let table, let location = location(at: i) else { return nil }
    return table.utf16Range(location)
  }

  // MARK: Navigation by document offset

  /// The index of the first entry whose start is greater than `offset` (document coordinates:
  /// file offsets for an unedited document read from a file), or nil. O(log n).
  public func indexOfEntry(afterDocumentOffset offset: Int) -> Int? {
    let i = firstIndex(startingAtLeast: Self.clamped(offset) + 1)
    return i < count ? i : nil
  }

  /// The index of the last entry whose start is less than `offset`, or nil. O(log n).
  public func indexOfEntry(beforeDocumentOffset offset: Int) -> Int? {
    let i = firstIndex(startingAtLeast: Self.clamped(offset)) - 1
    return i >= 0 ? i : nil
  }

  /// Indices of the entries overlapping `range` of document offsets, in order: entries that start
  /// before its end and end after its start, and empty entries inside it. An empty range is a
  /// caret: entries with `start <= offset < end`, and empty entries at it. O(log n + k).
  public func indices(overlappingDocumentRange range: Range<Int>) -> [Int] {
    let lower = Self.clamped(range.lowerBound)
    return storage.index?.indices(overlappingRange: lower..<Swift.max(lower, Self.clamped(range.upperBound))) ?? []
  }

  private func firstIndex(startingAtLeast offset: Int) -> Int {
    storage.index?.firstIndex(startingAtLeast: offset) ?? 0
  }

  // MARK: Navigation by position

  /// The index of the first entry (in document order) whose start is after `position`. O(log n).
  @_specialize(exported:true,where ID == Int)
  @_specialize(exported:true,where ID == String)
  public func indexOfEntry(after position: TextPosition<ID>) -> Int? {
    guard let table else { return listIndex(after: position) }
    guard let offset = try? table.documentOffset(position, roundingToScalar: false) else { return nil }
    return indexOfEntry(afterDocumentOffset: offset)
  }

  /// The index of the last entry whose start is before `position`. O(log n).
  @_specialize(exported:true,where ID == Int)
  @_specialize(exported:true,where ID == String)
  public func indexOfEntry(before position: TextPosition<ID>) -> Int? {
    guard let table else { return listIndex(before: position) }
    guard let offset = try? table.documentOffset(position, roundingToScalar: false) else { return nil }
    let i = indexOfEntry(beforeDocumentOffset: offset)
    // Only an entry starting less than a scalar's length before the offset may start inside the
    // scalar the offset is in (or at its start, which is not before the rounded position): only then
    // is the text read to round the offset as Swift rounds an index.
    guard let i, let start = documentRange(at: i)?.lowerBound, offset - start < 4 else { return i }
    guard let rounded = try? table.documentOffset(position) else { return nil }
    return rounded == offset ? i : indexOfEntry(beforeDocumentOffset: rounded)
  }

  /// The first entry (in document order) whose start is after `position`: "next".
  @_specialize(exported:true,where ID == Int)
  @_specialize(exported:true,where ID == String)
  public func entry(after position: TextPosition<ID>) -> RotorEntry<ID>? {
    indexOfEntry(after: position).map { self[$0] }
  }

  /// The last entry whose start is before `position`: "previous".
  @_specialize(exported:true,where ID == Int)
  @_specialize(exported:true,where ID == String)
  public func entry(before position: TextPosition<ID>) -> RotorEntry<ID>? {
    indexOfEntry(before: position).map { self[$0] }
  }

  /// Indices of the entries overlapping the text from `start` to `end` (a viewport; see
  /// ``indices(overlappingDocumentRange:)``).
  @_specialize(exported:true,where ID == Int)
  @_specialize(exported:true,where ID == String)
  public func indices(from start: TextPosition<ID>, to end: TextPosition<ID>) -> [Int] {
    guard let table else { return listIndices(from: start, to: end) }
    guard let a = try? table.documentOffset(start), let b = try? table.documentOffset(end) else { return [] }
    return indices(overlappingDocumentRange: a..<Swift.max(a, b))
  }

  /// The entries overlapping the text from `start` to `end` (a viewport), in document order.
  // Specialized for the common ids: unspecialized, each entry made costs generic metadata lookups
  // and value-witness calls (a viewport of 1,700 words took 2.4 times the instructions).
  @_specialize(exported:true,where ID == Int)
  @_specialize(exported:true,where ID == String)
  public func entries(from start: TextPosition<ID>, to end: TextPosition<ID>) -> [RotorEntry<ID>] {
    let found = indices(from: start, to: end)
    // A system rotor's entries of a viewport are consecutive: decode them in one pass instead of
    // searching the index again for each.
    if case .segments(let index) = storage, let first = found.first, let last = found.last,
      last - first + 1 == found.count
    {
      var result: [RotorEntry<ID>] = []
      result.reserveCapacity(found.count)
      var segments: [SegmentStore.Segment] = []
      segments.reserveCapacity(found.count)
      index.forEach(in: first..<(last + 1)) { segment in
        segments.append(segment)
        return true
      }
      // Labels from one copy of each element's bytes under the viewport, not a rope walk each.
      let table = table!
      var k = 0
      while k < segments.count {
        let (e, elementStart) = table.element(at: segments[k].start)
        let item = table[e]
        let elementEnd = elementStart + item.text.utf8Count
        var m = k
        while m < segments.count && segments[m].start <= elementEnd { m += 1 }
        let lo = segments[k].start - elementStart
        let hi = Swift.min(segments[m - 1].end - elementStart, item.text.utf8Count)
        let bytes = item.text.bytes(lo..<hi)
        let itemID = table.id(of: item)
        for segment in segments[k..<m] {
          let local = (segment.start - elementStart)..<(segment.end - elementStart)
          let label = String(decoding: bytes[(local.lowerBound - lo)..<(local.upperBound - lo)], as: UTF8.self)
          result.append(
            RotorEntry(
              label: nil, id: itemID, namespace: nil,
              textRange: StringIndexABI.index(
                utf8Offset: local.lowerBound)..<StringIndexABI.index(
                  utf8Offset: local.upperBound), prepare: {}, textLabel: label))
        }
        k = m
      }
      return result
    }
    return found.map { self[$0] }
  }

  /// The entries overlapping `range` of the text of `element`, in document order.
  @_specialize(exported:true,where ID == Int)
  @_specialize(exported:true,where ID == String)
  public func entries(overlapping range: Range<String.Index>, in element: ID) -> [RotorEntry<ID>] {
    entries(
      from: TextPosition(element: element, index: range.lowerBound),
      to: TextPosition(element: element, index: range.upperBound))
  }

  /// Indices of the entries at a caret: those with `start <= position < end`, and empty entries at
  /// `position`.
  public func indices(containing position: TextPosition<ID>) -> [Int] { indices(from: position, to: position) }

  /// The entries at a caret: those with `start <= position < end`, and empty entries at it.
  @_specialize(exported:true,where ID == Int)
  @_specialize(exported:true,where ID == String)
  public func entries(containing position: TextPosition<ID>) -> [RotorEntry<ID>] {
    indices(containing: position).map { self[$0] }
  }

  // MARK: A rotor built on its own (not indexed)
  //
  // Such a rotor knows no element's text nor the document's order of elements: elements are
  // ordered as their first entries appear, a position in an element no entry names finds nothing,
  // and a whole-element entry (no `textRange`) holds every caret in its element, its end included
  // (added to a document, ``RotorDocument/addRotor(_:owner:)``, the rotor answers from the texts).

  /// Order of elements in a list rotor: the order their first entries appear in.
  private func listKeys() -> (ranks: [ID?: Int], keys: [(Int, Range<String.Index>?)]) {
    guard case .list(let entries) = storage else { return ([:], []) }
    var ranks: [ID?: Int] = [:]
    var keys: [(Int, Range<String.Index>?)] = []
    for entry in entries {
      let rank = ranks[entry.id] ?? ranks.count
      ranks[entry.id] = rank
      keys.append((rank, entry.textRange))
    }
    return (ranks, keys)
  }

  private func listIndex(after position: TextPosition<ID>) -> Int? {
    let (ranks, keys) = listKeys()
    guard let rank = ranks[position.element] else { return nil }
    return keys.firstIndex { key in
      key.0 > rank || (key.0 == rank && (key.1.map { $0.lowerBound > position.index } ?? false))
    }
  }

  private func listIndex(before position: TextPosition<ID>) -> Int? {
    let (ranks, keys) = listKeys()
    guard let rank = ranks[position.element] else { return nil }
    // A whole-element entry starts at the element's start: it is before every position but that
    // one (indices compare by offset, and every text's start is offset 0), as in an indexed rotor.
    let atElementStart = position.index <= "".startIndex
    return keys.lastIndex { key in
      key.0 < rank || (key.0 == rank && (key.1.map { $0.lowerBound < position.index } ?? !atElementStart))
    }
  }

  private func listIndices(from start: TextPosition<ID>, to end: TextPosition<ID>) -> [Int] {
    let (ranks, keys) = listKeys()
    guard let r0 = ranks[start.element], let r1 = ranks[end.element] else { return [] }
    return keys.indices.filter { i in
      let (rank, range) = keys[i]
      if rank < r0 || rank > r1 { return false }
      guard let range else { return true }
      let afterStart = rank > r0 || range.upperBound > start.index || range.lowerBound >= start.index
      let beforeEnd =
        rank < r1 || range.lowerBound < end.index || (range.lowerBound == end.index && r0 == r1 && start == end)
      return afterStart && beforeEnd
    }
  }
}

extension Rotor: Sendable where ID: Sendable {}
