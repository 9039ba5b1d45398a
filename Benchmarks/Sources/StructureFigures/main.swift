// The structure rotors' edit figure (issue 12), in process, release build:
//
//   cd Benchmarks && swift run -c release StructureFigures [FILE.md] [--edits N]
//
// Opens the Markdown file (default: Corpora/generated/markdown-100mb.md from Corpora/generate) as
// ONE element with format .markdown, builds every structure rotor (timed), then makes one-character
// edits (insert a letter, delete it again) at pseudo-random places (fixed seed) and prints the p50,
// p99 and maximum time per edit, which brings every structure rotor up to date (wall and thread CPU
// time: on a busy machine the difference is preemption). `--slow N` lists the N slowest edits.
import Glibc
import TextRotor

func now() -> UInt64 {
  var t = timespec()
  clock_gettime(CLOCK_MONOTONIC, &t)
  return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec)
}

/// The calling thread's CPU time: with the wall time, it tells work from preemption on a busy machine.
func cpuNow() -> UInt64 {
  var t = timespec()
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
  return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec)
}

func show(_ ns: UInt64) -> String {
  ns >= 1_000_000 ? "\(Double(ns / 10_000) / 100) ms" : "\(Double(ns / 100) / 10) µs"
}

var arguments = Array(CommandLine.arguments.dropFirst())
var edits = 2000
// `--slow N`: also list the N slowest edits (offset, wall and CPU time), to see where they are.
var slowest = 0
if let i = arguments.firstIndex(of: "--slow"), i + 1 < arguments.count {
  slowest = Int(arguments[i + 1]) ?? 0
  arguments.removeSubrange(i...(i + 1))
}
if let i = arguments.firstIndex(of: "--edits"), i + 1 < arguments.count {
  edits = Int(arguments[i + 1]) ?? edits
  arguments.removeSubrange(i...(i + 1))
}
// `--at P,Q,...`: only edits at these offsets, each `--repeat R` times (to profile one slow case).
var at: [Int] = []
var repeats = 20
if let i = arguments.firstIndex(of: "--at"), i + 1 < arguments.count {
  at = arguments[i + 1].split(separator: ",").compactMap { Int($0) }
  arguments.removeSubrange(i...(i + 1))
}
if let i = arguments.firstIndex(of: "--repeat"), i + 1 < arguments.count {
  repeats = Int(arguments[i + 1]) ?? repeats
  arguments.removeSubrange(i...(i + 1))
}
let corpora = getenv("TEXTROTOR_CORPORA").map { String(cString: $0) } ?? "../Corpora/generated"
let path = arguments.first ?? corpora + "/markdown-100mb.md"

let document = try RotorDocument(contentsOf: path)
document.format = .markdown
var started = now()
var counts: [String] = []
for kind in StructureRotor.allCases { counts.append("\(kind): \(try document.rotor(kind).count)") }
print("| file | \(path) (\(document.elementCount) element, \(try document.utf8Count(of: 0)) bytes) |")
print("| --- | --- |")
print("| build every structure rotor | \(show(now() - started)) |")
print("| entries | \(counts.joined(separator: ", ")) |")

struct Rng {
  var state: UInt64
  mutating func next(below n: Int) -> Int {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return Int((z ^ (z >> 31)) % UInt64(n))
  }
}
if !at.isEmpty {
  for p in at {
    var cpu: [UInt64] = []
    for _ in 0..<repeats {
      for insert in [true, false] {
        let t = cpuNow()
        try document.replace(utf8Range: insert ? p..<p : p..<(p + 1), in: 0, with: insert ? "x" : "")
        cpu.append(cpuNow() - t)
      }
    }
    cpu.sort()
    print("at \(p): thread CPU p50 \(show(cpu[cpu.count / 2])), max \(show(cpu.last!)) of \(cpu.count)")
  }
  exit(0)
}

/// What the edit at `p` is in: the kind of its top-level block (for a list, whether in its first
/// item), or a line that may define a link reference (`[label]:` after container markers).
let rawBytes: [UInt8] = {
  guard let f = fopen(path, "rb") else { return [] }
  defer { fclose(f) }
  var out: [UInt8] = []
  var chunk = [UInt8](repeating: 0, count: 1 << 20)
  while true {
    let n = fread(&chunk, 1, chunk.count, f)
    if n <= 0 { break }
    out.append(contentsOf: chunk[0..<n])
  }
  return out
}()
let rotors = try Dictionary(
  uniqueKeysWithValues: [StructureRotor.lists, .listItems, .codeBlocks, .tables, .blockQuotes, .headings].map {
    ($0, try document.rotor($0))
  })
func kindOfEdit(at p: Int) -> String {
  var lineStart = p
  while lineStart > 0 && rawBytes[lineStart - 1] != 0x0A { lineStart -= 1 }
  var k = lineStart
  while k < rawBytes.count && (rawBytes[k] == 0x20 || rawBytes[k] == 0x3E || rawBytes[k] == 0x2D || rawBytes[k] == 0x2A)
  {
    k += 1
  }
  if k < rawBytes.count && rawBytes[k] == 0x5B {
    var e = k
    while e + 1 < rawBytes.count && rawBytes[e] != 0x0A && !(rawBytes[e] == 0x5D && rawBytes[e + 1] == 0x3A) { e += 1 }
    if e + 1 < rawBytes.count && rawBytes[e] == 0x5D { return "definition line" }
  }
  func outermost(_ kind: StructureRotor) -> Range<Int>? {
    let rotor = rotors[kind]!
    return rotor.indices(overlappingDocumentRange: p..<(p + 1)).map { rotor.location(at: $0)!.utf8Range }
      .min { $0.lowerBound < $1.lowerBound }
  }
  let candidates: [(String, Range<Int>?)] = [
    ("list", outermost(.lists)), ("code block", outermost(.codeBlocks)), ("table", outermost(.tables)),
    ("block quote", outermost(.blockQuotes)), ("heading", outermost(.headings)),
  ]
  guard let (name, range) = candidates.filter({ $0.1 != nil }).min(by: { $0.1!.lowerBound < $1.1!.lowerBound }) else {
    return "other (paragraph, HTML, blank)"
  }
  if name == "list" {
    let items = rotors[.listItems]!
    let first = items.indices(overlappingDocumentRange: p..<(p + 1)).map { items.location(at: $0)!.utf8Range }
      .contains { $0.lowerBound == range!.lowerBound }
    let size = range!.count >= 15_000 ? " ≥ 15 KB" : " < 15 KB"
    return (first ? "list, first item" : "list, later item") + size
  }
  return name
}
var byKind: [String: [UInt64]] = [:]
var rng = Rng(state: 0x5EED)
var times: [UInt64] = []
var cpuTimes: [UInt64] = []
var slow: [(wall: UInt64, cpu: UInt64, offset: Int, insert: Bool, kind: String)] = []
let length = try document.utf8Count(of: 0)
for _ in 0..<edits {
  // A place on a character boundary, in the middle of some line.
  var p = rng.next(below: length)
  while (try? document.position(in: 0, utf8Offset: p)) == nil { p -= 1 }
  let kind = kindOfEdit(at: p)
  for insert in [true, false] {
    started = now()
    let cpu = cpuNow()
    try document.replace(utf8Range: insert ? p..<p : p..<(p + 1), in: 0, with: insert ? "x" : "")
    let wall = now() - started
    times.append(wall)
    cpuTimes.append(cpuNow() - cpu)
    byKind[kind, default: []].append(cpuTimes.last!)
    if slowest > 0 { slow.append((wall, cpuTimes.last!, p, insert, kind)) }
  }
}
times.sort()
cpuTimes.sort()
print(
  "| one-character edit, every structure rotor updated (p50 / p99 / max of \(times.count)) | \(show(times[times.count / 2])) / \(show(times[times.count * 99 / 100])) / \(show(times.last!)) |"
)
print(
  "| the same, thread CPU time (p50 / p99 / max) | \(show(cpuTimes[cpuTimes.count / 2])) / \(show(cpuTimes[cpuTimes.count * 99 / 100])) / \(show(cpuTimes.last!)) |"
)
print(
  "| edits over 1 ms (wall / thread CPU) | \(times.filter { $0 > 1_000_000 }.count) / \(cpuTimes.filter { $0 > 1_000_000 }.count) of \(times.count) |"
)
print("| edit in (thread CPU) | edits | p50 | p99 | max | over 1 ms |")
print("| --- | --- | --- | --- | --- | --- |")
for (kind, list) in byKind.sorted(by: { $0.key < $1.key }) {
  let t = list.sorted()
  print(
    "| \(kind) | \(t.count) | \(show(t[t.count / 2])) | \(show(t[t.count * 99 / 100])) | \(show(t.last!)) | \(t.filter { $0 > 1_000_000 }.count) |"
  )
}
for edit in slow.sorted(by: { $0.cpu > $1.cpu }).prefix(slowest) {
  print(
    "slow: \(edit.insert ? "insert" : "delete") at \(edit.offset): \(show(edit.wall)) wall, \(show(edit.cpu)) CPU, \(edit.kind)"
  )
}
