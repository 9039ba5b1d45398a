import TextRotorICU

extension Pattern {
  /// One pattern matching any of `patterns` (leftmost first, the earlier pattern winning at the
  /// same position, as ripgrep's `-e A -e B`): a regex alternation of the literals (quoted) or
  /// regexes (each in a group). One pattern is returned as is.
  ///
  /// With `wholeLine` (ripgrep's `-x`), a match must be a whole line: the alternation between `^`
  /// and `$` (which match at every line's start and end).
  public static func anyOf(
    _ texts: [String], syntax: Syntax, ignoreCase: Bool = false, wholeWord: Bool = false, wholeLine: Bool = false,
    timeLimit: Int = 3000
  ) -> Pattern {
    if texts.count == 1 && !wholeLine {
      return Pattern(texts[0], syntax: syntax, ignoreCase: ignoreCase, wholeWord: wholeWord, timeLimit: timeLimit)
    }
    let parts = texts.map { syntax == .literal ? RegularExpression.escapedLiteral($0) : "(?:\($0))" }
    var source = parts.joined(separator: "|")
    if wholeLine { source = "^(?:" + source + ")$" }
    var pattern = Pattern(source, syntax: .regex, ignoreCase: ignoreCase, wholeWord: wholeWord, timeLimit: timeLimit)
    if syntax == .literal && !wholeLine { pattern.literalAlternatives = texts }
    return pattern
  }

  /// ripgrep's smart case: true when `text` holds no upper-case letter (escapes like `\W` and
  /// `\p{Lu}` do not count as letters of the pattern).
  public static func isAllLowercase(_ text: String, syntax: Syntax) -> Bool {
    var escaped = false
    var afterP = false
    var inProperty = false
    for scalar in text.unicodeScalars {
      if syntax == .regex {
        if inProperty {
          if scalar == "}" { inProperty = false }
          continue
        }
        if afterP {
          afterP = false
          if scalar == "{" { inProperty = true }
          continue
        }
        if escaped {
          escaped = false
          if scalar == "p" || scalar == "P" || scalar == "N" { afterP = true }
          continue
        }
        if scalar == "\\" {
          escaped = true
          continue
        }
      }
      if scalar.properties.isUppercase || scalar.properties.changesWhenLowercased { return false }
    }
    return true
  }
}
