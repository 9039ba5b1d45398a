import ArgumentParser
import TextRotor

extension PositionEncoding: ExpressibleByArgument {}
extension ElementKind: ExpressibleByArgument {}

/// `--count`, `--json` and `--position-encoding`, shared by the commands that print entries.
struct OutputOptions: ParsableArguments {
  @Flag(name: .long, help: "Print only the number of entries per file.")
  var count = false

  @Flag(name: .long, help: "Print JSON Lines (one object per entry).")
  var json = false

  @Option(name: .long, help: "What a column counts: utf-8, utf-16, utf-32 or grapheme.")
  var positionEncoding: PositionEncoding = .utf8

  func validate() throws {
    if count && json { throw ValidationError("--count and --json cannot be used together.") }
  }
}
