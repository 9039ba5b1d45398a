import TextRotorICU

/// A document: an ordered list of elements (an editor's paragraphs, a file's lines, or one whole
/// buffer) and its rotors — system rotors built lazily from the text and cached, custom rotors
/// added by name, and rotors computed from the text by a matcher — all kept correct while the text
/// is edited.
///
/// Storage (see the "Architecture" article): the elements live in a summarized B-tree
/// (``SumTree``) whose nodes count elements, bytes, UTF-16 units, scalars and line breaks; each
/// element's text is a rope of UTF-8 chunks in the same kind of tree (slices of the mapped file for
/// a document read from a file); every rotor's index is a tree of chunks positioned by prefix sums.
/// So an edit, an element insertion, removal or move, and every position conversion is O(log n),
/// and nothing after an edit is ever shifted.
///
/// Positions: a ``TextPosition`` is an element and a `String.Index` into its text; ``utf8Offset(of:)``,
/// ``utf16Offset(of:)``, ``location(of:encoding:)`` and ``position(in:line:character:encoding:)``
/// convert in O(log n). Internally (and in ``Rotor/location(at:)``) a position is a *document offset*:
/// the bytes before the first element, then each element's UTF-8 bytes followed by the gap after
/// it; for a document read from a file, the file's byte offsets, edits or not.
///
/// Not thread-safe (like an editor's text storage); the ``Rotor`` values and ``snapshot()`` it hands
/// out are O(1) immutable snapshots that stay valid (for the text as it was) after later edits and
/// can be read on other threads.
public final class RotorDocument<ID: Hashable> {
  var table: DocumentText<ID>
  /// The file's bytes and the elements' ranges in it, while no edit has happened: system rotors
  /// are then segmented straight from the mapped file, in parallel.
  var source: (bytes: ByteStorage, ranges: [Range<Int>])?
  /// How system rotors are segmented (locale, threads for the first build).
  public let segmenter: Segmenter
  /// The document's namespace: entries whose namespace is nil or this one name its elements.
  public let namespace = RotorNamespace()
  /// What `move` calls an element in its announcement: its first line, trimmed and shortened to
  /// about 40 characters at a word boundary, as a screen reader would say it.
  public var elementName: (TextElement<ID>) -> String = { element in RotorDocument.shortName(element.text) }
  /// Bumped by every edit; a snapshot or rotor taken at an older generation is stale.
  public internal(set) var generation = 0
  /// What the latest edit changed (nil before the first): the same report `replace` and `insert`
  /// return, and the only one for `remove` (which returns the element) and `move` (which returns
  /// its announcement). For a move, each rotor's `removed` indices are the element's entries at its
  /// old place (before the move) and `added` those at its new place (after it).
  public internal(set) var lastChange: DocumentChange<ID>?

  var systemIndexes = SystemIndexes()
  var customRotors: [String: IntervalIndex<CustomPayload>] = [:]
  var computedRotors: [String: ComputedRotor] = [:]
  var anchors = AnchorIndex()
  /// How the text is read for the structure rotors (``rotor(_:)-structure``): Markdown or text.
  public var format: DocumentFormat = .text
  /// The structure rotors, once one was asked for (see Structure/).
  var structure: StructureIndexes? = nil
  /// The misspelled-words rotor, once asked for (see Structure/Misspellings.swift).
  var spelling: SpellingIndex? = nil
  /// Segments the windows around edits with iterators kept across edits: the document's
  /// segmenter (its locale, and its fast paths on or off) on one thread.
  lazy var windowSegmenter: WindowSegmenter = {
    var window = Segmenter(locale: segmenter.locale, threads: 1, pieceSize: segmenter.pieceSize)
    window.useFastPaths = segmenter.useFastPaths
    return WindowSegmenter(window)
  }()
  /// Lines longer than this (in bytes, on a side of an edit) are not re-segmented whole after an
  /// edit (see `longLineUpdate`); settable for tests.
  var longLineThreshold = 16_384
  /// How far from an edit in a long line an old boundary is looked for before the rule machine's
  /// re-synchronization is tried (`boundaryUpdate`, `resyncUpdate`); settable for tests.
  var boundaryReach = 1 << 16
  /// Whether a keystroke inside a run of letters or digits updates the rotors without segmenting
  /// (`runUpdate`): on when fast paths are and the locale's ASCII rules are root's; settable for
  /// tests of the other paths.
  lazy var runEdits = windowSegmenter.segmenter.useFastPaths && FastPath.supports(locale: segmenter.locale)
  /// Edits whose update of a rotor came from `runUpdate` (for tests).
  var runUpdates = 0
  /// Edits whose update of a rotor came from the rule machine's re-synchronization (for tests).
  var resynchronized = 0
  /// Lines and paragraphs updates of edits that add or remove line breaks made from the bytes
  /// around the edit (`lineBreakUpdate`), not by segmenting the lines it touches (for tests).
  var lineBreakUpdates = 0
  /// Paragraph updates made from the lines around the edit and the old paragraphs
  /// (`paragraphUpdate`: a line made blank or non-blank, line breaks added or removed), not by
  /// segmenting the paragraphs around it (for tests).
  var paragraphUpdates = 0
  /// Pattern rotor updates matched again only until the new matches fell in step with the old
  /// ones (`convergentMatches`), not over the edited long line (for tests).
  var convergentMatchUpdates = 0
  /// Edits whose update of a rotor came from a boundary window wider than 1 KB, after the
  /// re-synchronization over 1 KB could not tell (for tests).
  var wideBoundaryUpdates = 0
  /// Edits whose prose sentences were re-segmented from a boundary near the edit, not over the
  /// whole paragraph (for tests).
  var proseLocalUpdates = 0
  /// Prose sentences updates of edits that changed line breaks or a line's blankness, made from
  /// the bytes whose prose reading changed (`proseReadingSpan`), not by segmenting the paragraph
  /// (for tests).
  var proseLineBreakUpdates = 0
  /// Names of custom and computed rotors, in the order they were added.
  public private(set) var rotorNames: [String] = []

  /// A rotor whose entries a function computes from the text (a pattern rotor): re-run on the
  /// lines around each edit.
  struct ComputedRotor {
    /// Nil when the last update failed: recomputed in full when next asked for.
    var index: IntervalIndex<Void>?
    /// Sorted byte ranges of the entries inside `range` of `bytes`.
    var compute: (ByteStorage, Range<Int>) throws -> [Range<Int>]
    /// How far an entry reads, when every entry is non-empty and decided by its own bytes alone
    /// (a pattern's matches: ``Pattern/convergentReach``); nil when unknown. With it an edit
    /// inside a long line is matched again only until the new entries fall in step with the old
    /// ones (`convergentMatches`), not over the whole line.
    var reach: MatchReach? = nil
    /// For ``MatchReach/words(_:)``: the entries starting in a range (the second), read with the
    /// text of a wider one around it (the third) as their context; nil when that context does not
    /// decide them (``PatternMatcher/localWholeWordMatches(in:range:context:)``).
    var local: ((ByteStorage, Range<Int>, Range<Int>) throws -> [Range<Int>]?)? = nil
    /// For ``MatchReach/words(_:)``: the runs (``MatchReach/runs(_:readsBehind:)``) an update
    /// falls back to when a candidate near the edit needs ICU, before the whole line.
    var fallback: MatchReach? = nil

    /// ``compute`` for the bytes `range` of `storage`, which an edit hands it (a chunk of an
    /// element's text, or a copy), as a rebuild matches them. When it may read past the range (a
    /// word boundary, `^`, `$`, a whole word's check, a client's closure), it is given a copy of
    /// the range alone. A chunk's storage holds, around the chunk's bytes, bytes that are not the
    /// text's there (an edit that removes bytes keeps the storage and narrows the chunk), which
    /// ICU's transparent bounds read: `\bthe\b` after `1` was deleted before `the` at the
    /// element's start found nothing (found in the twenty-ninth session). Alone, the range reads
    /// as it does at the edge of a text, which is what the text around it holds for every range
    /// an edit matches this way: whole lines (their edges are line breaks or the element's), and
    /// after the element's end (`endsElement`) a line break, as a rebuild reads the element
    /// followed by its gap (`^` after a trailing VT matches there). (A long line's pieces matched
    /// by runs read behind are copied with the separator before them: `convergentMatches`.) A
    /// pattern whose entries read nothing around them (``MatchReach/bytes(_:)``, runs not read
    /// behind) is given the chunk as it is.
    func matches(_ storage: ByteStorage, _ range: Range<Int>, endsElement: Bool) throws -> [Range<Int>] {
      switch reach {
      case .bytes?, .runs(_, readsBehind: false)?: return try compute(storage, range)
      default:
        if !endsElement && range == 0..<storage.count { return try compute(storage, range) }
        let alone = storage.copy(range, appending: endsElement ? [0x0A] : [])
        let k = range.lowerBound
        return try compute(alone, 0..<range.count).map { ($0.lowerBound + k)..<($0.upperBound + k) }
      }
    }
  }

  /// A document of `elements`. Throws ``DocumentError/duplicateElement(_:)`` when two share an id.
  public init(elements: [TextElement<ID>], segmenter: Segmenter = Segmenter()) throws(DocumentError) {
    table = try DocumentText(elements: elements.map { ($0.id, TextRope($0.text), ElementItem.virtualGap) })
    self.segmenter = segmenter
  }

  init(table: DocumentText<ID>, source: (bytes: ByteStorage, ranges: [Range<Int>])?, segmenter: Segmenter) {
    self.table = table
    self.source = source
    self.segmenter = segmenter
  }

  // MARK: Elements

  /// The elements, in order (each text made into a `String`: O(document)).
  public var elements: [TextElement<ID>] {
    var result: [TextElement<ID>] = []
    result.reserveCapacity(table.count)
    table.tree.forEach { _, _, item in
      result.append(TextElement(id: table.id(of: item), text: item.text.string))
      return true
    }
    return result
  }
  public var elementCount: Int { table.count }
  public var elementIDs: [ID] {
    var result: [ID] = []
    result.reserveCapacity(table.count)
    table.tree.forEach { _, _, item in
      result.append(table.id(of: item))
      return true
    }
    return result
  }

  /// The id of the element at `index` (0-based), or nil. O(log n).
  public func elementID(at index: Int) -> ID? { index >= 0 && index < table.count ? table.id(at: index) : nil }

  /// The element `id`, or nil.
  public func element(_ id: ID) -> TextElement<ID>? {
    guard let i = table.index(of: id) else { return nil }
    return TextElement(id: id, text: table[i].text.string)
  }

  /// The index of element `id` in the document, or nil. O(log n).
  public func index(of id: ID) -> Int? { table.index(of: id) }

  /// The text of element `id` as a `String` (O(its length): an editor holding one huge element
  /// asks for ranges with ``text(of:in:)`` instead).
  public func text(of id: ID) throws(DocumentError) -> String { table[try table.require(id)].text.string }

  /// The text of `range` (UTF-8 offsets) of element `id`.
  public func text(of id: ID, in range: Range<Int>) throws(DocumentError) -> String {
    let text = table[try table.require(id)].text
    try Self.check(range.lowerBound, in: text)
    try Self.check(range.upperBound, in: text)
    return text.string(range.lowerBound..<Swift.max(range.lowerBound, range.upperBound))
  }

  /// The length of element `id`'s text in UTF-8 bytes.
  public func utf8Count(of id: ID) throws(DocumentError) -> Int { table[try table.require(id)].text.utf8Count }

  /// An O(1) snapshot of the document's text, for reading on any thread while editing goes on.
  public func snapshot() -> DocumentSnapshot<ID> { DocumentSnapshot(table: table, generation: generation) }

  // MARK: Positions

  static func check(_ offset: Int, in text: TextRope) throws(DocumentError) {
    guard offset >= 0 && offset <= text.utf8Count else { throw .offsetOutOfRange(offset, length: text.utf8Count) }
    guard text.isScalarBoundary(offset) else { throw .insideUTF8Sequence(offset) }
  }

  /// The position at UTF-8 offset `offset` of element `id`'s text. O(log n).
  @_specialize(exported:true,where ID == Int)
  @_specialize(exported:true,where ID == String)
  public func position(in id: ID, utf8Offset offset: Int) throws(DocumentError) -> TextPosition<ID> {
    try Self.check(offset, in: table[try table.require(id)].text)
    return TextPosition(element: id, index: StringIndexABI.index(utf8Offset: offset))
  }

  /// The position at UTF-16 offset `offset` of element `id`'s text (rounded down to a scalar
  /// boundary when it falls between the halves of a surrogate pair). O(log n).
  @_specialize(exported:true,where ID == Int)
  @_specialize(exported:true,where ID == String)
  public func position(in id: ID, utf16Offset offset: Int) throws(DocumentError) -> TextPosition<ID> {
    let text = table[try table.require(id)].text
    guard offset >= 0 && offset <= text.utf16Count else { throw .offsetOutOfRange(offset, length: text.utf16Count) }
    return TextPosition(
      element: id, index: StringIndexABI.index(utf8Offset: text.utf8Offset(advancing: offset, .utf16)))
  }

  /// The position at LSP (line, character) of element `id`'s text: `line` 0-based, `character`
  /// counted in `encoding` from the line's start and clamped to the line's end, as LSP 3.17 says.
  /// O(log n) (grapheme counts: O(line)).
  @_specialize(exported:true,where ID == Int)
  @_specialize(exported:true,where ID == String)
  public func position(in id: ID, line: Int, character: Int, encoding: PositionEncoding = .utf16)
    throws(DocumentError) -> TextPosition<ID>
  {
    let text = table[try table.require(id)].text
    guard line >= 0, let start = text.lineStart(line) else { throw .lineOutOfRange(line, lines: text.lineCount) }
    let end = text.firstLineTerminator(from: start) ?? text.utf8Count
    return TextPosition(
      element: id,
      index: StringIndexABI.index(utf8Offset: Self.offset(in: text, line: start..<end, character, encoding)))
  }

  static func offset(in text: TextRope, line: Range<Int>, _ character: Int, _ encoding: PositionEncoding) -> Int {
    // A line of n bytes has at most n units in any encoding: clamped first, so that no character
    // count (`Int.max` included) overflows the sums below.
    let c = Swift.min(Swift.max(character, 0), line.count)
    switch encoding {
    case .utf8: return text.scalarBoundary(atOrBefore: Swift.min(line.lowerBound + c, line.upperBound))
    case .utf16, .utf32:
      return text.utf8Offset(
        advancing: c, encoding == .utf16 ? .utf16 : .scalars, from: line.lowerBound, limit: line.upperBound)
    case .grapheme:
      let s = text.string(line)
      let index = s.index(s.startIndex, offsetBy: c, limitedBy: s.endIndex) ?? s.endIndex
      return line.lowerBound + s.utf8.distance(from: s.startIndex, to: index)
    }
  }

  /// The position at a document offset (clamped into the element it falls in or after). Throws
  /// ``DocumentError/elementIndexOutOfRange(_:count:)`` when the document has no element.
  public func position(atDocumentOffset offset: Int) throws(DocumentError) -> TextPosition<ID> {
    guard table.count > 0 else { throw .elementIndexOutOfRange(0, count: 0) }
    return table.position(atDocumentOffset: offset)
  }

  /// The UTF-8 offset of `position` in its element's text. O(log n).
  @_specialize(exported:true,where ID == Int)
  @_specialize(exported:true,where ID == String)
  public func utf8Offset(of position: TextPosition<ID>) throws(DocumentError) -> Int {
    try table.utf8Offset(in: try table.require(position.element), position.index)
  }

  /// The UTF-16 offset of `position` in its element's text. O(log n).
  @_specialize(exported:true,where ID == Int)
  @_specialize(exported:true,where ID == String)
  public func utf16Offset(of position: TextPosition<ID>) throws(DocumentError) -> Int {
    let i = try table.require(position.element)
    // An index of `utf16` between a surrogate pair's halves counts the first, as Swift counts it.
    let (o, half) = try table.utf8OffsetAndHalf(in: i, position.index)
    return table[i].text.utf16Offset(ofUTF8: o) + half
  }

  /// The document offset of `position` (a file offset for a document read from a file).
  @_specialize(exported:true,where ID == Int)
  @_specialize(exported:true,where ID == String)
  public func documentOffset(of position: TextPosition<ID>) throws(DocumentError) -> Int {
    try table.documentOffset(position)
  }

  /// The line and column of `position` in its element's text (1-based; lines ended by LF, CRLF
  /// or CR; the column counted in `encoding`), and its UTF-16 offset in the element. O(log n)
  /// (grapheme columns: O(line)).
  @_specialize(exported:true,where ID == Int)
  @_specialize(exported:true,where ID == String)
  public func location(of position: TextPosition<ID>, encoding: PositionEncoding = .utf8) throws(DocumentError)
    -> TextLocation
  {
    let i = try table.require(position.element)
    let text = table[i].text
    // An index of `utf16` between a surrogate pair's halves: its UTF-16 offset and column count
    // the first half (the other encodings round it to the scalar).
    let (o, half) = try table.utf8OffsetAndHalf(in: i, position.index)
    let (line, start, sums, counts) = text.lineStartAndSummary(ofUTF8: o)
    let column: Int
    switch encoding {
    case .utf8: column = o - start
    case .utf16: column = counts.utf16 + half
    case .utf32: column = counts.scalars
    case .grapheme: column = text.string(start..<o).count
    }
    return TextLocation(line: line + 1, column: column + 1, utf16Offset: sums.utf16 + half)
  }

  /// The line and column of `position` in the whole document (for a document read from a file:
  /// the file's lines and columns, whatever the elements, a byte order mark counted in the first
  /// line's columns as in the CLI's), and its UTF-16 offset from the document's start.
  @_specialize(exported:true,where ID == Int)
  @_specialize(exported:true,where ID == String)
  public func documentLocation(of position: TextPosition<ID>, encoding: PositionEncoding = .utf8)
    throws(DocumentError) -> TextLocation
  {
    let i = try table.require(position.element)
    let text = table[i].text
    let o = try table.utf8Offset(in: i, position.index)
    let before = table.origin.adding(table.tree.summary(before: i).text)
    var (line, local) = text.lineAndSummary(ofUTF8: o)
    // At the start of a text starting with LF after a gap ending in CR (a file's CR line
    // terminator, then an LF typed at the start of the next line), the position is between the
    // CR and the LF of the document's text: on the CR's line, after it.
    // A separator of several lines (or the origin) ending in CR: that CR's line starts in it.
    let atLF = o == 0 && table.startsWithLF(i)
    if atLF, let last = table.separatorLastLine(before: i) {
      let column: Int
      switch encoding {
      case .utf8: column = last.utf8
      case .utf16: column = last.utf16
      case .utf32, .grapheme: column = last.scalars
      }
      return TextLocation(line: before.lineBreaks, column: column + 1, utf16Offset: before.utf16)
    }
    if atLF && i > 0, case let gap = table[i - 1].gap, gap.lastIsCR, gap.lineBreaks == 1 {
      let end = try self.position(in: table.id(at: i - 1), utf8Offset: table[i - 1].text.utf8Count)
      let previous = try documentLocation(of: end, encoding: encoding)
      // The gap (a `.lines` gap is the CR alone; one line break: all of it is on the CR's line).
      let rest: Int
      switch encoding {
      case .utf8: rest = gap.utf8
      case .utf16: rest = gap.utf16
      case .utf32, .grapheme: rest = gap.scalars
      }
      return TextLocation(
        line: previous.line, column: previous.column + rest, utf16Offset: before.utf16)
    }
    // At the end of a text ending in CR whose gap to the next element starts with LF (an element
    // "a\r" followed by the virtual line feed, or by a file's LF after an edit), the position is
    // between the CR and the LF of the document's text: on the CR's line, as inside an element.
    // (After the last element, only a file's own terminator is text: a virtual gap is not, and a
    // file ending in CR has no LF after it.)
    let beforeGapLF =
      o > 0 && o == text.utf8Count && (i + 1 < table.count || !table[i].gap.isVirtualGap) && local.lastIsCR
      && table[i].gap.firstIsLF
    if beforeGapLF { line -= 1 }
    let start = text.lineStart(line) ?? 0
    var column = Self.column(text, from: start, to: o, encoding)
    // The element's first line starts in the separator before it when that separator does not
    // end in a line break: a byte order mark (the whole origin), or the spaces after a file's last
    // blank line in front of an element moved after them. Their bytes are in the line's columns
    // (a byte order mark and each space are one grapheme each).
    if line == 0, let tail = table.separatorTail(before: i) {
      switch encoding {
      case .utf8: column += tail.utf8
      case .utf16: column += tail.utf16
      case .utf32, .grapheme: column += tail.scalars
      }
    }
    let lineBreaks =
      before.adding(local).lineBreaks
      - (local.lastIsCR && (beforeGapLF || (o < text.utf8Count && text.byte(at: o) == 0x0A)) ? 1 : 0)
    return TextLocation(line: lineBreaks + 1, column: column + 1, utf16Offset: before.utf16 + local.utf16)
  }

  /// The position at LSP (line, character) of the whole document (for a document read from a
  /// file: the file's lines, whatever the elements; the inverse of ``documentLocation(of:encoding:)``):
  /// `line` 0-based, `character` counted in `encoding` from the line's start (a byte order mark
  /// counted in the first line, as there) and clamped to the line's end, as LSP 3.17 says. A line
  /// that no element holds (a blank line between paragraphs, the empty line after a file's last
  /// terminator) gives the start of the next element, or the end of the last. O(log n) (grapheme
  /// counts: O(line)).
  @_specialize(exported:true,where ID == Int)
  @_specialize(exported:true,where ID == String)
  public func position(atDocumentLine line: Int, character: Int, encoding: PositionEncoding = .utf16)
    throws(DocumentError) -> TextPosition<ID>
  {
    guard table.count > 0 else { throw .elementIndexOutOfRange(0, count: 0) }
    let n = table.count
    let origin = table.origin
    // The virtual line feed after the last element is no text: no line starts after it.
    let all =
      table[n - 1].gap.isVirtualGap
      ? origin.adding(table.tree.summary(before: n - 1).text).adding(table[n - 1].text.summary)
      : origin.adding(table.tree.summary.text)
    let lines = all.lineBreaks + 1
    guard line >= 0 && line < lines else { throw .lineOutOfRange(line, lines: lines) }
    // Where the line starts: at `s` in element `e`'s text, or (nil) in a separator before `e`;
    // `tail`: the line's bytes in the separator before `e` when it starts there and goes on into
    // the element (a byte order mark, spaces after a file's last blank line).
    var e = 0
    var s: Int? = 0
    var tail: TextSummary? = nil
    /// The line start after a CR that ends the separator before element `e`: after the LF that
    /// follows it (the element's first byte, or its gap's when it is empty), if one does.
    func afterCR(_ e: Int) -> (Int, Int?) {
      guard table.startsWithLF(e) else { return (e, 0) }
      if table[e].text.utf8Count > 0 { return (e, 1) }
      // An empty element: the LF is its gap's first byte. A gap of that LF alone (and the spaces
      // after it) ends where the next element's first line goes on; a longer one holds the line.
      let gap = table[e].gap
      return gap.lineBreaks == 1 && e + 1 < n ? (e + 1, 0) : (e + 1, nil)
    }
    if line == 0 {
      if origin.lineBreaks > 0 { s = nil } else { tail = table.separatorTail(before: 0) }
    } else if line <= origin.lineBreaks {
      // The line break ends in the origin: at its end (or after an LF the first element starts
      // with, a CR's other half), or inside it.
      if line < origin.lineBreaks {
        s = nil
      } else if origin.lastIsCR {
        (e, s) = afterCR(0)
      } else {
        tail = table.separatorTail(before: 0)
      }
    } else {
      let (j, spans) = table.tree.seek { origin.adding($0.text).lineBreaks >= line }
      let prefix = origin.adding(spans.text)
      var k = line - prefix.lineBreaks
      let item = table[j]
      let text = item.text
      let t = text.summary
      // A CR before the span and an LF at its start are one line break, counted before it.
      let merged = prefix.lastIsCR && t.utf8 > 0 && t.firstIsLF
      let inText = t.lineBreaks - (merged ? 1 : 0)
      let last = j + 1 == n
      if k <= inText {
        if merged { k += 1 }
        let start = text.lineStart(k)!
        if start == text.utf8Count && t.lastIsCR && item.gap.firstIsLF && !(last && item.gap.isVirtualGap) {
          // The break is a CR whose LF starts the gap: the line starts after that LF.
          (e, s) = item.gap.lineBreaks == 1 && !last ? (j + 1, 0) : (j + 1, nil)
        } else {
          (e, s) = (j, start)
        }
      } else if !last && prefix.adding(item.summary.text).lineBreaks == line {
        // The gap's last line break: the next element's first line starts there (after the LF
        // the element starts with, when the gap ends in CR), or in the spaces after it.
        if item.gap.lastIsCR { (e, s) = afterCR(j + 1) } else { e = j + 1 }
      } else {
        (e, s) = (j + 1, nil)
      }
    }
    if s == 0, tail == nil { tail = table.separatorTail(before: e) }
    var character = character
    if let tail {
      // The separator's part of the line (each of its characters is one grapheme).
      let units: Int
      switch encoding {
      case .utf8: units = tail.utf8
      case .utf16: units = tail.utf16
      case .utf32, .grapheme: units = tail.scalars
      }
      character = Swift.max(character, 0) - units
    }
    guard let s else {
      // In a separator: the next element's start, or the last one's end.
      if e < n { return TextPosition(element: table.id(at: e), index: StringIndexABI.index(utf8Offset: 0)) }
      return TextPosition(
        element: table.id(at: n - 1), index: StringIndexABI.index(utf8Offset: table[n - 1].text.utf8Count))
    }
    let text = table[e].text
    let end = text.firstLineTerminator(from: s) ?? text.utf8Count
    return TextPosition(
      element: table.id(at: e),
      index: StringIndexABI.index(utf8Offset: Self.offset(in: text, line: s..<end, character, encoding)))
  }

  static func column(_ text: TextRope, from start: Int, to o: Int, _ encoding: PositionEncoding) -> Int {
    switch encoding {
    case .utf8: return o - start
    case .utf16: return text.counts(in: start..<o).utf16
    case .utf32: return text.counts(in: start..<o).scalars
    case .grapheme: return text.string(start..<o).count
    }
  }

  /// The number of lines of element `id`'s text.
  public func lineCount(of id: ID) throws(DocumentError) -> Int { table[try table.require(id)].text.lineCount }

  // MARK: System rotors

  /// The system rotor `kind`: segmented on first use (which throws only if ICU fails) and then
  /// kept up to date by edits.
  public func rotor(_ kind: SystemRotor) throws(ICUError) -> Rotor<ID> {
    Rotor(name: kind.rawValue, systemRotor: kind, storage: .segments(try systemIndex(kind)), table: table)
  }

  /// The system rotor `kind` if it is already built (never throws, never segments).
  public func cachedRotor(_ kind: SystemRotor) -> Rotor<ID>? {
    systemIndexes[kind].map { Rotor(name: kind.rawValue, systemRotor: kind, storage: .segments($0), table: table) }
  }

  func systemIndex(_ kind: SystemRotor) throws(ICUError) -> SegmentIndex {
    if let index = systemIndexes[kind] { return index }
    var stores: [(SegmentStore, delta: Int)] = []
    let emptyLines = emptyElementsAreLines
    try forEachBatch(rotor: kind) { (bytes, ranges, delta) throws(ICUError) in
      if kind == .lines {
        stores.append((Segmenter.lines(bytes, elements: ranges, emptyElementsAreLines: emptyLines), delta))
      } else {
        stores.append((try segmenter.segment(bytes, elements: ranges, rotor: kind), delta))
      }
    }
    let index = SegmentIndex(stores, width: table.length)
    systemIndexes[kind] = index
    return index
  }

  /// Whether an empty element is an empty line of the `lines` rotor: among several elements (a
  /// file's lines read as elements, where a blank line is an empty element), as ``FileNavigation``
  /// counts lines. A lone empty element is an empty text, which has no lines.
  var emptyElementsAreLines: Bool { table.count > 1 }

  /// Calls `body` with the document's text in batches of contiguous bytes: the elements' ranges
  /// in a storage, and what to add to a storage offset to get a document offset. An unedited file
  /// is one batch (the mapped file itself); otherwise elements are copied into buffers of about
  /// 16 MB at a time (a longer element is cut at safe points for `rotor`), so memory stays bounded.
  func forEachBatch<E: Error>(
    rotor: SystemRotor?, _ body: (ByteStorage, [Range<Int>], Int) throws(E) -> Void
  ) throws(E) {
    if let source {
      try body(source.bytes, source.ranges, 0)
      return
    }
    let limit = 16 << 20
    var buffer: [UInt8] = []
    var ranges: [Range<Int>] = []
    var bufferStart = 0
    var position = table.origin.utf8
    func flush() throws(E) {
      if !ranges.isEmpty { try body(ByteStorage(buffer), ranges, bufferStart) }
      buffer.removeAll(keepingCapacity: true)
      ranges.removeAll()
    }
    for i in 0..<table.count {
      let item = table[i]
      let text = item.text
      if text.utf8Count > limit {
        try flush()
        // A long element: windows cut after line breaks (blank lines for paragraphs), each in a
        // storage of its own (a window inside one chunk is that chunk's storage, whose bytes
        // beside it are not the text's, and a regex's transparent bounds read them), the last
        // followed by the element's gap, as the small elements' buffer has it (`^` after a VT
        // that ends the element matches there).
        var p = 0
        while p < text.utf8Count {
          let q = text.cut(after: Swift.min(p + limit, text.utf8Count), rotor: rotor)
          var (storage, r) = text.contiguous(p..<q)
          let gap: [UInt8] = q == text.utf8Count && item.gap.utf8 > 0 ? [0x0A] : []
          if r != 0..<storage.count || !gap.isEmpty {
            storage = storage.copy(r, appending: gap)
            r = 0..<(q - p)
          }
          try body(storage, [r], position + p - r.lowerBound)
          p = q
        }
      } else {
        if ranges.isEmpty { bufferStart = position }
        let lo = buffer.count
        text.forEachPiece(in: 0..<text.utf8Count) { storage, r in buffer.append(contentsOf: storage.copyBytes(r)) }
        ranges.append(lo..<buffer.count)
        for _ in 0..<item.gap.utf8 { buffer.append(0x0A) }
        if buffer.count >= limit { try flush() }
      }
      position += item.summary.text.utf8
    }
    try flush()
  }

  // MARK: Custom rotors

  /// Adds (or replaces) a custom rotor named `name`, placing its entries in document order (ties
  /// keep the builder's order). Entries name elements by id (nil id: `owner`) in the document's
  /// namespace or none; entries that name no element are left out and returned. An entry without
  /// a text range targets its whole element and follows its text as it grows or shrinks.
  @discardableResult
  public func addRotor(
    _ name: String, owner: ID? = nil, @RotorContentBuilder entries: () -> [RotorEntry<ID>]
  ) -> [RotorEntry<ID>] {
    addRotor(Rotor(name, entries: entries()), owner: owner)
  }

  /// Adds (or replaces) `rotor` under its name (see ``addRotor(_:owner:entries:)``).
  @discardableResult
  public func addRotor(_ rotor: Rotor<ID>, owner: ID? = nil) -> [RotorEntry<ID>] {
    var placed: [(start: Int, order: Int, range: Range<Int>, payload: CustomPayload)] = []
    var unresolved: [RotorEntry<ID>] = []
    for (order, entry) in rotor.enumerated() {
      if let ns = entry.namespace, ns != namespace {
        unresolved.append(entry)
        continue
      }
      guard let id = entry.id ?? owner, let e = table.index(of: id) else {
        unresolved.append(entry)
        continue
      }
      let length = table[e].text.utf8Count
      var local = 0..<length
      if let r = entry.textRange {
        guard let lo = try? table.utf8Offset(in: e, r.lowerBound), let hi = try? table.utf8Offset(in: e, r.upperBound)
        else {
          unresolved.append(entry)
          continue
        }
        local = lo..<Swift.max(lo, hi)
      }
      let s = table.start(of: e)
      let range = (s + local.lowerBound)..<(s + local.upperBound)
      placed.append(
        (
          range.lowerBound, order, range,
          CustomPayload(
            label: entry.explicitLabel, hasID: entry.id != nil, namespace: entry.namespace,
            hasTextRange: entry.textRange != nil, prepare: entry.prepare)
        ))
    }
    placed.sort { ($0.start, $0.order) < ($1.start, $1.order) }
    customRotors[rotor.name] = IntervalIndex(sorted: placed.lazy.map { ($0.range, $0.payload) }, width: table.length)
    computedRotors[rotor.name] = nil
    if !rotorNames.contains(rotor.name) { rotorNames.append(rotor.name) }
    return unresolved
  }

  /// Adds (or replaces) a rotor whose entries `compute` finds in the text: given a storage of the
  /// document's bytes and the range of one element (or, after an edit, of the lines around it) in
  /// it, it returns the entries' byte ranges inside that range, sorted by start (a pattern
  /// matcher's matches). After an edit only the edited lines are recomputed, so entries must not
  /// span a line break.
  @discardableResult
  public func addComputedRotor(
    named name: String, compute: @escaping (ByteStorage, Range<Int>) throws -> [Range<Int>]
  ) throws -> Rotor<ID> {
    try addComputedRotor(named: name, reach: nil, compute: compute)
  }

  /// ``addComputedRotor(named:compute:)`` with how far one entry reads, when every entry is
  /// non-empty and decided by its own bytes alone (see `ComputedRotor.reach`).
  func addComputedRotor(
    named name: String, reach: MatchReach?,
    local: ((ByteStorage, Range<Int>, Range<Int>) throws -> [Range<Int>]?)? = nil, fallback: MatchReach? = nil,
    compute: @escaping (ByteStorage, Range<Int>) throws -> [Range<Int>]
  ) throws -> Rotor<ID> {
    var computed = ComputedRotor(index: nil, compute: compute, reach: reach, local: local, fallback: fallback)
    let index = try fullIndex(compute)
    computed.index = index
    computedRotors[name] = computed
    customRotors[name] = nil
    if !rotorNames.contains(name) { rotorNames.append(name) }
    return Rotor(name: name, storage: .matches(index), table: table)
  }

  func fullIndex(_ compute: (ByteStorage, Range<Int>) throws -> [Range<Int>]) throws -> IntervalIndex<Void> {
    var all: [(Range<Int>, Void)] = []
    let emptyLines = emptyElementsAreLines
    try forEachBatch(rotor: nil) { (bytes, ranges, delta) throws in
      for range in ranges {
        // An empty range is an empty element (a long element's windows are never empty).
        for r in try Self.entries(compute, bytes, range, emptyLine: emptyLines && range.isEmpty) {
          all.append(((r.lowerBound + delta)..<(r.upperBound + delta), ()))
        }
      }
    }
    // A file read as it is whose last element ends the file with a line terminator other than LF
    // and CR (VT, FF, NEL, LS, PS): its last line is matched again followed by a line break, as
    // every element is read in a document built from elements and after an edit (`^` matches
    // after that terminator, at the element's end; ICU's does not at the end of a text).
    if let source, let last = source.ranges.last, last.upperBound == source.bytes.count,
      Self.endsWithOtherLineTerminator(source.bytes, last)
    {
      let lineStart = LineBounds.start(of: last.upperBound, in: source.bytes, floor: last.lowerBound)
      while let entry = all.last, entry.0.lowerBound >= lineStart { all.removeLast() }
      let alone = source.bytes.copy(lineStart..<last.upperBound, appending: [0x0A])
      for r in try compute(alone, 0..<(last.upperBound - lineStart)) {
        all.append(((r.lowerBound + lineStart)..<(r.upperBound + lineStart), ()))
      }
    }
    return IntervalIndex(sorted: all, width: table.length)
  }

  /// Whether `range` of `bytes` ends with VT, FF, NEL, LS or PS.
  static func endsWithOtherLineTerminator(_ bytes: ByteStorage, _ range: Range<Int>) -> Bool {
    let n = range.upperBound
    guard n > range.lowerBound else { return false }
    if bytes[n - 1] == 0x0B || bytes[n - 1] == 0x0C { return true }
    if n - 2 >= range.lowerBound && bytes[n - 2] == 0xC2 && bytes[n - 1] == 0x85 { return true }
    return n - 3 >= range.lowerBound && bytes[n - 3] == 0xE2 && bytes[n - 2] == 0x80
      && (bytes[n - 1] == 0xA8 || bytes[n - 1] == 0xA9)
  }

  /// `compute`'s entries in `range` of `bytes`; with `emptyLine` (an empty element among several,
  /// which is an empty line: ``emptyElementsAreLines``), those it finds on a line of its own with
  /// nothing on it (`^$` matches there, as on a blank line of a file read whole), placed at
  /// `range`'s start.
  static func entries(
    _ compute: (ByteStorage, Range<Int>) throws -> [Range<Int>], _ bytes: ByteStorage, _ range: Range<Int>,
    emptyLine: Bool
  ) throws -> [Range<Int>] {
    guard emptyLine else { return try compute(bytes, range) }
    let at = range.lowerBound
    return try compute(emptyLineText, 0..<1).filter { $0 == 0..<0 }.map { _ in at..<at }
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

  // MARK: Names

  /// An element's name for an announcement: its first non-blank line, trimmed, shortened to about
  /// 40 characters at a word boundary (with "…").
  public static func shortName(_ text: String, limit: Int = 40) -> String {
    if let name = asciiShortName(text, limit: limit) { return name }
    // The first line holding a non-whitespace character, found without splitting the rest.
    var rest = text[...]
    var line = rest[rest.endIndex...]
    while !rest.isEmpty {
      // Line ends found on the bytes (LF and CR are grapheme boundaries), not by walking characters.
      let end = rest.utf8.firstIndex { $0 == 0x0A || $0 == 0x0D } ?? rest.endIndex
      if rest[..<end].contains(where: { !$0.isWhitespace }) {
        line = rest[..<end]
        break
      }
      rest = end == rest.endIndex ? rest[end...] : rest[rest.utf8.index(after: end)...]
    }
    let start = line.firstIndex { !$0.isWhitespace } ?? line.endIndex
    // Walk at most `limit` characters (never the whole line, which may be long).
    var cutEnd = start
    var n = 0
    while n < limit && cutEnd < line.endIndex {
      line.formIndex(after: &cutEnd)
      n += 1
    }
    let cut = line[start..<cutEnd]
    if cutEnd == line.endIndex || line[cutEnd...].allSatisfy(\.isWhitespace) {
      // The whole line fits (once its trailing whitespace is dropped).
      let end = cut.lastIndex { !$0.isWhitespace }.map { cut.index(after: $0) } ?? cut.startIndex
      return String(cut[..<end])
    }
    // More than `limit` characters: cut at the last space in the second half of the limit.
    if let space = cut.lastIndex(where: { $0.isWhitespace }), cut.distance(from: cut.startIndex, to: space) > limit / 2
    {
      return String(cut[..<space]) + "…"
    }
    return String(cut) + "…"
  }

  /// ``shortName(_:limit:)`` on the bytes when every line it reads is ASCII (there each byte is a
  /// character, and the whitespace is tab, line feed, vertical tab, form feed, carriage return and
  /// space): a move's announcement no longer walks characters for the usual name. Nil when a
  /// byte it reads is not ASCII (or the string is not contiguous).
  static func asciiShortName(_ text: String, limit: Int) -> String? {
    guard limit > 0 else { return nil }
    return text.utf8.withContiguousStorageIfAvailable { b -> String? in
      func isSpace(_ c: UInt8) -> Bool { c == 0x20 || (c >= 0x09 && c <= 0x0D) }
      let n = b.count
      var i = 0
      var line: Range<Int>? = nil
      while line == nil {
        var j = i
        var blank = true
        while j < n && b[j] != 0x0A && b[j] != 0x0D {
          if b[j] >= 0x80 { return nil }
          if !isSpace(b[j]) { blank = false }
          j += 1
        }
        if !blank { line = i..<j } else if j == n { return "" } else { i = j + 1 }
      }
      var start = line!.lowerBound
      while isSpace(b[start]) { start += 1 }
      var end = line!.upperBound
      while isSpace(b[end - 1]) { end -= 1 }
      func string(_ r: Range<Int>) -> String { String(decoding: UnsafeBufferPointer(rebasing: b[r]), as: UTF8.self) }
      // The whole line fits once its trailing whitespace is dropped.
      if end - start <= limit { return string(start..<end) }
      // Else cut at the last space in the second half of the limit.
      let cutEnd = start + limit
      var space = cutEnd - 1
      while space > start && !isSpace(b[space]) { space -= 1 }
      if isSpace(b[space]) && space - start > limit / 2 { return string(start..<space) + "…" }
      return string(start..<cutEnd) + "…"
    } ?? nil
  }
}

extension RotorDocument where ID == Int {
  /// The file at `path` (`"-"`: standard input) divided into elements as `elements` says; element
  /// ids are their 0-based indices. Document offsets are the file's byte offsets, and the text is
  /// not copied: elements are slices of the memory-mapped file (one pass over it sums its lines
  /// and UTF-16 units). Ill-formed UTF-8 is read as U+FFFD (then offsets follow the repaired text,
  /// a copy of the file in memory; its lines are the file's).
  public convenience init(
    contentsOf path: String, elements kind: ElementKind = .whole, segmenter: Segmenter = Segmenter()
  ) throws(FileError) {
    var bytes = try ByteStorage.contentsOf(path: path)
    var ranges = kind.ranges(in: bytes)
    if !ranges.allSatisfy({ bytes.firstInvalidUTF8(in: $0) == nil }) {
      // Repaired whole, as Swift decodes it (each ill-formed sequence one U+FFFD; no line break or
      // space is ever taken into one), then divided again: the separators (blank lines, a byte
      // order mark) are still the file's, so its line numbers are too. (Making the elements from
      // the repaired element texts alone dropped the separators: a blank line between paragraphs
      // was no line at all in `documentLocation`.)
      bytes = ByteStorage(bytes.string(0..<bytes.count).utf8)
      ranges = kind.ranges(in: bytes)
    }
    var elements: [(Int, TextRope, TextSummary)] = []
    elements.reserveCapacity(ranges.count)
    // The last lines of separators ending in CR, and what follows the last line break of those
    // that end in none (see DocumentText.separatorLastLines and separatorTails).
    var lastLines: [Int: TextSummary] = [:]
    var tails: [Int: TextSummary] = [:]
    func isBreak(_ b: UInt8) -> Bool { b == 0x0A || b == 0x0D }
    // Where the line holding the byte before `end` starts in `r` (after the last break before it).
    func lineStart(before end: Int, in r: Range<Int>) -> Int {
      var start = end
      while start > r.lowerBound && !isBreak(bytes[start - 1]) { start -= 1 }
      return start
    }
    func record(_ r: Range<Int>, _ summary: TextSummary, as key: Int) {
      guard !r.isEmpty else { return }
      if summary.lastIsCR && (summary.lineBreaks > 1 || key == -1) {
        // The CR's line, the CR included.
        lastLines[key] = TextSummary(bytes, lineStart(before: r.upperBound - 1, in: r)..<r.upperBound)
      }
      if !isBreak(bytes[r.upperBound - 1]) {
        tails[key] = TextSummary(bytes, lineStart(before: r.upperBound, in: r)..<r.upperBound)
      }
    }
    for (i, r) in ranges.enumerated() {
      let next = i + 1 < ranges.count ? ranges[i + 1].lowerBound : bytes.count
      let gap = next > r.upperBound ? TextSummary(bytes, r.upperBound..<next) : ElementItem.virtualGap
      if next > r.upperBound { record(r.upperBound..<next, gap, as: i) }
      elements.append((i, TextRope(bytes, r), gap))
    }
    let first = ranges.first?.lowerBound ?? bytes.count
    let origin = TextSummary(bytes, 0..<first)
    record(0..<first, origin, as: -1)
    let table = try! DocumentText(
      elements: elements, origin: origin, separatorLastLines: lastLines, separatorTails: tails)
    self.init(table: table, source: table.count > 0 ? (bytes, ranges) : nil, segmenter: segmenter)
  }
}

/// An immutable snapshot of a document's text, taken in O(1): read it on any thread while the
/// document goes on being edited. ``generation`` tells whether the document has changed since.
public struct DocumentSnapshot<ID: Hashable> {
  let table: DocumentText<ID>
  /// The document's generation when the snapshot was taken.
  public let generation: Int

  public var elementCount: Int { table.count }
  /// The id of the element at `index`, or nil.
  public func elementID(at index: Int) -> ID? { index >= 0 && index < table.count ? table.id(at: index) : nil }
  /// The text of element `id` as it was, or nil.
  public func text(of id: ID) -> String? { table.index(of: id).map { table[$0].text.string } }
  /// Bytes of the document: elements and the gaps between them.
  public var length: Int { table.length }
}

extension DocumentSnapshot: Sendable where ID: Sendable {}

/// A line with nothing on it, on which an empty element's computed entries are found.
private let emptyLineText = ByteStorage([0x0A])
