import Synchronization
import Testing
import TextRotor

struct Message {
  var id: Int
  var subject: String
  var isVIP: Bool
}

@Suite struct RotorContentBuilderTests {
  let messages = [
    Message(id: 1, subject: "Lunch?", isVIP: false), Message(id: 2, subject: "Board meeting", isVIP: true),
    Message(id: 3, subject: "Invoice", isVIP: true),
  ]

  @Test func forInWithWhere() {
    let vips = Rotor<Int>("VIPs") {
      for message in messages where message.isVIP {
        RotorEntry(message.subject, id: message.id)
      }
    }
    #expect(vips.name == "VIPs")
    #expect(vips.map(\.label) == ["Board meeting", "Invoice"])
    #expect(vips.map(\.id) == [2, 3])
  }

  @Test func ifIfElseOptionalsArraysAndBlocks() {
    let flag = true
    let missing: RotorEntry<Int>? = nil
    let present: RotorEntry<Int>? = RotorEntry("present", id: 9)
    let rotor = Rotor<Int>("mixed") {
      RotorEntry("first", id: 0)
      if flag { RotorEntry("if", id: 1) }
      if !flag { RotorEntry("never", id: 2) }
      if flag {
        RotorEntry("then", id: 3)
      } else {
        RotorEntry("else", id: 4)
      }
      if !flag {
        RotorEntry("then", id: 5)
      } else {
        RotorEntry("else", id: 6)
      }
      missing
      present
      [RotorEntry("array1", id: 7), RotorEntry("array2", id: 8)]
      switch messages.count {
      case 3: RotorEntry("three", id: 10)
      default: RotorEntry("other", id: 11)
      }
      for message in messages {
        if message.isVIP { RotorEntry(message.subject, id: message.id) }
      }
    }
    #expect(
      rotor.map(\.label) == [
        "first", "if", "then", "else", "present", "array1", "array2", "three", "Board meeting", "Invoice",
      ])
    let empty = Rotor<Int>("empty") {}
    #expect(empty.isEmpty)
  }

  @Test func importantLinesRotor() throws {
    let text = "Important: call Anna\nnothing here\nImportant: buy milk"
    let document = try RotorDocument(elements: [TextElement(id: 0, text: text)])
    let lines = try document.rotor(.lines)
    document.addRotor("Important") {
      for line in lines where line.label.hasPrefix("Important") {
        RotorEntry(id: 0, textRange: line.textRange)
      }
    }
    let important = document.rotor(named: "Important")!
    #expect(important.map(\.label) == ["Important: call Anna", "Important: buy milk"])
    // It follows edits: typing before the second line moves it.
    try document.insert("Very ", at: text.startIndex, in: 0)
    #expect(document.rotor(named: "Important")!.map(\.label) == ["Very Important: call Anna", "Important: buy milk"])
  }

  @Test func entryInitializers() {
    let text = "abc"
    let owned = RotorEntry<Int>(textRange: text.startIndex..<text.endIndex)
    #expect(owned.id == nil && owned.namespace == nil && owned.label == "")
    let ns = RotorNamespace()
    let scoped = RotorEntry("x", id: 1, in: ns, textRange: nil) {}
    #expect(scoped.namespace == ns && scoped.id == 1 && scoped.textRange == nil)
    scoped.prepare()
  }
}

@Suite struct RotorNamespaceTests {
  @Test func namespacesScopeIds() {
    let a = RotorNamespace()
    let b = RotorNamespace()
    #expect(a != b)
    let inA = RotorEntry<Int>("x", id: 1, in: a)
    let inB = RotorEntry<Int>("x", id: 1, in: b)
    let plain = RotorEntry<Int>("x", id: 1)
    #expect(inA.target != inB.target)
    #expect(inA.target != plain.target)
    #expect(inA.target == RotorEntry<Int>("y", id: 1, in: a).target)
    #expect(Set([inA.target, inB.target, plain.target]).count == 3)
  }

  @Test func documentResolvesItsOwnNamespaceOnly() throws {
    let document = try RotorDocument(elements: [TextElement(id: 1, text: "one"), TextElement(id: 2, text: "two")])
    let other = RotorNamespace()
    let left = document.addRotor("r") {
      RotorEntry("mine", id: 2, in: document.namespace)
      RotorEntry("plain", id: 1)
      RotorEntry("other", id: 1, in: other)
      RotorEntry("nowhere", id: 3)
    }
    #expect(left.map(\.label) == ["other", "nowhere"])
    // In document order: element 1 before element 2.
    #expect(document.rotor(named: "r")!.map(\.label) == ["plain", "mine"])
  }

  @Test func prepareRuns() throws {
    let counter = Counter()
    let document = try RotorDocument(elements: [TextElement(id: 1, text: "one")])
    document.addRotor("r") { RotorEntry("p", id: 1) { counter.bump() } }
    document.rotor(named: "r")![0].prepare()
    #expect(counter.value == 1)
  }
}

final class Counter: Sendable {
  private let count = Mutex(0)
  func bump() { count.withLock { $0 += 1 } }
  var value: Int { count.withLock { $0 } }
}
