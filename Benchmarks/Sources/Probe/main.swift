// One engine operation repeated, for instruction counts that do not depend on the machine's load:
//   valgrind --tool=callgrind Probe OPERATION REPS [FILE]   (on a `strip --strip-debug` copy)
// run with two values of REPS; (difference of instructions) / (difference of operations) is the
// cost of one operation without the set-up. Operations:
//   lookup | insert | remove | move   among N elements (env N, default 1,000,000; SIZE=bytes per element;
//                                     KINDS=words,lines,...
//                                     system rotors held; CUSTOM=1 a custom rotor, an entry every 10
//                                     elements, or every CUSTOM_EVERY; per move: thread CPU time
//                                     percentiles of moves with and without a custom entry)
//   edit FILE   a one-character insert and its delete (two edits) at 1,000 random offsets, every system
//               rotor but prose sentences and a pattern rotor held (PROSE=1: prose sentences too;
//               KINDS=words,pattern,...: only those)
//   pos | utf16 | fromutf16 | loc | nav | view FILE   conversions, next entry, 4 KB viewports
//               (OFFSETS=a,b,...: at those offsets, repeated)
//   anchor | unanchor   the position of one of 100,000 anchors (env ANCHORS) in N elements (default
//               10,000), or its removal
//   growth FILE   RSS after each of REPS rounds of 10,000 one-character inserts and deletes at random
//               places (KINDS=words,pattern,...: only those held)
//   tail FILE   thread CPU time per edit: percentiles and the slowest edits with what they changed
// It prints the mean CPU time per repetition (noisy on a shared machine: use callgrind's counts).
import Foundation
import TextRotor

func now() -> UInt64 {
  var t = timespec()
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
  return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec)
}
/// Prints `message` with the usage on standard error and exits with status 2 (bad arguments name
/// the problem; they trapped).
func fail(_ message: String) -> Never {
  FileHandle.standardError.write(
    Data("Probe: \(message)\nusage: Probe OPERATION REPS [FILE] (operations: the comment atop main.swift)\n".utf8))
  exit(2)
}

/// The integer in environment variable `name`, `fallback` when it is not set.
func environment(_ name: String, _ fallback: Int) -> Int {
  guard let v = ProcessInfo.processInfo.environment[name] else { return fallback }
  guard let n = Int(v) else { fail("\(name) is '\(v)', not an integer") }
  return n
}

/// The system rotor named `name` in KINDS.
func systemRotor(_ name: Substring) -> SystemRotor {
  guard let kind = SystemRotor(rawValue: String(name)) else { fail("unknown rotor '\(name)' in KINDS") }
  return kind
}

/// The file at `path` as one element (exits naming the problem when it cannot be read).
func open(_ path: String) -> RotorDocument<Int> {
  do { return try RotorDocument<Int>(contentsOf: path, elements: .whole) } catch { fail("\(error)") }
}

let withoutFile: Set = ["lookup", "insert", "remove", "move", "anchor", "unanchor"]
let withFile: Set = ["growth", "tail", "edit", "pos", "utf16", "fromutf16", "loc", "nav", "view"]
guard CommandLine.arguments.count >= 3 else { fail("an operation and a repetition count are needed") }
let what = CommandLine.arguments[1]
guard withoutFile.contains(what) || withFile.contains(what) else { fail("unknown operation '\(what)'") }
guard let reps = Int(CommandLine.arguments[2]), reps > 0 else {
  fail("the repetition count is '\(CommandLine.arguments[2])', not a positive integer")
}
guard !withFile.contains(what) || CommandLine.arguments.count >= 4 else { fail("\(what) needs a FILE") }
var sink = 0
var x: UInt64 = 88172645463325252
@MainActor func rnd(_ n: Int) -> Int { x ^= x << 13; x ^= x >> 7; x ^= x << 17; return Int(x % UInt64(n)) }
switch what {
case "lookup", "insert", "remove", "move":
  let n = environment("N", 1_000_000)
  // SIZE=bytes: each element's text that long (the sentence repeated), for large elements.
  let size = environment("SIZE", 0)
  let elements = (0..<n).map {
    let text = "Element \($0) has a few words. And a second sentence."
    return TextElement(
      id: $0, text: size > 0 ? String(repeating: text + " ", count: size / (text.utf8.count + 1) + 1) : text)
  }
  let document = try RotorDocument(elements: elements)
  // Which elements carry a custom entry (none without CUSTOM): moves are timed apart by that.
  let every =
    ProcessInfo.processInfo.environment["CUSTOM"] == nil
    ? Int.max : environment("CUSTOM_EVERY", 10)
  if what != "lookup" {
    if let k = ProcessInfo.processInfo.environment["KINDS"] {
      for name in k.split(separator: ",") {
        _ = try document.rotor(systemRotor(name))
      }
    }
    if ProcessInfo.processInfo.environment["CUSTOM"] != nil {
      document.addRotor("headings") { for i in stride(from: 0, to: n, by: every) { RotorEntry("h\(i)", id: i) } }
    }
  }
  var next = n
  var rows: [(UInt64, String)] = []
  func tcpu() -> UInt64 {
    var t = timespec(); clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
    return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec)
  }
  let t = now()
  for _ in 0..<reps {
    switch what {
    case "lookup": sink &+= document.index(of: rnd(n)) ?? 0
    case "insert":
      try document.insert(TextElement(id: next, text: "A new element."), at: rnd(document.elementCount + 1)); next += 1
    case "remove": _ = try document.remove(at: rnd(document.elementCount))
    default:
      let id = document.elementID(at: rnd(document.elementCount))!
      let to = rnd(document.elementCount)
      let t0 = tcpu()
      _ = try document.move(id, to: to)
      let t1 = tcpu()
      rows.append((t1 - t0, id < n && id % every == 0 ? "custom" : "plain"))
    }
  }
  print(what, Double(now() - t) / Double(reps) / 1000, "µs")
  if !rows.isEmpty {
    for tag in ["custom", "plain"] {
      let s = rows.filter { $0.1 == tag }.map(\.0).sorted()
      guard !s.isEmpty else { continue }
      print(
        tag, s.count, "p50", Double(s[s.count / 2]) / 1000, "p90", Double(s[s.count * 9 / 10]) / 1000, "p99",
        Double(s[s.count * 99 / 100]) / 1000)
    }
  }

case "anchor", "unanchor":
  // ANCHORS anchors (default 100,000; stickiness alternating) at random places in N elements
  // (default 10,000), then REPS times: the position of a random anchor (`anchor`), or the removal
  // of one (`unanchor`, REPS at most ANCHORS).
  let n = environment("N", 10000)
  let count = environment("ANCHORS", 100_000)
  let document = try RotorDocument(
    elements: (0..<n).map { TextElement(id: $0, text: "Element \($0) has a few words. And a second sentence.") })
  var anchors: [TextAnchor] = []
  anchors.reserveCapacity(count)
  for k in 0..<count {
    let position = try document.position(in: rnd(n), utf8Offset: rnd(40))
    anchors.append(try document.anchor(at: position, stickiness: k % 2 == 0 ? .staysBefore : .movesAfter))
  }
  let t = now()
  if what == "anchor" {
    for _ in 0..<reps { sink &+= document.position(of: anchors[rnd(count)])?.element ?? 0 }
  } else {
    for k in 0..<reps { document.removeAnchor(anchors[(k &* 7919) % count]) }
  }
  print(what, Double(now() - t) / Double(reps) / 1000, "µs")

case "growth":
  // RSS while editing at random places: REPS rounds of 10,000 one-character inserts and their
  // deletes (the text ends as it began), six system rotors and a pattern rotor held.
  let path = CommandLine.arguments[3]
  let document = open(path)
  let length = try document.utf8Count(of: 0)
  let held = ProcessInfo.processInfo.environment["KINDS"]?.split(separator: ",").map(String.init)
  for kind in SystemRotor.allCases where kind != .proseSentences && held?.contains(kind.rawValue) ?? true {
    _ = try document.rotor(kind)
  }
  if held?.contains("pattern") ?? true { _ = try document.rotor(matching: .literal("the")) }
  func rss() -> Int {
    let statm = (try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8)) ?? "0 0"
    return Int(statm.split(separator: " ")[1])! * 4096 / 1_000_000
  }
  print("round 0: RSS \(rss()) MB")
  for round in 1...reps {
    for _ in 0..<10_000 {
      var o = rnd(length); while (try? document.position(in: 0, utf8Offset: o)) == nil { o -= 1 }
      try document.replace(utf8Range: o..<o, in: 0, with: "x")
      try document.replace(utf8Range: o..<(o + 1), in: 0, with: "")
    }
    print("round \(round): RSS \(rss()) MB")
  }

case "tail":
  // Per-edit thread CPU time at random offsets; prints the slowest edits and what they changed.
  let path = CommandLine.arguments[3]
  let document = open(path)
  let length = try document.utf8Count(of: 0)
  // PROSE=1: prose sentences held too.
  let prose = ProcessInfo.processInfo.environment["PROSE"] != nil
  for kind in SystemRotor.allCases where kind != .proseSentences || prose { _ = try document.rotor(kind) }
  _ = try document.rotor(matching: .literal("the"))
  // REGEX=pattern: a regex rotor held too.
  if let regex = ProcessInfo.processInfo.environment["REGEX"] { _ = try document.rotor(matching: .regex(regex)) }
  // WREGEX=pattern: a whole-word regex rotor held too.
  if let regex = ProcessInfo.processInfo.environment["WREGEX"] {
    _ = try document.rotor(matching: .regex(regex, wholeWord: true))
  }
  // WORD=literal: a whole-word literal rotor held too.
  if let word = ProcessInfo.processInfo.environment["WORD"] {
    _ = try document.rotor(matching: .literal(word, wholeWord: true))
  }
  var rows: [(UInt64, Int, String)] = []
  func faults() -> Int {
    // 1: RUSAGE_THREAD (not imported into Swift).
    var u = rusage(); getrusage(__rusage_who_t(1), &u); return u.ru_minflt + u.ru_majflt
  }
  func tcpu() -> UInt64 {
    var t = timespec(); clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec)
  }
  // TYPED=text: what is typed and deleted again (default "x"; e.g. a line break).
  // PASTE=N: the first N bytes of the file are pasted and deleted again instead.
  let typed =
    ProcessInfo.processInfo.environment["PASTE"].flatMap(Int.init).map {
      String(try! document.text(of: 0).utf8.prefix($0))!
    } ?? ProcessInfo.processInfo.environment["TYPED"] ?? "x"
  for _ in 0..<reps {
    var o = rnd(length); while (try? document.position(in: 0, utf8Offset: o)) == nil { o -= 1 }
    let f0 = faults()
    let t0 = tcpu()
    let c = try document.replace(utf8Range: o..<o, in: 0, with: typed)
    let t1 = tcpu()
    let f1 = faults()
    let c2 = try document.replace(utf8Range: o..<(o + typed.utf8.count), in: 0, with: "")
    let t2 = tcpu()
    let d = c.rotors.sorted { $0.key < $1.key }.map {
      "\($0.key.prefix(4)):\($0.value.removed.count)/\($0.value.added.count)"
    }.joined(separator: " ")
    rows.append((t1 - t0, o, "faults \(f1 - f0) " + d))
    rows.append(
      (
        t2 - t1, o,
        c2.rotors.sorted { $0.key < $1.key }.map {
          "\($0.key.prefix(4)):\($0.value.removed.count)/\($0.value.added.count)"
        }.joined(separator: " ")
      ))
  }
  let sorted = rows.sorted { $0.0 < $1.0 }
  print(
    "p50", Double(sorted[sorted.count / 2].0) / 1000, "p90", Double(sorted[sorted.count * 9 / 10].0) / 1000, "p99",
    Double(sorted[sorted.count * 99 / 100].0) / 1000)
  for r in sorted.suffix(25) { print(Double(r.0) / 1000, r.1, r.2) }
  for r in sorted.prefix(3) { print(Double(r.0) / 1000, r.1, r.2) }
  // Edits with page faults (inserts only carry the count), by decile of time.
  let inserts = sorted.filter { $0.2.hasPrefix("faults") }
  for d in 0..<10 {
    let part = inserts[(inserts.count * d / 10)..<(inserts.count * (d + 1) / 10)]
    guard !part.isEmpty else { continue }
    let withFaults = part.filter { !$0.2.hasPrefix("faults 0 ") }.count
    let (low, high) = (Double(part.first!.0) / 1000, Double(part.last!.0) / 1000)
    print("decile \(d): \(low)–\(high) µs, \(withFaults) of \(part.count) with a page fault")
  }

default:
  let path = CommandLine.arguments[3]
  let document = open(path)
  let length = try document.utf8Count(of: 0)
  var offsets: [Int] = []
  for _ in 0..<1000 {
    var o = rnd(length); while (try? document.position(in: 0, utf8Offset: o)) == nil { o -= 1 }; offsets.append(o)
  }
  // OFFSETS=a,b,...: those offsets instead (e.g. the slowest ones `tail` printed), repeated.
  if let given = ProcessInfo.processInfo.environment["OFFSETS"] {
    let list = given.split(separator: ",").map {
      guard let n = Int($0) else { fail("OFFSETS takes integers separated by commas, not '\($0)'") }
      return n
    }
    offsets = (0..<1000).map { list[$0 % list.count] }
  }
  let words = what == "nav" || what == "view" ? try document.rotor(.words) : nil
  if what == "edit" {
    let prose = ProcessInfo.processInfo.environment["PROSE"] != nil
    if let k = ProcessInfo.processInfo.environment["KINDS"] {
      for name in k.split(separator: ",") where name != "pattern" {
        _ = try document.rotor(systemRotor(name))
      }
      if k.contains("pattern") { _ = try document.rotor(matching: .literal("the")) }
    } else {
      for kind in SystemRotor.allCases where prose || kind != .proseSentences { _ = try document.rotor(kind) }
      _ = try document.rotor(matching: .literal("the"))
    }
  }
  let positions = try offsets.map { try document.position(in: 0, utf8Offset: $0) }
  let t = now()
  for i in 0..<reps {
    let p = positions[i % 1000]
    switch what {
    case "pos": sink &+= try document.utf8Offset(of: try document.position(in: 0, utf8Offset: offsets[i % 1000]))
    case "utf16": sink &+= try document.utf16Offset(of: p)
    case "fromutf16":
      sink &+= try document.utf8Offset(of: try document.position(in: 0, utf16Offset: offsets[i % 1000] / 2))
    case "loc": sink &+= try document.location(of: p, encoding: .utf16).line
    case "nav": sink &+= words!.indexOfEntry(after: p) ?? 0
    case "view":
      let o = offsets[i % 1000]
      var e = Swift.min(length, o + 4096)
      while (try? document.position(in: 0, utf8Offset: e)) == nil { e -= 1 }
      let bottom = try document.position(in: 0, utf8Offset: e)
      let entries = words!.entries(from: p, to: bottom)
      sink &+= labelBytes(entries) &+ entries.count << 32
    case "edit":
      let o = offsets[i % 1000]
      try document.replace(utf8Range: o..<o, in: 0, with: "x")
      try document.replace(utf8Range: o..<(o + 1), in: 0, with: "")
    default: fatalError()
    }
  }
  print(what, Double(now() - t) / Double(reps) / 1000, "µs")

}
print(sink % 2)

/// The labels' bytes, outside the main actor's top-level code (whose closures check their executor).
nonisolated func labelBytes(_ entries: [RotorEntry<Int>]) -> Int {
  var n = 0
  for e in entries { n &+= e.label.utf8.count }
  return n
}
