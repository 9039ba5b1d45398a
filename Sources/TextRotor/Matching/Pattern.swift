import Synchronization
import TextRotorICU

/// What a pattern rotor (`matches`) searches for: a literal string or an ICU regular expression.
///
/// - Matches are the leftmost, non-overlapping occurrences, in text order, as UTF-8 byte ranges.
/// - Matching is line-oriented, as ripgrep's default: a match never spans a line terminator (LF,
///   CR or CRLF), and `^`/`$` match at the start and end of every line. A literal may not contain a
///   line terminator (LF or CR, so not CR LF either).
/// - As ripgrep's, an empty match right where the previous match ended is not reported (`a*` on
///   `bab` matches at 0..<0, 1..<2, 3..<3). No match starts inside a UTF-8 sequence or between the
///   CR and LF of a CRLF.
/// - `ignoreCase` uses Unicode case folding as ICU's `UREGEX_CASE_INSENSITIVE` does: **full** case
///   folding for literal text, so `STRASSE` matches `straße`, `ss` matches `ß` and `st` matches
///   `ﬆ` (ripgrep folds simply and does not); sets and properties in a regex fold simply (`[a-z]`
///   does not match `ß`). An ASCII literal is searched over the bytes, with ICU used only on the
///   lines holding one of the few characters whose folding is ASCII (`ß`, `ſ`, `K` (Kelvin),
///   `ﬀ`…), so the result is the same as ICU's.
/// - `wholeWord`: a match counts only when it starts and ends on an ICU word boundary (UAX #29) of
///   its line. When a regex's candidate fails, the rest of its line is searched for the pattern
///   between two such boundaries, so another alternative or length that is a whole word is found
///   (`-w -e cat -e category` finds `category`, as rg); a literal's search goes on from the
///   candidate's next character (a literal has one match at a start).
public struct Pattern: Sendable, Hashable, CustomStringConvertible {
  public enum Syntax: String, Sendable, Hashable {
    /// The text is matched as is.
    case literal
    /// The text is an ICU regular expression (https://unicode-org.github.io/icu/userguide/strings/regexp.html).
    case regex
  }

  public var text: String
  public var syntax: Syntax
  public var ignoreCase: Bool
  public var wholeWord: Bool
  /// Steps of ICU's regex engine one match may take (roughly milliseconds) before the search fails
  /// with a time-out error.
  public var timeLimit: Int
  /// The literals `text` is the alternation of (``anyOf(_:syntax:ignoreCase:wholeWord:wholeLine:timeLimit:)``
  /// of literals), for ``PatternMatcher`` to search together; used only while `text` still is that
  /// alternation. Not part of the pattern's identity.
  var literalAlternatives: [String]? { alternatives?.literals }
  /// Those literals, with the automaton built from them once for every matcher of this pattern
  /// (and of its copies: one matcher a thread).
  var alternatives: LiteralAlternatives? = nil

  public static func == (a: Pattern, b: Pattern) -> Bool {
    a.text == b.text && a.syntax == b.syntax && a.ignoreCase == b.ignoreCase && a.wholeWord == b.wholeWord
      && a.timeLimit == b.timeLimit
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(text)
    hasher.combine(syntax)
    hasher.combine(ignoreCase)
    hasher.combine(wholeWord)
    hasher.combine(timeLimit)
  }

  public init(
    _ text: String, syntax: Syntax = .literal, ignoreCase: Bool = false, wholeWord: Bool = false,
    timeLimit: Int = 3000
  ) {
    self.text = text
    self.syntax = syntax
    self.ignoreCase = ignoreCase
    self.wholeWord = wholeWord
    self.timeLimit = timeLimit
  }

  public static func literal(_ text: String, ignoreCase: Bool = false, wholeWord: Bool = false) -> Pattern {
    Pattern(text, syntax: .literal, ignoreCase: ignoreCase, wholeWord: wholeWord)
  }

  public static func regex(_ text: String, ignoreCase: Bool = false, wholeWord: Bool = false) -> Pattern {
    Pattern(text, syntax: .regex, ignoreCase: ignoreCase, wholeWord: wholeWord)
  }

  public var description: String {
    var flags: [String] = []
    if syntax == .regex { flags.append("regex") }
    if ignoreCase { flags.append("ignore-case") }
    if wholeWord { flags.append("word") }
    let shown = Self.escapingControls(RegularExpression.shown(text))
    return flags.isEmpty ? "'\(shown)'" : "'\(shown)' (\(flags.joined(separator: ", ")))"
  }

  /// `text` with its control characters written as escapes (`\r`, `\n`, `\t`, `\u{1B}`), so that
  /// a message quoting a pattern shows them rather than acting on the terminal.
  static func escapingControls(_ text: String) -> String {
    var result = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\r": result += "\\r"
      case "\n": result += "\\n"
      case "\t": result += "\\t"
      case "\0"..."\u{1F}", "\u{7F}"..."\u{9F}", "\u{2028}", "\u{2029}":
        result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result
  }
}

/// A pattern that cannot be searched for: an invalid regular expression (the message says where)
/// or a literal holding a line terminator.
public struct PatternError: Error, CustomStringConvertible, Sendable {
  public let message: String
  /// ICU's error, when ICU rejected the pattern.
  public let icuError: ICUError?

  public init(_ message: String, icuError: ICUError? = nil) {
    self.message = message
    self.icuError = icuError
  }

  public var description: String { message }
}

/// The literals of an alternation (``Pattern/anyOf(_:syntax:ignoreCase:wholeWord:wholeLine:timeLimit:)``)
/// and their Aho–Corasick automaton, built by the first ``PatternMatcher`` that asks (the others
/// wait for it) and shared by all: a search on every core holds one automaton, not one a thread.
final class LiteralAlternatives: Sendable {
  let literals: [String]
  /// Per `caseless`: the automaton, or nil when it cannot be built (an empty literal, a table too
  /// large); absent until asked for.
  private let built = Mutex<[Bool: MultiLiteralAutomaton?]>([:])

  init(_ literals: [String]) { self.literals = literals }

  /// The automaton of the literals (ASCII ones matched without case when `caseless`), built once.
  func automaton(caseless: Bool) -> MultiLiteralAutomaton? {
    built.withLock { cache in
      if let known = cache[caseless] { return known }
      let made = MultiLiteralAutomaton(literals.map { Array($0.utf8) }, caseless: caseless)
      cache.updateValue(made, forKey: caseless)
      return made
    }
  }
}
