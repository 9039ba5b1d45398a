import TextRotorICU

/// URLs and e-mail addresses in plain text, by the rules of GitHub Flavored Markdown's extended
/// autolinks (https://github.github.com/gfm/#autolinks-extension-), as cmark-gfm's `autolink`
/// extension applies them — GitHub turns the same text into the same links:
///
/// - `www.` followed by a valid domain, at the start of a line, after white space or after one of
///   `*` `_` `~` `(`; the link gets `http://` in front.
/// - `http://`, `https://` or `ftp://` (any case; no letter right before it) followed by a domain.
/// - An e-mail address: letters, digits and `.` `+` `-` `_`, one `@`, then letters, digits, `-`
///   and `_` in at least two dot-separated parts, ending with a letter (`mailto:` in front).
/// - A valid domain is made of characters that are neither white space nor punctuation (and `-`),
///   separated by periods; `www.` links need a period; no `_` in the last two parts.
/// - After the domain, everything up to white space or `<` belongs to the link, except trailing
///   `?` `!` `.` `,` `:` `*` `_` `~` `'` `"`, a `)` that closes no `(` of the link, and a trailing
///   `&entity;`.
///
/// Links never span a line break. Offsets are UTF-8 byte offsets.
public enum Linkifier {
  /// The links in `range` of `bytes`, in order: their ranges and URLs. Only a line holding `://`,
  /// `www.` or `@` can hold one: those are found first (memmem, memchr), and only their lines are
  /// read (as ``linksLineByLine(in:range:)`` reads every line).
  public static func links(in bytes: ByteStorage, range: Range<Int>) -> [(range: Range<Int>, url: String)] {
    var result: [(range: Range<Int>, url: String)] = []
    let end = range.upperBound
    // The next occurrence of each at or after `p` (nil: none left), searched again once passed.
    var nextURL: Int? = range.lowerBound - 1
    var nextWWW: Int? = range.lowerBound - 1
    var nextAt: Int? = range.lowerBound - 1
    var nextCR: Int? = range.lowerBound - 1
    var p = range.lowerBound
    while p < end {
      if let q = nextURL, q < p { nextURL = bytes.firstIndex(of: Self.schemeSeparator, in: p..<end) }
      if let q = nextWWW, q < p { nextWWW = bytes.firstIndex(of: Self.wwwDot, in: p..<end) }
      if let q = nextAt, q < p { nextAt = bytes.firstIndex(of: 0x40, in: p..<end) }
      let hit = Swift.min(nextURL ?? .max, nextWWW ?? .max, nextAt ?? .max)
      if hit == .max { break }
      // The line holding it: back to the last line break after `p` (a line start), on to the
      // next LF or CR.
      var start = hit
      while start > p && bytes[start - 1] != 0x0A && bytes[start - 1] != 0x0D { start -= 1 }
      if let q = nextCR, q < start { nextCR = bytes.firstIndex(of: 0x0D, in: start..<end) }
      var lineEnd = bytes.firstIndex(of: 0x0A, in: hit..<end) ?? end
      if let cr = nextCR, cr < lineEnd { lineEnd = cr }
      readLine(bytes, start..<lineEnd, in: range, into: &result)
      p = lineEnd + 1
    }
    return result
  }

  static let schemeSeparator: [UInt8] = Array("://".utf8)
  static let wwwDot: [UInt8] = Array("www.".utf8)

  /// The same, reading every line (what ``links(in:range:)`` must equal; for tests).
  static func linksLineByLine(in bytes: ByteStorage, range: Range<Int>) -> [(range: Range<Int>, url: String)] {
    var result: [(range: Range<Int>, url: String)] = []
    var start = range.lowerBound
    while start < range.upperBound {
      var end = start
      while end < range.upperBound && bytes[end] != 0x0A && bytes[end] != 0x0D { end += 1 }
      readLine(bytes, start..<end, in: range, into: &result)
      start = end + 1
    }
    return result
  }

  /// The links of the line `start..<end` (without its line break) of `range`.
  private static func readLine(
    _ bytes: ByteStorage, _ lineRange: Range<Int>, in range: Range<Int>,
    into result: inout [(range: Range<Int>, url: String)]
  ) {
    let start = lineRange.lowerBound
    let end = lineRange.upperBound
    guard end > start else { return }
    // What a domain may be checked against, as in cmark-gfm's paragraph text: the line without
    // its trailing spaces, and the line break after it when more text follows.
    var trimmed = end
    while trimmed > start && (bytes[trimmed - 1] == 0x20 || bytes[trimmed - 1] == 0x09) { trimmed -= 1 }
    var next =
      end < range.upperBound && bytes[end] == 0x0D && end + 1 < range.upperBound && bytes[end + 1] == 0x0A
      ? end + 2 : end + 1
    var more = false
    while next < range.upperBound && bytes[next] != 0x0A && bytes[next] != 0x0D {
      if bytes[next] != 0x20 && bytes[next] != 0x09 {
        more = true
        break
      }
      next += 1
    }
    line(bytes, start..<end, domainEnd: more ? Swift.min(trimmed + 1, end + 1) : trimmed, into: &result)
  }

  /// The links of a string (offsets into its UTF-8).
  public static func links(in text: String) -> [(range: Range<Int>, url: String)] {
    let bytes = ByteStorage(text)
    return links(in: bytes, range: 0..<bytes.count)
  }

  private static func line(
    _ bytes: ByteStorage, _ line: Range<Int>, domainEnd: Int, into result: inout [(range: Range<Int>, url: String)]
  ) {
    // URLs and www. links first, left to right; then addresses in the text between them.
    var found: [(range: Range<Int>, url: String)] = []
    var i = line.lowerBound
    var floor = line.lowerBound
    while i < line.upperBound {
      let c = bytes[i]
      if c == 0x77 /* w */, let link = www(bytes, at: i, domainEnd: domainEnd, line) {
        found.append(link)
        i = link.range.upperBound
        floor = i
      } else if c == 0x3A /* : */, let link = url(bytes, at: i, floor: floor, domainEnd: domainEnd, line) {
        found.append(link)
        i = link.range.upperBound
        floor = i
      } else {
        i += 1
      }
    }
    var from = line.lowerBound
    for link in found + [(range: line.upperBound..<line.upperBound, url: "")] {
      emails(bytes, from..<link.range.lowerBound, into: &result)
      if !link.url.isEmpty { result.append(link) }
      from = link.range.upperBound
    }
  }

  // MARK: The three kinds

  private static func www(_ bytes: ByteStorage, at i: Int, domainEnd: Int, _ line: Range<Int>) -> (
    range: Range<Int>, url: String
  )? {
    if i > line.lowerBound {
      let before = bytes[i - 1]
      guard isSpace(before) || before == 0x2A || before == 0x5F || before == 0x7E || before == 0x28 else { return nil }
    }
    guard i + 4 <= line.upperBound, bytes[i + 1] == 0x77, bytes[i + 2] == 0x77, bytes[i + 3] == 0x2E else { return nil }
    guard domainEnd > i else { return nil }
    let domain = checkDomain(bytes, i..<domainEnd, allowShort: false)
    guard domain > 0 else { return nil }
    var end = i + domain
    while end < line.upperBound && !isSpace(bytes[end]) && bytes[end] != 0x3C { end += 1 }
    end = delimit(bytes, i, end)
    guard end > i else { return nil }
    return (i..<end, "http://" + bytes.string(i..<end))
  }

  private static let schemes: [[UInt8]] = [Array("http://".utf8), Array("https://".utf8), Array("ftp://".utf8)]

  private static func url(_ bytes: ByteStorage, at colon: Int, floor: Int, domainEnd: Int, _ line: Range<Int>) -> (
    range: Range<Int>, url: String
  )? {
    var start = colon
    while start > floor && isAlpha(bytes[start - 1]) { start -= 1 }
    guard start < colon else { return nil }
    // The scheme, and a letter or digit after it.
    var valid = false
    for scheme in schemes where start + scheme.count < line.upperBound {
      var same = true
      for k in 0..<scheme.count where lower(bytes[start + k]) != scheme[k] {
        same = false
        break
      }
      if same && start + scheme.count - 3 == colon && isHostCharacter(bytes, start + scheme.count, line.upperBound) {
        valid = true
        break
      }
    }
    guard valid else { return nil }
    guard domainEnd > colon + 3 else { return nil }
    let domain = checkDomain(bytes, (colon + 3)..<domainEnd, allowShort: true)
    guard domain > 0 else { return nil }
    var end = colon + 3 + domain
    while end < line.upperBound && !isSpace(bytes[end]) && bytes[end] != 0x3C { end += 1 }
    end = delimit(bytes, colon, end)
    guard end > colon else { return nil }
    return (start..<end, bytes.string(start..<end))
  }

  private static func emails(
    _ bytes: ByteStorage, _ text: Range<Int>, into result: inout [(range: Range<Int>, url: String)]
  ) {
    var from = text.lowerBound
    while from < text.upperBound, let at = bytes.firstIndex(of: 0x40, in: from..<text.upperBound) {
      var start = at
      while start > from {
        let c = bytes[start - 1]
        guard isAlnum(c) || c == 0x2E || c == 0x2B || c == 0x2D || c == 0x5F else { break }
        start -= 1
      }
      guard start < at else {
        from = at + 1
        continue
      }
      var end = at
      var ats = 0
      var dots = 0
      while end < text.upperBound {
        let c = bytes[end]
        if isAlnum(c) {
        } else if c == 0x40 {
          ats += 1
        } else if c == 0x2E && end + 1 < text.upperBound && isAlnum(bytes[end + 1]) {
          dots += 1
        } else if c != 0x2D && c != 0x5F {
          break
        }
        end += 1
      }
      guard end - at >= 2, ats == 1, dots > 0, isAlpha(bytes[end - 1]) || bytes[end - 1] == 0x2E else {
        from = at + 1
        continue
      }
      end = delimit(bytes, at, end)
      guard end > at else {
        from = at + 1
        continue
      }
      result.append((start..<end, "mailto:" + bytes.string(start..<end)))
      from = end
    }
  }

  // MARK: Rules shared by the kinds

  /// The length of the valid domain at the start of `text` (its first character is not checked,
  /// as cmark-gfm does not), or 0: parts of characters that are neither white space nor
  /// punctuation (or `-`), separated by periods; with `allowShort` false at least one period; no
  /// `_` in the last two parts.
  static func checkDomain(_ bytes: ByteStorage, _ text: Range<Int>, allowShort: Bool) -> Int {
    let size = text.count
    guard size >= 2 else { return allowShort && size == 1 ? 1 : 0 }
    var periods = 0
    var underscoresBefore = 0
    var underscores = 0
    var i = 1
    while i < size - 1 {
      let c = bytes[text.lowerBound + i]
      if c == 0x5C && i < size - 2 { i += 1 }  // a backslash skips the next byte
      let d = bytes[text.lowerBound + i]
      if d == 0x5F {
        underscores += 1
      } else if d == 0x2E {
        underscoresBefore = underscores
        underscores = 0
        periods += 1
      } else if !isHostCharacter(bytes, text.lowerBound + i, text.upperBound) && d != 0x2D {
        break
      }
      i += 1
    }
    if underscoresBefore > 0 || underscores > 0 { return 0 }
    return allowShort || periods > 0 ? i : 0
  }

  /// Trims what ends a link but is not part of it (GFM's extended autolink path validation).
  static func delimit(_ bytes: ByteStorage, _ start: Int, _ linkEnd: Int) -> Int {
    var end = linkEnd
    var opening = 0
    var closing = 0
    for i in start..<end {
      let c = bytes[i]
      if c == 0x3C {
        end = i
        break
      } else if c == 0x28 {
        opening += 1
      } else if c == 0x29 {
        closing += 1
      }
    }
    while end > start {
      switch bytes[end - 1] {
      case 0x29:  // )
        if closing <= opening { return end }
        closing -= 1
        end -= 1
      case 0x3F, 0x21, 0x2E, 0x2C, 0x3A, 0x2A, 0x5F, 0x7E, 0x27, 0x22:  // ? ! . , : * _ ~ ' "
        end -= 1
      case 0x3B:  // ; of an entity reference: &name;
        var k = end - 2
        while k > start && isAlpha(bytes[k]) { k -= 1 }
        if k < end - 2 && bytes[k] == 0x26 { end = k } else { end -= 1 }
      default:
        return end
      }
    }
    return end
  }

  /// Whether the character starting at `i` is neither white space nor punctuation (cmark-gfm's
  /// `is_valid_hostchar`; a continuation byte is not, as cmark-gfm decodes at every byte).
  static func isHostCharacter(_ bytes: ByteStorage, _ i: Int, _ end: Int) -> Bool {
    let c = bytes[i]
    if c < 0x80 { return !isSpace(c) && !isASCIIPunctuation(c) }
    guard let scalar = decode(bytes, i, end) else { return false }
    if scalar.properties.isWhitespace { return false }
    switch scalar.properties.generalCategory {
    case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation, .initialPunctuation,
      .finalPunctuation, .otherPunctuation, .spaceSeparator:
      return false
    default: return true
    }
  }

  static func decode(_ bytes: ByteStorage, _ i: Int, _ end: Int) -> Unicode.Scalar? {
    let c = bytes[i]
    let length = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 0
    guard length > 0, i + length <= end else { return nil }
    var value = UInt32(c) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
    for k in 1..<length {
      let d = bytes[i + k]
      guard d & 0xC0 == 0x80 else { return nil }
      value = value << 6 | UInt32(d & 0x3F)
    }
    return Unicode.Scalar(value)
  }

  static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || (c >= 0x09 && c <= 0x0D) }
  static func isAlpha(_ c: UInt8) -> Bool { (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7A }
  static func isAlnum(_ c: UInt8) -> Bool { isAlpha(c) || (c >= 0x30 && c <= 0x39) }
  static func lower(_ c: UInt8) -> UInt8 { c >= 0x41 && c <= 0x5A ? c | 0x20 : c }
  static func isASCIIPunctuation(_ c: UInt8) -> Bool {
    (c >= 0x21 && c <= 0x2F) || (c >= 0x3A && c <= 0x40) || (c >= 0x5B && c <= 0x60) || (c >= 0x7B && c <= 0x7E)
  }
}
