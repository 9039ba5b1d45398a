import TextRotorICU

/// A glob in gitignore's syntax, matched against a `/`-separated relative path:
/// `*` any run of characters but `/`, `?` one character but `/`, `[a-z]`/`[!a-z]` a set (which
/// may match `/`, as in ripgrep; not in git), `\x`
/// the character x (over UTF-8 bytes, as git and ripgrep match: `?` is one byte), `**/` any directories (none included), `/**` everything inside, and `**`
/// elsewhere the same as `*` (as git reads it).
public struct Glob: Sendable, Hashable {
  enum Token: Sendable, Hashable {
    case character(UInt8)
    case any  // ?
    case star  // *
    case anyDirectories  // **/ : "" or "a/b/"
    case everything  // trailing /** after the slash: one or more characters
    case set(negated: Bool, items: [SetItem])
  }

  enum SetItem: Sendable, Hashable {
    case single(UInt8)
    case range(UInt8, UInt8)
  }

  let tokens: [Token]
  public let source: String
  /// Common shapes matched without backtracking.
  enum Shape: Sendable, Hashable {
    case literal([UInt8])
    case suffix([UInt8])  // *SUFFIX, SUFFIX without '/'
    case prefix([UInt8])  // PREFIX*, PREFIX without '/'
    case general
  }
  let shape: Shape
  /// Whether ``matchStars(_:_:)`` decides the glob: no `**`, and no set that matches `/`.
  let onePass: Bool
  /// The bytes every match starts with (the glob's literal head) and ends with (its literal tail):
  /// a general glob is tried only on paths that have both, so that a file of many `a/**/b` lines
  /// does not backtrack over every path.
  let head: [UInt8]
  let tail: [UInt8]

  public init(_ source: String) {
    self.source = source
    let s = Array(source.utf8)
    var tokens: [Token] = []
    var i = 0
    while i < s.count {
      let c = s[i]
      switch c {
      case UInt8(ascii: "\\"):
        if i + 1 < s.count {
          tokens.append(.character(s[i + 1]))
          i += 2
        } else {
          tokens.append(.character(UInt8(ascii: "\\")))
          i += 1
        }
      case UInt8(ascii: "?"):
        tokens.append(.any)
        i += 1
      case UInt8(ascii: "*"):
        var j = i
        while j < s.count && s[j] == UInt8(ascii: "*") { j += 1 }
        let run = j - i
        let atStart = i == 0 || s[i - 1] == UInt8(ascii: "/")
        if run >= 2 && atStart && j < s.count && s[j] == UInt8(ascii: "/") {
          tokens.append(.anyDirectories)
          i = j + 1
        } else if run >= 2 && atStart && j == s.count && i > 0 {
          tokens.append(.everything)
          i = j
        } else if run >= 2 && i == 0 && j == s.count {
          // `**` alone matches everything, slashes included.
          tokens.append(.anyDirectories)
          tokens.append(.star)
          i = j
        } else {
          tokens.append(.star)
          i = j
        }
      case UInt8(ascii: "["):
        if let (set, next) = Self.parseSet(s, from: i) {
          tokens.append(set)
          i = next
        } else {
          tokens.append(.character(UInt8(ascii: "[")))
          i += 1
        }
      default:
        tokens.append(.character(c))
        i += 1
      }
    }
    self.tokens = tokens
    func literalBytes(_ t: ArraySlice<Token>) -> [UInt8]? {
      var out: [UInt8] = []
      for token in t {
        guard case .character(let c) = token else { return nil }
        out.append(c)
      }
      return out
    }
    let literalHead = tokens.prefix { if case .character = $0 { true } else { false } }
    let literalTail = tokens.reversed().prefix { if case .character = $0 { true } else { false } }.reversed()
    head = literalBytes(literalHead[...]) ?? []
    tail = literalHead.count == tokens.count ? [] : literalBytes(ArraySlice(literalTail)) ?? []
    if let all = literalBytes(tokens[...]) {
      shape = .literal(all)
    } else if tokens.first == .star, let rest = literalBytes(tokens.dropFirst()), !rest.contains(UInt8(ascii: "/")) {
      shape = .suffix(rest)
    } else if tokens.last == .star, let head = literalBytes(tokens.dropLast()), !head.contains(UInt8(ascii: "/")) {
      shape = .prefix(head)
    } else {
      shape = .general
    }
    onePass = Self.canMatchInOnePass(tokens)
  }

  /// Whether ``matchStars(_:_:)`` matches `tokens` as the backtracking search does: no `**`, and
  /// no set that may match `/` (past such a set, an earlier `*` may have to take more, in another
  /// path component: `*[!x]*` on `a/b`).
  static func canMatchInOnePass(_ tokens: [Token]) -> Bool {
    !tokens.contains {
      switch $0 {
      case .anyDirectories, .everything: true
      case .set: matchesOne($0, UInt8(ascii: "/"))
      default: false
      }
    }
  }

  private static func parseSet(_ s: [UInt8], from start: Int) -> (Token, Int)? {
    var i = start + 1
    var negated = false
    if i < s.count && (s[i] == UInt8(ascii: "!") || s[i] == UInt8(ascii: "^")) {
      negated = true
      i += 1
    }
    var items: [SetItem] = []
    var first = true
    while i < s.count {
      var c = s[i]
      if c == UInt8(ascii: "]") && !first { return (.set(negated: negated, items: items), i + 1) }
      first = false
      if c == UInt8(ascii: "\\") && i + 1 < s.count {
        i += 1
        c = s[i]
      }
      if i + 2 < s.count && s[i + 1] == UInt8(ascii: "-") && s[i + 2] != UInt8(ascii: "]") {
        var hi = s[i + 2]
        var skip = 3
        if hi == UInt8(ascii: "\\") && i + 3 < s.count {
          hi = s[i + 3]
          skip = 4
        }
        items.append(.range(c, hi))
        i += skip
      } else {
        items.append(.single(c))
        i += 1
      }
    }
    return nil
  }

  /// Whether the glob matches all of `path`.
  public func matches(_ path: String) -> Bool { matches(bytes: FileSystem.bytes(of: path)) }

  /// Whether the glob matches all of the UTF-8 bytes `p`.
  func matches(bytes p: [UInt8]) -> Bool {
    switch shape {
    case .literal(let bytes): return p == bytes
    case .suffix(let bytes):
      return p.count >= bytes.count && p.suffix(bytes.count).elementsEqual(bytes)
        && !p.dropLast(bytes.count).contains(UInt8(ascii: "/"))
    case .prefix(let bytes):
      return p.starts(with: bytes) && !p.dropFirst(bytes.count).contains(UInt8(ascii: "/"))
    case .general: break
    }
    guard p.count >= head.count + tail.count && p.starts(with: head) && p.suffix(tail.count).elementsEqual(tail)
    else { return false }
    if onePass { return Self.matchStars(tokens, p) }
    var memo: Set<Int> = []
    return Self.match(tokens, 0, p, 0, &memo)
  }

  /// A glob without `**`, matched in one pass: on a mismatch only the last `*` seen takes one
  /// more byte (never a `/`), as in the classic wildcard match. Earlier stars need no second try:
  /// what an earlier star could take more, the last one can (both stay in one path component, and
  /// the tokens between them are matched again from the later position). No allocation, where
  /// the memoised search allocated a set per path (`*.py[cod]` in a `.gitignore` tried on every
  /// file of a walk).
  static func matchStars(_ t: [Token], _ p: [UInt8]) -> Bool {
    var ti = 0
    var pi = 0
    var star = -1
    var starFrom = 0
    while pi < p.count {
      if ti < t.count {
        if t[ti] == .star {
          star = ti
          starFrom = pi
          ti += 1
          continue
        }
        if matchesOne(t[ti], p[pi]) {
          ti += 1
          pi += 1
          continue
        }
      }
      guard star >= 0 && p[starFrom] != UInt8(ascii: "/") else { return false }
      starFrom += 1
      pi = starFrom
      ti = star + 1
    }
    while ti < t.count && t[ti] == .star { ti += 1 }
    return ti == t.count
  }

  /// Whether token `t` (not a star) matches byte `c`.
  static func matchesOne(_ t: Token, _ c: UInt8) -> Bool {
    switch t {
    case .character(let x): return x == c
    case .any: return c != UInt8(ascii: "/")
    case .set(let negated, let items):
      // A set may match `/` (`[!x]`, `[/]`), as in ripgrep's globs (git's own matching says no).
      let inSet = items.contains {
        switch $0 {
        case .single(let x): return x == c
        case .range(let lo, let hi): return lo <= c && c <= hi
        }
      }
      return inSet != negated
    case .star, .anyDirectories, .everything: return false
    }
  }

  /// `source` with its `{a,b}` alternatives expanded (ripgrep's extension for `-g` globs; not
  /// nested, as in ripgrep): `*.{c,h}` is `*.c` and `*.h`. Braces inside `[...]` or escaped are
  /// literal, and so is a `{` without its `}`.
  public static func alternatives(_ source: String) -> [String] {
    let s = Array(source.utf8)
    var i = 0
    var inSet = false
    while i < s.count {
      let c = s[i]
      if c == UInt8(ascii: "\\") {
        i += 2
        continue
      }
      if inSet {
        if c == UInt8(ascii: "]") { inSet = false }
      } else if c == UInt8(ascii: "[") {
        inSet = true
        // A `]` right after `[` or `[!` is in the set.
        if i + 1 < s.count && (s[i + 1] == UInt8(ascii: "!") || s[i + 1] == UInt8(ascii: "^")) { i += 1 }
        if i + 1 < s.count && s[i + 1] == UInt8(ascii: "]") { i += 1 }
      } else if c == UInt8(ascii: "{") {
        // The group's end and its commas (escapes skipped); no group without a `}`.
        var j = i + 1
        var commas: [Int] = []
        while j < s.count && s[j] != UInt8(ascii: "}") {
          if s[j] == UInt8(ascii: "\\") { j += 1 } else if s[j] == UInt8(ascii: ",") { commas.append(j) }
          j += 1
        }
        guard j < s.count else { return [source] }
        let head = Array(s[..<i])
        let tail = String(decoding: s[(j + 1)...], as: UTF8.self)
        var starts = [i + 1]
        starts.append(contentsOf: commas.map { $0 + 1 })
        var ends = commas
        ends.append(j)
        var result: [String] = []
        for (a, b) in zip(starts, ends) {
          let choice = String(decoding: head + s[a..<b], as: UTF8.self)
          for rest in alternatives(tail) { result.append(choice + rest) }
        }
        return result
      }
      i += 1
    }
    return [source]
  }

  /// Backtracking with a memo of failed (token, position) pairs, so it stays polynomial.
  static func match(
    _ t: [Token], _ ti: Int, _ p: [UInt8], _ pi: Int, _ failed: inout Set<Int>
  ) -> Bool {
    let key = ti &* 1_000_003 &+ pi
    if failed.contains(key) { return false }
    let result: Bool
    if ti == t.count {
      result = pi == p.count
    } else {
      switch t[ti] {
      case .character, .any, .set:
        result = pi < p.count && matchesOne(t[ti], p[pi]) && match(t, ti + 1, p, pi + 1, &failed)
      case .star:
        var j = pi
        var found = false
        while true {
          if match(t, ti + 1, p, j, &failed) {
            found = true
            break
          }
          if j == p.count || p[j] == UInt8(ascii: "/") { break }
          j += 1
        }
        result = found
      case .anyDirectories:
        // "" or any run ending just after a "/".
        var found = match(t, ti + 1, p, pi, &failed)
        var j = pi
        while !found && j < p.count {
          if p[j] == UInt8(ascii: "/") && match(t, ti + 1, p, j + 1, &failed) { found = true }
          j += 1
        }
        result = found
      case .everything:
        result = pi < p.count
      }
    }
    if !result { failed.insert(key) }
    return result
  }
}
