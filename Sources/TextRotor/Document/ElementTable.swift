/// The elements of a document in order, with where each starts in document coordinates: every
/// element's UTF-8 bytes laid end to end with at least one byte of gap between neighbours (so
/// the end of one element never equals the start of the next). For a document read from a file
/// the coordinates are the file's byte offsets.
struct ElementTable<ID: Hashable> {
  var ids: [ID] = []
  var texts: [String] = []
  /// Document offset of each element's first byte; strictly increasing by more than each length.
  var starts: [Int] = []
  var indexByID: [ID: Int] = [:]

  var count: Int { ids.count }

  func length(_ i: Int) -> Int { texts[i].utf8.count }
  func end(_ i: Int) -> Int { starts[i] + length(i) }

  mutating func reindex() {
    indexByID = Dictionary(minimumCapacity: ids.count)
    for (i, id) in ids.enumerated() {
      precondition(indexByID.updateValue(i, forKey: id) == nil, "duplicate element id \(id)")
    }
  }

  /// The element whose span (start...end) holds `offset`: the last element starting at or
  /// before it (0 when before all).
  func element(at offset: Int) -> Int {
    var lo = 0
    var hi = starts.count
    while hi - lo > 1 {
      let mid = (lo + hi) / 2
      if starts[mid] <= offset { lo = mid } else { hi = mid }
    }
    return lo
  }

  func index(of id: ID) -> Int {
    guard let i = indexByID[id] else { preconditionFailure("no element with id \(id)") }
    return i
  }

  /// The `String.Index` of UTF-8 offset `offset` of element `i`'s text (O(1) on native strings).
  func stringIndex(element i: Int, utf8Offset offset: Int) -> String.Index {
    let text = texts[i]
    return text.utf8.index(text.utf8.startIndex, offsetBy: offset)
  }

  func utf8Offset(element i: Int, _ index: String.Index) -> Int {
    let text = texts[i]
    return text.utf8.distance(from: text.utf8.startIndex, to: index)
  }

  func documentOffset(_ position: TextPosition<ID>) -> Int {
    let i = index(of: position.element)
    return starts[i] + utf8Offset(element: i, position.index)
  }

  func location(documentRange range: Range<Int>) -> EntryLocation<ID> {
    let e = element(at: range.lowerBound)
    let s = starts[e]
    return EntryLocation(
      elementIndex: e, element: ids[e], utf8Range: (range.lowerBound - s)..<(range.upperBound - s),
      documentRange: range)
  }

  func stringRange(_ location: EntryLocation<ID>) -> Range<String.Index> {
    let text = texts[location.elementIndex]
    let utf8 = text.utf8
    let lower = utf8.index(utf8.startIndex, offsetBy: location.utf8Range.lowerBound)
    let upper = utf8.index(lower, offsetBy: location.utf8Range.count)
    return lower..<upper
  }

  func text(_ location: EntryLocation<ID>) -> String {
    String(decoding: texts[location.elementIndex].utf8[stringRange(location)], as: UTF8.self)
  }

  /// Every element's bytes at their document offsets (gaps filled with line feeds), and the
  /// elements' ranges in it.
  func concatenated() -> (ByteStorage, [Range<Int>]) {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(count == 0 ? 0 : end(count - 1))
    var ranges: [Range<Int>] = []
    ranges.reserveCapacity(count)
    for i in 0..<count {
      while bytes.count < starts[i] { bytes.append(0x0A) }
      bytes.append(contentsOf: texts[i].utf8)
      ranges.append(starts[i]..<bytes.count)
    }
    return (ByteStorage(bytes), ranges)
  }

  var ranges: [Range<Int>] { (0..<count).map { starts[$0]..<end($0) } }
}

extension ElementTable: Sendable where ID: Sendable {}
