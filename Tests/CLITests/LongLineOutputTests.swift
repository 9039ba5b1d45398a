import Foundation
import Testing
import TextRotor
import TextRotorICU

@testable import textrotor

@Suite("textrotor find: output of long lines")
struct LongLineOutputTests {
  /// A line of 5 MB with a match is printed a piece of 1 MiB at a time as the sink takes it, not
  /// built whole in memory (twice, before: an array of its bytes, then the output), coloured or
  /// not; what is printed is the line, with its column counted up to the match alone.
  @Test(arguments: [false, true])
  func aLongLineIsPrintedInPieces(color: Bool) throws {
    let line = String(repeating: "word ", count: 1_000_000) + "Needle" + String(repeating: " tail", count: 10)
    let bytes = ByteStorage(line + "\nnext line\n")
    let matcher = try PatternMatcher(.literal("Needle"))
    var format = FindFormat()
    format.color = color
    var scan = FileScan(matcher: matcher, lineMatcher: matcher, format: format, name: "doc.txt")
    var pieces: [[UInt8]] = []
    scan.sink = { out, _, _ in
      pieces.append(out)
      return true
    }
    try scan.scan(bytes, range: 0..<bytes.count, base: 0, lineBase: 0, floor: 0)
    scan.drain(force: true)
    // The same scan with no sink keeps its output whole until the end.
    var whole = FileScan(matcher: matcher, lineMatcher: matcher, format: format, name: "doc.txt")
    try whole.scan(bytes, range: 0..<bytes.count, base: 0, lineBase: 0, floor: 0)
    #expect(Array(pieces.joined()) == whole.out)
    if !color { #expect(String(decoding: pieces.joined(), as: UTF8.self) == "1:5000001:" + line + "\n") }
    #expect(pieces.count >= 5, "\(pieces.count) pieces")
    #expect(pieces.map(\.count).max()! <= (1 << 20) + (1 << 16) + 64, "\(pieces.map(\.count))")
  }
}
