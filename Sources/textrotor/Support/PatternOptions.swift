import ArgumentParser
import TextRotor

/// `--pattern`, `--regex`, `--ignore-case`, `--word`, `--time-limit`: what `find` searches for,
/// and what the `matches` rotor of `next`/`prev` holds.
struct PatternOptions: ParsableArguments {
  @Option(
    name: [.customShort("e"), .long],
    help: "The text to find (with --regex, an ICU regular expression); repeatable: any of them.")
  var pattern: [String] = []

  @Flag(name: .long, help: "Read the pattern as an ICU regular expression.")
  var regex = false

  @Flag(
    name: [.customShort("i"), .long], help: "Match without case (Unicode full case folding: STRASSE matches straße).")
  var ignoreCase = false

  @Flag(name: [.customShort("w"), .long], help: "Only matches that start and end on word boundaries.")
  var word = false

  @Option(name: .long, help: "Steps of ICU's regex engine one match may take (about milliseconds).")
  var timeLimit: Int = 3000

  func validate() throws {
    if timeLimit < 1 { throw ValidationError("--time-limit must be at least 1.") }
  }

  /// Whether `--pattern` was given.
  var isGiven: Bool { !pattern.isEmpty }

  /// The patterns as one (any of them, as `find` takes several), or nil when `--pattern` was not
  /// given.
  var value: Pattern? {
    guard isGiven else { return nil }
    return Pattern.anyOf(
      pattern.map(PatternText.text), syntax: regex ? .regex : .literal, ignoreCase: ignoreCase, wholeWord: word,
      timeLimit: timeLimit)
  }

  /// A matcher for the pattern; prints the error and returns nil when the pattern is invalid.
  func matcher() -> PatternMatcher? {
    guard let value else { return nil }
    if let message = PatternText.invalidUTF8(pattern) {
      StandardOutput.error(message)
      return nil
    }
    do {
      return try PatternMatcher(value)
    } catch {
      StandardOutput.error(error.description)
      return nil
    }
  }
}

/// Patterns as they come from the command line or a pattern file.
enum PatternText {
  /// The text a pattern argument stands for: an argument is read as a file name is
  /// (``FileSystem/name(_:)``), which escapes a real U+10FF80–U+10FFFF too; valid UTF-8 (see
  /// ``invalidUTF8(_:)``) comes back as itself.
  static func text(_ argument: String) -> String {
    String(decoding: FileSystem.bytes(of: argument), as: UTF8.self)
  }

  /// Why one of `texts` cannot be a pattern: a byte that is not UTF-8 (a command-line argument
  /// holds such bytes escaped, ``TextRotorCommand/rawArguments``), as rg says it; nil when all are
  /// text.
  static func invalidUTF8(_ texts: [String]) -> String? {
    for text in texts {
      let bytes = ByteStorage(FileSystem.bytes(of: text))
      guard let offset = bytes.firstInvalidUTF8(in: 0..<bytes.count) else { continue }
      return "found invalid UTF-8 in pattern at byte offset \(offset): \(escaped(bytes)) (a pattern is UTF-8 text; "
        + "an ill-formed byte in a file matches nothing)"
    }
    return nil
  }

  /// `bytes` as text, each byte that is not part of well-formed UTF-8 as `\xHH`, as rg shows it.
  static func escaped(_ bytes: ByteStorage) -> String {
    var out = ""
    var position = 0
    while position < bytes.count {
      let bad = bytes.firstInvalidUTF8(in: position..<bytes.count) ?? bytes.count
      out += bytes.string(position..<bad)
      if bad < bytes.count { out += "\\x" + String(bytes[bad], radix: 16, uppercase: true) }
      position = bad + 1
    }
    return out
  }
}
