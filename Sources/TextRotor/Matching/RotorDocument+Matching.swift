extension RotorDocument {
  /// The `matches` rotor of `pattern`: an entry per match (leftmost, non-overlapping, never spanning
  /// a line break; see ``Pattern``), labelled with the matched text. The document keeps it up to
  /// date across edits by matching the edited lines again (inside a long line, for literals,
  /// whole-word literals and regexes, and regexes whose matches depend on little context,
  /// ``Pattern/convergentReach``, only from before the edit until the new matches fall in step
  /// with the old ones). The rotor is named `name`, by default
  /// "matches: " and the pattern's description, so that rotors of different patterns live side by
  /// side; asking again for the same name replaces that rotor (``rotorNames`` lists them).
  ///
  /// Throws ``PatternError`` for an invalid pattern, ``ICUError`` when matching fails (a regex past
  /// its time limit).
  @discardableResult
  public func rotor(matching pattern: Pattern, named name: String? = nil) throws -> Rotor<ID> {
    let matcher = try PatternMatcher(pattern)
    let reach = pattern.convergentReach
    var local: ((ByteStorage, Range<Int>, Range<Int>) throws -> [Range<Int>]?)? = nil
    var fallback: MatchReach? = nil
    if case .words = reach {
      local = { bytes, range, context in try matcher.localWholeWordMatches(in: bytes, range: range, context: context) }
      fallback = pattern.matchRuns
    }
    return try addComputedRotor(named: name ?? "matches: \(pattern)", reach: reach, local: local, fallback: fallback) {
      bytes, range in
      try matcher.matches(in: bytes, range: range)
    }
  }
}
