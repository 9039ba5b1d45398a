// swift-tools-version: 6.1
// textrotor's benchmark suite (ordo-one's package-benchmark). Run from this folder:
//   swift package --disable-sandbox benchmark
// Needs the generated corpora: run ../Corpora/generate first. Whole-process comparisons with the
// ICU C loop, ripgrep and grep: ./compare.
import PackageDescription

let package = Package(
  name: "TextRotorBenchmarks",
  platforms: [.macOS(.v13)],
  dependencies: [
    // Named, so that the product reference below does not depend on the checkout's folder name.
    .package(name: "textrotor", path: ".."),
    // Only the malloc interposer (malloc counts): the default "RuntimeInterposer" trait needs a
    // package (swift-runtime-interposer) that is not mirrored on this project's machines.
    .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.0", traits: ["MallocInterposer"]),
  ],
  targets: [
    // The textrotor calls, imported implementation-only (see Workloads.swift for why).
    .target(
      name: "Workloads",
      dependencies: [.product(name: "TextRotor", package: "textrotor")],
      path: "Sources/Workloads"
    ),
    // The document engine's figures (issue 8): p50/p99 of edits, element operations and position
    // conversions at 1 MB ... 1 GB, printed as a Markdown table. `swift run -c release EngineFigures`.
    .executableTarget(
      name: "EngineFigures",
      dependencies: [.product(name: "TextRotor", package: "textrotor")],
      path: "Sources/EngineFigures"
    ),
    // One engine operation repeated N times, for callgrind's instruction counts (issue 8): run it
    // with two repetition counts and divide the difference. `swift run -c release Probe edit 2000 FILE`.
    .executableTarget(
      name: "Probe",
      dependencies: [.product(name: "TextRotor", package: "textrotor")],
      path: "Sources/Probe"
    ),
    // The structure rotors' figures (issue 12): building them on 100 MB of Markdown, and the p99
    // of a one-character edit with every structure rotor held. `swift run -c release StructureFigures`.
    .executableTarget(
      name: "StructureFigures",
      dependencies: [.product(name: "TextRotor", package: "textrotor")],
      path: "Sources/StructureFigures"
    ),
    .executableTarget(
      name: "TextRotorBenchmarks",
      dependencies: [
        "Workloads",
        .product(name: "Benchmark", package: "benchmark"),
      ],
      path: "Benchmarks/TextRotorBenchmarks",
      plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    ),
  ]
)
