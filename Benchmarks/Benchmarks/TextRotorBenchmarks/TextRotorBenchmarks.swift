// textrotor's benchmarks (ordo-one package-benchmark). Run from Benchmarks/:
//
//   swift package --disable-sandbox benchmark                        all of them
//   swift package --disable-sandbox benchmark --filter 'words.*'     some of them
//
// Inputs are 10 MB slices of the generated corpora (run Corpora/generate first); the navigation
// benchmarks use the whole 100 MB English corpus, as SPEC section 4 states that figure. Whole-process
// comparisons with the C loop, ripgrep and grep are Benchmarks/compare's job.
//
// The textrotor calls live in the Workloads module (see there why).
import Benchmark
import Glibc
import Workloads

private let megabytesPerSecond = BenchmarkMetric.custom("MB/s", polarity: .prefersLarger, useScalingFactor: false)
private let indexBytes = BenchmarkMetric.custom("index bytes", polarity: .prefersSmaller, useScalingFactor: false)
private let nsPerQuery = BenchmarkMetric.custom("ns per query", polarity: .prefersSmaller, useScalingFactor: false)
private let nsPer1000Entries = BenchmarkMetric.custom(
  "ns per 1000 entries returned", polarity: .prefersSmaller, useScalingFactor: false)
private let entriesPerQuery = BenchmarkMetric.custom(
  "entries per query", polarity: .prefersSmaller, useScalingFactor: false)

private func now() -> UInt64 {
  var t = timespec()
  clock_gettime(CLOCK_MONOTONIC, &t)
  return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec)
}

private let sliceSize = 10 << 20

/// Loaded on first use, so that a `--filter` run loads only what it needs.
private final class Corpora: @unchecked Sendable {
  static let shared = Corpora()
  lazy var english10 = loadCorpus("english-100mb.txt", slice: sliceSize)
  lazy var multilingual10 = loadCorpus("multilingual-20mb.txt", slice: sliceSize)
  lazy var english100 = loadCorpus("english-100mb.txt")
  lazy var words100 = buildWordsIndex(english100)
  // Documents (RotorDocument) for the editing and viewport benchmarks: each benchmark runs in a
  // process of its own, so only the one it needs is built.
  lazy var paragraphsEditor = Editor(loadDocument("english-100mb.txt", elements: "paragraphs"))
  lazy var wholeEditor = Editor(loadDocument("english-100mb.txt", elements: "whole"))
  lazy var wordsViewport = Viewport(
    loadDocument("english-100mb.txt", elements: "whole", rotors: ["words"]), rotor: "words")
  lazy var charactersViewport = Viewport(
    loadDocument("english-10mb.txt", elements: "whole", rotors: ["characters"]), rotor: "characters")
}

/// Segments `text` into `rotor`, recording the rate in MB/s (decimal megabytes per second).
private func measureSegmenting(_ benchmark: Benchmark, _ text: Text, _ rotor: String, threads: Int) {
  for _ in benchmark.scaledIterations {
    let t0 = now()
    let result = segment(text, rotor: rotor, threads: threads)
    let ns = now() - t0
    blackHole(result.count)
    benchmark.measurement(megabytesPerSecond, Int(Double(text.byteCount) * 1000 / Double(max(ns, 1))))
  }
}

/// Positions that go on from one iteration to the next (each iteration asks from new places).
private final class PositionState: @unchecked Sendable {
  var positions: Positions
  init(seed: UInt64) { positions = Positions(seed: seed) }
}

let benchmarks: @Sendable () -> Void = {
  let cores = availableCores
  let throughputMetrics: [BenchmarkMetric] = [.wallClock, megabytesPerSecond, .mallocCountTotal, .peakMemoryResident]
  Benchmark.defaultConfiguration = .init(
    metrics: throughputMetrics,
    timeUnits: .milliseconds,
    warmupIterations: 1,
    maxDuration: .seconds(3),
    maxIterations: 6
  )

  // Throughput per rotor, one core, 10 MB of English and of multilingual text.
  let rotors = ["characters", "words", "sentences", "linebreaks", "lines"]
  let corpora: [(String, @Sendable () -> Text)] = [
    ("english", { Corpora.shared.english10 }),
    ("multilingual", { Corpora.shared.multilingual10 }),
  ]
  for (corpusName, text) in corpora {
    for rotor in rotors {
      Benchmark("\(rotor) \(corpusName) 10MB threads=1") { benchmark in
        let input = text()
        benchmark.startMeasurement()
        measureSegmenting(benchmark, input, rotor, threads: 1)
      }
    }
  }

  // Every core (SPEC: ≤ 0.55 × the C loop).
  for rotor in ["words", "sentences", "linebreaks"] {
    Benchmark("\(rotor) english 10MB threads=\(cores)") { benchmark in
      let input = Corpora.shared.english10
      benchmark.startMeasurement()
      measureSegmenting(benchmark, input, rotor, threads: cores)
    }
  }

  // Index build: words + sentences + lines of 10 MB English, one core, and the bytes the three
  // indexes hold (SPEC: ≤ 1.0 × the file size).
  Benchmark(
    "index words+sentences+lines english 10MB threads=1",
    configuration: .init(metrics: throughputMetrics + [indexBytes])
  ) { benchmark in
    let input = Corpora.shared.english10
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations {
      let t0 = now()
      var memory = 0
      for rotor in ["words", "sentences", "lines"] {
        memory += segment(input, rotor: rotor, threads: 1).memoryBytes
      }
      let ns = now() - t0
      benchmark.measurement(megabytesPerSecond, Int(Double(input.byteCount) * 1000 / Double(max(ns, 1))))
      benchmark.measurement(indexBytes, memory)
    }
  }

  // next/previous entry from random positions, words rotor of 100 MB English (SPEC: ≤ 2 µs a
  // call). The index is built before the measurement starts; each iteration makes 1000 calls and
  // times are per call.
  let navigation = Benchmark.Configuration(
    metrics: [.wallClock, .mallocCountTotal],
    timeUnits: .nanoseconds,
    warmupIterations: 10,
    scalingFactor: .kilo,
    maxDuration: .seconds(2),
    maxIterations: 1000
  )
  let state1 = PositionState(seed: 1)
  let state2 = PositionState(seed: 2)
  Benchmark("next words english 100MB (per call)", configuration: navigation) { benchmark in
    let index = Corpora.shared.words100
    benchmark.startMeasurement()
    blackHole(nextEntries(index, calls: benchmark.scaledIterations.count, positions: &state1.positions))
  }
  Benchmark("prev words english 100MB (per call)", configuration: navigation) { benchmark in
    let index = Corpora.shared.words100
    benchmark.startMeasurement()
    blackHole(previousEntries(index, calls: benchmark.scaledIterations.count, positions: &state2.positions))
  }

  // One-character edit in a 100 MB indexed document, all six system rotors updated (SPEC: ≤ 1 ms).
  // Each iteration is one edit: typing an "x" at a random place, then deleting it again (so the
  // text does not drift). The document is read and every system rotor built before the
  // measurement starts. Two shapes: the corpus as its paragraphs (one element each, as an editor
  // holds them), and the corpus as one 100 MB element — O(text) per edit, because an element's
  // text is one String that each edit changes in place (a memmove of what follows the edit).
  let editing = Benchmark.Configuration(
    metrics: [.wallClock, .mallocCountTotal],
    timeUnits: .microseconds,
    warmupIterations: 4,
    maxDuration: .seconds(3),
    maxIterations: 2000
  )
  Benchmark("edit one character english 100MB paragraphs, all system rotors (per edit)", configuration: editing) {
    benchmark in
    let editor = Corpora.shared.paragraphsEditor
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations { blackHole(editor.edit()) }
  }
  Benchmark(
    "edit one character english 100MB one element, all system rotors (per edit)",
    configuration: .init(
      metrics: [.wallClock, .mallocCountTotal], timeUnits: .microseconds, warmupIterations: 2,
      maxDuration: .seconds(3), maxIterations: 100)
  ) { benchmark in
    let editor = Corpora.shared.wholeEditor
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations { blackHole(editor.edit()) }
  }

  // Viewport query: the entries overlapping 4 KB from a random offset (SPEC: ≤ 5 µs + 50 ns per
  // entry returned), on the words rotor of 100 MB English (35.6 M entries) and the characters
  // rotor of 10 MB (10.5 M entries), through the public `Rotor` API. Wall clock is per query;
  // "ns per 1000 entries returned" is the whole query's time divided by the entries it returned
  // (times 1000, as the metric is an integer). The
  // 0-byte query (a caret) shows the fixed cost. Three depths of answer: indices only, each
  // entry's location (element and byte range: what drawing needs), and `RotorEntry` values with
  // their labels (a String each).
  let viewport = Benchmark.Configuration(
    metrics: [.wallClock, nsPerQuery, nsPer1000Entries, entriesPerQuery],
    timeUnits: .nanoseconds,
    warmupIterations: 3,
    scalingFactor: .kilo,
    maxDuration: .seconds(2),
    maxIterations: 200
  )
  let viewports: [(String, Int, Viewport.Detail, @Sendable () -> Viewport)] = [
    ("words english 100MB 4KB indices", 4096, .indices, { Corpora.shared.wordsViewport }),
    ("words english 100MB 4KB locations", 4096, .locations, { Corpora.shared.wordsViewport }),
    ("words english 100MB 4KB entries with labels", 4096, .entries, { Corpora.shared.wordsViewport }),
    ("words english 100MB caret indices", 0, .indices, { Corpora.shared.wordsViewport }),
    ("characters english 10MB 4KB indices", 4096, .indices, { Corpora.shared.charactersViewport }),
    ("characters english 10MB 4KB locations", 4096, .locations, { Corpora.shared.charactersViewport }),
  ]
  for (name, size, detail, make) in viewports {
    Benchmark("viewport \(name) (per query)", configuration: viewport) { benchmark in
      let view = make()
      let queries = benchmark.scaledIterations.count
      benchmark.startMeasurement()
      let t0 = now()
      let returned = view.query(queries, size: size, detail: detail)
      let ns = Int(now() - t0)
      benchmark.stopMeasurement()
      benchmark.measurement(nsPerQuery, ns / queries)
      benchmark.measurement(nsPer1000Entries, returned > 0 ? ns * 1000 / returned : 0)
      benchmark.measurement(entriesPerQuery, returned / queries)
      blackHole(view.checksum)
    }
  }
}
