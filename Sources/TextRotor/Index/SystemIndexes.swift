/// A document's system rotor indexes, one slot per ``SystemRotor``: an edit visits every held
/// rotor, and a dictionary's hashing (twice per rotor: the index is taken out so that it changes
/// in place, then put back) cost more than the work of a short splice.
struct SystemIndexes: Sendable {
  /// The rotors in slot order.
  private static let kinds: [SystemRotor] = SystemRotor.allCases
  private var slots = [SegmentIndex?](repeating: nil, count: SystemIndexes.kinds.count)

  private static func slot(_ kind: SystemRotor) -> Int {
    switch kind {
    case .characters: 0
    case .words: 1
    case .sentences: 2
    case .lines: 3
    case .paragraphs: 4
    case .linebreaks: 5
    case .proseSentences: 6
    }
  }

  /// In place (`_modify`): `systemIndexes[kind]!.replace(...)` must change the index where it
  /// is, not a copy of it (a copy shares the tree, so the change would copy its path).
  subscript(kind: SystemRotor) -> SegmentIndex? {
    get { slots[Self.slot(kind)] }
    _modify { yield &slots[Self.slot(kind)] }
  }

  /// The held rotors, in ``SystemRotor/allCases`` order.
  var keys: [SystemRotor] { Self.kinds.indices.filter { slots[$0] != nil }.map { Self.kinds[$0] } }

  var count: Int { slots.reduce(0) { $0 + ($1 == nil ? 0 : 1) } }

  /// Takes the index out (so that the caller holds the only reference and changes it in place).
  mutating func removeValue(forKey kind: SystemRotor) -> SegmentIndex? {
    let s = Self.slot(kind)
    let index = slots[s]
    slots[s] = nil
    return index
  }
}
