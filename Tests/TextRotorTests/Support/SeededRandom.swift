import Glibc

/// A seeded random number generator (SeededRandom) for model-based tests: a failing test prints its
/// seed, and `SeededRandom(seed:)` with that seed replays it.
struct SeededRandom: RandomNumberGenerator {
  private(set) var state: UInt64
  let seed: UInt64

  init(seed: UInt64) {
    self.seed = seed
    self.state = seed
  }

  /// A seed from the environment variable TEXTROTOR_SEED if set, else a fresh random one.
  static func seedFromEnvironment(default fallback: UInt64 = UInt64.random(in: 1...UInt64.max)) -> UInt64 {
    if let text = getenvString("TEXTROTOR_SEED"), let value = UInt64(text) { return value }
    return fallback
  }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

private func getenvString(_ name: String) -> String? {
  guard let value = getenv(name) else { return nil }
  return String(cString: value)
}
