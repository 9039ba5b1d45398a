// textrotor's benchmarks (ordo-one package-benchmark). Run from Benchmarks/:
//
//   swift package --disable-sandbox benchmark                        all of them (about 4 minutes)
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
}
