import TextRotor

/// The options of `segment` as plain values: what ``SegmentCommand``'s parser gives, or what
/// ``fastParse(_:)`` gives for an everyday command line without the parser. The parser's
/// reflection over its options (type metadata and conformance look-ups) was 12.5 M of the 15.3 M
/// instructions of `segment --by grapheme --count` on a one-line file: a serial step at the start of
/// every run, before any work can go to a second core.
struct SegmentOptions: Equatable, Sendable {
  var by: SegmentUnit
  var wordsOnly = false
  var prose = false
  var locale = ""
  var elements: ElementKind = .whole
  var format: DocumentFormat? = nil
  var threads = Segmenter.availableCores
  var count = false
  var json = false
  var positionEncoding: PositionEncoding = .utf8
  var files: [String] = ["-"]

  /// The format of the file shown as `name` (standard input: text unless --format says).
  func format(of name: String) -> DocumentFormat { format ?? DocumentFormat(path: name) }

  /// Says on stderr when ICU has no data for `--locale` (the exit status does not change).
  func warnIfUnknownLocale() {
    if let warning = Segmenter.localeWarning(locale) { StandardOutput.error("--locale: \(warning)") }
  }

  /// The options of an everyday `segment` line (`arguments` as `main` prepares them, `segment`
  /// first), read without ArgumentParser: `--by`, `--locale`, `--elements`, `--format`,
  /// `--threads`, `--position-encoding` (each once, as `--name value`, the value not starting with
  /// `-`), the flags `--count`, `--json`, `--words-only`, `--prose` (each once) and file names.
  /// nil for anything else (help, `--`, `-`, `--name=value`, a short or unknown option, a value
  /// the parser would refuse, a combination `validate()` refuses), which then goes to the parser.
  /// Where it answers, it answers what the parser would (`SegmentOptionsTests` compares both).
  static func fastParse(_ arguments: [String]) -> SegmentOptions? {
    guard arguments.first == "segment" else { return nil }
    var by: SegmentUnit? = nil
    var options = SegmentOptions(by: .grapheme)
    var files: [String] = []
    // The options seen: an array, not a `Set<String>`, whose type metadata the runtime would
    // make at the first use (240,000 instructions, a sixth of the serial start, callgrind).
    var seen: [String] = []
    var k = 1
    while k < arguments.count {
      let argument = arguments[k]
      k += 1
      guard argument.utf8.first == UInt8(ascii: "-") else {
        if argument == "help" { return nil }
        files.append(argument)
        continue
      }
      guard argument.utf8.count > 2, argument.hasPrefix("--"), !argument.contains("="), !seen.contains(argument)
      else { return nil }
      seen.append(argument)
      switch argument {
      case "--count": options.count = true
      case "--json": options.json = true
      case "--words-only": options.wordsOnly = true
      case "--prose": options.prose = true
      default:
        guard k < arguments.count else { return nil }
        let value = arguments[k]
        k += 1
        guard let first = value.utf8.first, first != UInt8(ascii: "-") else { return nil }
        switch argument {
        case "--by":
          guard let unit = SegmentUnit(rawValue: value) else { return nil }
          by = unit
        case "--locale": options.locale = value
        case "--elements":
          guard let kind = ElementKind(rawValue: value) else { return nil }
          options.elements = kind
        case "--format":
          guard let format = DocumentFormat(rawValue: value) else { return nil }
          options.format = format
        case "--position-encoding":
          guard let encoding = PositionEncoding(rawValue: value) else { return nil }
          options.positionEncoding = encoding
        case "--threads":
          // Plain digits only (the parser reads `+2` too: that line goes to it).
          guard value.utf8.count <= 9, value.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let n = Int(value),
            n >= 1
          else { return nil }
          options.threads = n
        default: return nil
        }
      }
    }
    guard let by else { return nil }
    options.by = by
    if !files.isEmpty { options.files = files }
    // What `SegmentCommand.validate()` and `OutputOptions.validate()` refuse goes to the parser,
    // which says so.
    if options.wordsOnly && by != .word { return nil }
    if options.format != nil && by.structure == nil { return nil }
    if options.prose && by != .sentence { return nil }
    if options.count && options.json { return nil }
    return options
  }
}
