/// The longest literal every match of an ICU regular expression must contain, found by a
/// conservative reading of the pattern: only its top level (outside groups and sets) counts, and a
/// pattern with alternation, `\Q`, or inline flags has none. Used to prefilter lines with the
/// vectorised byte search before ICU runs.
enum RequiredLiteral {
  static func of(_ pattern: String) -> String? {
    let s = Array(pattern.unicodeScalars)
    if s.contains("|") { return nil }
    // Anywhere, groups included: `\Q…\E` and `\cX` can hide a `)` from the group scan below, and
    // inline flags (`(?x)` comments, `(?i)`) change what follows; with any of them there is no
    // literal (`x(?:\c)(?=abc))?` took `abc` as required and dropped every match).
    var k = 0
    while k + 1 < s.count {
      if s[k] == "\\" {
        if s[k + 1] == "Q" || s[k + 1] == "c" { return nil }
        k += 2
        continue
      }
      if s[k] == "(" && s[k + 1] == "?" {
        guard k + 2 < s.count, [":", "=", "!", "<", ">"].contains(s[k + 2]) else { return nil }
      }
      k += 1
    }
    enum Token { case literal(Unicode.Scalar), other, optionalQuantifier, requiredQuantifier }
    var tokens: [Token] = []
    // The literals of positive look-arounds (``lookaroundLiteral(_:)``), with their group's token.
    var lookarounds: [(token: Int, literal: String)] = []
    var i = 0
    func isHex(_ c: Unicode.Scalar) -> Bool { c.properties.isASCIIHexDigit }
    while i < s.count {
      let c = s[i]
      switch c {
      case "\\":
        guard i + 1 < s.count else { return nil }
        let e = s[i + 1]
        i += 2
        if e.isASCII && (e.properties.isAlphabetic || ("0"..."9").contains(e)) {
          switch e {
          case "Q", "E": return nil
          case "x":
            if i < s.count && s[i] == "{" {
              while i < s.count && s[i] != "}" { i += 1 }
              i += 1
            } else {
              var k = 0
              while k < 2 && i < s.count && isHex(s[i]) { i += 1; k += 1 }
            }
          case "u": i += 4
          case "U": i += 8
          case "c": i += 1
          case "0":
            var k = 0
            while k < 3 && i < s.count && ("0"..."7").contains(s[i]) { i += 1; k += 1 }
          case "1"..."9":
            while i < s.count && ("0"..."9").contains(s[i]) { i += 1 }
          case "p", "P", "N", "k":
            if i < s.count && (s[i] == "{" || s[i] == "<") {
              let close: Unicode.Scalar = s[i] == "{" ? "}" : ">"
              while i < s.count && s[i] != close { i += 1 }
              i += 1
            }
          default: break
          }
          tokens.append(.other)
        } else {
          tokens.append(.literal(e))
        }
      case "[":
        i = skipSet(s, from: i)
        tokens.append(.other)
      case "(":
        // A positive look-ahead or look-behind: its content starts here.
        var lookaround: Int? = nil
        if i + 1 < s.count && s[i + 1] == "?" {
          guard i + 2 < s.count, [":", "=", "!", "<", ">"].contains(s[i + 2]) else { return nil }
          if s[i + 2] == "<" && !(i + 3 < s.count && (s[i + 3] == "=" || s[i + 3] == "!")) { return nil }
          if s[i + 2] == "=" { lookaround = i + 3 }
          if s[i + 2] == "<" && s[i + 3] == "=" { lookaround = i + 4 }
        }
        var depth = 0
        while i < s.count {
          if s[i] == "\\" {
            i += 2
            continue
          }
          if s[i] == "[" {
            i = skipSet(s, from: i)
            continue
          }
          if s[i] == "(" { depth += 1 }
          if s[i] == ")" {
            depth -= 1
            if depth == 0 { break }
          }
          i += 1
        }
        if let from = lookaround, from <= i, let literal = lookaroundLiteral(s[from..<Swift.min(i, s.count)]) {
          lookarounds.append((token: tokens.count, literal: literal))
        }
        i += 1
        tokens.append(.other)
      case "?", "*":
        i += 1
        if i < s.count && (s[i] == "?" || s[i] == "+") { i += 1 }
        tokens.append(.optionalQuantifier)
      case "+":
        i += 1
        if i < s.count && (s[i] == "?" || s[i] == "+") { i += 1 }
        tokens.append(.requiredQuantifier)
      case "{":
        var j = i + 1
        var digits = ""
        while j < s.count && ("0"..."9").contains(s[j]) {
          digits.unicodeScalars.append(s[j])
          j += 1
        }
        while j < s.count && s[j] != "}" { j += 1 }
        i = j + 1
        if i < s.count && (s[i] == "?" || s[i] == "+") { i += 1 }
        tokens.append((Int(digits) ?? 0) == 0 ? .optionalQuantifier : .requiredQuantifier)
      case ".", "^", "$", ")", "]", "}":
        i += 1
        tokens.append(.other)
      default:
        i += 1
        tokens.append(.literal(c))
      }
    }
    var best = ""
    var run = ""
    func close() {
      if run.utf8.count > best.utf8.count { best = run }
      run = ""
    }
    for (k, token) in tokens.enumerated() {
      let nextToken: Token? = k + 1 < tokens.count ? tokens[k + 1] : nil
      switch token {
      // U+FFFD is no literal: ICU reads each ill-formed byte as one, which a byte search for its
      // encoding does not find.
      case .literal(let c) where c == "\u{FFFD}": close()
      case .literal(let c):
        switch nextToken {
        case .optionalQuantifier?: close()
        case .requiredQuantifier?:
          run.unicodeScalars.append(c)
          close()
        default: run.unicodeScalars.append(c)
        }
      default: close()
      }
    }
    close()
    // A look-around's literal counts unless a quantifier lets the group be skipped (`(?=ab)?`).
    for (token, literal) in lookarounds where literal.utf8.count > best.utf8.count {
      if token + 1 < tokens.count, case .optionalQuantifier = tokens[token + 1] { continue }
      best = literal
    }
    if best.contains("\n") || best.contains("\r") { return nil }
    return best.isEmpty ? nil : best
  }

  /// The longest literal of a positive look-around's content when the content is nothing but
  /// literal characters (escaped punctuation too) and `\b`/`\B`: the literal then lies on the
  /// match's line (it cannot hold a line terminator, and nothing else in the group matches one),
  /// so the lines holding it hold every match (`[a-z]+(?=ing\b)`: 80 times rg's time without it).
  /// Nil for anything else (a class, a set, a quantifier, a group, `.`, an anchor), which could
  /// match a line terminator and put the literal on another line (`(?<=,\s)`).
  private static func lookaroundLiteral(_ content: ArraySlice<Unicode.Scalar>) -> String? {
    var best = ""
    var run = ""
    var i = content.startIndex
    while i < content.endIndex {
      let c = content[i]
      if c == "\\" {
        guard i + 1 < content.endIndex else { return nil }
        let e = content[i + 1]
        i += 2
        if e == "b" || e == "B" || e == "\u{FFFD}" {
          if run.utf8.count > best.utf8.count { best = run }
          run = ""
          continue
        }
        guard e.isASCII && !e.properties.isAlphabetic && !("0"..."9").contains(e) else { return nil }
        run.unicodeScalars.append(e)
        continue
      }
      if "[](){}.*+?^$|#".unicodeScalars.contains(c) || c == "\n" || c == "\r" { return nil }
      i += 1
      // U+FFFD (which ICU reads for an ill-formed byte) ends a run, as `\b` does.
      if c == "\u{FFFD}" {
        if run.utf8.count > best.utf8.count { best = run }
        run = ""
        continue
      }
      run.unicodeScalars.append(c)
    }
    if run.utf8.count > best.utf8.count { best = run }
    return best.isEmpty ? nil : best
  }

  /// The index after the set starting at `from` (`[`), with nested sets and escapes.
  private static func skipSet(_ s: [Unicode.Scalar], from: Int) -> Int {
    var i = from + 1
    var depth = 1
    if i < s.count && s[i] == "^" { i += 1 }
    if i < s.count && s[i] == "]" { i += 1 }
    while i < s.count && depth > 0 {
      if s[i] == "\\" {
        i += 2
        continue
      }
      if s[i] == "[" { depth += 1 }
      if s[i] == "]" { depth -= 1 }
      i += 1
    }
    return i
  }
}
