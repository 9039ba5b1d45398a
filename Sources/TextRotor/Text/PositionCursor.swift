import TextRotorICU

/// Turns byte offsets into lines, columns and UTF-16 offsets in one forward pass over the text:
/// asking for ascending offsets (as output in document order does) costs O(bytes) in all, not
/// O(bytes) per query. Asking for an earlier offset on the same line is cheap too; an earlier line
/// restarts from the beginning.
public struct PositionCursor {
  public let bytes: ByteStorage
  public let encoding: PositionEncoding
  private var offset = 0
  private var line = 1
  private var lineStart = 0
  /// UTF-16 units before `offset`; nil after ``lineAndColumn(of:)`` moved on without counting them
  /// (the next ``locate(_:)`` counts them from the start, once).
  private var utf16: Int? = 0
  /// Column (0-based, in `encoding`) of `columnOffset`, a position on the current line.
  private var columnOffset = 0
  private var column = 0

  /// Threads used to count lines over long distances.
  public var threads: Int

  public init(_ bytes: ByteStorage, encoding: PositionEncoding = .utf8, threads: Int = 1) {
    self.bytes = bytes
    self.encoding = encoding
    self.threads = threads
  }

  /// The location of `target` (a byte offset in 0...count).
  public mutating func locate(_ target: Int) -> TextLocation {
    let (line, column) = move(to: target, countingUTF16: true)
    return TextLocation(line: line, column: column, utf16Offset: utf16!)
  }

  /// The line and column (1-based) of `target`, for output that shows no UTF-16 offset: far
  /// moves count line terminators only, without decoding the UTF-8 in between (a third of the work).
  public mutating func lineAndColumn(of target: Int) -> (line: Int, column: Int) {
    move(to: target, countingUTF16: false)
  }

  private mutating func move(to target: Int, countingUTF16: Bool) -> (line: Int, column: Int) {
    precondition(target >= 0 && target <= bytes.count, "offset \(target) outside 0...\(bytes.count)")
    if countingUTF16 && utf16 == nil {
      utf16 = bytes.textCounts(in: 0..<offset, threads: threads).utf16Units
    }
    if target < offset {
      if target >= lineStart {
        if let u = utf16 { utf16 = u - bytes.utf16Count(in: target..<offset) }
        offset = target
      } else {
        self = PositionCursor(bytes, encoding: encoding, threads: threads)
      }
    }
    if target > offset {
      advanceLines(to: target, countingUTF16: countingUTF16 && utf16 != nil)
      offset = target
    }
    return (line, columnOf(target) + 1)
  }

  /// The UTF-16 offset of `end`, given the location of an earlier `start`; does not move the cursor.
  public func utf16Offset(of end: Int, from start: Int, at location: TextLocation) -> Int {
    location.utf16Offset + bytes.utf16Count(in: start..<end)
  }

  /// Counts line terminators in offset..<target (every LF, and every CR not followed by LF) in one
  /// vectorised pass, with the UTF-16 units when `countingUTF16` (else the UTF-16 offset is
  /// forgotten), and finds where the last line starts.
  private mutating func advanceLines(to target: Int, countingUTF16: Bool) {
    var breaks: Int
    if countingUTF16 {
      let counts = bytes.textCounts(in: offset..<target, threads: threads)
      breaks = counts.lineBreaks
      utf16! += counts.utf16Units
    } else {
      breaks = bytes.lineBreaks(in: offset..<target, threads: threads)
      utf16 = nil
    }
    // A CR at the end whose LF is just past the range: the pair counts once, when the LF is passed.
    let crBeforeLF = bytes[target - 1] == 0x0D && target < bytes.count && bytes[target] == 0x0A
    if crBeforeLF { breaks -= 1 }
    guard breaks > 0 else { return }
    // A CR matters only after the last LF (before it, the LF's line starts later): searching the
    // whole range for a CR in a file without any would read all of it again, on one core.
    let lf = bytes.lastIndex(of: 0x0A, in: offset..<target)
    let crFloor = lf ?? offset
    var cr = bytes.lastIndex(of: 0x0D, in: crFloor..<target)
    if crBeforeLF, let c = cr, c == target - 1 { cr = bytes.lastIndex(of: 0x0D, in: crFloor..<c) }
    let start = Swift.max(lf.map { $0 + 1 } ?? 0, cr.map { $0 + 1 } ?? 0)
    line += breaks - 1
    newLine(at: start)
  }

  private mutating func newLine(at start: Int) {
    line += 1
    lineStart = start
    columnOffset = start
    column = 0
  }

  private mutating func columnOf(_ target: Int) -> Int {
    switch encoding {
    case .utf8: return target - lineStart
    case .utf16, .utf32, .grapheme:
      if target < columnOffset {
        columnOffset = lineStart
        column = 0
      }
      let range = columnOffset..<target
      switch encoding {
      case .utf16: column += bytes.utf16Count(in: range)
      case .utf32: column += bytes.scalarCount(in: range)
      default: return graphemeColumn(target)
      }
      columnOffset = target
      return column
    }
  }

  /// The grapheme column of `target`: the grapheme clusters of the line's text before it (a
  /// cluster cut by `target` counts as one). `columnOffset` only ever moves to the start of a
  /// cluster, so an entry boundary inside a cluster (a word break after a prepended mark, say)
  /// does not count that cluster twice.
  private mutating func graphemeColumn(_ target: Int) -> Int {
    guard target > columnOffset else { return column }
    let raw = bytes.copyBytes(columnOffset..<target)
    let text = String(decoding: raw, as: UTF8.self)
    var clusters = 0
    var lastStart = text.startIndex
    var i = text.startIndex
    while i < text.endIndex {
      lastStart = i
      clusters += 1
      i = text.index(after: i)
    }
    // The bytes before the last cluster: its scalars, each a valid sequence or a maximal subpart
    // of an ill-formed one (as `String(decoding:as:)` read them).
    let scalarsBefore = text.unicodeScalars[..<lastStart].count
    var iterator = raw.makeIterator()
    var parser = Unicode.UTF8.ForwardParser()
    var bytesBefore = 0
    for _ in 0..<scalarsBefore {
      switch parser.parseScalar(from: &iterator) {
      case .valid(let scalar): bytesBefore += scalar.count
      case .error(let length): bytesBefore += length
      case .emptyInput: break
      }
    }
    let result = column + clusters
    column += clusters - 1
    columnOffset += bytesBefore
    return result
  }
}
