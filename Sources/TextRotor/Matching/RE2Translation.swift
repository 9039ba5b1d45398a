import TextRotorICU

/// The RE2 form of an ICU regular expression, when a conservative reading proves that RE2 finds
/// exactly the matches ICU finds (line by line, leftmost-first, as ``RegexSearch`` searches);
/// otherwise the reason it stays on ICU.
///
/// What is accepted (anything else stays on ICU):
/// - literal characters, `\` + ASCII punctuation, `\t \f \a \e \xhh \x{h…} \uhhhh \Uhhhhhhhh`;
/// - `.`, `\d \D \w \W \s \S`, `\p{Name}` / `\P{Name}`, and classes `[…]` / `[^…]` of characters,
///   ranges, those escapes and `[:name:]`. Every one becomes the explicit code point ranges ICU
///   itself gives it (`uset_openPattern` on ICU regex's own definitions: `\w` =
///   `[\p{Alphabetic}\p{M}\p{Nd}\p{Pc}\u200c\u200d]`, `\s` = `\p{WhiteSpace}`, `\d` = `\p{Nd}`,
///   `.` = anything but `[\n\x0B\x0C\r\x85\u2028\u2029]`), written as `\x{…}` ranges, so RE2's own
///   (ASCII) `\w \d \s` and its `.` are never used. LF and CR are taken out of every set: a match
///   never holds a line terminator.
/// - groups `(…)` and `(?:…)` (both emitted as non-capturing), alternation, `* + ? {n} {n,} {n,m}`
///   greedy or lazy (counts up to 1000, RE2's limit), except a `* + {…}` on a group that can match
///   empty (backtracking and RE2 differ on empty iterations, `(a|)*`);
/// - `^` and `$` (multi-line, as textrotor compiles every pattern): ICU's also match around
///   `\x0B \x0C \x85 \u2028 \u2029` and CR, RE2's only around LF, so a region holding one of those
///   is searched by ICU (``RegexEngine``).
///
/// Without case (`-i`): every character and class becomes the explicit set ICU's regex matches
/// (closed over case by full folding, `uset_closeOver`, then complemented for `[^…]`, `\P{…}`,
/// `\W`, `\D`, `\S`), and RE2 runs case-sensitively on those sets, so its simple folding is never
/// used. ICU's full folding differs from a set of code points only at the characters whose
/// folding is several characters (`ß` = `ss`, `ﬁ` = `fi`; ``CaseClasses/foldedToSeveral``): a
/// pattern that spells one is refused, a negated set inside a set is refused (where ICU closes it
/// is not proven), and text holding one is searched by ICU (``RegexEngine``).
///
/// Refused: backreferences, look-around, atomic groups, possessive
/// quantifiers, `\b \B \A \z \Z \G \X \R \h \v \N{…} \Q…\E \cX`, octal escapes, inline flags,
/// named groups, set operations (`&&`, `--`, nested sets), and a literal LF or CR.
///
/// Also refused, so that RE2 stays fast and small (ICU, with its time limit, takes them): a
/// translation longer than ``maximumLength`` (every `\w` is some 13 KB of ranges, and RE2 parses
/// its text), a pattern whose RE2 program would be over ``maximumEstimatedProgram``
/// instructions (counted repetitions are copies: `(\w{100}){100}` is 10,000 copies of `\w`'s
/// ~1,400), and one whose longest chain of characters is over ``maximumChain`` (`[a-z]` 4,000
/// times: RE2's DFA needs memory growing as its square, and past its budget RE2 runs its NFA, at
/// some KB/s on a long line). The shim refuses, exactly, a compiled program over its own bound
/// (re2.cpp).
struct RE2Translation: Equatable {
  /// The pattern in RE2 syntax.
  var pattern: String
  /// Whether it holds `^` or `$`.
  var hasLineAnchors: Bool
  /// Whether it is the pattern without case (its regions must hold no character whose full case
  /// folding is several characters).
  var caseless = false

  /// Why a pattern stays on ICU.
  struct Refusal: Error, Equatable, CustomStringConvertible {
    var reason: String
    var description: String { reason }
  }

  static func of(_ icuPattern: String, ignoreCase: Bool) -> Result<RE2Translation, Refusal> {
    var parser = Parser(Array(icuPattern.unicodeScalars))
    parser.caseless = ignoreCase
    // Literals joined by `|` (`-f` with many words): their program and text grow with the words,
    // but RE2's DFA for them is their trie (see `RegexEngine.isLiteralAlternation`).
    if RegexEngine.isLiteralAlternation(icuPattern) {
      parser.maximumLength = RE2Translation.maximumLiteralLength
      parser.maximumProgram = RE2Translation.maximumLiteralProgram
    }
    do throws(Refusal) {
      let (text, _, _) = try parser.alternation()
      if parser.i < parser.s.count { throw Refusal(reason: "an unbalanced ')'") }
      return .success(RE2Translation(pattern: text, hasLineAnchors: parser.anchors, caseless: ignoreCase))
    } catch {
      return .failure(error)
    }
  }

  /// The longest translation given to RE2, in bytes.
  static let maximumLength = 1 << 20
  /// The same for an alternation of literals, and its largest program (estimated here; the
  /// shim's exact bound for it is `RegexEngine`'s): 100,000 words of 7 letters are 0.8 MB.
  static let maximumLiteralLength = 32 << 20
  static let maximumLiteralProgram = 1 << 22
  /// The largest RE2 program the translation lets RE2 compile, estimated (about 2 instructions a
  /// range of a class, 1 a literal byte, counted repetitions multiplied out). A few times the
  /// shim's exact bound, `CICU_RE2_MAX_PROGRAM`: this one only keeps RE2 from compiling (in time
  /// and memory) what the shim would then refuse.
  static let maximumEstimatedProgram = 200_000
  /// The most characters in a row a pattern given to RE2 may hold (counting a repetition's
  /// copies, the longest branch of an alternation): at 1,000, RE2 still finds `[a-z]{1000}` at
  /// about 7 MB/s on a line of letters; at 2,000, 4 MB/s; at 4,000 it runs out of DFA memory.
  static let maximumChain = 1000

  /// ICU regex's definitions of its class escapes, as UnicodeSet patterns (ICU's regexst.cpp).
  static let wordSet = "[\\p{Alphabetic}\\p{M}\\p{Nd}\\p{Pc}\\u200c\\u200d]"
  static let spaceSet = "[\\p{WhiteSpace}]"
  static let digitSet = "[\\p{Nd}]"
  /// ICU's line terminators: `.` matches none of them, `^`/`$` match around each.
  static let lineTerminators: [UInt32] = [0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029]

  /// The RE2 class of `ranges` less LF, CR and the surrogates.
  static func re2Class(_ ranges: [ClosedRange<UInt32>]) -> String {
    var pieces: [ClosedRange<UInt32>] = []
    for r in ranges {
      var parts = [r]
      for cut: ClosedRange<UInt32> in [0x0A...0x0A, 0x0D...0x0D, 0xD800...0xDFFF] {
        parts = parts.flatMap { p -> [ClosedRange<UInt32>] in
          guard p.overlaps(cut) else { return [p] }
          var out: [ClosedRange<UInt32>] = []
          if p.lowerBound < cut.lowerBound { out.append(p.lowerBound...(cut.lowerBound - 1)) }
          if p.upperBound > cut.upperBound { out.append((cut.upperBound + 1)...p.upperBound) }
          return out
        }
      }
      pieces += parts
    }
    if pieces.isEmpty { return "[^\\x00-\\x{10FFFF}]" }
    var out = "["
    for p in pieces {
      out += hex(p.lowerBound)
      if p.upperBound > p.lowerBound { out += "-" + hex(p.upperBound) }
    }
    return out + "]"
  }

  static func hex(_ c: UInt32) -> String { "\\x{" + String(c, radix: 16, uppercase: true) + "}" }

  private struct Parser {
    let s: [Unicode.Scalar]
    var i = 0
    var anchors = false
    /// Without case: characters and classes become ICU's case-closed sets.
    var caseless = false
    /// The RE2 class of each UnicodeSet pattern already read, and its estimated program size
    /// (`\w|\w|…` reads ICU's set once).
    var classes: [String: (text: String, cost: Int)] = [:]
    /// The limits ``check(_:_:)`` applies (larger for an alternation of literals).
    var maximumLength = RE2Translation.maximumLength
    var maximumProgram = RE2Translation.maximumEstimatedProgram

    init(_ s: [Unicode.Scalar]) { self.s = s }

    func refuse(_ reason: String) -> Refusal { Refusal(reason: reason) }

    var peek: Unicode.Scalar? { i < s.count ? s[i] : nil }

    /// The estimated size of a piece of pattern in RE2: its program's instructions, and its
    /// longest chain of characters.
    struct Size {
      var program = 0
      var chain = 0
    }

    /// Branches separated by `|`, up to a `)` or the end. Returns the RE2 text, whether it can
    /// match empty, and its estimated size.
    mutating func alternation() throws(Refusal) -> (String, Bool, Size) {
      var out = ""
      var nullable = false
      var size = Size()
      while true {
        let (text, n, branch) = try sequence()
        out += text
        nullable = nullable || n
        size.program += branch.program + 1
        size.chain = Swift.max(size.chain, branch.chain)
        try check(out, size)
        if peek == "|" {
          out += "|"
          i += 1
          continue
        }
        return (out, nullable, size)
      }
    }

    /// Refuses a translation past ``RE2Translation/maximumLength``,
    /// ``RE2Translation/maximumEstimatedProgram`` or ``RE2Translation/maximumChain``, as soon as
    /// it gets there.
    func check(_ text: String, _ size: Size) throws(Refusal) {
      if text.utf8.count > maximumLength {
        throw refuse("an RE2 translation over \(maximumLength >> 20) MB (its classes written out)")
      }
      if size.program > maximumProgram {
        throw refuse(
          "an RE2 program of over \(maximumProgram) instructions (estimated;"
            + " counted repetitions are copies)")
      }
      if size.chain > RE2Translation.maximumChain {
        throw refuse(
          "over \(RE2Translation.maximumChain) characters in a row (counted repetitions are copies),"
            + " which RE2 runs slowly")
      }
    }

    mutating func sequence() throws(Refusal) -> (String, Bool, Size) {
      var out = ""
      var nullable = true
      var size = Size()
      while let c = peek, c != "|", c != ")" {
        let (atom, atomNullable, quantifiable, atomSize) = try self.atom()
        guard let q = try quantifier() else {
          out += atom
          nullable = nullable && atomNullable
          size.program += atomSize.program
          size.chain += atomSize.chain
          try check(out, size)
          continue
        }
        guard quantifiable else { throw refuse("a quantifier after an anchor or at the start") }
        if atomNullable && !(q.min == 0 && q.max == 1) {
          throw refuse("a repeated group that can match empty")
        }
        out += "(?:" + atom + ")" + q.text
        nullable = nullable && (q.min == 0 || atomNullable)
        // RE2 writes x{n,m} out as n copies and m - n optional ones, x{n,} as n + 1.
        let copies = Swift.max(1, q.max ?? (q.min + 1))
        size.program += atomSize.program * copies + 1
        size.chain += atomSize.chain * copies
        try check(out, size)
        if let c = peek, "*+?{".unicodeScalars.contains(c) { throw refuse("a quantifier after a quantifier") }
      }
      return (out, nullable, size)
    }

    struct Quantifier {
      var min: Int
      var max: Int?
      var text: String
    }

    mutating func quantifier() throws(Refusal) -> Quantifier? {
      guard let c = peek else { return nil }
      var q: Quantifier
      switch c {
      case "*": q = Quantifier(min: 0, max: nil, text: "*")
      case "+": q = Quantifier(min: 1, max: nil, text: "+")
      case "?": q = Quantifier(min: 0, max: 1, text: "?")
      case "{":
        var j = i + 1
        func number(_ j: inout Int) -> Int? {
          var n = 0
          var digits = 0
          while j < s.count, let d = Int(String(s[j])), ("0"..."9").contains(s[j]) {
            n = n * 10 + d
            digits += 1
            j += 1
            if digits > 4 { return nil }
          }
          return digits == 0 ? nil : n
        }
        guard let lo = number(&j) else { throw refuse("a '{' that is not a counted repetition") }
        var hi: Int? = lo
        if j < s.count, s[j] == "," {
          j += 1
          hi = j < s.count && s[j] == "}" ? nil : number(&j)
          if hi == nil && !(j < s.count && s[j] == "}") { throw refuse("a malformed counted repetition") }
        }
        guard j < s.count, s[j] == "}" else { throw refuse("a malformed counted repetition") }
        guard lo <= 1000, (hi ?? 0) <= 1000, hi.map({ $0 >= lo }) ?? true else {
          throw refuse("a repetition count over 1000 (RE2's limit)")
        }
        q = Quantifier(min: lo, max: hi, text: "{\(lo)" + (hi == lo ? "}" : hi.map { ",\($0)}" } ?? ",}"))
        i = j
      default: return nil
      }
      i += 1
      if peek == "?" {
        q.text += "?"
        i += 1
      } else if peek == "+" {
        throw refuse("a possessive quantifier")
      }
      return q
    }

    /// One atom: its RE2 text, whether it can match empty, whether a quantifier may follow it,
    /// its estimated size.
    mutating func atom() throws(Refusal) -> (String, Bool, Bool, Size) {
      let c = s[i]
      switch c {
      case "(":
        i += 1
        if peek == "?" {
          guard i + 1 < s.count, s[i + 1] == ":" else { throw refuse("a group with (?…) other than (?:") }
          i += 2
        }
        let (inner, nullable, size) = try alternation()
        guard peek == ")" else { throw refuse("an unclosed group") }
        i += 1
        return ("(?:" + inner + ")", nullable, true, size)
      case "[":
        let (text, cost) = try re2Class(try classPattern())
        return (text, false, true, Size(program: cost, chain: 1))
      case ".":
        i += 1
        let (text, cost) = try re2Class(
          "[^" + RE2Translation.lineTerminators.map { RE2Translation.hex($0) }.joined() + "]")
        return (text, false, true, Size(program: cost, chain: 1))
      case "^":
        i += 1
        anchors = true
        return ("(?m:^)", true, false, Size(program: 1, chain: 0))
      case "$":
        i += 1
        anchors = true
        return ("(?m:$)", true, false, Size(program: 1, chain: 0))
      case "\\":
        switch try escape(inSet: false) {
        case .set(let pattern):
          let (text, cost) = try re2Class(pattern)
          return (text, false, true, Size(program: cost, chain: 1))
        case .character(let code):
          guard code != 0x0A && code != 0x0D else { throw refuse("a literal line terminator") }
          if caseless { return try caselessCharacter(code) }
          return (RE2Translation.hex(code), false, true, Size(program: 4, chain: 1))
        }
      case "*", "+", "?", "{": throw refuse("a quantifier with nothing to repeat")
      case "]", "}": throw refuse("an unescaped '\(c)'")
      default:
        i += 1
        guard c.value != 0x0A && c.value != 0x0D else { throw refuse("a literal line terminator") }
        if caseless { return try caselessCharacter(c.value) }
        return (RE2Translation.hex(c.value), false, true, Size(program: String(c).utf8.count, chain: 1))
      }
    }

    /// Without case: the character `code` as the set of ICU's matches of it (its case variants).
    mutating func caselessCharacter(_ code: UInt32) throws(Refusal) -> (String, Bool, Bool, Size) {
      try refuseSeveral(code)
      let (text, cost) = try re2Class("[" + RE2Translation.hex(code) + "]")
      return (text, false, true, Size(program: cost, chain: 1))
    }

    /// Without case, a character whose full folding is several characters (`ß`): ICU matches it
    /// as those characters (`ss`), which no set of code points does.
    func refuseSeveral(_ code: UInt32) throws(Refusal) {
      if caseless && CaseClasses.foldedToSeveral.contains(code) {
        throw refuse("-i with a character whose case folding is several characters (ß = ss, ﬁ = fi)")
      }
    }

    /// The RE2 class of the UnicodeSet `pattern` and its estimated program size, read once.
    mutating func re2Class(_ pattern: String) throws(Refusal) -> (String, Int) {
      if let known = classes[pattern] { return known }
      let ranges = caseless ? try caselessRanges(pattern) : try setRanges(pattern)
      let result = (RE2Translation.re2Class(ranges), 2 * ranges.count + 1)
      classes[pattern] = result
      return result
    }

    enum Escape {
      case character(UInt32)
      /// A UnicodeSet pattern.
      case set(String)
    }

    /// The escape at `i` (a backslash), consumed.
    mutating func escape(inSet: Bool) throws(Refusal) -> Escape {
      guard i + 1 < s.count else { throw refuse("a trailing backslash") }
      let c = s[i + 1]
      i += 2
      func hexDigits(_ count: Int) throws(Refusal) -> UInt32 {
        guard i + count <= s.count else { throw refuse("a short hexadecimal escape") }
        var v: UInt32 = 0
        for k in i..<(i + count) {
          guard let d = hexValue(s[k]) else { throw refuse("a malformed hexadecimal escape") }
          v = v * 16 + d
        }
        i += count
        return v
      }
      func hexValue(_ x: Unicode.Scalar) -> UInt32? { x.isASCII ? UInt32(String(x), radix: 16) : nil }
      func checked(_ v: UInt32) throws(Refusal) -> Escape {
        guard v <= 0x10FFFF, !(0xD800...0xDFFF).contains(v) else { throw refuse("an escape out of Unicode's range") }
        return .character(v)
      }
      switch c {
      case "d": return .set(RE2Translation.digitSet)
      case "D": return .set("[^" + RE2Translation.digitSet + "]")
      case "w": return .set(RE2Translation.wordSet)
      case "W": return .set("[^" + RE2Translation.wordSet + "]")
      case "s": return .set(RE2Translation.spaceSet)
      case "S": return .set("[^" + RE2Translation.spaceSet + "]")
      case "p", "P":
        guard peek == "{" else { throw refuse("\\\(c) without braces") }
        var j = i + 1
        var name = ""
        while j < s.count, s[j] != "}" {
          let x = s[j]
          guard x.isASCII, x.properties.isAlphabetic || ("0"..."9").contains(x) || x == "_" || x == "=" else {
            throw refuse("a property name with characters other than letters, digits, '_' and '='")
          }
          name.unicodeScalars.append(x)
          j += 1
        }
        guard j < s.count, !name.isEmpty else { throw refuse("an unclosed \\\(c){") }
        i = j + 1
        return .set((c == "p" ? "[\\p{" : "[\\P{") + name + "}]")
      case "t": return .character(0x09)
      case "f": return .character(0x0C)
      case "a": return .character(0x07)
      case "e": return .character(0x1B)
      case "n": return .character(0x0A)
      case "r": return .character(0x0D)
      case "x":
        if peek == "{" {
          i += 1
          var v: UInt32 = 0
          var digits = 0
          while let x = peek, x != "}" {
            guard let d = hexValue(x), digits < 6 else { throw refuse("a malformed \\x{…}") }
            v = v * 16 + d
            digits += 1
            i += 1
          }
          guard peek == "}", digits > 0 else { throw refuse("a malformed \\x{…}") }
          i += 1
          return try checked(v)
        }
        return try checked(try hexDigits(2))
      case "u": return try checked(try hexDigits(4))
      case "U": return try checked(try hexDigits(8))
      default:
        if c.isASCII && !(c.properties.isAlphabetic || ("0"..."9").contains(c)) && c.value >= 0x20 && c.value < 0x7F {
          return .character(c.value)
        }
        throw refuse("the escape \\\(c)")
      }
    }

    /// The class at `i` (`[`), consumed, as a UnicodeSet pattern of ICU's meaning.
    mutating func classPattern() throws(Refusal) -> String {
      i += 1
      // `[:alpha:]` is a property in ICU (a POSIX-like set), RE2's class of `:`, `a`, `l`, ...
      guard peek != ":" else { throw refuse("a set starting with '[:' (a property in ICU)") }
      var out = "["
      if peek == "^" {
        out += "^"
        i += 1
      }
      guard peek != "]" else { throw refuse("a class starting with ']'") }
      var items = 0
      while true {
        guard let c = peek else { throw refuse("an unclosed class") }
        if c == "]" {
          i += 1
          break
        }
        items += 1
        var low: UInt32
        switch c {
        case "[":
          // Only [:name:] / [:^name:].
          guard i + 1 < s.count, s[i + 1] == ":" else { throw refuse("a nested set or set operation") }
          var j = i + 2
          var negated = false
          if j < s.count, s[j] == "^" {
            negated = true
            j += 1
          }
          var name = ""
          while j < s.count, s[j].isASCII, s[j].properties.isAlphabetic || s[j] == "_" {
            name.unicodeScalars.append(s[j])
            j += 1
          }
          guard !name.isEmpty, j + 1 < s.count, s[j] == ":", s[j + 1] == "]" else {
            throw refuse("a malformed [:name:]")
          }
          i = j + 2
          out += (negated ? "[\\P{" : "[\\p{") + name + "}]"
          continue
        case "\\":
          switch try escape(inSet: true) {
          case .set(let pattern):
            out += pattern
            continue
          case .character(let code): low = code
          }
        case "-", "&", "^", "$", "{", "}":
          throw refuse("an unescaped '\(c)' in a class")
        default:
          low = c.value
          i += 1
        }
        try refuseSeveral(low)
        // A range?
        if peek == "-" {
          guard i + 1 < s.count, s[i + 1] != "]" else { throw refuse("a '-' at the end of a class") }
          i += 1
          var high: UInt32
          if s[i] == "\\" {
            guard case .character(let code) = try escape(inSet: true) else {
              throw refuse("a range ending in a class escape")
            }
            high = code
          } else {
            guard !"[]-&^${}".unicodeScalars.contains(s[i]) else { throw refuse("a malformed range") }
            high = s[i].value
            i += 1
          }
          guard high >= low else { throw refuse("a reversed range") }
          try refuseSeveral(high)
          out += RE2Translation.hex(low) + "-" + RE2Translation.hex(high)
        } else {
          out += RE2Translation.hex(low)
        }
      }
      return out + "]"
    }

    /// Without case: the set of `pattern` as ICU's regex matches it, closed over case before its
    /// own negation (`[^…]`, `[\P{…}]`) is applied.
    func caselessRanges(_ pattern: String) throws(Refusal) -> [ClosedRange<UInt32>] {
      var positive = pattern
      var complement = false
      if pattern.hasPrefix("[^") {
        positive = "[" + pattern.dropFirst(2)
        complement = true
      } else if pattern.hasPrefix("[\\P{"), pattern.hasSuffix("}]"), !pattern.dropFirst().contains("[") {
        positive = "[\\p{" + pattern.dropFirst(4)
        complement = true
      }
      if positive.dropFirst().contains("[^") || positive.contains("\\P") || positive.contains("[:^") {
        throw refuse("-i with a negated set inside a set")
      }
      do {
        return try UnicodeSetRanges.of(positive, caseless: true, complement: complement)
      } catch {
        throw refuse("a set ICU's UnicodeSet does not read as the regex does (\(pattern))")
      }
    }

    func setRanges(_ pattern: String) throws(Refusal) -> [ClosedRange<UInt32>] {
      do {
        return try UnicodeSetRanges.of(pattern)
      } catch {
        throw refuse("a set ICU's UnicodeSet does not read as the regex does (\(pattern))")
      }
    }
  }
}
