import TextRotor

/// Prints entries in document order: the SPEC's JSON Lines object, or `PATH:LINE:COLUMN:LABEL`.
struct EntryPrinter {
  let rotor: String
  /// The file's name as JSON gives it (a name that is not UTF-8 with U+FFFD) and as a line
  /// prints it (its bytes, as ripgrep prints it).
  let name: String
  private let nameBytes: [UInt8]
  let bytes: ByteStorage
  let elements: [Range<Int>]
  let json: Bool
  let showPath: Bool
  private var cursor: PositionCursor
  private var element = 0
  /// Where `bytes` starts in the file, for a block of a stream after its first: added to offsets,
  /// lines, UTF-16 offsets and element indices (a block starts at a line start, so columns stay).
  var base = Base()
  struct Base {
    var offset = 0
    var line = 0
    var utf16 = 0
    var element = 0
  }
  private var line: [UInt8] = []

  init(
    rotor: String, name: String, bytes: ByteStorage, elements: [Range<Int>], encoding: PositionEncoding,
    json: Bool, showPath: Bool, threads: Int = 1
  ) {
    self.rotor = rotor
    self.name = FileSystem.displayName(name)
    self.nameBytes = FileSystem.bytes(of: name)
    self.bytes = bytes
    self.elements = elements
    self.json = json
    self.showPath = showPath
    self.cursor = PositionCursor(bytes, encoding: encoding, threads: threads)
  }

  /// The index of the element holding the entry (elements are separated by at least one byte);
  /// entries come in order, so this only moves forward.
  private mutating func elementIndex(of range: Range<Int>) -> Int {
    if element < elements.count, range.lowerBound < elements[element].lowerBound { element = 0 }
    while element + 1 < elements.count && elements[element + 1].lowerBound <= range.lowerBound { element += 1 }
    return element
  }

  /// Prints the entry at `range`; its label is the text there unless `label` is given. A structure
  /// entry's `info` adds `level`, `url`, `items` and `ordered` after the SPEC's keys in JSON.
  /// `elementAt`, if given, gives the element's index (JSON only) from the entry's location.
  mutating func print(
    _ range: Range<Int>, element knownElement: Int? = nil, label given: String? = nil, info: StructureInfo? = nil,
    elementAt: ((TextLocation) -> Int)? = nil
  ) {
    // The label straight from the bytes when they are well-formed (a line's label can be 100 MB:
    // no string of it, written a piece at a time); a string with U+FFFD for ill-formed ones.
    let label = given ?? (bytes.firstInvalidUTF8(in: range) == nil ? nil : bytes.string(range))
    line.removeAll(keepingCapacity: true)
    if json {
      let location = cursor.locate(range.lowerBound)
      let index = knownElement ?? elementAt?(location) ?? elementIndex(of: range)
      let utf16End = cursor.utf16Offset(of: range.upperBound, from: range.lowerBound, at: location)
      JSONObject.write(into: &line) { o in
        o.field("rotor", rotor)
        o.field("path", name)
        o.field("element", index + base.element)
        if let label {
          o.field("label", label)
        } else {
          o.field("label", bytes, range, flush: Self.flush)
        }
        o.field("start", range.lowerBound + base.offset)
        o.field("end", range.upperBound + base.offset)
        o.field("line", location.line + base.line)
        o.field("column", location.column)
        o.field("utf16", [location.utf16Offset + base.utf16, utf16End + base.utf16])
        if let level = info?.level { o.field("level", level) }
        if let url = info?.url { o.field("url", url) }
        if let items = info?.items { o.field("items", items) }
        if let ordered = info?.ordered { o.field("ordered", number: ordered ? "true" : "false") }
      }
      line.append(0x0A)
    } else {
      // No UTF-16 offset shown: lines counted without decoding the text in between.
      let location = cursor.lineAndColumn(of: range.lowerBound)
      if showPath {
        line.append(contentsOf: nameBytes)
        line.append(UInt8(ascii: ":"))
      }
      line.append(contentsOf: "\(location.line + base.line):\(location.column):".utf8)
      if let label {
        DisplayText.appendOneLine(label, to: &line)
      } else {
        var p = range.lowerBound
        while p < range.upperBound {
          let q = min(range.upperBound, p + Self.piece)
          DisplayText.appendOneLine(bytes, p..<q, to: &line)
          p = q
          if p < range.upperBound { Self.flush(&line) }
        }
      }
      line.append(0x0A)
    }
    StandardOutput.shared.write(bytes: line)
  }

  /// How much of a label is escaped before what is ready is written out.
  static let piece = 1 << 20

  /// Writes what `buffer` holds so far (the start of an entry's line) and empties it: a label of
  /// 100 MB is written a piece at a time, not held whole (escaped, twice its size at worst).
  private static func flush(_ buffer: inout [UInt8]) {
    StandardOutput.shared.write(bytes: buffer)
    buffer.removeAll(keepingCapacity: true)
  }
}
