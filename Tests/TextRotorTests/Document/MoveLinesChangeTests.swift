import Glibc
import Testing

@testable import TextRotor

@Suite struct MoveLinesChangeTests {
  /// A move in a file document of two lines, one of them empty, whose moved line ends in CR LF (it
  /// is segmented again, not carried): the removal and the insertion each took the document through
  /// one element, and the `lines` change was reported against that state (1..<2 removed, 0..<2
  /// added, of two entries before and after).
  @Test func moveOfCRLFLineReportsLinesConsistently() throws {
    let path = "/tmp/textrotor-move-lines-\(getpid()).txt"
    defer { unlink(path) }
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    let data = Array("a\r\n\r\n".utf8)
    _ = data.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    close(fd)
    for (id, to) in [(1, 1), (1, 0), (0, 1), (0, 0)] {
      let document = try RotorDocument<Int>(contentsOf: path, elements: .lines)
      let ids = document.elements.map(\.id)
      let labels = { () throws -> [String] in
        let rotor = try document.rotor(.lines)
        return rotor.indices.map { i in "\(rotor.location(at: i)!.element):\(rotor[i].label)" }
      }
      let pattern = "matches: '^$' (regex)"
      let matches = { () throws -> [String] in
        let rotor = try #require(document.rotor(named: pattern))
        return rotor.indices.map { i in "\(rotor.location(at: i)!.element):\(rotor[i].label)" }
      }
      _ = try document.rotor(matching: .regex("^$"))
      let matchesBefore = try matches()
      #expect(matchesBefore.count == 1)
      let before = try labels()
      #expect(before.count == 2)
      let generation = document.generation
      _ = try document.move(ids[id], to: to)
      let after = try labels()
      // A move to where the line is changes nothing (its CR LF stays: it is not put back with a
      // virtual line feed), and reports nothing.
      if id == to {
        #expect(after == before && document.generation == generation && document.lastChange == nil)
        #expect(try document.documentOffset(of: document.position(in: ids[1], utf8Offset: 0)) == 3)
        continue
      }
      let c = try #require(document.lastChange?[rotor: .lines])
      var applied = before
      applied.removeSubrange(c.removed)
      applied.insert(contentsOf: after[c.added], at: c.added.lowerBound)
      #expect(applied == after, "move \(id) to \(to): \(c), before \(before), after \(after)")
      // A pattern's matches (`^$` finds the empty line) are reported as consistently.
      let m = try #require(document.lastChange?[rotor: pattern])
      var appliedMatches = matchesBefore
      appliedMatches.removeSubrange(m.removed)
      let matchesAfter = try matches()
      appliedMatches.insert(contentsOf: matchesAfter[m.added], at: m.added.lowerBound)
      #expect(appliedMatches == matchesAfter, "move \(id) to \(to): \(m)")
    }
  }
}
