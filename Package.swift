// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "textrotor",
  products: [
    .library(name: "TextRotor", targets: ["TextRotor"]),
    .executable(name: "textrotor", targets: ["textrotor"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0")
  ],
  targets: [
    // ICU's C API. Its names are macros over versioned symbols (ubrk_open -> ubrk_open_72), so
    // shim.h re-exports what we use as `static inline` functions with stable names.
    .systemLibrary(
      name: "CICU",
      pkgConfig: "icu-i18n",
      providers: [.apt(["libicu-dev"])]
    ),
    // The one layer that touches ICU handles and unsafe pointers. It imports no Foundation.
    .target(name: "ICU", dependencies: ["CICU"]),
    .target(name: "TextRotor", dependencies: ["ICU"]),
    .executableTarget(
      name: "textrotor",
      dependencies: [
        "TextRotor",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    .testTarget(name: "TextRotorTests", dependencies: ["TextRotor", "ICU"]),
    .testTarget(name: "CLITests", dependencies: ["textrotor"]),
    .testTarget(name: "InteropTests", dependencies: ["TextRotor"]),
  ],
  swiftLanguageModes: [.v6]
)
