import Glibc

/// Reads a fuzzer's bytes as choices then text: `byte()` and `int(below:)` take from the front,
/// `rest()` is what is left.
public struct FuzzInput {
  private let bytes: [UInt8]
  private var position = 0

  public init(_ data: UnsafeRawPointer, _ count: Int) {
    bytes = Array(UnsafeRawBufferPointer(start: data, count: count))
  }

  public init(_ bytes: [UInt8]) { self.bytes = bytes }

  public var isEmpty: Bool { position >= bytes.count }

  public mutating func byte() -> UInt8 {
    guard position < bytes.count else { return 0 }
    defer { position += 1 }
    return bytes[position]
  }

  public mutating func int(below n: Int) -> Int { n <= 1 ? 0 : Int(byte()) % n }

  public mutating func bool() -> Bool { byte() & 1 == 1 }

  /// Up to `n` bytes.
  public mutating func take(_ n: Int) -> [UInt8] {
    let end = min(bytes.count, position + n)
    defer { position = end }
    return Array(bytes[position..<end])
  }

  public mutating func rest() -> [UInt8] { take(bytes.count) }
}

/// Reports a broken invariant and aborts, so libFuzzer saves the input as a crash.
public func fuzzCheck(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
  if !condition() {
    let text = "fuzz invariant broken: \(message())\n"
    var line = text
    line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    abort()
  }
}

@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
  _ argc: UnsafeMutablePointer<CInt>,
  _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
  _ callback: @convention(c) (UnsafeRawPointer?, Int) -> CInt
) -> CInt

/// Runs libFuzzer on `callback`. A debug build of an executable target gets its entry point
/// renamed to `TARGET_main` by SwiftPM (so tests can import it), which then stands in for the
/// `main` libFuzzer would bring; each target's `TARGET_main` calls this.
public func runFuzzer(
  _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>,
  _ callback: @convention(c) (UnsafeRawPointer?, Int) -> CInt
) -> CInt {
  var count = argc
  var arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = argv
  return LLVMFuzzerRunDriver(&count, &arguments, callback)
}
