import Testing
import TextRotorICU

/// File names that are not valid UTF-8: held in a `String` with their ill-formed bytes escaped,
/// and given back byte for byte to every system call.
@Suite("Files: names that are not UTF-8")
struct PathNameTests {
  @Test(
    "a valid UTF-8 name is itself (unless it holds a scalar of the escapes); any bytes come back exactly",
    arguments: [
      [UInt8]("café.txt".utf8), [0x63, 0x61, 0x66, 0xE9], [0xFF], [0xC3], [0xE2, 0x82], [0xF4, 0x90, 0x80, 0x80],
      [0xED, 0xA0, 0x80], [0xC0, 0xAF], [0x61, 0xF4, 0x8F, 0xBF, 0xBF], [],
    ])
  func roundTrip(bytes: [UInt8]) {
    let name = FileSystem.name(bytes)
    #expect(FileSystem.bytes(of: name) == bytes)
    if let valid = String(validating: bytes, as: UTF8.self),
      !valid.unicodeScalars.contains(where: { $0.value >= 0x10_FF80 })
    {
      #expect(name == valid)
    } else {
      // Shown with U+FFFD where the bytes are ill-formed, as any UTF-8 reader shows them.
      #expect(FileSystem.displayName(name) == String(decoding: bytes, as: UTF8.self))
    }
  }

  @Test("random byte strings round-trip (seed printed)")
  func random() {
    let seed = SeededRandom.seedFromEnvironment()
    var random = SeededRandom(seed: seed)
    let pieces: [[UInt8]] = [
      [0x61], [0x2F], [0xC3, 0xA9], [0xE6, 0x96, 0x87], [0xF0, 0x9F, 0x98, 0x80], [0x80], [0xBF], [0xC3], [0xE6, 0x96],
      [0xF0, 0x9F], [0xF4, 0x8F, 0xBE, 0x80], [0xF4, 0x8F, 0xBF, 0xBF], [0xF5], [0xFF], [0xED, 0xB0, 0x80],
    ]
    for _ in 0..<2_000 {
      let bytes = (0..<Int.random(in: 0..<12, using: &random)).flatMap { _ in pieces.randomElement(using: &random)! }
      let name = FileSystem.name(bytes)
      #expect(FileSystem.bytes(of: name) == bytes, "\(bytes), seed \(seed)")
    }
  }
}
