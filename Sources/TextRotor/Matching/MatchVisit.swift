/// What a search engine does after reporting a match to its visitor.
enum MatchVisit {
  /// Go on after the match.
  case next
  /// The match was rejected (e.g. not on word boundaries): search again from this offset.
  case resume(Int)
  /// Stop the search.
  case stop
}

/// The visitor engines call with each match, in text order.
typealias MatchVisitor = (Range<Int>) throws(ICUError) -> MatchVisit
