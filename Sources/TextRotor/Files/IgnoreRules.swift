/// The rules of one `.gitignore` (or `.ignore`) file, in git's syntax: blank lines and `#` comments
/// are skipped, `!` re-includes, a trailing `/` matches only directories, a pattern with a `/` at
/// its start or middle is anchored to the file's directory (otherwise it matches a name at any
/// depth), `*`, `?`, `[...]` and `**` as ``Glob`` says; trailing spaces are dropped unless escaped
/// with `\`. The last rule that matches decides.
public struct IgnoreRules: Sendable {
  public enum Decision: Sendable, Equatable {
    /// A rule excludes the path.
    case ignore
    /// A `!` rule re-includes it.
    case include
  }

  struct Rule: Sendable {
    var glob: Glob
    var negated: Bool
    var directoryOnly: Bool
    /// Matched against the last path component only.
    var nameOnly: Bool
  }

  var rules: [Rule] = []

  public var isEmpty: Bool { rules.isEmpty }

  public init() {}

  /// Parses the text of an ignore file.
  public init(_ text: String) {
    for raw in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
      add(line: String(raw))
    }
  }

  /// Adds one line of an ignore file.
  public mutating func add(line raw: String) {
    var line = Array(raw.unicodeScalars)
    if line.last == "\r" { line.removeLast() }
    // Trailing spaces are dropped unless escaped.
    while let last = line.last, last == " " {
      if line.count >= 2 && line[line.count - 2] == "\\" {
        line.removeLast(2)
        line.append(" ")
        break
      }
      line.removeLast()
    }
    guard let first = line.first, first != "#" else { return }
    var negated = false
    if first == "!" {
      negated = true
      line.removeFirst()
    } else if first == "\\" && line.count >= 2 && (line[1] == "#" || line[1] == "!") {
      line.removeFirst()
    }
    var directoryOnly = false
    if line.last == "/" {
      // `\/` at the end is an escaped slash, still a directory marker in git's reading.
      directoryOnly = true
      while line.last == "/" { line.removeLast() }
    }
    guard !line.isEmpty else { return }
    var anchored = false
    if line.first == "/" {
      anchored = true
      line.removeFirst()
    } else if line.contains("/") {
      anchored = true
    }
    var text = ""
    text.unicodeScalars.append(contentsOf: line)
    // `**/foo` is unanchored foo at any depth; keep it as a whole-path glob (Glob handles **/).
    rules.append(Rule(glob: Glob(text), negated: negated, directoryOnly: directoryOnly, nameOnly: !anchored))
  }

  /// What the rules say about `path` (relative to the ignore file's directory, `/`-separated, no
  /// leading `./`), or nil when no rule matches.
  public func decision(for path: String, isDirectory: Bool) -> Decision? {
    var name: String?
    for rule in rules.reversed() {
      if rule.directoryOnly && !isDirectory { continue }
      let matched: Bool
      if rule.nameOnly {
        if name == nil {
          if let slash = path.lastIndex(of: "/") {
            name = String(path[path.index(after: slash)...])
          } else {
            name = path
          }
        }
        matched = rule.glob.matches(name!)
      } else {
        matched = rule.glob.matches(path)
      }
      if matched { return rule.negated ? .include : .ignore }
    }
    return nil
  }
}
