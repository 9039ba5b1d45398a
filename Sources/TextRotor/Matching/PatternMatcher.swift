import Dispatch
import Synchronization
import TextRotorICU

/// Finds the matches of a ``Pattern`` in UTF-8 bytes: the sorted, non-overlapping, leftmost byte
/// ranges, never spanning a line terminator (see ``Pattern`` for the exact rules).
///
/// How it searches:
/// - a literal (case-sensitive, or ASCII without case): a vectorised byte search on two rare bytes of
///   the literal (AVX2/SSE2), no conversion of the text to `String` or UTF-16;
/// - a non-ASCII literal without case: ICU, the literal quoted, `UREGEX_CASE_INSENSITIVE`;
/// - a regex: ICU over a UTF-8 `UText` (64-bit byte offsets); when the pattern holds a literal every
///   match must contain (`foo\d+` holds `foo`), only the lines holding it are given to ICU.
///
/// Not thread-safe (it holds ICU matchers): use one per thread. Not re-entrant either: a search
/// keeps state across the lines it visits (a regex's look-ahead), so a visitor must not search
/// with the matcher that called it (use a second one).
public final class PatternMatcher {
  public let pattern: Pattern

  enum Engine {
    case literal(LiteralSearch)
    case caseless(CaselessLiteralSearch)
    case regex(RegexSearch)
    case literals(MultiLiteralSearch)
  }

  /// Which engine to use: `automatic` picks the fast paths; `icu` runs ICU line by line (the
  /// reference the fast paths are tested against); `wholeText` runs a regex over the whole text on
  /// the engine `automatic` picks (RE2 when the pattern has a translation), with no prefilter, so
  /// that tests and the fuzzer check that engine on every line (a literal: as `automatic`).
  /// `lineLocal` runs a regex on ICU with each line its own text (what `automatic` does for a
  /// pattern that ``readsPastLine(_:)``), for tests that compare it with the other paths.
  enum Strategy { case automatic, icu, wholeText, lineLocal }

  let engine: Engine
  let strategy: Strategy
  private let words: WordBoundaries?
  /// Whether a match may hold ill-formed UTF-8 and must be checked: a regex (ICU reads an
  /// ill-formed byte as U+FFFD, which `.`, `[^a]`, `\W`, `\S` match), or a literal holding U+FFFD.
  /// A match over ill-formed bytes is rejected so that every engine agrees, as ripgrep: an
  /// ill-formed byte matches nothing (U+FFFD matches only a real U+FFFD).
  private let checksUTF8: Bool
  /// For a pattern holding U+FFFD: the same expression, on ICU line by line, to search again before
  /// the first ill-formed byte of a rejected match, so that an ill-formed byte matches nothing
  /// (as in ripgrep) rather than hiding a shorter match at the same start (`\uFFFD?\uFFFD` on a real
  /// U+FFFD followed by a stray continuation byte matches the real one). A second copy, because the
  /// engine that found the rejected match is still in its match loop. Compiled when first needed
  /// (most texts hold no ill-formed byte): `illFormedSource` is what it is compiled from.
  private var beforeIllFormedSearch: RegexSearch?
  private let illFormedSource: (source: String, options: RegularExpression.Options, lineLocal: Bool)?
  /// For a regex with `wholeWord`: the pattern between two UAX #29 word boundaries,
  /// `(?w:\b)(?:…)(?w:\b)` (ICU's `w` flag makes `\b` the word break iterator's boundary, the one
  /// ``WordBoundaries`` checks; only there: the pattern's own `\b` and `\B` keep their meaning),
  /// searched over the rest of a line once a candidate there fails. A leftmost match that is not a
  /// whole word does not mean none is there: `cat|category` finds `cat` in `category`, and only
  /// backtracking into the pattern finds the longer alternative, as rg's `-w` does. Compiled when
  /// first needed.
  private(set) var wholeWordRegex: RegularExpression?
  private let wholeWordSource: (source: String, options: RegularExpression.Options)?

  public convenience init(_ pattern: Pattern) throws(PatternError) {
    try self.init(pattern, strategy: .automatic)
  }

  init(_ pattern: Pattern, strategy: Strategy) throws(PatternError) {
    self.pattern = pattern
    self.strategy = strategy
    let text = pattern.text
    checksUTF8 = pattern.syntax == .regex || Self.holdsReplacementCharacter(text, syntax: pattern.syntax)
    // By bytes: "\r\n" is one `Character`, so `text.contains("\n")` would not see it.
    if pattern.syntax == .literal && text.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D }) {
      throw PatternError("the literal \(pattern) holds a line terminator, which a line-oriented search never matches")
    }
    if pattern.syntax == .regex && Self.spellsLineFeed(text) {
      throw PatternError(
        "the literal '\\n' is not allowed in a regex (\(pattern)): a line-oriented search never matches a line feed")
    }
    func compile(_ source: String, _ options: RegularExpression.Options) throws(PatternError) -> RegularExpression {
      do {
        return try RegularExpression(source.isEmpty ? "(?:)" : source, options: options, timeLimit: pattern.timeLimit)
      } catch {
        throw PatternError(error.description, icuError: error)
      }
    }
    func byteClass(_ atoms: [String]?, _ options: RegularExpression.Options) throws(PatternError) -> ByteClass {
      do {
        return try ByteClass(atoms, options: options, timeLimit: pattern.timeLimit)
      } catch {
        throw PatternError(error.description, icuError: error)
      }
    }
    var options: RegularExpression.Options = [.multiline]
    if pattern.ignoreCase { options.insert(.caseInsensitive) }
    let isASCII = text.utf8.allSatisfy { $0 < 0x80 }
    // `\A`, `\z`, look-around: each line is its own text, whatever the strategy.
    let lineLocal = pattern.syntax == .regex && (strategy == .lineLocal || Self.readsPastLine(text))
    illFormedSource =
      checksUTF8
      ? (pattern.syntax == .literal ? RegularExpression.escapedLiteral(text) : text, options, lineLocal) : nil
    // Many literals (`-f WORDS`): searched together (see ``MultiLiteralSearch``); without case,
    // when they are ASCII.
    var manyLiterals: MultiLiteralSearch? = nil
    if strategy == .automatic, let alternatives = pattern.alternatives,
      case let literals = alternatives.literals, literals.count >= Self.manyLiterals,
      !pattern.ignoreCase || literals.allSatisfy({ $0.utf8.allSatisfy { $0 < 0x80 } }),
      literals.map(RegularExpression.escapedLiteral).joined(separator: "|") == text,
      let automaton = alternatives.automaton(caseless: pattern.ignoreCase)
    {
      let exceptions = pattern.ignoreCase ? RegexSearch(try compile(text, options), mode: .lineByLine) : nil
      manyLiterals = MultiLiteralSearch(automaton, exceptions: exceptions)
    }
    // A literal has one match at a start: when it is not a whole word, nothing there is. (Many
    // literals are checked at each start in turn, see ``MultiLiteralSearch/run``, except, without
    // case, on the lines ICU searches for them.)
    wholeWordSource =
      pattern.wholeWord && pattern.syntax == .regex && (manyLiterals == nil || pattern.ignoreCase)
      ? ("(?w:\\b)(?:" + text + ")(?w:\\b)", options) : nil

    var chosen = strategy
    if pattern.syntax == .literal && (strategy == .wholeText || strategy == .lineLocal) { chosen = .automatic }
    // Line by line, each line its own text; `automatic` still looks for a literal to search first.
    if lineLocal && chosen != .automatic { chosen = .lineLocal }
    if let manyLiterals {
      engine = .literals(manyLiterals)
    } else {
      switch (pattern.syntax, chosen) {
      case (.literal, .automatic) where !text.isEmpty && (!pattern.ignoreCase || isASCII):
        let needle = BytePattern(Array(text.utf8), asciiCaseInsensitive: pattern.ignoreCase)
        var exceptions: RegexSearch? = nil
        if needle.asciiCaseInsensitive {
          let regex = try compile(RegularExpression.escapedLiteral(text), options)
          exceptions = RegexSearch(regex, mode: .lineByLine)
        }
        engine = .literal(LiteralSearch(needle: needle, exceptions: exceptions))
      case (.literal, .automatic):
        // Without case, not ASCII: only the lines holding a case variant of two of its characters
        // (every match must hold one; ``CaseClasses``) are given to ICU.
        // With case folding done here when the literal has a safe window (``CaselessLiteralSearch``).
        if pattern.ignoreCase, text.unicodeScalars.count >= 2, let search = CaselessLiteralSearch(text) {
          engine = .caseless(search)
          break
        }
        let regex = try compile(RegularExpression.escapedLiteral(text), options)
        if pattern.ignoreCase, let needles = CaseClasses.needles(for: text) {
          engine = .regex(RegexSearch(regex, mode: .prefiltered(needles.map { BytePattern($0) })))
        } else {
          engine = .regex(RegexSearch(regex, mode: .whole))
        }
      case (.literal, .icu):
        engine = .regex(RegexSearch(try compile(RegularExpression.escapedLiteral(text), options), mode: .lineByLine))
      case (.regex, .automatic):
        let icu = try compile(text, options)
        // Translated only when RE2 may search (a caseless `\w` closed over case takes a
        // millisecond to translate, wasted when the windows are ICU's).
        func withRE2() -> RegexEngine {
          RegexEngine(icu, translation: RE2Translation.of(text, ignoreCase: pattern.ignoreCase))
        }
        // Without case, windows and prefiltered lines are ICU's: RE2's case-closed sets (`\w`
        // closed over case is thousands of ranges) take longer to compile, on every thread, than
        // ICU takes on the windows.
        func caselessOnICU() -> RegexEngine {
          RegexEngine(
            icu,
            translation: .failure(.init(reason: "a literal searched without case (ICU on the windows around it)")))
        }
        let anchors = LiteralAnchor.alternatives(of: text)
        // Without case, ASCII literals are found as ASCII letters of either case (`asciiCaseless`);
        // a non-ASCII one as the case variants of a few of its characters, the rest of it read as
        // characters the pattern consumes around them (``LiteralAnchor/caselessVariants()``).
        let asciiCaseless = pattern.ignoreCase && anchors.map { Self.caselessWindowsAreSafe(text, $0) } ?? false
        let windowed: [LiteralAnchor]? =
          !pattern.ignoreCase || asciiCaseless
          ? anchors
          : anchors.flatMap { anchors in
            guard Self.caselessVariantsAreSafe(text) else { return nil }
            let variants = anchors.map { $0.caselessVariants() }
            guard !variants.contains(where: { $0 == nil }) else { return nil }
            let all = variants.flatMap { $0! }
            return all.count <= 8 ? all : nil
          }
        if let anchors = windowed,
          anchors.allSatisfy({ Self.worthPrefiltering($0.literal, aroundIt: $0.minimumBefore + $0.minimumAfter) })
        {
          // One class before and one after for every alternative (their unions), so that the windows'
          // starts grow with the offsets of the literals and a window once searched is never reached
          // back into.
          func union(_ atoms: [[String]?]) -> [String]? { atoms.contains { $0 == nil } ? nil : atoms.flatMap { $0! } }
          let before = try byteClass(union(anchors.map(\.before)), options)
          let after = try byteClass(union(anchors.map(\.after)), options)
          // One anchor: the characters right after its literal, one each. (Without case, only for
          // an ASCII pattern: `caselessWindowsAreSafe` proved it spells no character that matches
          // several, `ß` matching `ss`; a caseless variant's anchor has none.)
          var afterFixed: [ByteClass] = []
          var afterRest: ByteClass? = nil
          if anchors.count == 1 && (!pattern.ignoreCase || asciiCaseless) && !anchors[0].afterFixed.isEmpty {
            for atoms in anchors[0].afterFixed { afterFixed.append(try byteClass(atoms, options)) }
            afterRest = try byteClass(anchors[0].afterRest, options)
          }
          // One anchor in a pattern of one-character items (`the [a-z]+ of`, `[a-z]+ing`): matched
          // around each occurrence without ICU, on ASCII text (``ASCIISequence``).
          var sequence: ASCIISequence? = nil
          if anchors.count == 1 && (!pattern.ignoreCase || asciiCaseless) && !lineLocal {
            do {
              sequence = try ASCIISequence(text, options: options, timeLimit: pattern.timeLimit)
            } catch {
              throw PatternError(error.description, icuError: error)
            }
          }
          let windows = anchors.map {
            // Without case (ASCII literals only): ASCII letters of either case, and the runs around
            // a character whose full case folding is ASCII left to ICU (`foldingExceptions`).
            var window = WindowAnchor(
              literal: BytePattern(Array($0.literal.utf8), asciiCaseInsensitive: asciiCaseless), before: before,
              after: after)
            window.minimumBefore = $0.minimumBefore
            window.minimumAfter = $0.minimumAfter
            (window.afterFixed, window.afterRest) = (afterFixed, afterRest)
            window.sequence = sequence
            let bytes = Array($0.literal.utf8)
            // A `\b` next to a word character of the literal, or `(?<!\w)` / `(?!\w)` next to any:
            // no ASCII word character may stand on the other side.
            window.boundaryBefore =
              ($0.boundaryBefore && WindowAnchor.isASCIIWord(bytes[0])) || $0.noWordBefore
            window.boundaryAfter =
              ($0.boundaryAfter && WindowAnchor.isASCIIWord(bytes[bytes.count - 1])) || $0.noWordAfter
            return window
          }
          let set = windows.count > 1 ? BytePatternSet(windows.map(\.literal)) : nil
          engine = .regex(
            RegexSearch(
              pattern.ignoreCase ? caselessOnICU() : withRE2(),
              mode: .anchored(windows, set, foldingExceptions: asciiCaseless),
              lineLocal: lineLocal)
          )
        } else if pattern.ignoreCase, let anchors,
          case let needles = anchors.map({ CaseClasses.needles(for: $0.literal) }),
          !needles.contains(where: { $0 == nil })
        {
          // Without case, a non-ASCII literal: only the lines holding a case variant of a few of its
          // characters (every match holds one; ``CaseClasses``) are given to ICU.
          engine = .regex(
            RegexSearch(
              caselessOnICU(), mode: .prefiltered(needles.flatMap { $0! }.map { BytePattern($0) }), lineLocal: lineLocal
            ))
        } else if !pattern.ignoreCase, let literal = RequiredLiteral.of(text), Self.worthPrefiltering(literal) {
          engine = .regex(
            RegexSearch(withRE2(), mode: .prefiltered([BytePattern(Array(literal.utf8))]), lineLocal: lineLocal))
        } else if lineLocal, let filter = Self.relaxedFilter(text, options, pattern) {
          engine = .regex(RegexSearch(withRE2(), mode: .relaxed(filter), lineLocal: true))
        } else {
          engine = .regex(RegexSearch(withRE2(), mode: lineLocal ? .lineByLine : .whole, lineLocal: lineLocal))
        }
      case (.regex, .icu):
        engine = .regex(RegexSearch(try compile(text, options), mode: .lineByLine))
      case (.regex, .wholeText):
        let regex = RegexEngine(
          try compile(text, options), translation: RE2Translation.of(text, ignoreCase: pattern.ignoreCase))
        engine = .regex(RegexSearch(regex, mode: .whole))
      case (.regex, .lineLocal):
        // The translation only for `--debug`'s reason: a line bound alone is always searched by ICU.
        let regex = RegexEngine(
          try compile(text, options), translation: RE2Translation.of(text, ignoreCase: pattern.ignoreCase))
        engine = .regex(RegexSearch(regex, mode: .lineByLine, lineLocal: true))
      case (.literal, .wholeText), (.literal, .lineLocal):
        preconditionFailure("a literal's .wholeText and .lineLocal are .automatic")
      }
    }
    do {
      words = pattern.wholeWord ? try WordBoundaries() : nil
    } catch {
      throw PatternError(error.description, icuError: error)
    }
  }

  /// The search over a whole text, on RE2, of `text`'s relaxed form (``RegexRelaxation``), whose
  /// matches name the lines where `text` may match; nil when there is none or RE2 cannot take it.
  private static func relaxedFilter(
    _ text: String, _ options: RegularExpression.Options, _ pattern: Pattern
  ) -> RegexSearch? {
    guard let relaxed = RegexRelaxation.of(text), !relaxed.isEmpty, !readsPastLine(relaxed),
      case .success(let translation) = RE2Translation.of(relaxed, ignoreCase: pattern.ignoreCase),
      let icu = try? RegularExpression(relaxed, options: options, timeLimit: pattern.timeLimit)
    else { return nil }
    let engine = RegexEngine(icu, translation: .success(translation))
    return engine.linear == nil ? nil : RegexSearch(engine, mode: .whole)
  }

  /// Whether regex `text` holds a construct that would see past its line if ICU read a whole text:
  /// `\A`, `\z`, `\Z`, `\G`, look-around (`(?=`, `(?!`, `(?<=`, `(?<!`) or flags that turn
  /// multi-line mode off (`(?-m)`: `^` and `$` then mean `\A` and `\z`). Such a pattern is
  /// searched a line at a time, each line its own text (``RegexSearch/lineLocal``), so it
  /// means what it means in ripgrep (`a\z` matches at the end of every line ending in `a`) and
  /// finds the same in a file, in a document's elements and in the lines around an edit.
  /// Conservative: what `\Q…\E` quotes is skipped, a set or an `(?x)` comment is not; a false
  /// alarm only makes the search slower: for a pattern without them, a line searched alone gives
  /// what the whole text gives, but for one case no pattern of rg's can tell (rg knows no line
  /// terminator but LF): `^` no longer matches at the end of a line right after a VT, FF, NEL,
  /// LS or PS, where ICU's `^` matches only when more text follows.
  static func readsPastLine(_ text: String) -> Bool {
    let b = Array(text.utf8)
    let backslash = UInt8(ascii: "\\")
    var i = 0
    while i < b.count {
      if b[i] == backslash {
        guard i + 1 < b.count else { return false }
        switch b[i + 1] {
        case UInt8(ascii: "Q"):
          // Quoted up to `\E` (or the end).
          var j = i + 2
          while j + 1 < b.count && !(b[j] == backslash && b[j + 1] == UInt8(ascii: "E")) { j += 1 }
          i = j + 2
        case UInt8(ascii: "A"), UInt8(ascii: "z"), UInt8(ascii: "Z"), UInt8(ascii: "G"): return true
        default: i += 2
        }
        continue
      }
      if b[i] == UInt8(ascii: "("), i + 2 < b.count, b[i + 1] == UInt8(ascii: "?") {
        switch b[i + 2] {
        case UInt8(ascii: "="), UInt8(ascii: "!"): return true
        case UInt8(ascii: "<")
        where i + 3 < b.count && (b[i + 3] == UInt8(ascii: "=") || b[i + 3] == UInt8(ascii: "!")):
          return true
        default:
          // Flags that turn multi-line mode off (`(?-m)`, `(?i-m:…)`): `^` and `$` then match only
          // at the text's edges, as `\A` and `\z`.
          var j = i + 2
          var off = false
          while j < b.count, b[j] != UInt8(ascii: ")"), b[j] != UInt8(ascii: ":") {
            if b[j] == UInt8(ascii: "-") { off = true }
            if off && b[j] == UInt8(ascii: "m") { return true }
            j += 1
          }
        }
      }
      i += 1
    }
    return false
  }

  /// Whether the regex `text` spells a line feed as a literal (a line feed, `\n`, `\x0A`,
  /// `\x{A}`, `\u000A`) outside a set, or as a set of nothing else (`[\n]`): as rg, such a pattern
  /// is refused, since a line-oriented search never matches it (`[^\n]` and `[a\n]` are taken).
  static func spellsLineFeed(_ text: String) -> Bool {
    let s = Array(text.unicodeScalars)
    var i = 0
    // The length of the line-feed escape at `k` (a backslash there), or 0.
    func lineFeedEscape(at k: Int) -> Int {
      guard k + 1 < s.count, s[k] == "\\" else { return 0 }
      func hex(_ from: Int, _ count: Int) -> Int? {
        guard from + count <= s.count else { return nil }
        return Int(String(String.UnicodeScalarView(s[from..<(from + count)])), radix: 16)
      }
      switch s[k + 1] {
      case "n": return 2
      case "x":
        if k + 2 < s.count && s[k + 2] == "{" {
          guard let close = s[(k + 3)...].firstIndex(of: "}"), close > k + 3, let v = hex(k + 3, close - k - 3) else {
            return 0
          }
          return v == 0x0A ? close - k + 1 : 0
        }
        return hex(k + 2, 2) == 0x0A ? 4 : 0
      case "u": return hex(k + 2, 4) == 0x0A ? 6 : 0
      default: return 0
      }
    }
    while i < s.count {
      let c = s[i]
      if c == "\n" { return true }
      if c == "\\" {
        if i + 1 < s.count && s[i + 1] == "Q" {
          // \Q...\E quotes: a raw line feed inside is one.
          let end = (i + 2..<s.count).first { s[$0] == "\\" && $0 + 1 < s.count && s[$0 + 1] == "E" } ?? s.count
          if s[(i + 2)..<end].contains("\n") { return true }
          i = end + 2
          continue
        }
        if lineFeedEscape(at: i) > 0 { return true }
        i += 2
        continue
      }
      if c == "[" {
        // A set: `[\n]` alone spells a line feed; anything else in it (or `^`) does not. Nested
        // sets and escapes are skipped to the matching `]`.
        let n = lineFeedEscape(at: i + 1)
        if n > 0 && i + 1 + n < s.count && s[i + 1 + n] == "]" { return true }
        var depth = 0
        var k = i
        while k < s.count {
          if s[k] == "\\" {
            k += 2
            continue
          }
          if s[k] == "[" {
            depth += 1
          } else if s[k] == "]" && k > i + 1 {
            depth -= 1
            if depth == 0 { break }
          }
          k += 1
        }
        i = k + 1
        continue
      }
      i += 1
    }
    return false
  }

  /// Whether `text` holds U+FFFD: the character, or (in a regex) one of ICU's escapes for it.
  static func holdsReplacementCharacter(_ text: String, syntax: Pattern.Syntax) -> Bool {
    if text.unicodeScalars.contains("\u{FFFD}") { return true }
    guard syntax == .regex else { return false }
    let folded = Array(text.uppercased().utf8)
    // `\uFFFD`, `\U0000FFFD`, `\x{FFFD}` with any leading zeros, `\N{REPLACEMENT CHARACTER}` (a
    // doubled backslash before one is a false alarm, which only makes the check stricter).
    func holds(_ s: String, at i: Int) -> Bool {
      let b = Array(s.utf8)
      return i + b.count <= folded.count && Array(folded[i..<(i + b.count)]) == b
    }
    for i in folded.indices where folded[i] == UInt8(ascii: "\\") {
      if holds("\\UFFFD", at: i) || holds("\\U0000FFFD", at: i) || holds("\\N{REPLACEMENT CHARACTER}", at: i) {
        return true
      }
      if holds("\\X{", at: i) {
        var j = i + 3
        while j < folded.count && folded[j] == UInt8(ascii: "0") { j += 1 }
        if holds("FFFD}", at: j) { return true }
      }
    }
    return false
  }

  /// How the pattern is searched (engine, prefilter), in words: what `find --debug` prints.
  public var searchPath: String {
    var path: String
    func quoted(_ bytes: [UInt8]) -> String { "'" + String(decoding: bytes, as: UTF8.self) + "'" }
    switch engine {
    case .literal(let search):
      path = "vectorised byte search for \(quoted(search.needle.bytes))"
      if search.exceptions != nil {
        path += " (ASCII letters of either case); ICU only on lines holding a character whose case folding is ASCII"
      }
    case .caseless(let search):
      path =
        "vectorised search for the case variants \(search.set.patterns.map { quoted($0.bytes) }.joined(separator: ", "))"
        + " (every occurrence), each checked by full case folding of the text around it (no ICU)"
    case .literals(let search):
      path =
        "Aho-Corasick automaton of the \(pattern.literalAlternatives?.count ?? 0) literals (\(search.stateCount) states),"
        + " leftmost first"
    case .regex(let search):
      // A line bound on its own is always ICU's.
      let onRE2 = search.regex.linear != nil && !search.lineLocal
      let name = onRE2 ? "RE2 regex" : "ICU regex"
      switch search.mode {
      case .whole: path = "\(name) over the whole text, 1 MB at a time (no literal worth searching for first)"
      case .lineByLine: path = "\(name) line by line"
      case .relaxed(let filter):
        path =
          "\(name) on the lines where RE2 finds \(filter.regex.pattern) (the pattern without its look-around;"
          + " a look-behind that begins it or a look-ahead that ends it read as consumed)"
      case .prefiltered(let literals):
        path = "\(name) on the lines holding one of \(literals.map { quoted($0.bytes) }.joined(separator: ", "))"
        path += literals.count > 1 ? " (searched in one pass)" : ""
      case .anchored(let anchors, _, let foldingExceptions):
        path =
          "\(name) on windows around each occurrence of \(anchors.map { quoted($0.literal.bytes) }.joined(separator: " or "))"
          + (foldingExceptions ? " (ASCII letters of either case)" : "")
          + ", stretched over the characters the pattern can match before and after it"
          + (anchors.count == 1 && anchors[0].sequence != nil
            ? " (each occurrence matched here first, the pattern being one-character items:"
              + " ICU only where it meets a character outside ASCII)" : "")
          + (foldingExceptions
            ? "; the runs of characters a match may hold around one whose full case folding is ASCII"
              + " (ß, ſ, K, ﬁ, ...) searched by ICU" : "")
      }
      if search.lineLocal {
        path += ", each line its own text (the pattern holds \\A, \\z, \\Z, \\G or look-around)"
      }
      if onRE2 {
        path +=
          "; RE2: linear time, no time limit (its translation means the same as ICU's pattern;"
          + " ICU only for text holding ill-formed UTF-8"
          + (search.regex.translation?.caseless == true
            ? ", or, without case, a character whose folding is several (ß, ﬁ, ...), which ICU matches as those" : "")
          + (search.regex.translation?.hasLineAnchors == true
            ? ", or, for ^/$, CR inside or VT, FF, NEL, LS, PS near it)" : ")")
      } else if let why = search.regex.refusal {
        path += "; ICU, not RE2: the pattern holds \(why)"
      }
    }
    if words != nil { path += "; -w: candidates checked for word boundaries (UAX #29)" }
    return path
  }

  /// Whether the windows of `anchors` may be found without case in regex `text`: every literal is
  /// ASCII (its occurrences are then ASCII letters of either case, but on lines holding a folding
  /// exception, which ICU searches whole), and the pattern spells no character whose full case
  /// folding is several ASCII characters (`ß`, `ﬁ`, ...: ICU lets one of them match `ss` or `fi`,
  /// which a window stretched byte by byte over the characters an atom matches would not cover).
  /// A pattern that is ASCII but for escapes is refused too when an escape may spell one (`\u`, `\x`,
  /// `\N`, `\U`, octal `\0`).
  static func caselessWindowsAreSafe(_ text: String, _ anchors: [LiteralAnchor]) -> Bool {
    guard anchors.allSatisfy({ $0.literal.utf8.allSatisfy { $0 < 0x80 } }) else { return false }
    guard text.utf8.allSatisfy({ $0 < 0x80 }) else { return false }
    let scalars = Array(text.unicodeScalars)
    for k in scalars.indices.dropLast() where scalars[k] == "\\" {
      if "uxNU0".unicodeScalars.contains(scalars[k + 1]) { return false }
    }
    return true
  }

  /// Whether regex `text` may be searched without case in the windows of its literals' case
  /// variants (``LiteralAnchor/caselessVariants()``): it spells no character whose full case
  /// folding is several characters (ICU lets `ß` match `ss`: a window stretched byte by byte over
  /// what the pattern's characters match would not cover two ASCII letters matched by one), and no
  /// escape that may spell one.
  static func caselessVariantsAreSafe(_ text: String) -> Bool {
    let scalars = Array(text.unicodeScalars)
    if scalars.contains(where: { CaseClasses.foldedToSeveral.contains($0.value) }) { return false }
    for k in scalars.indices.dropLast() where scalars[k] == "\\" {
      if "uxNU0".unicodeScalars.contains(scalars[k + 1]) { return false }
    }
    return true
  }

  /// Whether lines holding `literal` are rare enough to search for first: two bytes or more, or
  /// one ASCII symbol that prose seldom holds (`@`, `#`, `=`, ...; not a letter, digit, space or
  /// common punctuation).
  static func worthPrefiltering(_ literal: String, aroundIt: Int = 0) -> Bool {
    let bytes = Array(literal.utf8)
    // A punctuation mark with something the pattern must match next to it (`\d+\.\d+`): most of
    // its occurrences are rejected from the bytes around them, without ICU.
    if aroundIt > 0 && bytes.count == 1, let b = bytes.first, b < 0x80, b > 0x20,
      !((0x30...0x39).contains(b) || (0x41...0x5A).contains(b) || (0x61...0x7A).contains(b))
    {
      return true
    }
    if bytes.count >= 2 { return true }
    guard bytes.count == 1, let b = bytes.first, b < 0x80 else { return false }
    let common: Set<UInt8> = Array(" .,;:-'\"()!?\t".utf8).reduce(into: []) { $0.insert($1) }
    let alnum = (0x30...0x39).contains(b) || (0x41...0x5A).contains(b) || (0x61...0x7A).contains(b)
    return !alnum && !common.contains(b)
  }

  /// Calls `body` with each match in `range` (all of `bytes` by default), in order, until it
  /// returns false. Lines are those of `range`. Throws when ICU fails, e.g. a regex past its time
  /// limit.
  public func forEachMatch(
    in bytes: ByteStorage, range: Range<Int>? = nil, _ body: (Range<Int>) -> Bool
  ) throws(ICUError) {
    try forEachMatch(in: bytes, range: range, visiting: { body($0) ? .next : .stop })
  }

  /// The matches in `range` of a whole-word literal, each candidate's word boundaries decided from
  /// the characters next to it in `context` (which holds `range`: its edges are the edges of the
  /// candidates' line, or at least 8 bytes beyond `range`) without ICU
  /// (``WordBoundaries/obviousAnswer(_:in:range:)``), so exactly as a search of their whole line
  /// decides them; nil when a candidate needs ICU, whose answer depends on more of the line. For a
  /// pattern rotor's update inside a long line (`RotorDocument.convergentMatches`).
  func localWholeWordMatches(
    in bytes: ByteStorage, range: Range<Int>, context: Range<Int>
  ) throws(ICUError) -> [Range<Int>]? {
    precondition(
      pattern.wholeWord && pattern.syntax == .literal && context.lowerBound <= range.lowerBound
        && context.upperBound >= range.upperBound)
    guard let words else { return nil }
    words.localContext = context
    words.undecided = false
    defer { words.localContext = nil }
    var result: [Range<Int>] = []
    try forEachMatch(in: bytes, range: range) {
      result.append($0)
      return .next
    }
    return words.undecided ? nil : result
  }

  /// ``forEachMatch(in:range:_:)`` whose `body` says how to go on: `.next` (after the match),
  /// `.resume(p)` (from `p`, past the match: the rest of a line nobody needs, `-c`) or `.stop`.
  func forEachMatch(
    in bytes: ByteStorage, range: Range<Int>? = nil, visiting body: (Range<Int>) -> MatchVisit
  ) throws(ICUError) {
    let range = range ?? 0..<bytes.count
    precondition(range.lowerBound >= 0 && range.upperBound <= bytes.count, "range outside the bytes")
    let words = self.words
    let checkUTF8 = checksUTF8
    // Whether the slab being searched is well-formed UTF-8: each match's bytes are checked, and
    // past a few thousand matches the whole slab once (a pass at several GB/s, which a search
    // with that many matches takes far longer than).
    var slab = range.lowerBound..<range.lowerBound
    var slabChecked = false
    var slabValid = true
    var matchesChecked = 0
    // A match RE2 found lies in a region already checked (RE2 takes only well-formed ones).
    let regexSearch: RegexSearch?
    if case .regex(let search) = engine { regexSearch = search } else { regexSearch = nil }
    // As ripgrep (Rust's regex crate): an empty match right where the previous match ended is not
    // reported (`a*` on `bab` gives 0..<0, 1..<2, 3..<3).
    var lastEnd = -1
    var stopped = false
    // A rejected candidate whose line is searched again for whole words (see `wholeWordSource`):
    // the engine stops there, and the loop below searches the line and resumes the engine after
    // it. Done outside `visit`, which then calls `body` once and stays small enough to inline:
    // with the line search inside it, every accepted match's `body` (`count`'s `n += 1`) was
    // checked for exclusivity at run time, 15 % of `-w the` (a literal, which never gets here).
    var pendingLine: (line: Range<Int>, from: Int)? = nil
    // The line last found to hold an ill-formed byte (checked once, not at each candidate on it).
    var illFormedLine = 0..<0
    // Read once: reading the optional tuple (a string inside) at each rejected candidate retained
    // and released it, 20 % of `-w the`'s time (a literal, which never searches its line again).
    let searchesLinesAgain = wholeWordSource != nil
    func visit(_ m: Range<Int>) throws(ICUError) -> MatchVisit {
      if m.isEmpty && m.lowerBound == lastEnd { return .next }
      if checkUTF8 && !slabChecked && !(regexSearch?.regionIsWellFormed ?? false) {
        matchesChecked += 1
        if matchesChecked > 4096 {
          slabValid = bytes.firstInvalidUTF8(in: slab) == nil
          slabChecked = true
        }
      }
      if checkUTF8 && (!slabChecked || !slabValid) && !(regexSearch?.regionIsWellFormed ?? false),
        let bad = bytes.firstInvalidUTF8(in: m),
        let beforeIllFormed = try beforeIllFormed()
      {
        // The ill-formed byte matches nothing: every match starting before it, or an empty one at
        // it, is one that stops before it (region bounds are transparent, so `$` does not match
        // there). The search then goes on past the byte.
        if try beforeIllFormed.searchLine(bytes, m.lowerBound..<bad, range: range, visit) {
          if pendingLine == nil { stopped = true }
          return .stop
        }
        return .resume(
          bad > m.lowerBound ? bad : LineBounds.nextCharacter(after: bad, in: bytes, limit: range.upperBound))
      }
      if let words, try !words.accepts(m, in: bytes, range: range) {
        // A regex may still match a whole word from there: the rest of the line is searched with
        // the boundaries inside the pattern (a line holding an ill-formed byte is not: ICU would
        // read it as U+FFFD; nor after an empty candidate, which is where it is either way).
        if searchesLinesAgain, let line = wholeWordLine(of: m, in: bytes, range: range, illFormedLine: &illFormedLine) {
          pendingLine = (line, m.lowerBound)
          return .stop
        }
        return .resume(LineBounds.nextCharacter(after: m.lowerBound, in: bytes, limit: range.upperBound))
      }
      lastEnd = m.upperBound
      let next = body(m)
      if case .stop = next { stopped = true }
      return next
    }
    defer { regexSearch?.forgetScans() }
    // Line-aligned slabs, so that a mapped file that shrinks while it is searched is searched only
    // to its new end (the pages past it read as zeros), never as one huge line of NULs.
    var start = range.lowerBound
    repeat {
      var end = range.upperBound
      if end - start > Self.slabSize {
        let lineEnd = LineBounds.end(of: start + Self.slabSize, in: bytes, limit: range.upperBound)
        end = LineBounds.nextStart(after: lineEnd, in: bytes, limit: range.upperBound)
      }
      end = Swift.min(end, bytes.availableCount)
      if end < start { return }
      slab = start..<end
      slabChecked = false
      matchesChecked = 0
      while true {
        switch engine {
        case .literal(let search): try search.run(bytes, range: start..<end, visit)
        case .caseless(let search): try search.run(bytes, range: start..<end, visit)
        case .literals(let search):
          if let words {
            try search.run(
              bytes, range: start..<end,
              accept: { m throws(ICUError) in try words.accepts(m, in: bytes, range: range) }, visit)
          } else {
            try search.run(bytes, range: start..<end, visit)
          }
        case .regex(let search): try search.run(bytes, range: start..<end, visit)
        }
        if stopped { return }
        guard let (line, from) = pendingLine else { break }
        // The rest of a rejected candidate's line, then the engine again from the next line.
        pendingLine = nil
        var next: MatchVisit = .next
        try wholeWords(in: bytes, line: line, from: from) { w in
          if w.isEmpty && w.lowerBound == lastEnd { return true }
          lastEnd = w.upperBound
          next = body(w)
          if case .next = next { return true }
          return false
        }
        if case .stop = next { return }
        start = LineBounds.nextStart(after: line.upperBound, in: bytes, limit: range.upperBound)
        if case .resume(let p) = next { start = Swift.max(start, p) }
        if start >= end { break }
      }
      start = end
    } while start < Swift.min(range.upperBound, bytes.availableCount)
  }

  /// `-w`: the line of a rejected candidate `m` when the rest of it is to be searched for whole
  /// words (see ``wholeWordSource``); nil for an empty candidate or a line holding an ill-formed
  /// byte (remembered in `illFormedLine`, so that a long line is checked once).
  private func wholeWordLine(
    of m: Range<Int>, in bytes: ByteStorage, range: Range<Int>, illFormedLine: inout Range<Int>
  ) -> Range<Int>? {
    guard !m.isEmpty, !illFormedLine.contains(m.lowerBound) else { return nil }
    let start = LineBounds.start(of: m.lowerBound, in: bytes, floor: range.lowerBound)
    let line = start..<LineBounds.end(of: m.lowerBound, in: bytes, limit: range.upperBound)
    guard bytes.firstInvalidUTF8(in: line) == nil else {
      illFormedLine = line
      return nil
    }
    return line
  }

  /// The whole-word matches of the pattern in `line` from `start` on (see ``wholeWordSource``), in
  /// order, until `body` returns false. The line is ICU's whole text, so its word boundaries are
  /// those of the line, as ``WordBoundaries`` finds them.
  private func wholeWords(
    in bytes: ByteStorage, line: Range<Int>, from start: Int, _ body: (Range<Int>) -> Bool
  ) throws(ICUError) {
    guard let (source, options) = wholeWordSource else { return }
    if wholeWordRegex == nil {
      wholeWordRegex = try RegularExpression(source, options: options, timeLimit: pattern.timeLimit)
    }
    let regex = wholeWordRegex!
    try regex.setText(bytes, exactly: line)
    // ICU's time limit counts every step since the region was set, over all the matches found
    // since: the region is set again every ``RegexSearch/matchesPerRegion`` matches, as
    // `RegexSearch` does (bounds are transparent, so the search goes on as it would have; an empty
    // match found again where the last one was is skipped by the caller), so that only one
    // match's search counts against the limit, not a 100 MB line's.
    let batch = RegexSearch.matchesPerRegion
    var position = start
    while true {
      try regex.setRegion(position..<line.upperBound)
      var found = 0
      var stopped = false
      try regex.forEachMatch { m in
        guard body(m) else {
          stopped = true
          return false
        }
        found += 1
        position = m.upperBound
        return found < batch
      }
      if stopped || found < batch { return }
    }
  }

  /// The search that ``forEachMatch(in:range:_:)`` runs before an ill-formed byte, compiled once.
  private func beforeIllFormed() throws(ICUError) -> RegexSearch? {
    if let search = beforeIllFormedSearch { return search }
    guard let (source, options, lineLocal) = illFormedSource else { return nil }
    let regex = try RegularExpression(source.isEmpty ? "(?:)" : source, options: options, timeLimit: pattern.timeLimit)
    let search = RegexSearch(regex, mode: .lineByLine, lineLocal: lineLocal)
    beforeIllFormedSearch = search
    return search
  }

  /// The most bytes searched before checking that a mapped file has not shrunk.
  static let slabSize = 64 << 20

  /// From how many literals an alternation of literals is searched by ``MultiLiteralSearch`` (fewer
  /// are found faster by the vectorised search for a set of literals, around which RE2 runs).
  static let manyLiterals = 32

  /// The matches in `range` (all of `bytes` by default), sorted.
  public func matches(in bytes: ByteStorage, range: Range<Int>? = nil) throws(ICUError) -> [Range<Int>] {
    var result: [Range<Int>] = []
    try forEachMatch(in: bytes, range: range) {
      result.append($0)
      return true
    }
    return result
  }

  /// How many matches lie in `range` (all of `bytes` by default), counted on up to `threads`
  /// threads: a range of several MB is cut into line-aligned slices, each counted by its own
  /// matcher (matches never span lines, so the sum is the count of the whole range).
  public func count(in bytes: ByteStorage, range: Range<Int>? = nil, threads: Int) throws(ICUError) -> Int {
    try count(in: bytes, range: range, threads: threads, minimumSlice: Self.minimumSlice)
  }

  func count(in bytes: ByteStorage, range: Range<Int>?, threads: Int, minimumSlice: Int) throws(ICUError) -> Int {
    let range = range ?? 0..<bytes.count
    let slices = Swift.min(threads, range.count / minimumSlice)
    if slices <= 1 { return try count(in: bytes, range: range) }
    var cuts = [range.lowerBound]
    for k in 1..<slices {
      let target = Swift.max(range.lowerBound + range.count / slices * k, cuts[k - 1])
      let end = LineBounds.end(of: target, in: bytes, limit: range.upperBound)
      cuts.append(LineBounds.nextStart(after: end, in: bytes, limit: range.upperBound))
    }
    cuts.append(range.upperBound)
    let pattern = self.pattern
    let strategy = self.strategy
    let results = Mutex<[Result<Int, ICUError>?]>(Array(repeating: nil, count: slices))
    let group = DispatchGroup()
    for k in 1..<slices {
      let slice = cuts[k]..<cuts[k + 1]
      DispatchQueue.global().async(group: group) {
        let result: Result<Int, ICUError>
        do throws(ICUError) {
          let matcher: PatternMatcher
          do throws(PatternError) {
            matcher = try PatternMatcher(pattern, strategy: strategy)
          } catch {
            throw error.icuError ?? .unknown
          }
          result = .success(try matcher.count(in: bytes, range: slice))
        } catch {
          result = .failure(error)
        }
        results.withLock { $0[k] = result }
      }
    }
    let first: Result<Int, ICUError>
    do throws(ICUError) {
      first = .success(try count(in: bytes, range: cuts[0]..<cuts[1]))
    } catch {
      first = .failure(error)
    }
    group.wait()
    var total = 0
    for result in [first] + results.withLock({ Array($0[1...]) }) {
      switch result {
      case .success(let n)?: total += n
      case .failure(let error)?: throw error
      case nil: break
      }
    }
    return total
  }

  /// The fewest bytes a thread counts on its own.
  static let minimumSlice = 4 << 20

  /// How many matches lie in `range` (all of `bytes` by default).
  public func count(in bytes: ByteStorage, range: Range<Int>? = nil) throws(ICUError) -> Int {
    let range = range ?? 0..<bytes.count
    if words == nil, case .literal(let search) = engine { return try search.count(bytes, range: range) }
    if words == nil, case .literals(let search) = engine { return try search.count(bytes, range: range) }
    var n = 0
    try forEachMatch(in: bytes, range: range) { _ in
      n += 1
      return true
    }
    return n
  }
}
