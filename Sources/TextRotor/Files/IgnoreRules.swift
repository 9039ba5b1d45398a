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

  /// One line's rule, behind one reference: the walk reads rules for every path, and a copy of a
  /// value holding a glob retained its five arrays.
  final class Rule: Sendable {
    let glob: Glob
    let negated: Bool
    let directoryOnly: Bool
    /// Matched against the last path component only.
    let nameOnly: Bool

    init(glob: Glob, negated: Bool, directoryOnly: Bool, nameOnly: Bool) {
      self.glob = glob
      self.negated = negated
      self.directoryOnly = directoryOnly
      self.nameOnly = nameOnly
    }
  }

  var rules: [Rule] = []
  /// The rules that need no glob matching, by the bytes they match, with their indices in
  /// `rules` (ascending): a name (`Cargo.lock`), an anchored path (`/build`), a name's extension
  /// (`*.log`). A `.gitignore` is mostly such lines, and each path was matched against every rule:
  /// a 1,200-line file made a walk of 20,000 files take 2.4 s where rg takes 0.13 s.
  private var byName: [[UInt8]: [Int]] = [:]
  private var byPath: [[UInt8]: [Int]] = [:]
  private var byExtension: [[UInt8]: [Int]] = [:]
  /// The other rules, with their indices (ascending).
  private var others: [(index: Int, rule: Rule)] = []

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
    let rule = Rule(glob: Glob(text), negated: negated, directoryOnly: directoryOnly, nameOnly: !anchored)
    let k = rules.count
    rules.append(rule)
    switch rule.glob.shape {
    case .literal(let bytes) where anchored: byPath[bytes, default: []].append(k)
    case .literal(let bytes): byName[bytes, default: []].append(k)
    case .suffix(let bytes)
    where !anchored && bytes.first == UInt8(ascii: ".") && !bytes.dropFirst().contains(UInt8(ascii: ".")):
      byExtension[bytes, default: []].append(k)
    default: others.append((k, rule))
    }
  }

  /// What the rules say about `path` (relative to the ignore file's directory, `/`-separated, no
  /// leading `./`), or nil when no rule matches. The last rule that matches decides: the indexed
  /// rules give the last of theirs that matches, and only later rules are matched as globs.
  public func decision(for path: String, isDirectory: Bool) -> Decision? {
    guard !rules.isEmpty else { return nil }
    // Bytes, not Characters: a name starting with a combining mark makes one Character of "/"
    // and the mark.
    let bytes = Array(path.utf8)
    let slash = bytes.lastIndex(of: UInt8(ascii: "/"))
    let name = slash.map { Array(bytes[($0 + 1)...]) } ?? bytes
    var best = -1
    func consider(_ indices: [Int]?) {
      guard let indices else { return }
      for k in indices.reversed() where k > best {
        if rules[k].directoryOnly && !isDirectory { continue }
        best = k
        return
      }
    }
    consider(byName[name])
    consider(byPath[bytes])
    if let dot = name.lastIndex(of: UInt8(ascii: ".")) { consider(byExtension[Array(name[dot...])]) }
    for (k, rule) in others.reversed() {
      if k <= best { break }
      if rule.directoryOnly && !isDirectory { continue }
      if rule.glob.matches(bytes: rule.nameOnly ? name : bytes) {
        best = k
        break
      }
    }
    guard best >= 0 else { return nil }
    return rules[best].negated ? .include : .ignore
  }
}
