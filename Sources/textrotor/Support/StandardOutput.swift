import Glibc

/// Buffered writes to standard output (64 KiB at a time), and unbuffered ones to standard error.
final class StandardOutput {
  nonisolated(unsafe) static let shared = StandardOutput()

  private var buffer: [UInt8] = []

  init() { buffer.reserveCapacity(1 << 17) }

  func write(_ text: String) {
    var text = text
    text.withUTF8 { buffer.append(contentsOf: $0) }
    if buffer.count >= 1 << 16 { flush() }
  }

  func write(bytes: some Sequence<UInt8>) {
    buffer.append(contentsOf: bytes)
    if buffer.count >= 1 << 16 { flush() }
  }

  /// Appends directly to the buffer (for formatters that build output byte by byte).
  func withBuffer(_ body: (inout [UInt8]) -> Void) {
    body(&buffer)
    if buffer.count >= 1 << 16 { flush() }
  }

  func flush() {
    var written = 0
    buffer.withUnsafeBytes { raw in
      while written < raw.count {
        let n = Glibc.write(1, raw.baseAddress! + written, raw.count - written)
        if n < 0 {
          if errno == EINTR { continue }
          // The reader went away (e.g. `| head`): stop quietly, as grep does.
          Glibc.exit(errno == EPIPE ? 0 : 2)
        }
        written += n
      }
    }
    buffer.removeAll(keepingCapacity: true)
  }

  static func error(_ message: String) {
    var line = "textrotor: " + message + "\n"
    line.withUTF8 { _ = Glibc.write(2, $0.baseAddress, $0.count) }
  }

  static var isTerminal: Bool { isatty(1) != 0 }
  static var errorIsTerminal: Bool { isatty(2) != 0 }

  /// Colors on a terminal, unless NO_COLOR is set (https://no-color.org).
  static var useColor: Bool {
    guard isTerminal else { return false }
    if let value = getenv("NO_COLOR"), value.pointee != 0 { return false }
    return true
  }
}
