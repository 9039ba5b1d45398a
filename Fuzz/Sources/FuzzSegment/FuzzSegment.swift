import FuzzSupport
import TextRotor

/// Segmentation of arbitrary bytes, every system rotor, several locales and element kinds.
/// Invariants: covering rotors tile each element exactly; lines and paragraphs equal a plain
/// model; no entry crosses an element; `entry(after:)`/`entry(before:)` of the local navigation
/// equal the full segmentation; the UTF-16 offset, line and column of each entry's start equal a
/// plain computation over `String(decoding:as:)`.
let locales = ["", "en", "de", "th", "ja", "sv", "fi", "ar", "zh", "el"]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSegment(_ data: UnsafeRawPointer?, _ count: Int) -> CInt {
  guard let data else { return 0 }
  var input = FuzzInput(data, count)
  let locale = locales[input.int(below: locales.count)]
  let kind = ElementKind.allCases[input.int(below: ElementKind.allCases.count)]
  let raw = input.rest()
  let bytes = ByteStorage(raw)
  let elements = kind.ranges(in: bytes)
  let boundaries = scalarBoundaries(raw)
  var segmenter = Segmenter(locale: locale)
  segmenter.useFastPaths = false
  for rotor in SystemRotor.allCases {
    let store: SegmentStore
    do {
      store = try segmenter.segment(bytes, elements: elements, rotor: rotor)
    } catch {
      fuzzCheck(false, "\(rotor) failed: \(error)")
      return 0
    }
    let segments = store.segments
    fuzzCheck(segments.count == store.count, "\(rotor): count")
    // Sorted, inside an element each, non-overlapping.
    var e = 0
    var previousEnd = -1
    for s in segments {
      fuzzCheck(s.start <= s.end && s.start >= previousEnd, "\(rotor): order at \(s)")
      while e < elements.count && elements[e].upperBound < s.end { e += 1 }
      fuzzCheck(
        e < elements.count && elements[e].lowerBound <= s.start && s.end <= elements[e].upperBound,
        "\(rotor): \(s) crosses an element")
      previousEnd = s.end
    }
    if rotor.coversText {
      // Tiles every element exactly.
      var i = 0
      for element in elements where !element.isEmpty {
        var p = element.lowerBound
        while p < element.upperBound {
          fuzzCheck(i < segments.count && segments[i].start == p && segments[i].end > p, "\(rotor): gap at \(p)")
          p = segments[i].end
          i += 1
        }
        fuzzCheck(p == element.upperBound, "\(rotor): overruns \(element)")
      }
      fuzzCheck(i == segments.count, "\(rotor): segments outside the elements")
    }
    if rotor == .lines {
      // An empty element among several is an empty line (as in a document and in the CLI's files).
      var expected: [Range<Int>] = []
      for element in elements {
        if element.isEmpty {
          if elements.count > 1 { expected.append(element) }
        } else {
          expected += plainLines(raw, element)
        }
      }
      fuzzCheck(segments.map(\.range) == expected, "lines: \(segments.map(\.range)) != \(expected)")
    }
    // Local navigation equals the full segmentation at a few offsets.
    let navigable = segments
    for _ in 0..<3 where !raw.isEmpty {
      let offset = Int(input.byte()) * raw.count / 256
      let after = try? FileNavigation.entry(
        after: offset, rotor: rotor, in: bytes, elements: elements, segmenter: segmenter)
      let expectedAfter = navigable.first { $0.start > offset }
      fuzzCheck(
        after?.range == expectedAfter?.range,
        "\(rotor) after \(offset): \(String(describing: after)) != \(String(describing: expectedAfter))")
      let before = try? FileNavigation.entry(
        before: offset, rotor: rotor, in: bytes, elements: elements, segmenter: segmenter)
      let expectedBefore = navigable.last { $0.start < offset }
      fuzzCheck(
        before?.range == expectedBefore?.range,
        "\(rotor) before \(offset): \(String(describing: before)) != \(String(describing: expectedBefore))")
    }
    // Positions of a few entries (ascending, as output asks) against a plain computation.
    let encoding = [PositionEncoding.utf16, .utf32, .grapheme][input.int(below: 3)]
    var cursor = PositionCursor(bytes, encoding: encoding)
    var k = input.int(below: 4)
    while k < segments.count {
      let start = segments[k].start
      if boundaries.contains(start) {
        let got = cursor.locate(start)
        let want = plainLocation(raw, start, encoding)
        fuzzCheck(got == want, "\(rotor) \(encoding) at \(start): \(got) != \(want)")
      }
      k += 1 + segments.count / 6 + input.int(below: 8)
    }
  }
  return 0
}

func plainLines(_ bytes: [UInt8], _ range: Range<Int>) -> [Range<Int>] {
  var result: [Range<Int>] = []
  var start = range.lowerBound
  var i = range.lowerBound
  while i < range.upperBound {
    if bytes[i] == 0x0A {
      result.append(start..<i)
      i += 1
      start = i
    } else if bytes[i] == 0x0D {
      result.append(start..<i)
      i += (i + 1 < range.upperBound && bytes[i + 1] == 0x0A) ? 2 : 1
      start = i
    } else {
      i += 1
    }
  }
  if start < range.upperBound { result.append(start..<range.upperBound) }
  return result
}

/// The offsets where a scalar (or a maximal subpart of an ill-formed sequence) starts when the
/// whole text is decoded.
func scalarBoundaries(_ bytes: [UInt8]) -> Set<Int> {
  var result: Set<Int> = [0]
  var iterator = bytes.makeIterator()
  var parser = Unicode.UTF8.ForwardParser()
  var p = 0
  while true {
    switch parser.parseScalar(from: &iterator) {
    case .valid(let s): p += s.count
    case .error(let length): p += length
    case .emptyInput: return result
    }
    result.insert(p)
  }
}

func plainLocation(_ bytes: [UInt8], _ target: Int, _ encoding: PositionEncoding) -> TextLocation {
  var line = 1
  var lineStart = 0
  for i in 0..<target where bytes[i] == 0x0A || (bytes[i] == 0x0D && !(i + 1 < bytes.count && bytes[i + 1] == 0x0A)) {
    line += 1
    lineStart = i + 1
  }
  let prefix = String(decoding: bytes[0..<target], as: UTF8.self)
  let linePrefix = String(decoding: bytes[lineStart..<target], as: UTF8.self)
  let column: Int
  switch encoding {
  case .utf8: column = target - lineStart
  case .utf16: column = linePrefix.utf16.count
  case .utf32: column = linePrefix.unicodeScalars.count
  case .grapheme: column = linePrefix.count
  }
  return TextLocation(line: line, column: column + 1, utf16Offset: prefix.utf16.count)
}

@_cdecl("FuzzSegment_main")
public func entryPoint(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
  runFuzzer(argc, argv) { data, count in fuzzSegment(data, count) }
}
