import FuzzSupport
import TextRotor

/// Random edit scripts on a `RotorDocument` (replace, insert text, insert, remove and move
/// elements), through the public API only, checked after every step against a document built
/// afresh from the same elements: every system rotor's and pattern rotor's entries (element,
/// label, UTF-8 range) equal. Some elements are one line of over 16 KB, where edits take the long
/// line's paths (pattern rotors matched again only around the edit: a literal, a regex of any
/// length by the runs of its characters, a whole-word literal, a regex with word assertions and
/// line anchors, a whole-word alternation, a regex with look-around and `\A`).
let pieces = [
  "a", "b c", " ", ".", "\n", "\r\n", "\r", "é", "😀", "中文", "e\u{301}", "🇩🇪", "Hi. Yo", "\n\n", "\u{0}", "ส",
]
let patterns: [Pattern] = [
  .literal("b c"), .regex("[a-z]+"), .literal("a", wholeWord: true), .regex(#"\ba+\b|^b|c$"#),
  .regex("a|ab|b c", wholeWord: true), .regex(#"(?<=a )b|\Ac|a(?!,)"#),
]
/// Pieces of a long line (no line break).
let lineful = ["a", "b c", " ", ".", "é", "ab", "a,", "a'b", "€"]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEdit(_ data: UnsafeRawPointer?, _ count: Int) -> CInt {
  guard let data else { return 0 }
  var input = FuzzInput(data, count)
  func randomText() -> String { (0..<input.int(below: 6)).map { _ in pieces[input.int(below: pieces.count)] }.joined() }
  // About 20 KB of one line, of a few pieces repeated.
  func longLine() -> String {
    let run = (0..<(1 + input.int(below: 4))).map { _ in lineful[input.int(below: lineful.count)] }.joined()
    return String(repeating: run, count: 20_000 / run.utf8.count + 1)
  }
  var nextID = 0
  var elements: [TextElement<Int>] = []
  for _ in 0..<(1 + input.int(below: 4)) {
    // (31, not 0: an input that has run out reads zeros, and every element was long then.)
    elements.append(TextElement(id: nextID, text: input.int(below: 32) == 31 ? longLine() : randomText()))
    nextID += 1
  }
  guard let document = try? RotorDocument(elements: elements) else {
    fuzzCheck(false, "a document of distinct ids was refused")
    return 0
  }
  let rotors = SystemRotor.allCases
  for kind in rotors { _ = try? document.rotor(kind) }
  for pattern in patterns { _ = try? document.rotor(matching: pattern) }
  var steps = 0
  while !input.isEmpty && steps < 12 {
    steps += 1
    let ids = document.elementIDs
    do {
      switch input.int(below: 5) {
      case 0, 1:
        guard let id = ids.isEmpty ? nil : ids[input.int(below: ids.count)] else { continue }
        let text = try document.text(of: id)
        let indices = Array(text.indices) + [text.endIndex]
        // Two bytes of input for a place in a long element.
        func place() -> Int { (input.int(below: 256) << 8 | input.int(below: 256)) % indices.count }
        var a = indices[place()]
        var b = input.bool() ? a : indices[place()]
        if b < a { swap(&a, &b) }
        _ = try document.replace(a..<b, in: id, with: randomText())
      case 2:
        _ = try document.insert(TextElement(id: nextID, text: randomText()), at: input.int(below: ids.count + 1))
        nextID += 1
      case 3:
        guard !ids.isEmpty else { continue }
        _ = try document.remove(ids[input.int(below: ids.count)])
      default:
        guard !ids.isEmpty else { continue }
        _ = try document.move(ids[input.int(below: ids.count)], to: input.int(below: ids.count))
      }
    } catch {
      fuzzCheck(false, "a valid edit was refused: \(error)")
    }
    guard let fresh = try? RotorDocument(elements: document.elements) else {
      fuzzCheck(false, "rebuild refused")
      return 0
    }
    for kind in rotors {
      guard let edited = try? document.rotor(kind), let rebuilt = try? fresh.rotor(kind) else {
        fuzzCheck(false, "\(kind) failed")
        return 0
      }
      let a = describe(edited, document)
      let b = describe(rebuilt, fresh)
      fuzzCheck(a == b, "\(kind) after \(steps) edits on \(document.elements.map(\.text)): \(a) != rebuilt \(b)")
    }
    for pattern in patterns {
      guard let edited = document.rotor(named: "matches: \(pattern)"), let rebuilt = try? fresh.rotor(matching: pattern)
      else {
        fuzzCheck(false, "\(pattern) failed")
        return 0
      }
      let a = describe(edited, document)
      let b = describe(rebuilt, fresh)
      fuzzCheck(
        a == b, "\(pattern) after \(steps) edits on \(document.elements.map(\.text)): \(a) != rebuilt \(b)")
    }
  }
  return 0
}

func describe(_ rotor: Rotor<Int>, _ document: RotorDocument<Int>) -> [String] {
  rotor.map { entry in
    guard let id = entry.id, let range = entry.textRange else { return "\(entry.label)" }
    guard let text = try? document.text(of: id) else { return "missing \(id)" }
    let start = text.utf8.distance(from: text.startIndex, to: range.lowerBound)
    let end = text.utf8.distance(from: text.startIndex, to: range.upperBound)
    return "\(id):\(start)..<\(end):\(entry.label)"
  }
}

@_cdecl("FuzzEdit_main")
public func entryPoint(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
  runFuzzer(argc, argv) { data, count in fuzzEdit(data, count) }
}
