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
    // The system ICU: only ICU's include and link flags, from pkg-config. No Swift imports it.
    .systemLibrary(
      name: "CTextRotorICU",
      pkgConfig: "icu-i18n",
      providers: [.apt(["libicu-dev"])]
    ),
    // ICU's C API behind a header of plain C types (no ICU header, so no clash with Foundation's
    // bundled ICU in a client that imports both), and the byte-scanning kernels.
    // Also RE2 (Debian's libre2-dev), the linear-time engine regexes go to when they mean the same
    // there as in ICU (re2.cpp; Sources/TextRotor/Matching/RE2Translation.swift).
    .target(
      name: "CTextRotorShim", dependencies: ["CTextRotorICU"],
      linkerSettings: [.linkedLibrary("re2")]
    ),
    // The system cmark-gfm (GitHub's CommonMark parser and its extensions), from pkg-config.
    .systemLibrary(
      name: "CCmarkGFM",
      pkgConfig: "libcmark-gfm",
      providers: [.apt(["libcmark-gfm-dev", "libcmark-gfm-extensions-dev"])]
    ),
    // cmark-gfm behind a header of plain C types: a parse as a flat list of nodes with byte offsets.
    .target(name: "CTextRotorMarkdown", dependencies: ["CCmarkGFM"]),
    // The system Hunspell (the spell checker of LibreOffice and Firefox), from pkg-config.
    .systemLibrary(
      name: "CHunspell",
      pkgConfig: "hunspell",
      providers: [.apt(["libhunspell-dev", "hunspell-en-us"])]
    ),
    // Hunspell behind a header of plain C types: batches of UTF-8 words checked, with a cache.
    .target(name: "CTextRotorSpell", dependencies: ["CHunspell", "CTextRotorICU"]),
    // The one layer that touches ICU handles and unsafe pointers. It imports no Foundation.
    .target(name: "TextRotorICU", dependencies: ["CTextRotorShim", "CTextRotorMarkdown", "CTextRotorSpell"]),
    .target(name: "TextRotor", dependencies: ["TextRotorICU"]),
    .executableTarget(
      name: "textrotor",
      dependencies: [
        "TextRotor",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    .testTarget(name: "TextRotorTests", dependencies: ["TextRotor", "TextRotorICU"]),
    .testTarget(name: "CLITests", dependencies: ["textrotor"]),
    .testTarget(name: "InteropTests", dependencies: ["TextRotor"]),
  ],
  swiftLanguageModes: [.v6]
)
