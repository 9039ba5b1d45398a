import TextRotorICU

extension Pattern {
  /// One pattern matching any of `patterns` (leftmost first, the earlier pattern winning at the
  /// same position, as ripgrep's `-e A -e B`): a regex alternation of the literals (quoted) or
  /// regexes (each in a group). One pattern is returned as is.
  ///
  /// With `wholeLine` (ripgrep's `-x`), a match must be a whole line: the alternation between `^`
  /// and `$` (which match at every line's start and end).
  public static func anyOf(
    _ texts: [String], syntax: Syntax, ignoreCase: Bool = false, wholeWord: Bool = false, wholeLine: Bool = false,
    timeLimit: Int = 3000
  ) -> Pattern {
    if texts.count == 1 && !wholeLine {
      return Pattern(texts[0], syntax: syntax, ignoreCase: ignoreCase, wholeWord: wholeWord, timeLimit: timeLimit)
    }
    let parts = texts.map { syntax == .literal ? RegularExpression.escapedLiteral($0) : "(?:\($0))" }
    var source = parts.joined(separator: "|")
    if wholeLine { source = "^(?:" + source + ")$" }
    var pattern = Pattern(source, syntax: .regex, ignoreCase: ignoreCase, wholeWord: wholeWord, timeLimit: timeLimit)
    if syntax == .literal && !wholeLine { pattern.alternatives = LiteralAlternatives(texts) }
    return pattern
  }

  /// The most UTF-8 bytes one match can span, when every match is a non-empty run of text decided
  /// by its own bytes alone: a literal or an alternation of literals, not whole-word (a word
  /// boundary depends on the text around the match), none empty and none holding U+FFFD (which ICU
  /// also finds where ill-formed bytes are read as it, and how those are read depends on the bytes
  /// before them); or a regex of bounded length without context (``regexReach``). Nil for every
  /// other pattern. An edit then changes matches only within that many
  /// bytes of it, and a scan restarted anywhere outside a match finds the same next match: a
  /// pattern rotor is matched again around an edit only until its new matches fall in step with
  /// its old ones.
  ///
  /// Without case, a match is text whose full case folding is the literal's: each of its
  /// characters folds to at least one scalar and the literal's folding has at most three per
  /// scalar, so a match holds at most three characters per scalar of the literal, of at most four
  /// bytes each.
  var matchReach: Int? {
    guard !wholeWord else { return nil }
    let literals: [String]
    if syntax == .literal {
      literals = [text]
    } else if let alternatives, text == Pattern.anyOf(alternatives.literals, syntax: .literal).text {
      literals = alternatives.literals
    } else {
      return regexReach
    }
    guard !literals.isEmpty else { return nil }
    var reach = 0
    for literal in literals {
      guard !literal.isEmpty, !literal.unicodeScalars.contains("\u{FFFD}") else { return nil }
      reach = Swift.max(reach, ignoreCase ? 12 * literal.unicodeScalars.count : literal.utf8.count)
    }
    return reach
  }

  /// ``matchReach`` of a regex: every match holds at least one character and at most N
  /// (``RegexShapeParser/length(ofRegex:)``: no anchor, word boundary, look-around,
  /// back-reference, flag or unbounded quantifier), so whether a match starts at a position and
  /// where it ends are decided by the N characters there and the one after (a greedy quantifier
  /// reads it to stop): 4 bytes a character, 12 without case (a literal character may match up to
  /// three by full case folding). Nil for a pattern holding U+FFFD, also as an escape
  /// (``PatternMatcher/holdsReplacementCharacter(_:syntax:)``; a regex's matches over ill-formed
  /// bytes are refused anyway, this only keeps to the literals' rule), and when the reach is past
  /// `Int.max`. (The update takes reaches of up to 1 KB.)
  var regexReach: Int? {
    guard syntax == .regex, !PatternMatcher.holdsReplacementCharacter(text, syntax: .regex),
      let length = RegexShapeParser.length(ofRegex: text), length.min >= 1, let characters = length.max,
      let bytes = RegexShapeParser.Length.product(characters, ignoreCase ? 12 : 4)
    else { return nil }
    return RegexShapeParser.Length.sum(bytes, 4)
  }

  /// How an edit inside a long line matches this pattern's rotor again (``MatchReach``): by its
  /// ``matchReach`` when that is at most 1 KB, else by the runs of ``matchAlphabet``; a
  /// whole-word literal by the reach of the literal and two characters either side (falling back
  /// to its runs where ICU must decide a candidate: `ComputedRotor.fallback`), or by its runs when
  /// that reach is past 1 KB; a whole-word regex by its runs; nil when none of these is known
  /// (the edited line is matched again).
  var convergentReach: MatchReach? {
    if wholeWord, syntax == .literal, let bytes = Pattern(text, ignoreCase: ignoreCase).matchReach,
      bytes <= MatchReach.byteLimit
    {
      return .words(bytes)
    }
    if let bytes = matchReach, bytes <= MatchReach.byteLimit { return .bytes(bytes) }
    return matchRuns
  }

  /// ``MatchReach/runs(_:readsBehind:)`` of ``matchAlphabet``, from one reading of the regex.
  var matchRuns: MatchReach? {
    guard let (alphabet, readsBehind) = alphabetAndContext else { return nil }
    return .runs(alphabet, readsBehind: readsBehind)
  }

  /// The characters a match of a regex may hold, when every match holds at least one and is
  /// decided by them and the character after them alone (no back-reference, flag or `\Z`; any
  /// length: `\w+ing`, `[0-9]+`), and some printable ASCII character is not among
  /// them (``ByteClass/excludesPrintableASCII``; `.` leaves out only controls, VT and FF, which
  /// are rare). Such a character ends every match and every attempt at one that reads it: a match
  /// starting at a position, and its end, are decided by the run of the alphabet's characters
  /// there and the character after.
  ///
  /// A regex may also hold ICU's default word assertions, `\b`, `\B`, `(?<!\w)` and `(?!\w)`
  /// (`\bthe\b`, `\b\w+ing\b`): those read the characters either side of a position, passing
  /// back over combining marks and format characters (never ASCII), so the alphabet then holds
  /// every word character (`\w`) too. An ASCII character outside it is then a non-word
  /// character, read as the edge of the text reads (no word character there), so an assertion
  /// next to it answers as it does at a scan's start or end (the bounds are transparent, and the
  /// text before a scan's start may or may not be in the bytes given to ICU: either way it reads
  /// no word character). And it may hold `^` and `$` (and `\A` and `\z`, each line being a text of
  /// its own for such a pattern), which read the character before or at a
  /// position (a line terminator: LF and CR end the long line, VT, FF and what is not ASCII may
  /// lie inside it). And look-around (`(?<=\$)\w+`, `\w+(?=\()`, `(?<![a-z])\d+`) whose atoms are
  /// known: they join the alphabet, so that a look-around never reads past a separator either
  /// (whatever it reads next to one, it reads in a piece that holds that separator).
  ///
  /// Without case, an atom that ICU compiles as one character (a literal, a code point spelled as
  /// `\x{DF}`, a set or property of one code point such as `[ﬀ]`) matches by full case folding,
  /// so it may match several characters (`ß` matches `ss`, `[ﬀ]` matches `ff`), which the class,
  /// tried one character at a time, would not hold: nil when an atom matches the folding of a
  /// character that folds to several (``CaseClasses/foldedToSeveral``), each tried with ICU. Sets
  /// of several code points fold simply. Nil for a pattern holding U+FFFD, as ``regexReach``.
  var matchAlphabet: ByteClass? { alphabetAndContext?.alphabet }

  /// ``matchAlphabet``, and whether the regex reads the characters before a position (a word
  /// assertion, a line anchor, look-around).
  ///
  /// A whole-word pattern (a regex, or a literal read as one) is matched between two of ICU's word
  /// boundaries of its line, which read the characters around a match: its alphabet holds every
  /// word character and the punctuation next to which a boundary depends on the character beyond
  /// (``WordBoundaries/joiningPunctuation``), so that an ASCII character outside it cuts the
  /// line's word boundaries in two (``WordBoundaries/separatesWords(_:)``), and it reads behind.
  private var alphabetAndContext: (alphabet: ByteClass, readsBehind: Bool)? {
    guard syntax == .regex || wholeWord, !PatternMatcher.holdsReplacementCharacter(text, syntax: syntax) else {
      return nil
    }
    let source = syntax == .regex ? text : RegularExpression.escapedLiteral(text)
    guard let shape = RegexShapeParser.shape(ofRegex: source, assertions: true), shape.length.min >= 1 else {
      return nil
    }
    var options: RegularExpression.Options = [.multiline]
    if ignoreCase { options.insert(.caseInsensitive) }
    // What a match holds and what its look-around reads.
    let read = shape.atoms + (shape.lookAround ?? [])
    var members = read
    if shape.readsWords || wholeWord { members.append(#"\w"#) }
    if wholeWord { members.append(WordBoundaries.joiningPunctuation) }
    guard let alphabet = try? ByteClass(members, options: options, timeLimit: timeLimit),
      alphabet.excludesPrintableASCII
    else { return nil }
    if ignoreCase {
      do {
        let regex = try RegularExpression(
          "(?:" + read.joined(separator: "|") + ")", options: options, timeLimit: timeLimit)
        let folding = try CaseFolding()
        for scalar in CaseClasses.foldedToSeveral {
          guard let s = Unicode.Scalar(scalar) else { continue }
          let bytes = ByteStorage(try folding.fold(String(Character(s))))
          try regex.setText(bytes)
          try regex.setRegion(0..<bytes.count)
          if try regex.next() == 0..<bytes.count { return nil }
        }
      } catch {
        return nil
      }
    }
    return (alphabet, shape.readsWords || shape.readsLines || shape.lookAround != nil || wholeWord)
  }

  /// ripgrep's smart case: true when `text` holds no upper-case letter (escapes like `\W` and
  /// `\p{Lu}` do not count as letters of the pattern, nor a group's name, `(?<Name>...)` and
  /// `\k<Name>`; a letter spelled as a code point, `\x48`, `\x{48}`, `\u0048`, `\U00000048` or
  /// `\0110`, does, as in rg).
  public static func isAllLowercase(_ text: String, syntax: Syntax) -> Bool {
    func isUpper(_ scalar: Unicode.Scalar) -> Bool {
      scalar.properties.isUppercase || scalar.properties.changesWhenLowercased
    }
    guard syntax == .regex else { return !text.unicodeScalars.contains(where: isUpper) }
    let scalars = Array(text.unicodeScalars)
    /// The code point of up to `count` digits of `radix` from `i` (at least one), and the index
    /// after them.
    func number(from i: Int, count: Int, radix: UInt32) -> (Unicode.Scalar?, Int) {
      var value: UInt32 = 0
      var j = i
      while j < scalars.count && j - i < count {
        let v = scalars[j].value
        let digit: UInt32 =
          switch v {
          case 0x30...0x39: v - 0x30
          case 0x41...0x46: v - 0x41 + 10
          case 0x61...0x66: v - 0x61 + 10
          default: 99
          }
        guard digit < radix else { break }
        value = value &* radix &+ digit
        j += 1
      }
      return (j > i ? Unicode.Scalar(value) : nil, j)
    }
    /// The index after the `>` closing a group's name that starts at `i` (or the end).
    func afterName(_ i: Int) -> Int {
      var j = i
      while j < scalars.count && scalars[j] != ">" { j += 1 }
      return j + 1
    }
    var i = 0
    while i < scalars.count {
      let scalar = scalars[i]
      i += 1
      // `(?<name>`: a group's name, not letters of the pattern (`(?<=` and `(?<!` are
      // look-behind).
      if scalar == "(" && i + 2 < scalars.count && scalars[i] == "?" && scalars[i + 1] == "<"
        && scalars[i + 2] != "=" && scalars[i + 2] != "!"
      {
        i = afterName(i + 2)
        continue
      }
      guard scalar == "\\" else {
        if isUpper(scalar) { return false }
        continue
      }
      guard i < scalars.count else { break }
      let escape = scalars[i]
      i += 1
      var spelled: Unicode.Scalar? = nil
      switch escape {
      case "k" where i < scalars.count && scalars[i] == "<":
        // `\k<name>`: a back reference by name.
        i = afterName(i)
      case "p", "P", "N":
        // `\pL`, `\p{Lu}`, `\N{NAME}`: a class or a name, not letters of the pattern.
        if i < scalars.count && scalars[i] == "{" {
          while i < scalars.count && scalars[i] != "}" { i += 1 }
        }
        i += 1
      case "Q":
        // `\Q...\E`: quoted, every scalar a letter of the pattern.
        while i < scalars.count && !(scalars[i] == "\\" && i + 1 < scalars.count && scalars[i + 1] == "E") {
          if isUpper(scalars[i]) { return false }
          i += 1
        }
        i += 2
      case "x" where i < scalars.count && scalars[i] == "{":
        (spelled, i) = number(from: i + 1, count: 8, radix: 16)
      case "x": (spelled, i) = number(from: i, count: 2, radix: 16)
      case "u": (spelled, i) = number(from: i, count: 4, radix: 16)
      case "U": (spelled, i) = number(from: i, count: 8, radix: 16)
      case "0": (spelled, i) = number(from: i, count: 3, radix: 8)
      default: break
      }
      if let spelled, isUpper(spelled) { return false }
    }
    return true
  }
}

/// What an edit inside a long line must match again of a computed rotor whose entries depend on
/// their own bytes alone (a pattern rotor; see `RotorDocument.convergentMatches`): the scan is
/// started where no old entry before it read an edited byte, and stopped where the new entries
/// fall in step with the old ones.
enum MatchReach: Equatable, Sendable {
  /// Every entry is non-empty and at most this many bytes long, and an attempt at one reads at
  /// most this many bytes (``Pattern/matchReach``; at most ``byteLimit``).
  case bytes(Int)
  /// Every entry is non-empty and holds only characters of the class, and an attempt at one reads
  /// no further than the first character outside it (``Pattern/matchAlphabet``): an ASCII byte
  /// outside the class is where scans start and pieces are cut. With `readsBehind` (a word
  /// assertion, a line anchor, look-around, a whole word: `\b\w+ing`, `^\d+`, `(?<=\$)\w+`,
  /// `-w '\w+ing'`), whether an entry starts at a position is
  /// also decided by the characters before it, back to that run's start: old entries are kept
  /// only past a separator after the edit, and each piece is matched with the separator before
  /// it in view.
  case runs(ByteClass, readsBehind: Bool)
  /// A whole-word literal's matches: at most this many bytes, and whether a candidate is a whole
  /// word is decided by the two characters before it and the two after it
  /// (``PatternMatcher/localWholeWordMatches(in:range:context:)``), or else by ICU over its line,
  /// when the update gives up.
  case words(Int)

  /// The largest ``bytes(_:)`` or ``words(_:)`` reach an update takes.
  static let byteLimit = 1024

  /// How far from an edit an update by ``runs(_:)`` looks for separators before it gives up (the
  /// edited line is matched then).
  static let runLimit = 65_536

  /// Whether `byte` is an ASCII character no entry holds and no attempt reads past (never, for a
  /// reach in bytes).
  @inline(__always)
  func separates(_ byte: UInt8) -> Bool {
    guard case .runs(let alphabet, _) = self else { return false }
    return byte < 0x80 && !alphabet.contains(byte)
  }
}
