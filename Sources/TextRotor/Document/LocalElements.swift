import TextRotorICU

/// The elements of a text (``ElementKind``) found from the lines around a position, one at a time,
/// instead of listed all first: the same byte ranges as ``ElementKind/ranges(in:)`` (lines as
/// ``LineScanner`` cuts them, paragraphs as runs of non-blank lines), in either direction. A step
/// costs the lines it reads (blank lines skipped included); nothing grows with the text.
struct LocalElements {
  /// An element and where the line after its last line starts (the end of the text if none).
  struct Element: Equatable {
    var range: Range<Int>
    var next: Int
  }

  let bytes: ByteStorage
  let kind: ElementKind
  /// The text after a byte order mark.
  let all: Range<Int>

  init(_ bytes: ByteStorage, kind: ElementKind) {
    self.bytes = bytes
    self.kind = kind
    self.all = TextFacts.byteOrderMarkLength(bytes)..<bytes.count
  }

  /// The first element whose end is greater than `offset`.
  func first(endingAfter offset: Int) -> Element? {
    if kind == .whole { return all.upperBound > offset ? whole : nil }
    let p = Swift.max(offset, all.lowerBound)
    guard p < all.upperBound else { return nil }
    let l = line(at: lineStart(at: p))
    let element = kind == .lines ? Element(range: l.content, next: l.next) : paragraph(holding: l)
    if let element, element.range.upperBound > offset { return element }
    // `p` is on the element's last line break (or on a blank line): the next element is after it.
    return kind == .lines ? after(Element(range: l.content, next: l.next)) : paragraph(from: l.next)
  }

  /// The last element whose start is less than `offset`.
  func last(startingBefore offset: Int) -> Element? {
    if kind == .whole { return all.lowerBound < offset ? whole : nil }
    let p = Swift.min(offset, all.upperBound) - 1
    guard p >= all.lowerBound else { return nil }
    let l = line(at: lineStart(at: p))
    if kind == .lines { return Element(range: l.content, next: l.next) }
    return paragraph(holding: l) ?? paragraph(before: l.content.lowerBound)
  }

  /// The element after `element`.
  func after(_ element: Element) -> Element? {
    switch kind {
    case .whole: return nil
    case .lines:
      guard element.next < all.upperBound else { return nil }
      let l = line(at: element.next)
      return Element(range: l.content, next: l.next)
    case .paragraphs: return paragraph(from: element.next)
    }
  }

  /// The element before `element`.
  func before(_ element: Element) -> Element? {
    switch kind {
    case .whole: return nil
    case .lines:
      guard let l = line(before: element.range.lowerBound) else { return nil }
      return Element(range: l.content, next: l.next)
    case .paragraphs: return paragraph(before: element.range.lowerBound)
    }
  }

  /// Whether `element` is the text's only element.
  func isOnly(_ element: Element) -> Bool { before(element) == nil && after(element) == nil }

  /// The element holding all of `range` (between its start and its end), if any.
  func element(holding range: Range<Int>) -> Element? {
    if kind == .whole { return all.lowerBound <= range.lowerBound && range.upperBound <= all.upperBound ? whole : nil }
    guard range.lowerBound >= all.lowerBound && range.lowerBound <= all.upperBound else { return nil }
    let start = lineStart(at: range.lowerBound)
    guard start < all.upperBound else { return nil }
    let l = line(at: start)
    let element = kind == .lines ? Element(range: l.content, next: l.next) : paragraph(holding: l)
    guard let element, range.upperBound <= element.range.upperBound else { return nil }
    return element
  }

  /// The number of elements before `element` (its index in ``ElementKind/ranges(in:)``): the line
  /// breaks or the paragraph starts before it, each counted by a vectorised kernel on `threads`.
  func index(of element: Element, threads: Int) -> Int {
    switch kind {
    case .whole: return 0
    case .lines: return bytes.lineBreaks(in: 0..<element.range.lowerBound, threads: threads)
    case .paragraphs: return bytes.paragraphStarts(in: all.lowerBound..<element.range.lowerBound, threads: threads)
    }
  }

  // MARK: Lines and paragraphs

  private var whole: Element { Element(range: all, next: all.upperBound) }

  private func line(at start: Int) -> LineScanner.Line { LineScanner.line(in: bytes, at: start, end: all.upperBound) }

  private func lineStart(at p: Int) -> Int { LineScanner.lineStart(in: bytes, at: p, floor: all.lowerBound) }

  /// The line ending just before `start` (a line start), or nil at the text's start.
  private func line(before start: Int) -> LineScanner.Line? {
    guard start > all.lowerBound else { return nil }
    // Its terminator ends at `start`: LF, CR, or CR LF.
    let end =
      bytes[start - 1] == 0x0A && start - 2 >= all.lowerBound && bytes[start - 2] == 0x0D ? start - 2 : start - 1
    return LineScanner.Line(content: lineStart(at: start - 1)..<end, next: start)
  }

  private func isBlank(_ l: LineScanner.Line) -> Bool { LineScanner.isBlank(bytes, l.content) }

  /// The paragraph holding line `l`, or nil when `l` is blank.
  private func paragraph(holding l: LineScanner.Line) -> Element? {
    guard !isBlank(l) else { return nil }
    var first = l
    while let b = line(before: first.content.lowerBound), !isBlank(b) { first = b }
    return paragraph(startingWith: first)
  }

  /// The paragraph whose first line is `first` (a non-blank line after a blank one, or the first).
  private func paragraph(startingWith first: LineScanner.Line) -> Element {
    var last = first
    while last.next < all.upperBound {
      let n = line(at: last.next)
      if isBlank(n) { break }
      last = n
    }
    return Element(range: first.content.lowerBound..<last.content.upperBound, next: last.next)
  }

  /// The first paragraph starting at or after `start` (a line start after a blank line or a paragraph).
  private func paragraph(from start: Int) -> Element? {
    var s = start
    while s < all.upperBound {
      let l = line(at: s)
      if !isBlank(l) { return paragraph(startingWith: l) }
      s = l.next
    }
    return nil
  }

  /// The last paragraph ending before `start` (a line start after a blank line or a paragraph).
  private func paragraph(before start: Int) -> Element? {
    var s = start
    while let l = line(before: s) {
      if !isBlank(l) { return paragraph(holding: l) }
      s = l.content.lowerBound
    }
    return nil
  }
}
