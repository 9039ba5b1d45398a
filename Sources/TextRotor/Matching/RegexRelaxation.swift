/// A pattern without look-around that matches on every line where a look-around pattern matches,
/// for RE2 to find the lines worth giving to ICU (``RegexSearch/Mode/relaxed(_:)``).
///
/// A look-around pattern is searched a line at a time, each line its own text
/// (``PatternMatcher/readsPastLine(_:)``), and ICU tries its look-around at every position of
/// every line (`(?<=\d\s)[a-z]+` on 10 MB: 2.4 s, 40 times `rg -P`). Taking out a zero-width
/// assertion (a look-around, `\A`, `\z`, `\Z`, `\G`, `\b`, `\B`) only lets more positions match, and a
/// look-behind that begins the pattern read as consumed (`(?:\d\s)[a-z]+`) matches wherever the
/// pattern matches, from where the look-behind's text starts (on the same line: the line is the
/// look-behind's whole text); the same for a look-ahead that ends it. So every line holding a
/// match of the pattern holds one of the relaxed pattern, and RE2 finds those lines at its speed.
enum RegexRelaxation {
  /// `pattern` so relaxed, or nil when it holds something this scan does not read (`\Q`, inline
  /// flags or comments, a quantified assertion, an unclosed group or set), or nothing to relax.
  static func of(_ pattern: String) -> String? {
    let s = Array(pattern.unicodeScalars)
    var out = String.UnicodeScalarView()
    var changed = false
    var depth = 0
    var i = 0
    func quantified(_ k: Int) -> Bool { k < s.count && "?*+{".unicodeScalars.contains(s[k]) }
    while i < s.count {
      let c = s[i]
      switch c {
      case "\\":
        guard i + 1 < s.count else { return nil }
        let e = s[i + 1]
        switch e {
        case "Q", "E": return nil
        case "A", "z", "Z", "G", "b", "B":
          guard !quantified(i + 2) else { return nil }
          changed = true
          i += 2
        case "c":
          // `\cX`: X is the escape's, whatever it is (a `)` too).
          guard i + 2 < s.count else { return nil }
          out.append(contentsOf: s[i...(i + 2)])
          i += 3
        default:
          out.append(contentsOf: s[i...(i + 1)])
          i += 2
        }
      case "[":
        guard let end = RegexShapeParser.skipSet(s, from: i) else { return nil }
        out.append(contentsOf: s[i..<end])
        i = end
      case "(":
        guard i + 1 < s.count, s[i + 1] == "?" else {
          depth += 1
          out.append(c)
          i += 1
          continue
        }
        guard i + 2 < s.count else { return nil }
        var look: (ahead: Bool, positive: Bool, content: Int)? = nil
        switch s[i + 2] {
        case ":", ">": break
        case "=", "!": look = (true, s[i + 2] == "=", i + 3)
        case "<" where i + 3 < s.count && (s[i + 3] == "=" || s[i + 3] == "!"):
          look = (false, s[i + 3] == "=", i + 4)
        case "<": break  // a named group
        default: return nil  // flags, comments
        }
        guard let look else {
          depth += 1
          out.append(c)
          i += 1
          continue
        }
        guard let end = groupEnd(s, from: i), !quantified(end + 1) else { return nil }
        changed = true
        let leading = depth == 0 && i == 0 && !look.ahead && look.positive
        let trailing = depth == 0 && end == s.count - 1 && look.ahead && look.positive
        if leading || trailing {
          // Consumed: its content is read on (and relaxed in turn), its `)` closes the group.
          out.append(contentsOf: "(?:".unicodeScalars)
          depth += 1
          i = look.content
        } else {
          i = end + 1
        }
      case ")":
        depth -= 1
        guard depth >= 0 else { return nil }
        out.append(c)
        i += 1
      default:
        out.append(c)
        i += 1
      }
    }
    guard changed, depth == 0 else { return nil }
    return String(out)
  }

  /// The index of the `)` closing the group opened at `from`, escapes and sets skipped.
  private static func groupEnd(_ s: [Unicode.Scalar], from: Int) -> Int? {
    var depth = 0
    var i = from
    while i < s.count {
      switch s[i] {
      case "\\":
        guard i + 1 < s.count else { return nil }
        if s[i + 1] == "Q" || s[i + 1] == "E" { return nil }
        i += s[i + 1] == "c" ? 3 : 2
        continue
      case "[":
        guard let end = RegexShapeParser.skipSet(s, from: i) else { return nil }
        i = end
        continue
      case "(": depth += 1
      case ")":
        depth -= 1
        if depth == 0 { return i }
      default: break
      }
      i += 1
    }
    return nil
  }
}
