import TextRotorICU

/// A regular expression that is a plain sequence of one-character items, each repeated by a greedy
/// quantifier or not at all (`the [a-z]+ of`, `\d{3}-\d{4}`, `foo\s*=\s*\w+`), matched at a given
/// start over ASCII text without ICU.
///
/// ICU matches such a sequence by backtracking: each item takes as many characters as it may, then
/// gives them back one at a time, the first way through being the match. ``match(_:at:limit:)``
/// walks the same ways in the same order, so where it finds a match it is ICU's match from that
/// start, and where every way fails ICU finds none there. Each item's class is ICU's own answer
/// for every ASCII character (``ByteClass``, compiled with the pattern's options), so only a
/// character whose answer it cannot know stops it: a non-ASCII one, unless the class can match no
/// such character. It then answers ``Outcome/unknown`` and the caller asks ICU. Line feeds and
/// carriage returns end the text, as they end the windows and lines ICU is given. A search with more steps than
/// ``budget`` is left to ICU too (`a*a*a*a*b`), whose time limit bounds it; and a search whose
/// starts take many steps for each byte they get through gives up on this matcher
/// (``RegexSearch``).
struct ASCIISequence {
  struct Step {
    let set: ByteClass
    let min: Int
    /// `Int.max` when unbounded.
    let max: Int
  }

  enum Outcome: Equatable {
    /// ICU's match from the start ends here.
    case match(end: Int)
    /// ICU finds no match from the start.
    case none
    /// Not known without ICU.
    case unknown
  }

  let steps: [Step]

  /// An item of the pattern: a literal ASCII character, or the source of a one-character atom.
  enum Atom: Equatable {
    case ascii(UInt8)
    case source(String)
  }

  /// Byte tests (and give-backs) one start may take before it is left to ICU.
  static let budget = 4096

  init(steps: [Step]) { self.steps = steps }

  /// The sequence of `pattern` (ICU syntax) compiled with `options` (``items(of:caseless:)``; each
  /// class ICU's answer for every ASCII character), or nil when it is not one.
  init?(_ pattern: String, options: RegularExpression.Options, timeLimit: Int) throws(ICUError) {
    let caseless = options.contains(.caseInsensitive)
    guard let items = Self.items(of: pattern, caseless: caseless) else { return nil }
    var steps: [Step] = []
    for item in items {
      let set: ByteClass
      switch item.atom {
      case .ascii(let c): set = ByteClass.literal(c, caseless: caseless)
      case .source(let source): set = try ByteClass([source], options: options, timeLimit: timeLimit)
      }
      steps.append(Step(set: set, min: item.min, max: item.max ?? Int.max))
    }
    self.steps = steps
  }

  /// The items of `pattern` (ICU syntax) as atoms and repeats, when it is such a sequence: only
  /// literal characters and one-character atoms, each once or with a greedy quantifier (no group,
  /// alternation, assertion, flag, lazy or possessive quantifier), in ASCII (a non-ASCII literal
  /// would send every start that reaches it to ICU). Without case (`caseless`), only atoms ICU
  /// matches one ASCII character at a time by their ASCII spelling (plain sets, `.`, `\w`, `\d`,
  /// `\s` and their negations): a character written as an escape (`\x{DF}`, ß) matches two
  /// characters (`ss`) without case.
  static func items(of pattern: String, caseless: Bool) -> [(atom: Atom, min: Int, max: Int?)]? {
    guard pattern.utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
    var parser = RegexShapeParser(Array(pattern.unicodeScalars))
    guard let items = parser.sequence(topLevel: true), parser.atEnd, !items.isEmpty, items.count <= 64 else {
      return nil
    }
    var result: [(atom: Atom, min: Int, max: Int?)] = []
    for item in items {
      guard item.greedy else { return nil }
      let atom: Atom
      switch item.kind {
      case .literal(let c) where c.isASCII: atom = .ascii(UInt8(c.value))
      case .atom(let source):
        if caseless && !(ByteClass.isASCIIOnly(source) || Self.caselessSafeEscapes.contains(source)) { return nil }
        atom = .source(source)
      default: return nil
      }
      result.append((atom, item.repeats.min, item.repeats.max))
    }
    return result
  }

  /// Atoms that match one character by their spelling without case as with it: no case folding of
  /// theirs spans several characters.
  private static let caselessSafeEscapes: Set<String> = [".", "\\w", "\\W", "\\d", "\\D", "\\s", "\\S"]

  /// ICU's match from `start` in `bytes` before `limit` (see the type's comment); the steps it
  /// took are added to `steps`.
  func match(_ bytes: ByteStorage, at start: Int, limit: Int, steps: inout Int) -> Outcome {
    var budget = Self.budget
    defer { steps += Self.budget - Swift.max(budget, 0) }
    return tail(0, start, bytes, limit, &budget)
  }

  /// ``match(_:at:limit:steps:)`` without counting.
  func match(_ bytes: ByteStorage, at start: Int, limit: Int) -> Outcome {
    var steps = 0
    return match(bytes, at: start, limit: limit, steps: &steps)
  }

  /// The match of steps `k...` from `position`.
  private func tail(_ k: Int, _ position: Int, _ bytes: ByteStorage, _ limit: Int, _ budget: inout Int) -> Outcome {
    if k == steps.count { return .match(end: position) }
    let step = steps[k]
    // As many as the item may take (each byte read is a step, counted before the scan is over).
    var n = 0
    let most = Swift.min(step.max, budget)
    while n < most && position + n < limit {
      let b = bytes[position + n]
      if b == 0x0A || b == 0x0D { break }
      if b >= 0x80 {
        if step.set.nonASCII {
          budget -= n + 1
          return .unknown
        }
        break
      }
      guard step.set.contains(b) else { break }
      n += 1
    }
    budget -= n + 1
    if budget < 0 { return .unknown }
    if n < step.min { return .none }
    if k + 1 == steps.count { return .match(end: position + n) }
    // Then one fewer at a time.
    while true {
      let outcome = tail(k + 1, position + n, bytes, limit, &budget)
      if outcome != .none { return outcome }
      if n == step.min { return .none }
      n -= 1
      budget -= 1
      if budget < 0 { return .unknown }
    }
  }
}
