import Testing

@testable import TextRotor

/// Local navigation over `--elements lines` and `paragraphs` (elements read from the lines around the
/// offset) against the full-index answer (every element listed by `ElementKind.ranges(in:)`).
@Suite("FileNavigation without a list of elements")
struct FileNavigationTests {
  static let pieces: [[UInt8]] =
    [
      "Hello", " ", "world", ". ", "\n", "\r\n", "\r", "\n\n", "\r\n\r\n", "\r\r", "  \n", "\t\r\n", " \t", "Mr. Smith",
      "3.14", "😀", "e\u{301}", "中文", "?! ", "\"Quoted.\" ", "Wait\u{2029}", "a\u{85}b", "\u{0B}",
    ].map { Array($0.utf8) } + [[0xFF], [0xC3], [0xE2, 0x82], [0xED, 0xA0, 0x80]]

  /// A random text: a byte order mark sometimes, pieces of the kinds `variant` picks (all of them,
  /// line breaks only, CR-only text, or a line longer than the line search's first 4 KiB window).
  static func text(_ rng: inout SeededRandom, variant: Int) -> [UInt8] {
    var bytes: [UInt8] = Int.random(in: 0..<5, using: &rng) == 0 ? [0xEF, 0xBB, 0xBF] : []
    let breaks = Self.pieces.filter { $0.allSatisfy { [0x0A, 0x0D, 0x20, 0x09].contains($0) } }
    for _ in 0..<Int.random(in: 0...40, using: &rng) {
      switch variant {
      case 1: bytes += breaks.randomElement(using: &rng)!
      case 2:
        var piece = Self.pieces.randomElement(using: &rng)!
        piece.removeAll { $0 == 0x0A }
        bytes += piece
      case 3:
        bytes += Self.pieces.randomElement(using: &rng)!
        if Int.random(in: 0..<12, using: &rng) == 0 {
          bytes += Array(repeating: Int.random(in: 0..<2, using: &rng) == 0 ? 0x61 : 0x20, count: 5000)
          bytes += Int.random(in: 0..<2, using: &rng) == 0 ? [0x0D] : [0x0A]
        }
      default: bytes += Self.pieces.randomElement(using: &rng)!
      }
    }
    return bytes
  }

  /// Offsets to ask at: every one in a short text; else the edges, bytes around line breaks (a
  /// CR LF's LF, a blank line) and random ones, `count` in all.
  static func offsets(_ bytes: [UInt8], _ rng: inout SeededRandom, count: Int) -> [Int] {
    if bytes.count <= count { return Array(0...bytes.count) }
    var set: Set<Int> = [0, 1, 2, 3, 4, bytes.count - 1, bytes.count]
    let breaks = bytes.indices.filter { bytes[$0] == 0x0A || bytes[$0] == 0x0D }
    while set.count < count {
      if let b = breaks.randomElement(using: &rng), Bool.random(using: &rng) {
        set.insert(Swift.min(bytes.count, b + Int.random(in: 0...1, using: &rng)))
      } else {
        set.insert(Int.random(in: 0...bytes.count, using: &rng))
      }
    }
    return set.sorted()
  }

  @Test("the elements read around an offset are the listed elements, found in both directions")
  func elementsMatchTheList() {
    let seed = SeededRandom.seedFromEnvironment()
    var rng = SeededRandom(seed: seed)
    for round in 0..<TestScale.count(200) {
      let bytes = ByteStorage(Self.text(&rng, variant: round % 4))
      for kind in ElementKind.allCases {
        let list = kind.ranges(in: bytes)
        let walk = LocalElements(bytes, kind: kind)
        let context = "seed \(seed) round \(round) \(kind) in \(bytes.copyBytes(0..<bytes.count))"
        for offset in Self.offsets(bytes.copyBytes(0..<bytes.count), &rng, count: 80) {
          // Forward from the first element ending after the offset, to the end.
          var e = list.firstIndex { $0.upperBound > offset } ?? list.count
          var local = walk.first(endingAfter: offset)
          for _ in 0..<3 {
            let expected = e < list.count ? list[e] : nil
            #expect(local?.range == expected, "first/after at \(offset): \(context)")
            if local?.range != expected { return }
            guard let element = local else { break }
            #expect(walk.index(of: element, threads: 1) == e, "index: \(context)")
            #expect(walk.isOnly(element) == (list.count == 1), "isOnly: \(context)")
            local = walk.after(element)
            e += 1
          }
          e = (list.lastIndex { $0.lowerBound < offset } ?? -1)
          local = walk.last(startingBefore: offset)
          for _ in 0..<3 {
            let expected = e >= 0 ? list[e] : nil
            #expect(local?.range == expected, "last/before at \(offset): \(context)")
            if local?.range != expected { return }
            guard let element = local else { break }
            local = walk.before(element)
            e -= 1
          }
          // The element holding a range from `offset` (a match, say): the old binary search.
          for length in [0, 1, 3] where offset + length <= bytes.count {
            let range = offset..<(offset + length)
            let i = list.firstIndex { $0.upperBound >= range.upperBound }
            let expected = i.flatMap { list[$0].lowerBound <= range.lowerBound ? list[$0] : nil }
            #expect(
              FileNavigation.element(holding: range, kind: kind, in: bytes) == expected,
              "holding \(range): \(context)")
          }
        }
      }
    }
  }

  @Test("next and prev of every system rotor over lines and paragraphs equal the full-index answer")
  func entriesMatchTheFullIndex() throws {
    let seed = SeededRandom.seedFromEnvironment()
    var rng = SeededRandom(seed: seed)
    let segmenter = Segmenter()
    for round in 0..<TestScale.count(50) {
      let raw = Self.text(&rng, variant: round % 4)
      let bytes = ByteStorage(raw)
      let offsets = Self.offsets(raw, &rng, count: 40).filter { $0 == raw.count || raw[$0] & 0xC0 != 0x80 }
      for kind in ElementKind.allCases {
        let list = kind.ranges(in: bytes)
        for rotor in SystemRotor.allCases {
          let context = "seed \(seed) round \(round) \(kind) \(rotor) in \(raw)"
          for offset in offsets {
            let after = try FileNavigation.entry(
              after: offset, rotor: rotor, in: bytes, elements: list, segmenter: segmenter)
            let localAfter = try FileNavigation.entry(
              after: offset, rotor: rotor, in: bytes, elements: kind, segmenter: segmenter)
            let before = try FileNavigation.entry(
              before: offset, rotor: rotor, in: bytes, elements: list, segmenter: segmenter)
            let localBefore = try FileNavigation.entry(
              before: offset, rotor: rotor, in: bytes, elements: kind, segmenter: segmenter)
            var same = true
            for (full, local, direction) in [(after, localAfter, "next"), (before, localBefore, "prev")] {
              let expected = full.map { LocalSegment(element: list[$0.element], range: $0.range, status: $0.status) }
              #expect(local == expected, "\(direction) at \(offset): \(context)")
              if let local, let full {
                let index = FileNavigation.elementIndex(of: local.element, kind: kind, in: bytes)
                #expect(index == full.element, "\(direction) at \(offset), element index: \(context)")
                same = same && index == full.element
              }
              same = same && local == expected
            }
            if !same { return }
          }
        }
      }
    }
  }

  @Test("edge texts: empty, BOM only, blank lines only, CR only, no final line break")
  func edgeTexts() throws {
    let texts: [[UInt8]] = [
      [], [0xEF, 0xBB, 0xBF], [0xEF, 0xBB, 0xBF, 0x0A], Array("\n".utf8), Array("\n\n\n".utf8),
      Array("\r\n\r\n".utf8), Array(" \n\t\n  ".utf8), Array("a\rb\r\rc".utf8), Array("a\r\n\r\nb".utf8),
      Array("one two".utf8), Array("x\n".utf8), Array("\r".utf8), Array("\r\r\n".utf8), [0xFF, 0x0A, 0xFE],
    ]
    let segmenter = Segmenter()
    for raw in texts {
      let bytes = ByteStorage(raw)
      for kind in ElementKind.allCases {
        let list = kind.ranges(in: bytes)
        for rotor in SystemRotor.allCases {
          for offset in 0...raw.count {
            let after = try FileNavigation.entry(
              after: offset, rotor: rotor, in: bytes, elements: list, segmenter: segmenter)
            let localAfter = try FileNavigation.entry(
              after: offset, rotor: rotor, in: bytes, elements: kind, segmenter: segmenter)
            #expect(localAfter?.range == after?.range, "\(raw) \(kind) \(rotor) next at \(offset)")
            #expect(localAfter?.element == after.map { list[$0.element] })
            let before = try FileNavigation.entry(
              before: offset, rotor: rotor, in: bytes, elements: list, segmenter: segmenter)
            let localBefore = try FileNavigation.entry(
              before: offset, rotor: rotor, in: bytes, elements: kind, segmenter: segmenter)
            #expect(localBefore?.range == before?.range, "\(raw) \(kind) \(rotor) prev at \(offset)")
            #expect(localBefore?.element == before.map { list[$0.element] })
          }
        }
      }
    }
  }
}
