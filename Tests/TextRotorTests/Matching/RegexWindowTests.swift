import Testing

@testable import TextRotor
@testable import TextRotorICU

/// Texts over 2 GiB are bound to ICU a window at a time. The same code runs here with a window of
/// a few KiB, so that many windows are crossed, and must find exactly what one whole binding finds.
@Suite("Regex over windows of a large text")
struct RegexWindowTests {
  static let words = ["alpha", "beta42", "Gamma", "δέλτα", "x", "struct", "foo123", "  ", "\n", "\r\n", "—", "中文"]

  static func run(_ mode: RegexSearch.Mode, _ pattern: String, _ bytes: ByteStorage, window: Int?) throws -> [Range<
    Int
  >] {
    let regex = try RegularExpression(pattern, options: [.multiline])
    if let window {
      regex.maximumWindow = window
      regex.windowContext = 64
    }
    var found: [Range<Int>] = []
    let search = RegexSearch(regex, mode: mode)
    search.chunkSize = 1000
    try search.run(bytes, range: 0..<bytes.count) { m throws(ICUError) in
      found.append(m)
      return .next
    }
    return found
  }

  @Test("windowed matching equals whole-text matching in every mode")
  func windowsEqualWhole() throws {
    let seed = SeededRandom.seedFromEnvironment()
    var rng = SeededRandom(seed: seed)
    for round in 0..<12 {
      var text = ""
      while text.utf8.count < 60_000 {
        text += Self.words.randomElement(using: &rng)!
        text += Bool.random(using: &rng) ? " " : ""
      }
      let bytes = ByteStorage(text)
      let patterns = [#"struct \w+"#, #"\p{L}+\d+"#, #"^\w+"#, #"a\w*$"#, "(?<=a)l"]
      for pattern in patterns {
        let modes: [RegexSearch.Mode] = [.whole, .lineByLine, .prefiltered([BytePattern(Array("a".utf8))])]
        for mode in modes {
          let whole = try Self.run(mode, pattern, bytes, window: nil)
          let windowed = try Self.run(mode, pattern, bytes, window: 4096)
          #expect(windowed == whole, "seed \(seed) round \(round) pattern \(pattern) mode \(mode)")
          #expect(!whole.isEmpty || pattern == "(?<=a)l")
        }
      }
    }
  }

  @Test("a region larger than a window is an error, not a wrong answer")
  func regionTooLarge() throws {
    let bytes = ByteStorage(String(repeating: "a", count: 10_000))
    let regex = try RegularExpression("a+")
    regex.maximumWindow = 4096
    try regex.setText(bytes)
    #expect(throws: ICUError.self) { try regex.setRegion(0..<10_000) }
  }
}
