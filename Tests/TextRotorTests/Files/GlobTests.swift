import Testing

@testable import TextRotor

@Suite("Glob and IgnoreRules (gitignore syntax)")
struct GlobTests {
  @Test(
    "glob matches as git reads it",
    arguments: [
      ("*.log", "a.log", true), ("*.log", "dir/a.log", false), ("a?c", "abc", true), ("a?c", "a/c", false),
      ("[ab]x", "bx", true), ("[!ab]x", "bx", false), ("[a-c]x", "cx", true), ("[!a-c]x", "dx", true),
      ("**/foo", "foo", true), ("**/foo", "a/b/foo", true), ("**/foo", "a/foo/b", false),
      ("a/**/b", "a/b", true), ("a/**/b", "a/x/y/b", true), ("a/**/b", "ab", false),
      ("a/**", "a/x", true), ("a/**", "a/x/y", true), ("a/**", "a", false), ("**", "a/b/c", true),
      ("a**b", "axb", true), ("a**b", "a/b", false), (#"\*x"#, "*x", true), (#"\*x"#, "ax", false),
      ("*", "", true), ("?.txt", "é.txt", false), ("x*y*z", "xaybz", true), ("x*y*z", "xaybc", false),
      ("é?", "éa", true),
    ])
  func glob(_ glob: String, _ path: String, _ expected: Bool) {
    #expect(Glob(glob).matches(path) == expected, "\(glob) on \(path)")
  }

  @Test("rules: last match wins, negation, anchoring, directory-only, comments, escapes")
  func rules() {
    let rules = IgnoreRules(
      """
      # a comment
      *.log
      !keep.log
      /root.txt
      build/
      doc/*.md
      \\#hash
      \\!bang
      trailing\\ 
      spaces   \r
      out//
      !build//
      """)
    #expect(rules.decision(for: "x.log", isDirectory: false) == .ignore)
    #expect(rules.decision(for: "a/b/x.log", isDirectory: false) == .ignore)
    #expect(rules.decision(for: "a/keep.log", isDirectory: false) == .include)
    #expect(rules.decision(for: "root.txt", isDirectory: false) == .ignore)
    #expect(rules.decision(for: "a/root.txt", isDirectory: false) == nil, "anchored to the file's directory")
    #expect(rules.decision(for: "build", isDirectory: true) == .ignore)
    #expect(rules.decision(for: "a/build", isDirectory: true) == .ignore)
    #expect(rules.decision(for: "build", isDirectory: false) == nil, "build/ matches directories only")
    #expect(rules.decision(for: "doc/x.md", isDirectory: false) == .ignore)
    #expect(rules.decision(for: "a/doc/x.md", isDirectory: false) == nil, "a slash in the middle anchors")
    #expect(rules.decision(for: "#hash", isDirectory: false) == .ignore)
    #expect(rules.decision(for: "!bang", isDirectory: false) == .ignore)
    #expect(rules.decision(for: "trailing ", isDirectory: false) == .ignore)
    #expect(rules.decision(for: "spaces", isDirectory: false) == .ignore)
    #expect(rules.decision(for: "# a comment", isDirectory: false) == nil)
    // One trailing slash marks a directory; after it the glob ends in `/`, which no path does
    // (rg: `out//` ignores nothing, `!build//` re-includes nothing).
    #expect(rules.decision(for: "out", isDirectory: true) == nil)
    #expect(rules.decision(for: "a/out", isDirectory: true) == nil)
    #expect(rules.decision(for: "build", isDirectory: true) == .ignore)
  }

  /// Globs without `**` are matched in one pass (`Glob.matchStars`): random globs and paths
  /// against the memoised backtracking search that every glob used before.
  @Test("the one-pass match of globs without ** agrees with the backtracking search")
  func onePassMatchAgrees() {
    let parts = ["a", "b", "/", "*", "?", "[ab]", "[!a]", "[!/]", "ab", "*a", "b*"]
    let letters: [UInt8] = Array("ab/".utf8)
    var rng = SeededRandom(seed: 0x6106)
    for round in 0..<TestScale.count(20_000) {
      let source = (0..<(1 + Int(rng.next() % 5))).map { _ in parts[Int(rng.next() % UInt64(parts.count))] }.joined()
      let glob = Glob(source)
      guard Glob.canMatchInOnePass(glob.tokens) else { continue }
      for _ in 0..<8 {
        let path = (0..<Int(rng.next() % 7)).map { _ in letters[Int(rng.next() % 3)] }
        var memo: Set<Int> = []
        let want = Glob.match(glob.tokens, 0, path, 0, &memo)
        #expect(
          Glob.matchStars(glob.tokens, path) == want,
          "round \(round): \(source) on \(String(decoding: path, as: UTF8.self))")
      }
    }
  }

  @Test("-g alternatives: {a,b} expanded as ripgrep does, braces in sets or escaped kept")
  func alternatives() {
    #expect(Glob.alternatives("*.{txt,md}") == ["*.txt", "*.md"])
    #expect(Glob.alternatives("{a,b}/{c,d}") == ["a/c", "a/d", "b/c", "b/d"])
    #expect(Glob.alternatives("x{,y}") == ["x", "xy"])
    #expect(Glob.alternatives("plain*.txt") == ["plain*.txt"])
    #expect(Glob.alternatives("[{]x") == ["[{]x"], "a brace in a set is literal")
    #expect(Glob.alternatives(#"\{a,b}"#) == [#"\{a,b}"#], "an escaped brace is literal")
    #expect(Glob.alternatives("{a,b") == ["{a,b"], "no group without its }")
    #expect(Glob.alternatives("é{ü,ö}.txt") == ["éü.txt", "éö.txt"])
  }

  /// The last rule that matches decides; rules are indexed by name, anchored path and extension
  /// and the rest matched as globs: random rule files against a plain scan of every rule.
  @Test("indexed rules decide as a scan of every rule, last first")
  func indexedRulesAgreeWithAScan() {
    let lines = [
      "a", "b.txt", "/c", "/d/e", "*.txt", "*.log", "!*.txt", "!a", "d/", "!/c", "*.tar.gz", "x*", "*.t?t", "**/e",
      "d/**", "[ab]", "!b.txt", "e/", "!d/", "*", "!x.log", "é", "*.é", "a/**/b", "\\#a", "c*.log", "*.t[xy]t",
      "[!a]*", "?", "x?.log", "[a-c]*.gz", "d/[ae]", "*.pid.lock", "y*t", "**", "[c-a]", ".*", "!.x*",
    ]
    let paths = [
      "a", "b.txt", "c", "d", "d/e", "d/a", "x.log", "y.txt", "d/b.txt", "e", "e/a", "a.tar.gz", "x.tar.gz", "é", "x.é",
      "a/x/b", "#a", "c.log", "d/e/x.txt", "x.pid.lock", "b", "ytt", "d/x.txt", ".x", ".env", "x1.log", "c.gz",
    ]
    var rng = SeededRandom(seed: 0x16_0E)
    for round in 0..<TestScale.count(2000) {
      let text = (0..<Int(rng.next() % 8)).map { _ in lines[Int(rng.next() % UInt64(lines.count))] }
      let rules = IgnoreRules(text.joined(separator: "\n"))
      for path in paths {
        for isDirectory in [false, true] {
          var want: IgnoreRules.Decision? = nil
          let name = String(path.split(separator: "/").last!)
          for rule in rules.rules.reversed() where !(rule.directoryOnly && !isDirectory) {
            if rule.glob.matches(rule.nameOnly ? name : path) {
              want = rule.negated ? .include : .ignore
              break
            }
          }
          #expect(
            rules.decision(for: path, isDirectory: isDirectory) == want,
            "round \(round): \(text) on \(path) (directory: \(isDirectory))")
        }
      }
    }
  }

  @Test("smart case and several patterns")
  func patternHelpers() throws {
    #expect(Pattern.isAllLowercase("hello", syntax: .literal))
    #expect(!Pattern.isAllLowercase("Hello", syntax: .literal))
    #expect(!Pattern.isAllLowercase("привеТ", syntax: .literal))
    #expect(Pattern.isAllLowercase(#"\W\p{Lu}\pL\d"#, syntax: .regex), "escapes are not letters of the pattern")
    #expect(!Pattern.isAllLowercase(#"\WA"#, syntax: .regex))
    let any = Pattern.anyOf(["a.b", "c"], syntax: .literal)
    let found = try PatternMatcher(any).matches(in: ByteStorage("xa.b c axb"))
    #expect(found == [1..<4, 5..<6])
  }
}
