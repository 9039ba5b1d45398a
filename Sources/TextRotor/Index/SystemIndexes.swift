/// A document's system rotor indexes, one slot per ``SystemRotor``: an edit visits every held
/// rotor, and a dictionary's hashing (twice per rotor: the index is taken out so that it changes
/// in place, then put back) cost more than the work of a short splice.
struct SystemIndexes: Sendable {
  /// The rotors in slot order.
  private static let kinds: [SystemRotor] = SystemRotor.allCases
  private var slots = [SegmentIndex?](repeating: nil, count: SystemIndexes.kinds.count)

  /// In place (`_modify`): `systemIndexes[kind]!.replace(...)` must change the index where it
  /// is, not a copy of it (a copy shares the tree, so the change would copy its path).
  subscript(kind: SystemRotor) -> SegmentIndex? {
    get { slots[kind.ordinal] }
    _modify { yield &slots[kind.ordinal] }
  }

  /// The held rotors, in ``SystemRotor/allCases`` order.
  var keys: [SystemRotor] { Self.kinds.filter { slots[$0.ordinal] != nil } }

  var count: Int { slots.reduce(0) { $0 + ($1 == nil ? 0 : 1) } }

  /// Takes the index out (so that the caller holds the only reference and changes it in place).
  mutating func removeValue(forKey kind: SystemRotor) -> SegmentIndex? {
    let index = slots[kind.ordinal]
    slots[kind.ordinal] = nil
    return index
  }
}

/// Per system rotor, the pieces of a moved element's entries (``SegmentIndex/cut(_:)``), in slots
/// as ``SystemIndexes`` keeps them: no hashing per rotor on a move.
struct CarriedPieces: Sendable {
  private var slots = [[SegmentPiece]?](repeating: nil, count: SystemRotor.allCases.count)

  subscript(kind: SystemRotor) -> [SegmentPiece]? {
    get { slots[kind.ordinal] }
    set { slots[kind.ordinal] = newValue }
  }
}
