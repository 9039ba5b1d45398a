// swift-tools-version: 6.1
// libFuzzer targets for textrotor (see README "Fuzzing"). Built by Scripts/fuzz with
// `-sanitize=fuzzer,address`: each target is an executable whose `main` is libFuzzer's.
import PackageDescription

let fuzzFlags: [SwiftSetting] = [.unsafeFlags(["-parse-as-library"])]

let package = Package(
  name: "textrotor-fuzz",
  dependencies: [.package(name: "textrotor", path: "..")],
  targets: [
    .target(name: "FuzzSupport", dependencies: [.product(name: "TextRotor", package: "textrotor")]),
    .executableTarget(
      name: "FuzzSegment", dependencies: ["FuzzSupport", .product(name: "TextRotor", package: "textrotor")],
      swiftSettings: fuzzFlags),
    .executableTarget(
      name: "FuzzFind", dependencies: ["FuzzSupport", .product(name: "TextRotor", package: "textrotor")],
      swiftSettings: fuzzFlags),
    .executableTarget(
      name: "FuzzEdit", dependencies: ["FuzzSupport", .product(name: "TextRotor", package: "textrotor")],
      swiftSettings: fuzzFlags),
    .executableTarget(
      name: "FuzzFastPath", dependencies: ["FuzzSupport", .product(name: "TextRotor", package: "textrotor")],
      swiftSettings: fuzzFlags),
  ],
  swiftLanguageModes: [.v6]
)
