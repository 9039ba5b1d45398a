import Glibc
import Testing
import TextRotor

/// Timings of the document API on ~10 MB of English-like text. Opt-in (they are slow in debug):
/// `TEXTROTOR_TIMING=1 swift test -c release --filter RotorTimingTests`.
@Suite(.enabled(if: timingEnabled)) struct RotorTimingTests {
  static func text(bytes: Int) -> String {
    let words = ["the", "quick", "brown", "fox", "jumps", "over", "a", "lazy", "dog", "while", "rotors", "turn"]
    var rng = SeededRandom(seed: 42)
    var s = ""
    s.reserveCapacity(bytes + 100)
    var sentence = 0
    while s.utf8.count < bytes {
      for k in 0..<(5 + Int(rng.next() % 12)) {
        s += k == 0 ? "The" : " " + words[Int(rng.next() % UInt64(words.count))]
      }
      s += ". "
      sentence += 1
      if sentence % 6 == 0 { s += "\n" }
      if sentence % 30 == 0 { s += "\n" }
    }
    return s
  }

  @Test func timings() throws {
    let clock = ContinuousClock()
    let text = Self.text(bytes: 10_000_000)
    let document = try RotorDocument(elements: [TextElement(id: 0, text: text)])
    var built = clock.measure { _ = try? document.rotor(.words) }
    let words = try document.rotor(.words)
    print("words rotor of \(text.utf8.count) bytes: \(words.count) entries, built in \(built)")
    var rng = SeededRandom(seed: 7)
    let n = 1_000_000
    let offsets = (0..<n).map { _ in Int(rng.next() % UInt64(text.utf8.count)) }
    var sum = 0
    let next = clock.measure {
      for offset in offsets { sum &+= words.indexOfEntry(afterDocumentOffset: offset) ?? 0 }
    }
    print("1M indexOfEntry(afterDocumentOffset:): \(next) (\(next / n) per call)")
    let previous = clock.measure {
      for offset in offsets { sum &+= words.indexOfEntry(beforeDocumentOffset: offset) ?? 0 }
    }
    print("1M indexOfEntry(beforeDocumentOffset:): \(previous) (\(previous / n) per call)")
    let positions = try offsets.prefix(100_000).map { try document.position(atDocumentOffset: $0) }
    let entries = clock.measure {
      for p in positions { sum &+= words.entry(after: p)?.label.utf8.count ?? 0 }
    }
    print("100k entry(after: TextPosition) with label and String.Index: \(entries) (\(entries / 100_000) per call)")
    var returned = 0
    let viewport = clock.measure {
      for offset in offsets.prefix(100_000) {
        returned += words.indices(overlappingDocumentRange: offset..<(offset + 4096)).count
      }
    }
    print(
      "100k viewport queries (4 KB, \(returned / 100_000) entries each): \(viewport) (\(viewport / 100_000) per query)")
    built = clock.measure {
      for kind in SystemRotor.allCases { _ = try? document.rotor(kind) }
    }
    print("all other system rotors built in \(built)")
    var editRng = SeededRandom(seed: 9)
    let edits = 200
    let edit = clock.measure {
      for _ in 0..<edits {
        let current = try! document.text(of: 0)
        let at = current.utf8.index(current.utf8.startIndex, offsetBy: Int(editRng.next() % UInt64(current.utf8.count)))
        let safe = current.unicodeScalars.index(at, offsetBy: 0)
        try! document.insert("x", at: safe, in: 0)
      }
    }
    print("one-character insert, all 6 system rotors updated, one 10 MB element: \(edit / edits) per edit")
    let small = try RotorDocument(
      elements: text.split(separator: "\n\n").enumerated().map { TextElement(id: $0.offset, text: String($0.element)) })
    for kind in SystemRotor.allCases { _ = try small.rotor(kind) }
    let smallEdit = clock.measure {
      for i in 0..<edits {
        let id = (i * 7919) % small.elementCount
        let t = try! small.text(of: id)
        try! small.insert("x", at: t.startIndex, in: id)
      }
    }
    print(
      "one-character insert, all 6 system rotors updated, \(small.elementCount) paragraph elements: \(smallEdit / edits) per edit"
    )
    #expect(sum != 42)
  }
}

let timingEnabled = getenvString("TEXTROTOR_TIMING") != nil

private func getenvString(_ name: String) -> String? {
  guard let value = getenv(name) else { return nil }
  return String(cString: value)
}
