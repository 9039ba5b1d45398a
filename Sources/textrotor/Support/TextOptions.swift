import ArgumentParser
import TextRotor

/// `--locale` and `--elements`: how a file is read into elements and segmented.
struct TextOptions: ParsableArguments {
  @Option(name: .long, help: "Locale for ICU's rules, e.g. th, ja, de (default: root).")
  var locale = ""

  @Option(name: .long, help: "whole (the file is one element), lines or paragraphs.")
  var elements: ElementKind = .whole

  /// Says on stderr when ICU has no data for `--locale` (the exit status does not change).
  func warnIfUnknownLocale() {
    if let warning = Segmenter.localeWarning(locale) { StandardOutput.error("--locale: \(warning)") }
  }
}
