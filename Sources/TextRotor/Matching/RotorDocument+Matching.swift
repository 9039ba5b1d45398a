extension RotorDocument {
  /// The `matches` rotor of `pattern`: an entry per match (leftmost, non-overlapping, never spanning
  /// a line break; see ``Pattern``), labelled with the matched text. The document keeps it up to
  /// date across edits by matching the edited lines again. Asking again with the same `name`
  /// replaces it.
  ///
  /// Throws ``PatternError`` for an invalid pattern, ``ICUError`` when matching fails (a regex past
  /// its time limit).
  @discardableResult
  public func rotor(matching pattern: Pattern, named name: String = "matches") throws -> Rotor<ID> {
    let matcher = try PatternMatcher(pattern)
    return try addComputedRotor(named: name) { bytes, range in try matcher.matches(in: bytes, range: range) }
  }
}
