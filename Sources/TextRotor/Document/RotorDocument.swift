/// A document: an ordered list of elements (an editor's paragraphs, a file's lines, ...) and its
/// rotors — system rotors built lazily from the text and cached, custom rotors added by name, and
/// rotors computed from the text by a matcher — all kept correct while the text is edited.
///
/// Positions: a ``TextPosition`` is an element and a `String.Index` into its text. Internally
/// (and in ``Rotor/location(at:)``) a position is a *document offset*: the elements' UTF-8 bytes
/// laid end to end in order with a gap between neighbours; for a document read from a file and
/// not yet edited, the file's byte offsets.
///
/// Not thread-safe (like an editor's text storage); the ``Rotor`` values it hands out are
/// snapshots that stay valid (for the text as it was) after later edits.
public final class RotorDocument<ID: Hashable> {
  var table: ElementTable<ID>
  /// The document's bytes at their document offsets and the elements' ranges in them, while they
  /// match the elements (dropped at the first edit, rebuilt when a new system rotor needs them).
  var source: (bytes: ByteStorage, ranges: [Range<Int>])?
  /// How system rotors are segmented (locale, threads for the first build).
  public let segmenter: Segmenter
  /// The document's namespace: entries whose namespace is nil or this one name its elements.
  public let namespace = RotorNamespace()
  /// What `move` calls an element in its announcement; by default its first line.
  public var elementName: (TextElement<ID>) -> String = { element in
    String(element.text.prefix { $0 != "\n" && $0 != "\r" && $0 != "\r\n" })
  }

  var systemIndexes: [SystemRotor: SegmentIndex] = [:]
  var customRotors: [String: IntervalIndex<CustomPayload<ID>>] = [:]
  var computedRotors: [String: ComputedRotor] = [:]
  /// Names of custom and computed rotors, in the order they were added.
  public private(set) var rotorNames: [String] = []

  /// A rotor whose entries a function computes from the text (a pattern rotor): re-run on the
  /// lines around each edit.
  struct ComputedRotor {
    /// Nil when the last update failed: recomputed in full when next asked for.
    var index: IntervalIndex<Void>?
    /// Sorted byte ranges of the entries inside `range` of `bytes`.
    var compute: (ByteStorage, Range<Int>) throws -> [Range<Int>]
  }

  /// A document of `elements` (ids must be unique).
  public convenience init(elements: [TextElement<ID>], segmenter: Segmenter = Segmenter()) {
    var table = ElementTable<ID>()
    var start = 0
    for element in elements {
      var text = element.text
      text.makeContiguousUTF8()
      table.ids.append(element.id)
      table.texts.append(text)
      table.starts.append(start)
      start += text.utf8.count + 1
    }
    table.reindex()
    self.init(table: table, source: nil, segmenter: segmenter)
  }

  init(table: ElementTable<ID>, source: (bytes: ByteStorage, ranges: [Range<Int>])?, segmenter: Segmenter) {
    self.table = table
    self.source = source
    self.segmenter = segmenter
  }

  // MARK: Elements

  /// The elements, in order.
  public var elements: [TextElement<ID>] {
    (0..<table.count).map { TextElement(id: table.ids[$0], text: table.texts[$0]) }
  }
  public var elementCount: Int { table.count }
  public var elementIDs: [ID] { table.ids }

  /// The element `id`, or nil.
  public func element(_ id: ID) -> TextElement<ID>? {
    guard let i = table.indexByID[id] else { return nil }
    return TextElement(id: id, text: table.texts[i])
  }

  /// The index of element `id` in the document, or nil.
  public func index(of id: ID) -> Int? { table.indexByID[id] }

  /// The text of element `id`.
  public func text(of id: ID) -> String { table.texts[table.index(of: id)] }

  // MARK: Positions

  /// The position at UTF-8 offset `offset` of element `id`'s text.
  public func position(in id: ID, utf8Offset offset: Int) -> TextPosition<ID> {
    let i = table.index(of: id)
    precondition(offset >= 0 && offset <= table.length(i), "offset \(offset) outside element \(id)")
    return TextPosition(element: id, index: table.stringIndex(element: i, utf8Offset: offset))
  }

  /// The position at a document offset (clamped into the element it falls in or after).
  public func position(atDocumentOffset offset: Int) -> TextPosition<ID> {
    let i = table.element(at: offset)
    let local = Swift.min(Swift.max(offset - table.starts[i], 0), table.length(i))
    return TextPosition(element: table.ids[i], index: table.stringIndex(element: i, utf8Offset: local))
  }

  /// The UTF-8 offset of `position` in its element's text. O(1).
  public func utf8Offset(of position: TextPosition<ID>) -> Int {
    table.utf8Offset(element: table.index(of: position.element), position.index)
  }

  /// The UTF-16 offset of `position` in its element's text.
  public func utf16Offset(of position: TextPosition<ID>) -> Int {
    let text = table.texts[table.index(of: position.element)]
    return text.utf16.distance(from: text.startIndex, to: position.index)
  }

  /// The document offset of `position` (a file offset for an unedited document from a file).
  public func documentOffset(of position: TextPosition<ID>) -> Int { table.documentOffset(position) }

  /// The line and column of `position` in its element's text (1-based; lines ended by LF, CRLF
  /// or CR; the column counted in `encoding`), and its UTF-16 offset. O(offset).
  public func location(of position: TextPosition<ID>, encoding: PositionEncoding = .utf8) -> TextLocation {
    let text = table.texts[table.index(of: position.element)]
    let utf8 = text.utf8
    let end = utf8.distance(from: utf8.startIndex, to: position.index)
    var line = 1
    var lineStart = 0
    var previous: UInt8 = 0
    var offset = 0
    for byte in utf8 {
      if offset >= end { break }
      if byte == 0x0A || byte == 0x0D {
        if !(byte == 0x0A && previous == 0x0D) { line += 1 }
        lineStart = offset + 1
      }
      previous = byte
      offset += 1
    }
    let lineStartIndex = utf8.index(utf8.startIndex, offsetBy: lineStart)
    let column: Int
    switch encoding {
    case .utf8: column = end - lineStart
    case .utf16: column = text.utf16.distance(from: lineStartIndex, to: position.index)
    case .utf32: column = text.unicodeScalars.distance(from: lineStartIndex, to: position.index)
    case .grapheme: column = text.distance(from: lineStartIndex, to: position.index)
    }
    return TextLocation(line: line, column: column + 1, utf16Offset: utf16Offset(of: position))
  }

  // MARK: System rotors

  /// The system rotor `kind`, segmented on first use and cached; kept up to date by edits.
  public func rotor(_ kind: SystemRotor) throws(ICUError) -> Rotor<ID> {
    Rotor(name: kind.rawValue, systemRotor: kind, storage: .segments(try systemIndex(kind)), table: table)
  }

  func systemIndex(_ kind: SystemRotor) throws(ICUError) -> SegmentIndex {
    if let index = systemIndexes[kind] { return index }
    let (bytes, ranges) = currentSource()
    let index = SegmentIndex(try segmenter.segment(bytes, elements: ranges, rotor: kind))
    systemIndexes[kind] = index
    return index
  }

  func currentSource() -> (bytes: ByteStorage, ranges: [Range<Int>]) {
    if let source { return source }
    let made = table.concatenated()
    source = (made.0, made.1)
    return (made.0, made.1)
  }

  // MARK: Custom rotors

  /// Adds (or replaces) a custom rotor named `name`, placing its entries in document order (ties
  /// keep the builder's order). Entries name elements by id (nil id: `owner`) in the document's
  /// namespace or none; entries that name no element are left out and returned.
  @discardableResult
  public func addRotor(
    _ name: String, owner: ID? = nil, @RotorContentBuilder entries: () -> [RotorEntry<ID>]
  ) -> [RotorEntry<ID>] {
    addRotor(Rotor(name, entries: entries()), owner: owner)
  }

  /// Adds (or replaces) `rotor` under its name (see ``addRotor(_:owner:entries:)``).
  @discardableResult
  public func addRotor(_ rotor: Rotor<ID>, owner: ID? = nil) -> [RotorEntry<ID>] {
    var placed: [(start: Int, order: Int, range: Range<Int>, payload: CustomPayload<ID>)] = []
    var unresolved: [RotorEntry<ID>] = []
    for (order, entry) in rotor.enumerated() {
      if let ns = entry.namespace, ns != namespace {
        unresolved.append(entry)
        continue
      }
      guard let id = entry.id ?? owner, let e = table.indexByID[id] else {
        unresolved.append(entry)
        continue
      }
      let length = table.length(e)
      var local = 0..<length
      if let r = entry.textRange {
        let lo = Swift.min(Swift.max(table.utf8Offset(element: e, r.lowerBound), 0), length)
        let hi = Swift.min(Swift.max(table.utf8Offset(element: e, r.upperBound), lo), length)
        local = lo..<hi
      }
      let s = table.starts[e]
      let range = (s + local.lowerBound)..<(s + local.upperBound)
      placed.append(
        (
          range.lowerBound, order, range,
          CustomPayload(
            label: entry.explicitLabel, id: entry.id, namespace: entry.namespace,
            hasTextRange: entry.textRange != nil, prepare: entry.prepare)
        ))
    }
    placed.sort { ($0.start, $0.order) < ($1.start, $1.order) }
    customRotors[rotor.name] = IntervalIndex(sorted: placed.lazy.map { ($0.range, $0.payload) })
    computedRotors[rotor.name] = nil
    if !rotorNames.contains(rotor.name) { rotorNames.append(rotor.name) }
    return unresolved
  }

  /// Adds (or replaces) a rotor whose entries `compute` finds in the text: given the document's
  /// bytes and a range of them (an element, or after an edit the lines around it), it returns the
  /// entries' byte ranges inside it, sorted by start (a pattern matcher's matches). After an edit
  /// only the edited lines are recomputed, so entries must not span a line break.
  @discardableResult
  public func addComputedRotor(
    named name: String, compute: @escaping (ByteStorage, Range<Int>) throws -> [Range<Int>]
  ) throws -> Rotor<ID> {
    var computed = ComputedRotor(index: nil, compute: compute)
    computed.index = try fullIndex(compute)
    computedRotors[name] = computed
    customRotors[name] = nil
    if !rotorNames.contains(name) { rotorNames.append(name) }
    return Rotor(name: name, storage: .matches(computed.index!), table: table)
  }

  func fullIndex(_ compute: (ByteStorage, Range<Int>) throws -> [Range<Int>]) throws -> IntervalIndex<Void> {
    let (bytes, ranges) = currentSource()
    var all: [(Range<Int>, Void)] = []
    for range in ranges { all.append(contentsOf: try compute(bytes, range).map { ($0, ()) }) }
    return IntervalIndex(sorted: all)
  }

  /// The custom or computed rotor named `name`, or nil. A computed rotor whose last update
  /// failed is recomputed (and nil if that fails too).
  public func rotor(named name: String) -> Rotor<ID>? {
    if let index = customRotors[name] { return Rotor(name: name, storage: .custom(index), table: table) }
    guard var computed = computedRotors[name] else { return nil }
    if computed.index == nil {
      guard let index = try? fullIndex(computed.compute) else { return nil }
      computed.index = index
      computedRotors[name] = computed
    }
    return Rotor(name: name, storage: .matches(computed.index!), table: table)
  }

  /// Removes the custom or computed rotor named `name`.
  public func removeRotor(named name: String) {
    customRotors[name] = nil
    computedRotors[name] = nil
    rotorNames.removeAll { $0 == name }
  }
}

extension RotorDocument where ID == Int {
  /// The file at `path` (`"-"`: standard input) divided into elements as `elements` says; element
  /// ids are their 0-based indices. While the document is not edited, document offsets are the
  /// file's byte offsets. Ill-formed UTF-8 is read as U+FFFD (then offsets follow the repaired
  /// text).
  public convenience init(
    contentsOf path: String, elements kind: ElementKind = .whole, segmenter: Segmenter = Segmenter()
  ) throws(FileError) {
    let bytes = try ByteStorage.contentsOf(path: path)
    let ranges = kind.ranges(in: bytes)
    let valid = ranges.allSatisfy { bytes.firstInvalidUTF8(in: $0) == nil }
    guard valid else {
      self.init(
        elements: ranges.enumerated().map { TextElement(id: $0.offset, text: bytes.string($0.element)) },
        segmenter: segmenter)
      return
    }
    var table = ElementTable<Int>()
    table.ids = Array(ranges.indices)
    table.texts = ranges.map { bytes.string($0) }
    table.starts = ranges.map(\.lowerBound)
    table.reindex()
    self.init(table: table, source: (bytes, ranges), segmenter: segmenter)
  }
}
