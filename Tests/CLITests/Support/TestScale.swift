import Glibc

/// How much of its random or exhaustive work a heavy test does. 1 (all of it) unless the environment
/// variable TEXTROTOR_TEST_SCALE holds a smaller fraction: Scripts/sanitize sets 0.1, because the
/// sanitizers run the code 5–20 times slower. A scaled test still runs every kind of case it has
/// (every rotor, locale, mode and file), on fewer seeds, rounds, offsets or exhaustive strings.
enum TestScale {
  static let factor: Double = {
    guard let value = getenv("TEXTROTOR_TEST_SCALE"), let factor = Double(String(cString: value)),
      factor > 0, factor < 1
    else { return 1 }
    return factor
  }()

  static var isReduced: Bool { factor < 1 }

  /// `n` rounds scaled, at least one.
  static func count(_ n: Int) -> Int { max(1, Int((Double(n) * factor).rounded(.up))) }

  /// The sampling step: the first prime at or above 1 / factor (11 for 0.1), so that a sample of
  /// strings enumerated over an alphabet (17, 23, 63 or 128 letters) still sees every last letter.
  static let step: Int = {
    var k = max(1, Int((1 / factor).rounded()))
    func isPrime(_ n: Int) -> Bool { n >= 2 && !(2..<n).contains { $0 * $0 <= n && n % $0 == 0 } }
    while k > 1 && !isPrime(k) { k += 1 }
    return k
  }()

  /// Every item at full scale; else every k-th (k = `step`, at most the item count), starting
  /// `rotation` items later, so that callers rotating over a list of cases still cover all items.
  static func sample<C: Collection>(_ items: C, rotation: Int = 0) -> [C.Element] {
    let k = max(1, min(step, items.count))
    return items.enumerated().filter { ($0.offset + rotation) % k == 0 }.map(\.element)
  }
}
