import TextRotorICU

/// A literal every match of a regular expression holds, with what may surround it: the pattern is
/// read (conservatively, only at its top level, which must have no alternation) as `P L S`, where
/// `L` is a run of literal characters and `P` and `S` can only consume characters of the sets
/// `before` and `after` (the union of their atoms: literal characters, classes, sets, `.`, groups).
///
/// So every match lies in `[start of the run of before-characters ending where L starts, end of
/// the run of after-characters starting where L ends)`, around some occurrence of `L`; the union
/// of those intervals over every occurrence holds every match, and ICU searched only there (with
/// transparent bounds) finds exactly what it finds over the whole line (see ``RegexSearch``).
struct LiteralAnchor: Equatable {
  var literal: String
  /// Sources of the atoms `P` can consume (each matches one character); nil when unknown (any
  /// character but a line terminator).
  var before: [String]?
  /// The same for `S`.
  var after: [String]?
  /// The atoms of the items `S` begins with that match exactly one character each (a literal or
  /// an atom, no quantifier), in order, and the atoms of the rest of `S` (nil: unknown): a match
  /// holding the literal goes on with one character of each of the first, then characters of the
  /// second. Empty when `S` begins otherwise (or when more of the literal's last character may
  /// follow it, `ab+c`); `after` is their union.
  var afterFixed: [[String]] = []
  var afterRest: [String]? = nil
  /// The fewest characters `P` consumes (a lower bound: literal characters and atoms not made
  /// optional count one each, groups none).
  var minimumBefore = 0
  /// The same for `S`.
  var minimumAfter = 0
  /// Whether a `\b` must hold right before `L` / right after it.
  var boundaryBefore = false
  var boundaryAfter = false
  /// Whether `(?<!\w)` stands right before `L` / `(?!\w)` right after it: no word character there.
  var noWordBefore = false
  var noWordAfter = false

  /// This anchor for a search without case, one per case variant of a few characters of the
  /// literal (``CaseClasses/needleWindow(for:)``: every match of the literal without case holds
  /// one): each variant is the literal, and the literal's characters before and after it are
  /// read as characters the pattern consumes there. Nil when the literal has no such characters.
  func caselessVariants() -> [LiteralAnchor]? {
    guard let (window, needles) = CaseClasses.needleWindow(for: literal) else { return nil }
    let scalars = Array(literal.unicodeScalars)
    func atom(_ s: Unicode.Scalar) -> String { "\\x{" + String(s.value, radix: 16) + "}" }
    let head = scalars[..<window.lowerBound].map(atom)
    let tail = scalars[window.upperBound...].map(atom)
    return needles.map { needle in
      var a = self
      a.literal = String(decoding: needle, as: UTF8.self)
      a.before = before.map { $0 + head }
      a.after = after.map { tail + $0 }
      a.minimumBefore += head.count
      a.minimumAfter += tail.count
      // A `\b` or `(?<!\w)` stands next to the literal, which is no longer next to the variant.
      if !head.isEmpty { (a.boundaryBefore, a.noWordBefore) = (false, false) }
      if !tail.isEmpty { (a.boundaryAfter, a.noWordAfter) = (false, false) }
      (a.afterFixed, a.afterRest) = ([], a.after)
      return a
    }
  }

  /// The anchor of each top-level alternative of `pattern` (one for a pattern without `|`), or nil
  /// when one of them has none or there are more than 8.
  static func alternatives(of pattern: String) -> [LiteralAnchor]? {
    let s = Array(pattern.unicodeScalars)
    var branches: [String] = []
    var current = ""
    var depth = 0
    var i = 0
    while i < s.count {
      let c = s[i]
      var end = i + 1
      if c == "\\" {
        guard i + 1 < s.count, s[i + 1] != "Q" else { return nil }
        end = i + 2
      } else if c == "[" {
        guard let e = RegexShapeParser.skipSet(s, from: i) else { return nil }
        end = e
      } else if c == "(" {
        depth += 1
      } else if c == ")" {
        depth -= 1
      } else if c == "|" && depth == 0 {
        branches.append(current)
        current = ""
        i += 1
        continue
      }
      current.unicodeScalars.append(contentsOf: s[i..<end])
      i = end
    }
    branches.append(current)
    guard branches.count <= 8 else { return nil }
    var anchors: [LiteralAnchor] = []
    for branch in branches {
      guard let anchor = of(branch) else { return nil }
      anchors.append(anchor)
    }
    return anchors
  }

  /// The anchor of `pattern` (ICU syntax), or nil when the pattern has none this reading can prove:
  /// alternation at the top level, inline flags, `\Q…\E`, an unknown escape, or no literal.
  static func of(_ pattern: String) -> LiteralAnchor? {
    var parser = RegexShapeParser(Array(pattern.unicodeScalars))
    guard var items = parser.sequence(topLevel: true), parser.atEnd else { return nil }
    // A look-behind that begins the pattern (`(?<=the )\w+`, `(?<=,\s)[a-z]+`), or a look-ahead
    // that ends it (`\w+(?= dollars)`, `\w+(?=\s+of\b)`), is read as its items consumed: a match
    // [p, q) of `(?<=X)Y` has a match of X ending at p, so `XY` matches from before p to q, and the
    // windows of the pattern so read hold it (ICU, with transparent bounds, still checks the
    // look-around itself; a look-around sees only its line, ``PatternMatcher/readsPastLine(_:)``).
    // Its literal may be the anchor, so that a pattern whose only literal is in a look-around is
    // not given to ICU line by line (`(?<=,\s)[a-z]+`: 30 times `rg -P`'s time that way).
    if let first = items.first, first.quantifier == .one, case .asserted(let inner, ahead: false) = first.kind {
      items.replaceSubrange(0..<1, with: inner)
    }
    if let last = items.last, last.quantifier == .one, case .asserted(let inner, ahead: true) = last.kind {
      items.replaceSubrange((items.count - 1)..., with: inner)
    }
    // The longest run of literal characters, as ``RequiredLiteral`` chooses it.
    var best: Range<Int>? = nil
    var bestBytes = 0
    var runStart: Int? = nil
    var runBytes = 0
    func close(_ end: Int) {
      if let s = runStart, runBytes > bestBytes {
        best = s..<end
        bestBytes = runBytes
      }
      runStart = nil
      runBytes = 0
    }
    for (k, item) in items.enumerated() {
      guard case .literal(let c) = item.kind, item.quantifier != .optional else {
        close(k)
        continue
      }
      if runStart == nil { runStart = k }
      runBytes += String(c).utf8.count
      if item.quantifier == .required { close(k + 1) }
    }
    close(items.count)
    guard let run = best else { return nil }
    var literal = ""
    for item in items[run] {
      if case .literal(let c) = item.kind { literal.unicodeScalars.append(c) }
    }
    if literal.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D }) { return nil }
    func union(_ slice: ArraySlice<RegexShapeParser.Item>) -> [String]? {
      var atoms: [String] = []
      for item in slice {
        guard let a = item.kind.atoms else { return nil }
        atoms += a
      }
      return atoms
    }
    var after = union(items[run.upperBound...])
    var fixed = run.upperBound
    // `ab+c`: L = "ab", and more b's may follow it.
    if items[run.upperBound - 1].quantifier == .required, let a = items[run.upperBound - 1].kind.atoms {
      after = after.map { $0 + a }
    } else {
      func matchesOneCharacter(_ item: RegexShapeParser.Item) -> Bool {
        guard item.quantifier == .one else { return false }
        switch item.kind {
        case .literal, .atom: return true
        default: return false
        }
      }
      while fixed < items.count && matchesOneCharacter(items[fixed]) { fixed += 1 }
    }
    let afterFixed = items[run.upperBound..<fixed].map { $0.kind.atoms! }
    func minimum(_ slice: ArraySlice<RegexShapeParser.Item>) -> Int {
      slice.reduce(0) { n, item in
        switch item.kind {
        case .literal, .atom: return n + (item.quantifier == .optional ? 0 : 1)
        default: return n
        }
      }
    }
    func isBoundary(_ k: Int) -> Bool {
      guard k >= 0 && k < items.count, case .wordBoundary = items[k].kind else { return false }
      return items[k].quantifier == .one
    }
    func isNoWord(_ k: Int, ahead: Bool) -> Bool {
      guard k >= 0 && k < items.count, case .noWordCharacter(ahead) = items[k].kind else { return false }
      return items[k].quantifier == .one
    }
    return LiteralAnchor(
      literal: literal, before: union(items[..<run.lowerBound]), after: after, afterFixed: afterFixed,
      afterRest: afterFixed.isEmpty ? after : union(items[fixed...]),
      minimumBefore: minimum(items[..<run.lowerBound]), minimumAfter: minimum(items[run.upperBound...]),
      boundaryBefore: isBoundary(run.lowerBound - 1),
      // `ab+\b`: more b's may follow L, so the boundary is not right after it.
      boundaryAfter: isBoundary(run.upperBound) && items[run.upperBound - 1].quantifier == .one,
      noWordBefore: isNoWord(run.lowerBound - 1, ahead: false),
      noWordAfter: isNoWord(run.upperBound, ahead: true) && items[run.upperBound - 1].quantifier == .one)
  }
}

/// A conservative reader of ICU regular-expression syntax: the items of a sequence and, for each,
/// the atoms (one-character matchers) it can consume.
struct RegexShapeParser {
  enum Quantifier: Equatable { case one, optional, required }

  enum Kind {
    case literal(Unicode.Scalar)
    /// A one-character matcher: its source (`\w`, `[a-z]`, `.`, `\p{L}`, `\x41`, …).
    case atom(String)
    /// A look-around other than ``assertedLiteral(_:ahead:)`` and ``noWordCharacter(ahead:)``
    /// (`(?<!-)`, `(?=\()`): consumes nothing; what it reads is in the parser's
    /// `lookAroundAtoms`.
    case lookAround
    /// `^` or `$` (multi-line, as every pattern is compiled): zero width, at a line's start or end
    /// (a line terminator, or the text's edge, on that side); or `\A`, `\z`, at the text's start
    /// or end (each line is a text of its own for a pattern that holds them,
    /// ``PatternMatcher/readsPastLine(_:)``): decided by the character on one side too.
    case lineAnchor
    /// `\Z`: zero width, at the text's end or before a line terminator that ends it (VT, FF, NEL,
    /// LS, PS inside a long line: decided by two characters, and not counted as an assertion).
    case zeroWidth
    /// A positive look-around of a plain sequence (`(?<=the )`, `(?= of)`, `(?<=,\s)`,
    /// `(?=\s+of\b)`): literal characters, one-character atoms and groups whose atoms are known,
    /// with any quantifier, and word boundaries. It consumes nothing, but the text right before
    /// (`ahead` false) or after the position matches those items.
    case asserted([Item], ahead: Bool)
    /// `(?<!\w)` (`ahead` false) or `(?!\w)`: zero width, and no word character right before /
    /// after the position.
    case noWordCharacter(ahead: Bool)
    /// `\b`: zero width, and a word boundary of ICU's default kind (`\w` on one side only).
    case wordBoundary
    /// `\B`: zero width, and no word boundary of that kind.
    case notWordBoundary
    /// A group: the atoms it can consume (nil: unknown), and how many characters it matches
    /// (``Length``; nil when that cannot be told or depends on the text around).
    case group([String]?, length: Length?)
    /// `|` inside a group: what comes before and after are alternatives.
    case alternation
    /// Consumes what cannot be told (a back-reference, `\X`, `\R`).
    case unknown

    var atoms: [String]? {
      switch self {
      case .literal(let c): return [RegularExpression.escapedLiteral(String(c))]
      case .atom(let source): return [source]
      case .zeroWidth, .lineAnchor, .wordBoundary, .notWordBoundary, .asserted, .noWordCharacter, .alternation,
        .lookAround:
        return []
      case .group(let atoms, _): return atoms
      case .unknown: return nil
      }
    }
  }

  /// How many characters something matches, at least and at most (nil: no bound).
  struct Length: Equatable {
    var min: Int
    var max: Int?

    /// `a × b` and `a + b`, nil past `Int.max` (ICU takes counts up to 100,000 and more, and
    /// nested repeats multiply them: `((a{100000}){100000}){100000}`).
    static func product(_ a: Int, _ b: Int) -> Int? {
      let (r, overflow) = a.multipliedReportingOverflow(by: b)
      return overflow ? nil : r
    }

    static func sum(_ a: Int, _ b: Int) -> Int? {
      let (r, overflow) = a.addingReportingOverflow(b)
      return overflow ? nil : r
    }
  }

  struct Item {
    var kind: Kind
    var quantifier: Quantifier
    /// How many times the item repeats, as its quantifier says (`{2,5}`: 2 to 5).
    var repeats = Length(min: 1, max: 1)
    /// Whether its quantifier is greedy: false when lazy (`+?`) or possessive (`++`).
    var greedy = true

    /// How many characters the item matches; nil when that cannot be told or when it depends on
    /// the text around it (anchors, word boundaries, look-around), or on an earlier group
    /// (back-references). With `assertions`, `\b`, `\B`, `^`, `$` and look-around match no
    /// character (``RegexShapeParser/shape(ofRegex:assertions:)``).
    func length(assertions: Bool = false) -> Length? {
      let one: Length
      switch kind {
      case .literal, .atom: one = Length(min: 1, max: 1)
      case .group(_, let length?): one = length
      case .wordBoundary, .notWordBoundary, .noWordCharacter, .lineAnchor, .asserted, .lookAround:
        guard assertions else { return nil }
        one = Length(min: 0, max: 0)
      case .group(_, nil), .zeroWidth, .alternation, .unknown:
        return nil
      }
      let max: Int? = one.max == 0 ? 0 : one.max.flatMap { m in repeats.max.flatMap { Length.product(m, $0) } }
      return Length(min: Length.product(one.min, repeats.min) ?? Int.max, max: max)
    }
  }

  /// How many characters `items` (a group's, with its `|`) match: the sum along each alternative,
  /// the least and the most of the alternatives. Nil when an item's length is nil.
  static func length(of items: [Item], assertions: Bool = false) -> Length? {
    var result: Length? = nil
    var branch = Length(min: 0, max: 0)
    for item in items + [Item(kind: .alternation, quantifier: .one)] {
      if case .alternation = item.kind {
        result =
          result.map {
            Length(min: Swift.min($0.min, branch.min), max: $0.max.flatMap { m in branch.max.map { Swift.max(m, $0) } })
          } ?? branch
        branch = Length(min: 0, max: 0)
        continue
      }
      guard let l = item.length(assertions: assertions) else { return nil }
      branch = Length(
        min: Length.sum(branch.min, l.min) ?? Int.max,
        max: branch.max.flatMap { m in l.max.flatMap { Length.sum(m, $0) } })
    }
    return result
  }

  /// How many characters a match of the ICU regex `pattern` holds, at least and at most; nil when
  /// that cannot be told, or when whether the pattern matches somewhere depends on the text around
  /// (anchors, word boundaries, look-around, back-references, flags).
  static func length(ofRegex pattern: String) -> Length? { shape(ofRegex: pattern)?.length }

  /// ``length(ofRegex:)`` and the atoms of the whole pattern: every character a match holds is
  /// matched by one of them (each a one-character matcher's source). Nil as for the length.
  ///
  /// With `assertions`, the pattern may also hold `\b`, `\B`, `(?<!\w)` and `(?!\w)` (ICU's
  /// default word boundaries, decided by the word character, or not, on either side of a
  /// position, passing over combining marks and format characters; `readsWords` says whether it
  /// does) and `^` and `$` (decided by the character on one side: `readsLines`), and look-around
  /// whose atoms are known (`(?<=\$)\w+`, `\w+(?!\()`; `lookAround` holds them, nil when there
  /// is none), counted as matching no character.
  static func shape(
    ofRegex pattern: String, assertions: Bool = false
  ) -> (length: Length, atoms: [String], readsWords: Bool, readsLines: Bool, lookAround: [String]?)? {
    var parser = RegexShapeParser(Array(("(?:" + pattern + ")").unicodeScalars))
    parser.assertions = assertions
    guard let items = parser.sequence(topLevel: true), parser.atEnd, items.count == 1,
      let length = items[0].length(assertions: assertions), let atoms = items[0].kind.atoms,
      !parser.sawUnknownLookAround, !parser.sawEndBeforeTerminator
    else { return nil }
    return (length, atoms, parser.sawWordAssertion, parser.sawLineAnchor, parser.lookAroundAtoms)
  }

  let s: [Unicode.Scalar]
  var i = 0
  /// Whether word assertions and line anchors count as matching no character
  /// (``shape(ofRegex:assertions:)``).
  var assertions = false
  /// Whether a `\b`, `\B`, `(?<!\w)` or `(?!\w)` was read.
  private(set) var sawWordAssertion = false
  /// Whether a `^`, `$`, `\A` or `\z` was read.
  private(set) var sawLineAnchor = false
  /// The atoms every look-around read (but `(?<!\w)` and `(?!\w)`) matches against the text
  /// around a position, nested ones too; nil when none was read.
  private(set) var lookAroundAtoms: [String]? = nil
  /// Whether a look-around holds something whose atoms are unknown (a back-reference, `\X`).
  private(set) var sawUnknownLookAround = false
  /// Whether a `\Z` was read, at any depth (inside a look-around too, where no length is asked).
  private(set) var sawEndBeforeTerminator = false

  init(_ scalars: [Unicode.Scalar]) { s = scalars }

  var atEnd: Bool { i >= s.count }

  private func source(_ range: Range<Int>) -> String {
    var out = ""
    out.unicodeScalars.append(contentsOf: s[range])
    return out
  }

  private func isHex(_ c: Unicode.Scalar) -> Bool { c.properties.isASCIIHexDigit }
  private func isDigit(_ c: Unicode.Scalar) -> Bool { ("0"..."9").contains(c) }

  /// Reads items up to the end (top level) or up to a `)` (left unread). Nil when the pattern holds
  /// something this reader does not prove (alternation at the top level, flags, `\Q`, …).
  mutating func sequence(topLevel: Bool) -> [Item]? {
    var items: [Item] = []
    while i < s.count {
      let c = s[i]
      if c == ")" {
        if topLevel { return nil }
        return items
      }
      if c == "|" {
        if topLevel { return nil }
        i += 1
        items.append(Item(kind: .alternation, quantifier: .one))
        continue
      }
      if c == "?" || c == "*" || c == "+" || c == "{" {
        guard let (q, repeats, greedy) = quantifier(), var last = items.popLast() else { return nil }
        guard last.quantifier == .one else { return nil }  // `a**`: not read
        if case .alternation = last.kind { return nil }
        last.quantifier = q
        last.repeats = repeats
        last.greedy = greedy
        items.append(last)
        continue
      }
      guard let kind = item() else { return nil }
      items.append(Item(kind: kind, quantifier: .one))
    }
    return items
  }

  /// Reads a quantifier at `i` (with its lazy `?` or possessive `+`), the repeats it allows, and
  /// whether it is greedy (neither lazy nor possessive).
  private mutating func quantifier() -> (Quantifier, Length, greedy: Bool)? {
    var q: Quantifier
    var repeats: Length
    switch s[i] {
    case "?", "*":
      q = .optional
      repeats = Length(min: 0, max: s[i] == "?" ? 1 : nil)
      i += 1
    case "+":
      q = .required
      repeats = Length(min: 1, max: nil)
      i += 1
    default:  // "{"
      var j = i + 1
      func number() -> Int? {
        var digits = ""
        while j < s.count && isDigit(s[j]) && digits.count < 9 {
          digits.unicodeScalars.append(s[j])
          j += 1
        }
        return Int(digits)
      }
      guard let n = number() else { return nil }
      var m: Int? = n
      if j < s.count && s[j] == "," {
        j += 1
        m = number()
        if let m, m < n { return nil }
      }
      guard j < s.count && s[j] == "}" else { return nil }
      i = j + 1
      q = n == 0 ? .optional : .required
      repeats = Length(min: n, max: m)
    }
    if i < s.count && (s[i] == "?" || s[i] == "+") {
      i += 1
      return (q, repeats, false)
    }
    return (q, repeats, true)
  }

  private mutating func item() -> Kind? {
    let start = i
    let c = s[i]
    switch c {
    case "\\": return escape()
    case "[":
      guard let end = Self.skipSet(s, from: i) else { return nil }
      i = end
      return .atom(source(start..<end))
    case "(": return group()
    case ".":
      i += 1
      return .atom(".")
    case "^", "$":
      i += 1
      sawLineAnchor = true
      return .lineAnchor
    case "#", " ", "\t":  // fine unless (?x), which is refused
      i += 1
      return .literal(c)
    default:
      i += 1
      return .literal(c)
    }
  }

  private mutating func escape() -> Kind? {
    let start = i
    guard i + 1 < s.count else { return nil }
    let e = s[i + 1]
    i += 2
    guard e.isASCII && (e.properties.isAlphabetic || isDigit(e)) else { return .literal(e) }
    switch e {
    case "b", "B":
      if i < s.count && s[i] == "{" { return nil }
      sawWordAssertion = true
      return e == "b" ? .wordBoundary : .notWordBoundary
    case "A", "z":
      sawLineAnchor = true
      return .lineAnchor
    case "Z":
      sawEndBeforeTerminator = true
      return .zeroWidth
    case "G": return nil  // the end of the previous match: where a window starts, not a line
    case "w", "W", "d", "D", "s", "S", "h", "H", "v", "V", "t", "n", "r", "f", "a", "e":
      return .atom(source(start..<i))
    case "p", "P", "N":
      if i < s.count && s[i] == "{" {
        while i < s.count && s[i] != "}" { i += 1 }
        guard i < s.count else { return nil }
        i += 1
      } else if e != "N" && i < s.count && s[i].isASCII && s[i].properties.isAlphabetic {
        i += 1
      } else {
        return nil
      }
      return .atom(source(start..<i))
    case "x":
      if i < s.count && s[i] == "{" {
        while i < s.count && s[i] != "}" { i += 1 }
        guard i < s.count else { return nil }
        i += 1
      } else {
        var k = 0
        while k < 2 && i < s.count && isHex(s[i]) {
          i += 1
          k += 1
        }
      }
      return .atom(source(start..<i))
    case "u", "U":
      let n = e == "u" ? 4 : 8
      guard i + n <= s.count, s[i..<(i + n)].allSatisfy(isHex) else { return nil }
      i += n
      return .atom(source(start..<i))
    case "c":
      guard i < s.count else { return nil }
      i += 1
      return .atom(source(start..<i))
    case "0":
      var k = 0
      while k < 3 && i < s.count && ("0"..."7").contains(s[i]) {
        i += 1
        k += 1
      }
      return .atom(source(start..<i))
    case "1"..."9", "k", "X", "R":
      // A back-reference (its digits or name), a grapheme cluster, a line break: unknown.
      if e == "k" {
        guard i < s.count, s[i] == "<" else { return nil }
        while i < s.count && s[i] != ">" { i += 1 }
        i += 1
      }
      while isDigit(e) && i < s.count && isDigit(s[i]) { i += 1 }
      return .unknown
    default: return nil  // \Q, \E and unknown escapes
    }
  }

  /// A group at `i` (`(`): its atoms, or zero width for look-around.
  private mutating func group() -> Kind? {
    i += 1
    var lookAround = false
    if i < s.count && s[i] == "?" {
      guard i + 1 < s.count else { return nil }
      switch s[i + 1] {
      case ":", ">": i += 2
      case "=", "!":
        lookAround = true
        i += 2
      case "<":
        guard i + 2 < s.count else { return nil }
        if s[i + 2] == "=" || s[i + 2] == "!" {
          lookAround = true
          i += 3
        } else {
          // A named group `(?<name>`.
          while i < s.count && s[i] != ">" { i += 1 }
          guard i < s.count else { return nil }
          i += 1
        }
      default: return nil  // flags, comments
      }
    }
    let positive = lookAround && (s[i - 1] == "=")
    let ahead = lookAround && s[i - 2] == "?"
    guard let inner = sequence(topLevel: false), i < s.count, s[i] == ")" else { return nil }
    i += 1
    if lookAround {
      if !positive, inner.count == 1, inner[0].quantifier == .one, case .atom(#"\w"#) = inner[0].kind {
        sawWordAssertion = true
        return .noWordCharacter(ahead: ahead)
      }
      // No length is asked of the content (a look-ahead may be unbounded: it reads only the
      // alphabet's characters, which its atoms join), so an assertion in it that reads more than
      // one character beside a position (`\Z`) is refused where it is read, at any depth
      // (`sawEndBeforeTerminator`).
      var read: [String] = lookAroundAtoms ?? []
      for item in inner {
        guard let a = item.kind.atoms else {
          sawUnknownLookAround = true
          break
        }
        read += a
      }
      lookAroundAtoms = read
      guard positive, !inner.isEmpty else { return .lookAround }
      for item in inner {
        switch item.kind {
        // U+FFFD: look-around reads an ill-formed byte as U+FFFD, which the byte search of an
        // anchor (its bytes EF BF BD) would not find.
        case .literal(let c) where c == "\u{FFFD}": return .lookAround
        case .literal, .atom, .group(_?, _), .wordBoundary, .notWordBoundary: continue
        default: return .lookAround
        }
      }
      return .asserted(inner, ahead: ahead)
    }
    let length = Self.length(of: inner, assertions: assertions)
    var atoms: [String] = []
    for item in inner {
      guard let a = item.kind.atoms else { return .group(nil, length: length) }
      atoms += a
    }
    return .group(atoms, length: length)
  }

  /// The index after the set starting at `from` (`[`), with nested sets and escapes; nil when the
  /// set does not close.
  static func skipSet(_ s: [Unicode.Scalar], from: Int) -> Int? {
    var i = from + 1
    var depth = 1
    if i < s.count && s[i] == "^" { i += 1 }
    if i < s.count && s[i] == "]" { i += 1 }
    while i < s.count && depth > 0 {
      if s[i] == "\\" {
        // `\cX`: X is the escape's, a `]` too.
        i += i + 1 < s.count && s[i + 1] == "c" ? 3 : 2
        continue
      }
      if s[i] == "[" { depth += 1 }
      if s[i] == "]" { depth -= 1 }
      i += 1
    }
    return depth == 0 && i <= s.count ? i : nil
  }
}

/// Which bytes may belong to characters a set of atoms matches: ASCII exactly (each ASCII
/// character tried with ICU), every non-ASCII byte unless every atom is provably ASCII-only. Line
/// terminators (LF, CR) are never members, so runs never leave their line.
struct ByteClass: Equatable {
  private var low: UInt64 = 0
  private var high: UInt64 = 0
  var nonASCII: Bool

  /// Every byte but LF and CR.
  static var anything: ByteClass {
    var c = ByteClass(nonASCII: true)
    c.low = ~0
    c.high = ~0
    c.low &= ~(UInt64(1) << 0x0A | UInt64(1) << 0x0D)
    return c
  }

  private init(nonASCII: Bool) { self.nonASCII = nonASCII }

  /// The class of `atoms` (nil: anything) compiled with `options`.
  init(_ atoms: [String]?, options: RegularExpression.Options, timeLimit: Int) throws(ICUError) {
    guard let atoms else {
      self = .anything
      return
    }
    self.init(nonASCII: false)
    guard !atoms.isEmpty else { return }
    let regex = try RegularExpression(
      "(?:" + atoms.joined(separator: "|") + ")", options: options, timeLimit: timeLimit)
    for b in 0..<128 where b != 0x0A && b != 0x0D {
      let text = ByteStorage([UInt8(b)])
      try regex.setText(text)
      try regex.setRegion(0..<1)
      if try regex.next() == 0..<1 { insert(UInt8(b)) }
    }
    nonASCII = options.contains(.caseInsensitive) || !atoms.allSatisfy(Self.isASCIIOnly)
  }

  /// The class of the literal ASCII character `c`: `c` (with its other case, `caseless`, and then
  /// non-ASCII characters too: `k` matches the Kelvin sign). What ICU answers for it, without
  /// compiling it.
  static func literal(_ c: UInt8, caseless: Bool) -> ByteClass {
    precondition(c < 0x80, "not ASCII")
    var set = ByteClass(nonASCII: caseless)
    set.insert(c)
    if caseless && (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7A { set.insert(c ^ 0x20) }
    return set
  }

  /// The bytes of both classes.
  func union(_ other: ByteClass) -> ByteClass {
    var set = ByteClass(nonASCII: nonASCII || other.nonASCII)
    (set.low, set.high) = (low | other.low, high | other.high)
    return set
  }

  /// The class of the ASCII `bytes` (of either case, `caseless`; non-ASCII characters then too).
  static func of(_ bytes: [UInt8], caseless: Bool) -> ByteClass {
    bytes.reduce(ByteClass(nonASCII: caseless)) { $0.union(literal($1, caseless: caseless)) }
  }

  private mutating func insert(_ b: UInt8) {
    if b < 64 { low |= UInt64(1) << b } else { high |= UInt64(1) << (b - 64) }
  }

  /// Whether some printable ASCII character (space to `~`) is outside the class.
  var excludesPrintableASCII: Bool {
    low | 0xFFFF_FFFF != ~0 || high | UInt64(1) << (0x7F - 64) != ~0
  }

  @inline(__always)
  func contains(_ b: UInt8) -> Bool {
    if b >= 0x80 { return nonASCII }
    return b < 64 ? (low >> b) & 1 != 0 : (high >> (b - 64)) & 1 != 0
  }

  /// An escaped or plain ASCII character, or a set of plain ASCII characters and ranges
  /// (`[a-z_]`): nothing else matches only ASCII for sure (case-sensitively).
  static func isASCIIOnly(_ atom: String) -> Bool {
    let s = Array(atom.unicodeScalars)
    if s.count == 1 { return s[0].isASCII && s[0] != "." }
    if s.count == 2 && s[0] == "\\" {
      return s[1].isASCII && !s[1].properties.isAlphabetic && !("0"..."9").contains(s[1])
    }
    guard s.first == "[", s.last == "]", s.count >= 3 else { return false }
    let inner = s[1..<(s.count - 1)]
    return inner.first != "^"
      && inner.allSatisfy {
        $0.isASCII && $0 != "[" && $0 != "\\" && $0 != "&" && $0 != ":" && $0 != "]" && $0 != "{" && $0 != "}"
          && $0 != "$"
      }
  }
}
