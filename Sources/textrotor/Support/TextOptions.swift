import ArgumentParser
import TextRotor

/// `--locale` and `--elements`: how a file is read into elements and segmented.
struct TextOptions: ParsableArguments {
  @Option(name: .long, help: "Locale for ICU's rules, e.g. th, ja, de (default: root).")
  var locale = ""

  @Option(name: .long, help: "whole (the file is one element), lines or paragraphs.")
  var elements: ElementKind = .whole

  @Option(
    name: .long,
    help:
      "How structure rotors read the file: markdown or text (default: markdown for .md, .markdown, .mdown, .mkd, .mkdn, .mdx; else text)."
  )
  var format: DocumentFormat?

  /// The format of the file shown as `name` (standard input: text unless --format says).
  func format(of name: String) -> DocumentFormat { format ?? DocumentFormat(path: name) }

  /// Says on stderr when ICU has no data for `--locale` (the exit status does not change).
  func warnIfUnknownLocale() {
    if let warning = Segmenter.localeWarning(locale) { StandardOutput.error("--locale: \(warning)") }
  }
}

extension DocumentFormat: ExpressibleByArgument {}
