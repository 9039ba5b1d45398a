import Glibc
import Synchronization

/// A progress bar on stderr for long work, drawn only when stderr is a terminal and the work is
/// big enough to be worth one (nothing is printed otherwise, so pipes and logs stay clean).
final class ProgressBar: Sendable {
  private let label: String
  private let state = Mutex<(lastPercent: Int, lastTime: Double)>((-1, 0))

  /// A bar for `bytes` of work, or nil when stderr is not a TTY or the work is small.
  static func make(label: String, bytes: Int, minimum: Int = 32 << 20) -> ProgressBar? {
    guard bytes >= minimum, isatty(2) != 0 else { return nil }
    return ProgressBar(label: label)
  }

  private init(label: String) { self.label = label }

  /// The callback to hand to the library.
  var callback: @Sendable (Int, Int) -> Void { { [self] done, total in update(done, total) } }

  func update(_ done: Int, _ total: Int) {
    guard total > 0 else { return }
    let percent = done * 100 / total
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    let seconds = Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    let draw = state.withLock { s -> Bool in
      guard percent != s.lastPercent, seconds - s.lastTime >= 0.1 || percent == 100 else { return false }
      s = (percent, seconds)
      return true
    }
    guard draw else { return }
    let width = 30
    let filled = percent * width / 100
    let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
    var line = "\r\(label) [\(bar)] \(percent)% (\(done >> 20)/\(total >> 20) MiB)"
    line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
  }

  /// Erases the bar.
  func finish() {
    var line = "\r\u{1B}[K"
    line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
  }
}
