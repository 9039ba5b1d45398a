import TextRotorICU

/// Many literals at once (`find -f WORDS`, many `-e`): an Aho–Corasick automaton over the bytes,
/// one table lookup a byte whatever the number of literals, reporting the leftmost-first matches
/// (the leftmost start; there, the literal given first), as ripgrep's `-F -e A -e B` and the
/// regex alternation `A|B` do.
///
/// RE2 ran that alternation as a DFA whose every state holds all the literals still alive, built
/// lazily under a memory budget: with thousands of literals each new state cost a pass over
/// thousands of instructions and the budget was spent over and over (20,000 words on 1 MB of text
/// took 76 s; rg, which uses Aho–Corasick, 0.03 s).
///
/// The transitions are a dense table over byte classes (the bytes the literals use, one class
/// each, and one for every other byte), with the failure links resolved into it, so a search
/// never backtracks. No literal holds a line terminator (``PatternMatcher`` refuses one), so no
/// match spans a line. Without case (`-i`), ASCII literals only: an ASCII letter's two cases are
/// one class, and the runs around a character whose full case folding is ASCII (`K`, `ſ`, `ß`,
/// `ﬁ`, ...: ``FoldingExceptions``) are left to `exceptions`, ICU's case-insensitive regex of the
/// alternation, as ``LiteralSearch`` does for one literal.
struct MultiLiteralSearch {
  // The tables of the automaton (``MultiLiteralAutomaton``), whose buffers every search made from
  // one pattern shares (``LiteralAlternatives``); held here, not through the automaton, so that
  // the search loop keeps them in registers.
  private let classes: [UInt8]
  private let classCount: Int
  private let transitions: [Int32]
  private let depth: [Int32]
  private let output: [Int32]
  private let outputLink: [Int32]
  private let firstBelow: [Int32]
  /// With `-i`: the search of the runs around a character whose full case folding is ASCII.
  let exceptions: RegexSearch?
  /// The ASCII bytes a match may hold (those of the literals, in either case): such runs end where
  /// another byte stands (``FoldingExceptions/split(_:range:confinedTo:_:)``).
  private let confinement: ByteClass

  /// The automaton's states (for `--debug`).
  var stateCount: Int { depth.count }

  /// A search with the automaton of `literals` (in priority order); nil when one is empty (it
  /// would match everywhere) or the table would be too large. With `exceptions` (`-i`), the
  /// literals are ASCII and matched without case (nil when one is not ASCII).
  init?(_ literals: [[UInt8]], exceptions: RegexSearch? = nil) {
    guard let automaton = MultiLiteralAutomaton(literals, caseless: exceptions != nil) else { return nil }
    self.init(automaton, exceptions: exceptions)
  }

  /// A search with an automaton already built (caseless exactly when `exceptions` is given).
  init(_ automaton: MultiLiteralAutomaton, exceptions: RegexSearch?) {
    classes = automaton.classes
    classCount = automaton.classCount
    transitions = automaton.transitions
    depth = automaton.depth
    output = automaton.output
    outputLink = automaton.outputLink
    firstBelow = automaton.firstBelow
    self.exceptions = exceptions
    // Class 0 is every byte no literal holds.
    confinement = ByteClass.of((0..<0x80).filter { automaton.classes[$0] != 0 }.map(UInt8.init), caseless: true)
  }

  /// Where the tables are: equal for two searches exactly when they share them (not a copy built
  /// again).
  var tablesIdentity: Int { transitions.withUnsafeBufferPointer { Int(bitPattern: $0.baseAddress) } }

  /// Reports the leftmost-first matches in `range` to `visit`, in order; with `accept`, only
  /// those it accepts (`-w`: at each start the first literal, in order, that is a whole word
  /// there). Returns true when the visitor stopped.
  @discardableResult
  func run(
    _ bytes: ByteStorage, range: Range<Int>, accept: ((Range<Int>) throws(ICUError) -> Bool)? = nil,
    _ visit: MatchVisitor
  ) throws(ICUError) -> Bool {
    guard let exceptions else { return try runBytes(bytes, range: range, accept: accept, visit) }
    var stopped = false
    try FoldingExceptions.split(bytes, range: range, confinedTo: confinement) {
      (part, isException) throws(ICUError) -> Bool in
      stopped =
        isException
        ? try exceptions.searchLine(bytes, part, range: range, visit)
        : try runBytes(bytes, range: part, accept: accept, visit)
      return stopped
    }
    return stopped
  }

  private func runBytes(
    _ bytes: ByteStorage, range: Range<Int>, accept: ((Range<Int>) throws(ICUError) -> Bool)?,
    _ visit: MatchVisitor
  ) throws(ICUError) -> Bool {
    let c = classCount
    var i = range.lowerBound
    var s = 0
    // The best match found so far (`bestStart == Int.max`: none).
    var bestStart = Int.max
    var bestEnd = 0
    var bestIndex = Int32.max
    while true {
      while i < range.upperBound {
        let t = transitions[s &* c &+ Int(classes[Int(bytes[i])])]
        i &+= 1
        if t >= 0 {
          s = Int(t)
        } else {
          s = Int(-(t + 1))
          var o = output[s] >= 0 ? s : Int(outputLink[s])
          while o >= 0 {
            let index = output[o]
            let start = i - Int(depth[o])
            // The chain goes from the longest literal ending here to the shortest: the rest
            // start later still.
            if start > bestStart { break }
            if start < bestStart || index < bestIndex {
              if try accept?(start..<i) ?? true {
                bestStart = start
                bestEnd = i
                bestIndex = index
              }
            }
            o = Int(outputLink[o])
          }
        }
        // No match still being read can start before the best one, nor at its start with a lesser
        // index (only the text read from there, the state's own, could): it is the leftmost first.
        if bestStart != Int.max {
          let from = i &- Int(depth[s])
          if from > bestStart || (from == bestStart && firstBelow[s] >= bestIndex) { break }
        }
      }
      guard bestStart != Int.max else { return false }
      switch try visit(bestStart..<bestEnd) {
      case .next: i = bestEnd
      case .resume(let p): i = Swift.max(p, range.lowerBound)
      case .stop: return true
      }
      s = 0
      bestStart = Int.max
      bestIndex = Int32.max
    }
  }

  /// How many matches lie in `range`.
  func count(_ bytes: ByteStorage, range: Range<Int>) throws(ICUError) -> Int {
    var n = 0
    try run(bytes, range: range) { _ in
      n += 1
      return .next
    }
    return n
  }
}

/// The tables of ``MultiLiteralSearch``: immutable once built, so one automaton serves every
/// thread searching with the pattern (100,000 words make about 84 MB of transitions).
struct MultiLiteralAutomaton: Sendable {
  /// The class of each byte value.
  fileprivate let classes: [UInt8]
  fileprivate let classCount: Int
  /// `transitions[state * classCount + class]`: the state after reading a byte of that class,
  /// `-(state + 1)` when a literal ends there (or at a suffix of its text), so that the search
  /// loop reads one table a byte.
  fileprivate let transitions: [Int32]
  /// The length of the text a state stands for (its depth in the trie).
  fileprivate let depth: [Int32]
  /// The literal (its index) ending at a state, the first given when several are equal; or -1.
  fileprivate let output: [Int32]
  /// The nearest state standing for a proper suffix of this one's text with an output, or -1.
  fileprivate let outputLink: [Int32]
  /// The first literal (least index) ending at the state or at a state below it in the trie
  /// (`Int32.max`: none): a search reading on from a match at the state's start can only find
  /// a better one there when it is less than the match's index.
  fileprivate let firstBelow: [Int32]

  /// The automaton's states.
  var stateCount: Int { depth.count }

  /// The most states (times byte classes) a table may have: past it, the literals stay on the
  /// regex engines (about 256 MB of transitions).
  static let maximumTableSize = 64 << 20

  /// The automaton of `literals` (in priority order); nil when one is empty (it would match
  /// everywhere) or the table would be too large. `caseless` (`-i`): the literals are ASCII and
  /// matched without case (nil when one is not ASCII).
  init?(_ literals: [[UInt8]], caseless: Bool) {
    guard !literals.isEmpty, !literals.contains(where: \.isEmpty) else { return nil }
    if caseless && literals.contains(where: { $0.contains { $0 >= 0x80 } }) { return nil }
    func lower(_ b: UInt8) -> UInt8 { caseless && b >= 0x41 && b <= 0x5A ? b | 0x20 : b }
    let literals = literals.map { $0.map(lower) }
    var classes = [UInt8](repeating: 0, count: 256)
    var used = [Bool](repeating: false, count: 256)
    for literal in literals { for b in literal { used[Int(b)] = true } }
    var count = 1  // class 0: every byte no literal holds
    for b in 0..<256 where used[b] {
      guard count < 256 else { return nil }
      classes[b] = UInt8(count)
      count += 1
    }
    // Without case, an upper-case letter reads as its lower case.
    if caseless { for b in 0x41...0x5A { classes[b] = classes[b | 0x20] } }
    let totalBytes = literals.reduce(0) { $0 + $1.count }
    guard (totalBytes + 1) * count <= Self.maximumTableSize else { return nil }
    let c = count
    // The trie: -1 where no literal goes on.
    var table = [Int32](repeating: -1, count: c)
    var depth: [Int32] = [0]
    var output: [Int32] = [-1]
    var parent: [Int32] = [-1]
    for (index, literal) in literals.enumerated() {
      var s = 0
      for b in literal {
        let k = s * c + Int(classes[Int(b)])
        if table[k] < 0 {
          table[k] = Int32(depth.count)
          table.append(contentsOf: repeatElement(-1, count: c))
          depth.append(depth[s] + 1)
          output.append(-1)
          parent.append(Int32(s))
        }
        s = Int(table[k])
      }
      if output[s] < 0 { output[s] = Int32(index) }
    }
    // A child is made after its parent: from the last state back, each gives its parent its least.
    var firstBelow = output.map { $0 >= 0 ? $0 : Int32.max }
    for u in stride(from: firstBelow.count - 1, to: 0, by: -1) {
      let p = Int(parent[u])
      firstBelow[p] = Swift.min(firstBelow[p], firstBelow[u])
    }
    // Breadth first: a state's failure link is shallower, so complete when the state is reached.
    let states = depth.count
    var failure = [Int32](repeating: 0, count: states)
    var outputLink = [Int32](repeating: -1, count: states)
    var queue: [Int32] = []
    queue.reserveCapacity(states)
    for k in 0..<c {
      if table[k] < 0 {
        table[k] = 0
      } else {
        queue.append(table[k])
      }
    }
    var head = 0
    while head < queue.count {
      let s = Int(queue[head])
      head += 1
      let f = Int(failure[s])
      for k in 0..<c {
        let child = table[s * c + k]
        let next = table[f * c + k]
        if child < 0 {
          table[s * c + k] = next
        } else {
          let u = Int(child)
          failure[u] = next
          let v = Int(next)
          outputLink[u] = output[v] >= 0 ? next : outputLink[v]
          queue.append(child)
        }
      }
    }
    let ending = (0..<states).map { output[$0] >= 0 || outputLink[$0] >= 0 }
    for k in table.indices where ending[Int(table[k])] { table[k] = -table[k] - 1 }
    self.classes = classes
    classCount = c
    transitions = table
    self.depth = depth
    self.output = output
    self.outputLink = outputLink
    self.firstBelow = firstBelow
  }
}
