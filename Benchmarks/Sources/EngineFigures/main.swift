// The document engine's figures (issue 8), in process, release build:
//
//   cd Benchmarks && swift run -c release EngineFigures [--sizes 1,10,100,1000] [--elements 10000,1000000]
//                                                      [--multilingual] [--no-single-line]
//                                                      [--per-rotor SIZE_MB] [--edits N] [--element-ops N]
//
// Documents are made from the generated English corpus (Corpora/generate; $TEXTROTOR_CORPORA to
// point elsewhere), repeated or cut to each size and written to /tmp, then opened as ONE element
// with every system rotor and a pattern rotor held. Each figure is p50 / p99 over many operations
// at pseudo-random places (fixed seeds). Prints a Markdown table. `--multilingual` measures the same
// on the generated multilingual corpus as it is (20 MB of many scripts: Thai and Chinese words
// come from ICU's dictionaries, which the fast paths leave to ICU). `--per-rotor SIZE_MB`: the p50 of an
// edit with one rotor held at a time. `--edits N` and `--element-ops N` set how many edits (per
// size; default 300 at 1 GB, 1,000 below) and element inserts, removes and moves (default 2,000)
// are timed: an index cut at more places (each edit and element operation leaves its pieces cut
// where it was) has deeper trees, so a longer run shows the drift, which each row notes as the p50
// of the first and last tenth. Rows also note the operations that took a page fault.
import Glibc
import TextRotor

/// The six system rotors of the SPEC (prose sentences, a structure rotor, are measured apart).
let systemSix = SystemRotor.allCases.filter { $0 != .proseSentences }

func now() -> UInt64 {
  var t = timespec()
  clock_gettime(CLOCK_MONOTONIC, &t)
  return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec)
}

/// This thread's CPU time: what an operation cost, without the time the shared machine's other
/// processes took the core from it (a p99 of wall time on a loaded 2-core machine is mostly that).
func cpuNow() -> UInt64 {
  var t = timespec()
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
  return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec)
}

/// Page faults this thread has taken (minor and major): a first touch of memory the kernel has to
/// map (and zero) is paid inside the operation that touches it.
func faultsNow() -> Int {
  var u = rusage()
  getrusage(__rusage_who_t(1), &u)  // RUSAGE_THREAD (a macro Swift does not import)
  return u.ru_minflt + u.ru_majflt
}

/// Wall and thread-CPU times of `body`, and the page faults it took (appended to `faultLog`, one
/// per call, so that a row can tell its operations that faulted from those that did not).
@inline(__always) func timed(_ wall: inout [UInt64], _ cpu: inout [UInt64], _ body: () throws -> Void) rethrows {
  let f = faultsNow()
  let c = cpuNow()
  let a = now()
  try body()
  let b = now()
  cpu.append(cpuNow() - c)
  wall.append(b - a)
  faultLog.append(faultsNow() - f)
}
nonisolated(unsafe) var faultLog: [Int] = []

/// For the last `times.count` calls of `timed` (those `times` holds, when its calls were not
/// interleaved with others): how many took a page fault, and the p50 / p99 of those that did not.
func faultNote(_ times: [UInt64], stride: Int = 1, phase: Int = 0, what: String = "") -> String {
  let log = faultLog.suffix(times.count * stride).enumerated().filter { $0.offset % stride == phase }.map(\.element)
  guard log.count == times.count else { return "" }
  let faulted = log.filter { $0 > 0 }.count
  let clean = zip(times, log).filter { $0.1 == 0 }.map(\.0)
  let rest = clean.isEmpty ? "" : ", the others \(percentiles(clean))"
  return "; \(what)page faults in \(f(Double(faulted) * 100 / Double(times.count), 1)) % of them\(rest)"
}

/// The p50 of the first and of the last tenth of `times` (in the order measured): an index whose
/// operations grow slower as edits accumulate (pieces cut at more places) shows it here.
func drift(_ times: [UInt64], what: String = "") -> String {
  let tenth = times.count / 10
  guard tenth >= 20 else { return "" }
  func p50(_ s: ArraySlice<UInt64>) -> String {
    percentiles(Array(s)).split(separator: " / ").first.map(String.init) ?? ""
  }
  return "; \(what)p50 of the first / last tenth \(p50(times.prefix(tenth))) / \(p50(times.suffix(tenth)))"
}

/// The bytes of the entries' labels (each label read), in a nonisolated function: a closure in
/// this file's top-level code runs on the main actor and checks its executor at each call, which
/// cost more per entry than making the entry.
nonisolated func labelBytes(_ entries: [RotorEntry<Int>]) -> Int {
  var n = 0
  for entry in entries { n &+= entry.label.utf8.count }
  return n
}

func rssMB() -> Double {
  guard let f = fopen("/proc/self/statm", "r") else { return 0 }
  defer { fclose(f) }
  var size = 0
  var resident = 0
  _ = withUnsafeMutablePointer(to: &size) { s in
    withUnsafeMutablePointer(to: &resident) { r in withVaList([s, r]) { vfscanf(f, "%ld %ld", $0) } }
  }
  return Double(resident) * 4096 / 1e6
}

struct Rng {
  var state: UInt64
  mutating func next(below n: Int) -> Int {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return Int((z ^ (z >> 31)) % UInt64(max(n, 1)))
  }
}

/// `x` with `digits` decimals (no Foundation here).
func f(_ x: Double, _ digits: Int) -> String {
  var scale = 1.0
  for _ in 0..<digits { scale *= 10 }
  let v = (x * scale).rounded() / scale
  if digits == 0 { return String(Int(v)) }
  let whole = Int(v)
  var frac = String(Int(((v - Double(whole)) * scale).rounded()))
  while frac.count < digits { frac = "0" + frac }
  return "\(whole).\(frac)"
}

func percentiles(_ ns: [UInt64]) -> String {
  let s = ns.sorted()
  func fmt(_ v: UInt64) -> String { v >= 1_000_000 ? "\(f(Double(v) / 1e6, 2)) ms" : "\(f(Double(v) / 1e3, 1)) µs" }
  return "\(fmt(s[s.count / 2])) / \(fmt(s[min(s.count - 1, s.count * 99 / 100)]))"
}

/// Prints a row and flushes it (the output is often a pipe or a file, read while the run goes on).
func emit(_ line: String) {
  print(line)
  fflush(nil)
}

let usage = """
  usage: EngineFigures [--sizes MB,...] [--elements N,...] [--multilingual] [--no-single-line]
                       [--per-rotor SIZE_MB] [--element-rotors SET,...] [--edits N] [--element-ops N]
  (--element-rotors: the system rotors held in the element figures, one run per set: `six` (the
  default), `none`, or rotor names joined by `+`, e.g. `none,words,words+sentences+lines,six`)
  """
/// Prints `message` and the usage on standard error and exits with status 2.
func usageError(_ message: String) -> Never {
  let text = Array("EngineFigures: \(message)\n\(usage)\n".utf8)
  _ = text.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
  exit(2)
}

/// The comma-separated integers in `value`, the value of option `name`.
func integers(_ value: String?, of name: String) -> [Int] {
  guard let value else { usageError("\(name) needs a value") }
  let parts = value.split(separator: ",").map { Int($0) }
  guard !parts.contains(nil) else { usageError("\(name) takes integers separated by commas, not '\(value)'") }
  return parts.map { $0! }
}

var arguments = CommandLine.arguments.dropFirst()
var sizes = [1, 10, 100, 1000]
var elementCounts = [10_000, 100_000, 1_000_000]
var singleLine = true
/// One-character edits per document size (default 300 at 1 GB, 1,000 below), and inserts,
/// removes and moves per element count.
var editCount: Int? = nil
var elementOps = 2000
var multilingual = false
var perRotor: Int? = nil
var elementRotorSets: [[SystemRotor]] = [systemSix]
while let a = arguments.popFirst() {
  switch a {
  case "--sizes": sizes = integers(arguments.popFirst(), of: a)
  case "--elements": elementCounts = integers(arguments.popFirst(), of: a)
  case "--no-single-line": singleLine = false
  case "--edits", "--element-ops":
    guard let n = integers(arguments.popFirst(), of: a).first, n >= 1 else {
      usageError("\(a) takes a count of at least 1")
    }
    if a == "--edits" { editCount = n } else { elementOps = n }
  case "--multilingual": multilingual = true
  case "--per-rotor": perRotor = integers(arguments.popFirst(), of: a).first
  case "--element-rotors":
    guard let value = arguments.popFirst() else { usageError("\(a) needs a value") }
    elementRotorSets = value.split(separator: ",").map { name in
      switch name {
      case "six": return systemSix
      case "none": return []
      default:
        return name.split(separator: "+").map { part in
          guard let kind = SystemRotor(rawValue: String(part)) else {
            usageError("\(a) takes six, none or system rotor names joined by +, not '\(name)'")
          }
          return kind
        }
      }
    }
  case "-h", "--help":
    print(usage)
    exit(0)
  default:
    usageError("unknown argument \(a)")
  }
}

let corpora = getenv("TEXTROTOR_CORPORA").map { String(cString: $0) } ?? "../Corpora/generated"
let source = try ByteStorage.contentsOf(path: corpora + "/english-100mb.txt")
let corpus = source.copyBytes(0..<source.count)

/// A file of `megabytes` MB of the corpus (cut at a line break), or one line when `oneLine`.
func makeFile(megabytes: Int, oneLine: Bool = false) -> String {
  let path = "/tmp/textrotor-engine-\(megabytes)mb\(oneLine ? "-line" : "").txt"
  let target = megabytes * 1_000_000
  guard let f = fopen(path, "w") else { fatalError("cannot write \(path)") }
  var written = 0
  while written < target {
    var n = min(corpus.count, target - written)
    while n < corpus.count && n > 0 && corpus[n - 1] != 0x0A { n -= 1 }
    if n == 0 { n = min(corpus.count, target - written) }
    var chunk = Array(corpus[0..<n])
    if oneLine { for i in chunk.indices where chunk[i] == 0x0A || chunk[i] == 0x0D { chunk[i] = 0x20 } }
    chunk.withUnsafeBytes { _ = fwrite($0.baseAddress, 1, $0.count, f) }
    written += n
  }
  fclose(f)
  return path
}

if let megabytes = perRotor {
  // p50 of an edit with one rotor held at a time (where the time of an edit goes).
  let path = makeFile(megabytes: megabytes)
  let only = getenv("ONLY").map { SystemRotor(rawValue: String(cString: $0))! }
  let kinds: [SystemRotor?] = only.map { [$0] } ?? ([nil] + systemSix.map(Optional.some))
  for kind in kinds {
    let document = try RotorDocument<Int>(contentsOf: path, elements: .whole)
    if let kind { _ = try document.rotor(kind) }
    let length = try document.utf8Count(of: 0)
    var rng = Rng(state: 5)
    var times: [UInt64] = []
    for _ in 0..<2000 {
      var o = rng.next(below: length)
      while (try? document.position(in: 0, utf8Offset: o)) == nil { o -= 1 }
      let a = now()
      try document.replace(utf8Range: o..<o, in: 0, with: "x")
      times.append(now() - a)
      try document.replace(utf8Range: o..<(o + 1), in: 0, with: "")
    }
    emit("| one-character insert, only \(kind?.rawValue ?? "no rotor") held | \(percentiles(times)) |")
  }
  exit(0)
}

emit("| figure | size | p50 / p99 | notes |")
emit("| --- | --- | --- | --- |")

func editFigures(path: String, label: String, edits: Int, sizeMB: Int) throws {
  let rss0 = rssMB()
  var t0 = now()
  let document = try RotorDocument<Int>(
    contentsOf: path, elements: .whole, segmenter: Segmenter(threads: Segmenter.availableCores))
  let openMs = Double(now() - t0) / 1e6
  let rssOpen = rssMB() - rss0
  emit(
    "| open as ONE element (no rotor) | \(label) | \("\(f(openMs, 0)) ms") | RSS +\("\(f(rssOpen, 0))") MB (file \(sizeMB) MB, mapped pages included) |"
  )
  t0 = now()
  var held: [Rotor<Int>] = []
  for kind in systemSix { held.append(try document.rotor(kind)) }
  held.append(try document.rotor(matching: .literal("the")))
  let buildS = Double(now() - t0) / 1e9
  emit("| build 6 system rotors + pattern rotor | \(label) | \("\(f(buildS, 1)) s") | RSS \("\(f(rssMB(), 0))") MB |")
  held.removeAll()
  let length = try document.utf8Count(of: 0)
  var rng = Rng(state: 7)
  func place() -> Int {
    var o = rng.next(below: length)
    while (try? document.position(in: 0, utf8Offset: o)) == nil { o -= 1 }
    return o
  }
  // Typing at a caret, as an editor's user types: a burst of 24 characters (words and spaces)
  // typed one at a time at a random place, then deleted by backspace, at `edits / 48` places.
  do {
    var times: [UInt64] = []
    var cpu: [UInt64] = []
    let burst = Array("quick brown fox jumps ove".utf8.prefix(24))
    for _ in 0..<Swift.max(1, edits / 48) {
      let o = place()
      for (k, c) in burst.enumerated() {
        let typed = String(decoding: [c], as: UTF8.self)
        try timed(&times, &cpu) { try document.replace(utf8Range: (o + k)..<(o + k), in: 0, with: typed) }
      }
      for k in stride(from: burst.count - 1, through: 0, by: -1) {
        try timed(&times, &cpu) { try document.replace(utf8Range: (o + k)..<(o + k + 1), in: 0, with: "") }
      }
    }
    emit(
      "| typing at a caret (24 characters typed, then deleted by backspace), 6 system rotors + pattern rotor | \(label) | \(percentiles(times)) | \(times.count) edits; thread CPU time \(percentiles(cpu))\(faultNote(times)) |"
    )
  }
  for (withSnapshots, withProse) in [(false, false), (true, false), (false, true)] {
    if withProse { _ = try document.rotor(.proseSentences) }
    var times: [UInt64] = []
    var cpu: [UInt64] = []
    var snapshots: [[Rotor<Int>]] = []
    for _ in 0..<edits {
      if withSnapshots {
        var all: [Rotor<Int>] = systemSix.compactMap { document.cachedRotor($0) }
        for name in document.rotorNames { if let m = document.rotor(named: name) { all.append(m) } }
        snapshots.append(all)
        if snapshots.count > 8 { snapshots.removeFirst() }
      }
      let o = place()
      try timed(&times, &cpu) { try document.replace(utf8Range: o..<o, in: 0, with: "x") }
      try timed(&times, &cpu) { try document.replace(utf8Range: o..<(o + 1), in: 0, with: "") }
    }
    emit(
      "| one-character insert/delete, 6 system rotors + pattern rotor held\(withSnapshots ? ", snapshots of every rotor held" : "")\(withProse ? ", and prose sentences" : "") | \(label) | \(percentiles(times)) | \(times.count) edits; thread CPU time \(percentiles(cpu))\(faultNote(times))\(drift(times)) |"
    )
  }
  // Conversions.
  var conv: [UInt64] = []
  var sink = 0
  for _ in 0..<20_000 {
    let o = place()
    let a = now()
    let p = try document.position(in: 0, utf8Offset: o)
    let u = try document.utf16Offset(of: p)
    let q = try document.position(in: 0, utf16Offset: u)
    let l = try document.location(of: q, encoding: .utf16)
    let r = try document.position(in: 0, line: l.line - 1, character: l.column - 1, encoding: .utf16)
    sink &+= try document.utf8Offset(of: r)
    conv.append((now() - a) / 5)
  }
  emit(
    "| position conversion (UTF-8 → index → UTF-16 → index → (line, UTF-16 char) → index → UTF-8), per conversion | \(label) | \(percentiles(conv)) | checksum \(sink % 10) |"
  )
  // Next/previous and viewport on the words rotor.
  let words = try document.rotor(.words)
  var nav: [UInt64] = []
  for _ in 0..<20_000 {
    let p = try document.position(in: 0, utf8Offset: place())
    let a = now()
    sink &+= words.indexOfEntry(after: p) ?? 0
    sink &+= words.indexOfEntry(before: p) ?? 0
    nav.append((now() - a) / 2)
  }
  emit("| next/previous entry, words rotor | \(label) | \(percentiles(nav)) | |")
  var view: [UInt64] = []
  var returned = 0
  for _ in 0..<5_000 {
    let o = place()
    let top = try document.position(in: 0, utf8Offset: o)
    var e = min(length, o + 4096)
    while (try? document.position(in: 0, utf8Offset: e)) == nil { e -= 1 }
    let bottom = try document.position(in: 0, utf8Offset: e)
    let a = now()
    let entries = words.entries(from: top, to: bottom)
    sink &+= labelBytes(entries)
    view.append(now() - a)
    returned += entries.count
  }
  emit(
    "| viewport (entries overlapping 4 KB, labels read), words rotor | \(label) | \(percentiles(view)) | \(returned / 5000) entries per query |"
  )
  if sizeMB >= 1000 {
    // A paste of 1 MB, against segmenting that 1 MB for the rotors held (the six, prose sentences
    // and the pattern rotor): medians of 5, alternating.
    let paste = String(decoding: corpus[0..<1_000_000], as: UTF8.self)
    let bytes = ByteStorage(paste)
    let segmenter = Segmenter(threads: 1)
    let heldKinds = SystemRotor.allCases.filter { document.cachedRotor($0) != nil }
    var pastes: [UInt64] = []
    var segments: [UInt64] = []
    for _ in 0..<5 {
      let o = place()
      let a = now()
      try document.replace(utf8Range: o..<o, in: 0, with: paste)
      pastes.append(now() - a)
      try document.replace(utf8Range: o..<(o + bytes.count), in: 0, with: "")
      let b = now()
      for kind in heldKinds { _ = try segmenter.segment(bytes, elements: [0..<bytes.count], rotor: kind) }
      _ = try PatternMatcher(.literal("the")).matches(in: bytes, range: 0..<bytes.count)
      segments.append(now() - b)
    }
    let pasteNs = pastes.sorted()[2]
    let segmentNs = segments.sorted()[2]
    let pasteMs = f(Double(pasteNs) / 1e6, 1)
    let segmentMs = f(Double(segmentNs) / 1e6, 1)
    let ratio = f(Double(pasteNs) / Double(segmentNs), 2)
    emit(
      "| paste 1 MB (median of 5) | \(label) | \(pasteMs) ms | segmenting that 1 MB for the \(heldKinds.count) held system rotors and the pattern alone: \(segmentMs) ms (\(ratio)×) |"
    )
  }
}

for mb in sizes {
  let path = makeFile(megabytes: mb)
  try editFigures(
    path: path, label: mb >= 1000 ? "\(mb / 1000) GB" : "\(mb) MB", edits: editCount ?? (mb >= 1000 ? 300 : 1000),
    sizeMB: mb)
  unlink(path)
}

if multilingual {
  let path = corpora + "/multilingual-20mb.txt"
  let size = try ByteStorage.contentsOf(path: path).count
  try editFigures(path: path, label: "\(size / 1_000_000) MB multilingual", edits: 1000, sizeMB: size / 1_000_000)
}

if singleLine {
  // One 100 MB line: prose joined by spaces, and minified JSON. An edit re-segments from a nearby
  // boundary until the new boundaries meet the old ones.
  let prose = makeFile(megabytes: 100, oneLine: true)
  let json = "/tmp/textrotor-engine-100mb-json.txt"
  if let f = fopen(json, "w") {
    var record = 0
    var written = 0
    while written < 100_000_000 {
      let line =
        "{\"id\":\(record),\"name\":\"Element \(record) has a few words.\",\"tags\":[\"a\",\"b\"],\"score\":\(record % 97).5},"
      fputs(line, f)
      written += line.utf8.count
      record += 1
    }
    fclose(f)
  }
  // 1000 edits each, with the six system rotors, a literal pattern rotor (as for the edits above),
  // a regex and a whole-word regex pattern rotor held.
  // The JSON line's sentences rotor is one entry spanning the line (no sentence break: a period is
  // always followed by a lowercase word after punctuation): the rule machine's re-synchronization
  // finds the edit's effect without re-segmenting it. The pattern rotors are matched again from
  // before the edit until their matches fall in step with the old ones. Then a line break typed
  // (Enter) and deleted again: the line becomes two; and a blank line (two line breaks) typed and
  // deleted: the paragraph too becomes two.
  for (path, what, count) in [(prose, "prose", 500), (json, "minified JSON", 500)] {
    let document = try RotorDocument<Int>(
      contentsOf: path, elements: .whole, segmenter: Segmenter(threads: Segmenter.availableCores))
    for kind in systemSix { _ = try document.rotor(kind) }
    _ = try document.rotor(matching: .literal(what == "prose" ? "the" : "\"id\""))
    // And a regex of any length, matched again over the runs of its characters around an edit,
    // and a whole-word one (thirtieth session: matched over the whole line before).
    _ = try document.rotor(matching: .regex(what == "prose" ? #"\w+ing"# : "[0-9]+"))
    _ = try document.rotor(matching: .regex(what == "prose" ? #"(?:the|and)\w*"# : "[a-z]+", wholeWord: true))
    let length = try document.utf8Count(of: 0)
    for typed in ["x", "\n", "\n\n"] {
      var rng = Rng(state: 3)
      var times: [UInt64] = []
      var cpu: [UInt64] = []
      for _ in 0..<count {
        var o = rng.next(below: length)
        while (try? document.position(in: 0, utf8Offset: o)) == nil { o -= 1 }
        try timed(&times, &cpu) { try document.replace(utf8Range: o..<o, in: 0, with: typed) }
        try timed(&times, &cpu) {
          try document.replace(utf8Range: o..<(o + typed.utf8.count), in: 0, with: "")
        }
      }
      let edit =
        ["x": "one-character insert/delete", "\n": "line break typed/deleted"][typed] ?? "blank line typed/deleted"
      emit(
        "| \(edit), 100 MB document that is ONE line (\(what)), 6 system rotors + a literal, a regex and a whole-word regex pattern rotor | 100 MB | \(percentiles(times)) | \(times.count) edits; thread CPU time \(percentiles(cpu))\(faultNote(times)) |"
      )
    }
    unlink(path)
  }
}

// Elements.
/// How a set of held system rotors is named in a row.
func heldName(_ held: [SystemRotor]) -> String {
  held == systemSix
    ? "6 system rotors" : held.isEmpty ? "no system rotor" : held.map(\.rawValue).joined(separator: ", ")
}
for n in elementCounts {
  for held in elementRotorSets {
    let elements = (0..<n).map { TextElement(id: $0, text: "Element \($0) has a few words. And a second sentence.") }
    let document = try RotorDocument(elements: elements)
    for kind in held { _ = try document.rotor(kind) }
    document.addRotor("headings") { for i in stride(from: 0, to: n, by: 10) { RotorEntry("h\(i)", id: i) } }
    var rng = Rng(state: 11)
    var insert: [UInt64] = []
    var remove: [UInt64] = []
    var move: [UInt64] = []
    var cpu: ([UInt64], [UInt64], [UInt64]) = ([], [], [])
    var lookup: [UInt64] = []
    var next = n
    for _ in 0..<elementOps {
      var a = now()
      try timed(&insert, &cpu.0) {
        try document.insert(
          TextElement(id: next, text: "A new element."), at: rng.next(below: document.elementCount + 1))
      }
      next += 1
      let at = rng.next(below: document.elementCount)
      try timed(&remove, &cpu.1) { _ = try document.remove(at: at) }
      let id = document.elementID(at: rng.next(below: document.elementCount))!
      let to = rng.next(below: document.elementCount)
      try timed(&move, &cpu.2) { _ = try document.move(id, to: to) }
      let probe = document.elementID(at: rng.next(below: document.elementCount))!
      a = now()
      _ = document.index(of: probe)
      lookup.append(now() - a)
    }
    emit(
      "| insert / remove / move one element (\(heldName(held)), a custom rotor) | \(n) elements | \(percentiles(insert)) / \(percentiles(remove)) / \(percentiles(move)) | thread CPU time \(percentiles(cpu.0)) / \(percentiles(cpu.1)) / \(percentiles(cpu.2)); id lookup \(percentiles(lookup))\(faultNote(insert, stride: 3, phase: 0, what: "insert: "))\(faultNote(move, stride: 3, phase: 2, what: "move: "))\(drift(move, what: "move: ")) |"
    )
  }
}
