import Foundation
import Testing

@testable import TextRotor

/// The walker against `rg --files` on random trees with random ignore files.
@Suite("FileWalker chooses the files ripgrep chooses")
struct FileWalkerTests {
  static let names = ["a", "b", "foo", "build", "src", "doc", "x.txt", "y.md", "z.log", ".h", ".hidden.txt", "é.txt"]
  static let ruleLines = [
    "*.log", "foo", "/foo", "foo/", "!x.txt", "src/*.md", "**/build", "a/**", "b/**/x.txt", "[ab]", "?.txt",
    "*.t?t", "# comment", "", "doc/", "!/build", "!foo", "*.md", "!y.md", "x.*", "/a/b", "src", "**/doc/*",
    "é.txt", "!*.txt", "*", "!a/", "build/**/*.log", "\\#x", "  ",
    // Sets that may match a slash, as ripgrep's do.
    "/a[!x]b", "a[/]foo", "/src[!.]*.md", "!/b[/]x.txt",
  ]

  static var ripgrep: String? {
    ["/usr/bin/rg", "/usr/local/bin/rg", "/bin/rg"].first { FileManager.default.isExecutableFile(atPath: $0) }
  }

  static func rgFiles(_ root: String, _ extra: [String]) throws -> [String] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: ripgrep!)
    process.arguments = ["--files", "--no-config"] + extra + [root]
    let out = Pipe()
    process.standardOutput = out
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init).sorted()
  }

  /// Builds a random tree under `root`.
  static func build(_ root: String, depth: Int, rng: inout SeededRandom) throws {
    let fm = FileManager.default
    try fm.createDirectory(atPath: root, withIntermediateDirectories: true)
    for _ in 0..<Int.random(in: 2...5, using: &rng) {
      let name = names.randomElement(using: &rng)!
      let path = root + "/" + name
      if fm.fileExists(atPath: path) { continue }
      if depth < 3 && Bool.random(using: &rng) && !name.contains(".") {
        try build(path, depth: depth + 1, rng: &rng)
      } else {
        try Data("x\n".utf8).write(to: URL(fileURLWithPath: path))
      }
    }
    for file in [".gitignore", ".ignore"] where Int.random(in: 0..<3, using: &rng) == 0 {
      let lines = (0..<Int.random(in: 1...4, using: &rng)).map { _ in ruleLines.randomElement(using: &rng)! }
      try Data(lines.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: root + "/" + file))
    }
  }

  @Test("random trees: same files as rg --files (plain, --hidden, --no-ignore, -g)")
  func randomTrees() throws {
    guard Self.ripgrep != nil else {
      Issue.record("ripgrep (rg) is needed for this test: apt-get install ripgrep")
      return
    }
    let seed = SeededRandom.seedFromEnvironment()
    var rng = SeededRandom(seed: seed)
    let base = NSTemporaryDirectory() + "textrotor-walk-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: base) }
    for round in 0..<40 {
      let root = base + "/t\(round)"
      try Self.build(root, depth: 0, rng: &rng)
      if Int.random(in: 0..<4, using: &rng) > 0 {
        try FileManager.default.createDirectory(atPath: root + "/.git", withIntermediateDirectories: true)
      }
      let globs = [["*.txt"], ["!*.md"], ["!src", "*.txt"], ["**/doc/**"]].randomElement(using: &rng)!
      let variants: [([String], FileWalker.Options)] = [
        ([], FileWalker.Options()),
        (
          ["--hidden"],
          {
            var o = FileWalker.Options(); o.hidden = true; return o
          }()
        ),
        (
          ["--no-ignore"],
          {
            var o = FileWalker.Options(); o.respectIgnoreFiles = false; return o
          }()
        ),
        (
          globs.flatMap { ["-g", $0] },
          {
            var o = FileWalker.Options(); o.globs = globs; return o
          }()
        ),
      ]
      for (flags, options) in variants {
        var ours: [String] = []
        FileWalker(options: options).walk(root, onError: { _ in }) { ours.append($0) }
        let theirs = try Self.rgFiles(root, flags)
        if ours.sorted() != theirs {
          let listing = (try? FileManager.default.subpathsOfDirectory(atPath: root))?.sorted() ?? []
          var rules = ""
          for p in listing where p.hasSuffix("ignore") {
            rules += "\n--- \(p):\n" + ((try? String(contentsOfFile: root + "/" + p, encoding: .utf8)) ?? "")
          }
          Issue.record(
            "seed \(seed), round \(round), flags \(flags): ours \(ours.sorted()) rg \(theirs)\ntree \(listing)\(rules)")
          return
        }
      }
    }
  }

  @Test("ignore files of the directories above the searched one count, up to the repository's root")
  func parentIgnoreFiles() throws {
    let root = NSTemporaryDirectory() + "textrotor-walk-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: root) }
    let fm = FileManager.default
    try fm.createDirectory(atPath: root + "/.git", withIntermediateDirectories: true)
    try fm.createDirectory(atPath: root + "/sub/deeper", withIntermediateDirectories: true)
    try Data("*.log\n".utf8).write(to: URL(fileURLWithPath: root + "/.gitignore"))
    for f in ["sub/a.log", "sub/a.txt", "sub/deeper/b.log"] {
      try Data("x\n".utf8).write(to: URL(fileURLWithPath: root + "/" + f))
    }
    var found: [String] = []
    FileWalker(options: .init()).walk(root + "/sub", onError: { _ in }) { found.append($0) }
    #expect(found == [root + "/sub/a.txt"])
  }

  /// Writes each of `files` (paths relative to `root`, parents created) with "x".
  static func make(_ root: String, _ files: [String], rules: [String: String] = [:]) throws {
    let fm = FileManager.default
    for f in files + Array(rules.keys) {
      let path = root + "/" + f
      // The parent by bytes: "/" and a combining mark after it are one Character.
      let slash = path.utf8.lastIndex(of: UInt8(ascii: "/"))!
      try fm.createDirectory(
        atPath: String(decoding: path.utf8[..<slash], as: UTF8.self), withIntermediateDirectories: true)
      try Data((rules[f] ?? "x\n").utf8).write(to: URL(fileURLWithPath: path))
    }
  }

  static func walk(_ root: String, globs: [String] = []) -> [String] {
    var options = FileWalker.Options()
    options.globs = globs
    var found: [String] = []
    FileWalker(options: options).walk(root, onError: { _ in }) { found.append($0) }
    return found.sorted()
  }

  /// Differences from rg found by an adversarial review (seventeenth session); each failed before.
  @Test("-g: alternatives, globs starting with # or !, globs matched against the printed path")
  func overrideGlobs() throws {
    let root = NSTemporaryDirectory() + "textrotor-walk-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: root) }
    try Self.make(root, ["a.txt", "b.md", "c.rs", "#notes#", "!x", "sub/x.txt", "sub/d/y.txt"])
    #expect(
      Self.walk(root, globs: ["*.{txt,md}"]) == ["a.txt", "b.md", "sub/d/y.txt", "sub/x.txt"].map { root + "/" + $0 })
    #expect(!Self.walk(root, globs: ["!#*#"]).contains(root + "/#notes#"))
    #expect(Self.walk(root, globs: ["!#*#"]).count == 6)
    #expect(!Self.walk(root, globs: ["!!x"]).contains(root + "/!x"))
    // As rg: globs see the path as printed, from the current directory; the root here is not below
    // it, so a glob anchored by a slash matches none of its files, and one made for its inside
    // (relative to the walked directory) none either.
    #expect(Self.walk(root, globs: ["sub/*.txt"]).isEmpty)
    #expect(Self.walk(root, globs: ["**/sub/*.txt"]) == [root + "/sub/x.txt"])
    #expect(Self.walk(root + "/sub", globs: ["d/*.txt"]).isEmpty)
    #expect(FileWalker.shownPrefix(".") == "" && FileWalker.shownPrefix("./") == "")
    #expect(FileWalker.shownPrefix("./sub//") == "sub/" && FileWalker.shownPrefix("sub") == "sub/")
    #expect(FileWalker.shownPrefix("../x") == "../x/")
    if let cwd = FileSystem.currentDirectory(), cwd != "/" {
      #expect(FileWalker.shownPrefix(cwd) == "" && FileWalker.shownPrefix(cwd + "/in/") == "in/")
    }
  }

  @Test("a name starting with a combining mark is hidden by its dot and matched from its slash")
  func combiningMarkNames() throws {
    let root = NSTemporaryDirectory() + "textrotor-walk-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: root) }
    let mark = "\u{301}"
    try Self.make(
      root, ["h/.\(mark)x", "i/sub/\(mark)x.log", "n/sub/\(mark)a", "n/sub/other"],
      rules: ["i/.ignore": "*.log\n", "n/sub/.ignore": "/\(mark)a\n"])
    #expect(Self.walk(root + "/h").isEmpty)
    #expect(Self.walk(root + "/i").isEmpty)
    #expect(Self.walk(root + "/n") == [root + "/n/sub/other"])
    #expect(Self.walk(root + "/n", globs: ["!\(mark)a"]) == [root + "/n/sub/other"])
  }

  @Test("above a repository's root .ignore files still count; a symbolic link is read at its target")
  func ignoreFilesAboveTheRepositoryAndLinkedRoots() throws {
    let root = NSTemporaryDirectory() + "textrotor-walk-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: root) }
    try Self.make(
      root, ["t/inner/.git/HEAD", "t/inner/d.c", "t/inner/b.txt", "t/inner/e.md"],
      rules: ["t/.ignore": "*.c\n", "t/.gitignore": "*.md\n"])
    // The .gitignore above the repository does not count; the .ignore does.
    #expect(Self.walk(root + "/t/inner") == [root + "/t/inner/b.txt", root + "/t/inner/e.md"])
    try Self.make(
      root, ["repo/.git/HEAD", "repo/sub/a.md", "repo/sub/b.txt", "repo/sub/c.c"],
      rules: ["repo/.gitignore": "*.md\n", "repo/.ignore": "*.c\n", "out/.ignore": "*.txt\n"])
    try FileManager.default.createSymbolicLink(atPath: root + "/out/lnk", withDestinationPath: "../repo/sub")
    #expect(Self.walk(root + "/out/lnk") == [root + "/out/lnk/b.txt"])
  }
}
