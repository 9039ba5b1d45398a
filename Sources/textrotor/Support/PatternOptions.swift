import ArgumentParser
import TextRotor

/// `--pattern`, `--regex`, `--ignore-case`, `--word`, `--time-limit`: what `find` searches for,
/// and what the `matches` rotor of `next`/`prev` holds.
struct PatternOptions: ParsableArguments {
  @Option(name: [.customShort("e"), .long], help: "The text to find (with --regex, an ICU regular expression).")
  var pattern: String?

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

  /// The pattern, or nil when `--pattern` was not given.
  var value: Pattern? {
    pattern.map {
      Pattern($0, syntax: regex ? .regex : .literal, ignoreCase: ignoreCase, wholeWord: word, timeLimit: timeLimit)
    }
  }

  /// A matcher for the pattern; prints the error and returns nil when the pattern is invalid.
  func matcher() -> PatternMatcher? {
    guard let value else { return nil }
    do {
      return try PatternMatcher(value)
    } catch {
      StandardOutput.error(error.description)
      return nil
    }
  }
}
