import Foundation
import Testing

@Suite("textrotor find")
struct FindCommandTests {
  static func file(_ text: String) throws -> String { try CLI.temporaryFile(Array(text.utf8)) }

  @Test("human output: LINE:COLUMN:TEXT, PATH: with several files, no color off a terminal")
  func humanOutput() throws {
    let a = try Self.file("hello Important world\nno\nImportant Important\n")
    let b = try Self.file("nothing\n")
    defer { for p in [a, b] { try? FileManager.default.removeItem(atPath: p) } }
    let one = try CLI.run(["find", "--pattern", "Important", a])
    #expect(one.status == 0)
    #expect(one.stderr.isEmpty)
    #expect(one.lines == ["1:7:hello Important world", "3:1:Important Important"])
    let two = try CLI.run(["find", "--pattern", "Important", a, b])
    #expect(two.lines == ["\(a):1:7:hello Important world", "\(a):3:1:Important Important"])
    #expect(!two.stdout.contains("\u{1B}["), "no ANSI colors when stdout is not a terminal")
    let none = try CLI.run(["find", "--pattern", "absent", a, b])
    #expect(none.status == 1)
    #expect(none.stdout.isEmpty)
  }

  @Test("--debug says how each kind of pattern is searched")
  func debugPath() throws {
    let a = try Self.file("national attention\n")
    defer { try? FileManager.default.removeItem(atPath: a) }
    for (args, says) in [
      (["Linux"], "vectorised byte search for 'Linux'"),
      (["--regex", #"\w+tion\b"#], "ICU regex on windows around each occurrence of 'tion'"),
      (["--regex", #"\w+tion\b"#], "ICU, not RE2: the pattern holds the escape \\b"),
      (["--regex", "Linux|Debian"], "RE2 regex on windows around each occurrence of 'Linux' or 'Debian'"),
      (["--regex", #"\w+"#], "RE2 regex over the whole text"),
      (["--regex", #"\w+"#], "RE2: linear time, no time limit"),
      (["-i", "файл"], "case variants 'фай', 'фаЙ'"),
      (["-i", "ж"], "ICU regex on the lines holding one of"),
    ] {
      let run = try CLI.run(["find", "--debug", "--count"] + args + [a])
      #expect(run.stderr.contains(says), "\(args): \(run.stderr)")
    }
    #expect(try CLI.run(["find", "--count", "--regex", #"\w+tion"#, a]).stdout == "2\n")
  }

  @Test("--count, -i, -w, --regex and --position-encoding")
  func options() throws {
    let a = try Self.file("Straße STRASSE strasse\ncat concat Cat\nfoo12 foo x\n")
    let b = try Self.file("x\n")
    defer { for p in [a, b] { try? FileManager.default.removeItem(atPath: p) } }
    #expect(try CLI.run(["find", "--pattern", "strasse", "--count", a]).stdout == "1\n")
    #expect(try CLI.run(["find", "-e", "strasse", "-i", "--count", a]).stdout == "3\n")
    // As rg --count-matches: files without a match are listed only with --include-zero.
    #expect(try CLI.run(["find", "-e", "cat", "-i", "-w", "--count", a, b]).stdout == "\(a):2\n")
    #expect(
      try CLI.run(["find", "-e", "cat", "-i", "-w", "--count", "--include-zero", a, b]).stdout == "\(a):2\n\(b):0\n")
    #expect(try CLI.run(["find", "--regex", "--pattern", #"foo\d+"#, a]).lines == ["3:1:foo12 foo x"])
    // -o with a count counts matches, as rg does (`rg -c -o` is `rg --count-matches`): -c alone
    // counts matching lines.
    #expect(try CLI.run(["find", "-e", "cat", "-i", "-c", a]).stdout == "1\n")
    #expect(try CLI.run(["find", "-e", "cat", "-i", "-c", "-o", a]).stdout == "3\n")
    #expect(try CLI.run(["find", "-e", "cat", "-i", "--count", "-o", a]).stdout == "3\n")
    // "Straße " is 8 bytes, 7 UTF-16 units: STRASSE starts at byte 8 (column 9), unit 7 (column 8).
    #expect(try CLI.run(["find", "-e", "STRASSE", a]).lines == ["1:9:Straße STRASSE strasse"])
    #expect(
      try CLI.run(["find", "-e", "STRASSE", "--position-encoding", "utf-16", a]).lines == ["1:8:Straße STRASSE strasse"]
    )
  }

  @Test("errors: unreadable file reported, others searched, exit 2; bad regex; catastrophic regex")
  func errors() throws {
    let a = try Self.file("Important\n")
    // `ac`: RE2, searching `(a+)+(?=c)` without its look-ahead, gives the line to ICU.
    let slow = try Self.file(String(repeating: "a", count: 5000) + "b ac\n")
    defer { for p in [a, slow] { try? FileManager.default.removeItem(atPath: p) } }
    let missing = try CLI.run(["find", "--pattern", "Important", "/nonexistent/x.txt", a])
    #expect(missing.status == 2)
    #expect(missing.stderr.contains("/nonexistent/x.txt: No such file or directory"))
    #expect(missing.lines == ["\(a):1:1:Important"])
    let invalid = try CLI.run(["find", "--regex", "--pattern", "ab(c", a])
    #expect(invalid.status == 2)
    #expect(invalid.stderr.contains("column"))
    #expect(invalid.stderr.contains("U_REGEX_MISMATCHED_PAREN"))
    let start = Date()
    // (a+)+$ is on RE2 (linear time): no match, no error. With a look-ahead it stays on ICU,
    // which backtracks until its time limit.
    let linear = try CLI.run(["find", "--regex", "--pattern", "(a+)+$", slow])
    #expect(linear.status == 1, "\(linear.stderr)")
    let catastrophic = try CLI.run(["find", "--regex", "--pattern", "(a+)+(?=c)", slow])
    #expect(catastrophic.status == 2)
    #expect(catastrophic.stderr.contains("time limit"))
    // Only a guard against a hang: the status and the message show the time limit stopped the
    // search, and that limit counts ICU's match steps, not seconds (35 s seen under ASan at load 16).
    #expect(Date().timeIntervalSince(start) < 180)
  }

  @Test("standard input, empty pattern, binary files and --text")
  func inputsAndBinary() throws {
    let fromStdin = try CLI.run(["find", "--pattern", "b", "-"], stdin: Data("abc\nxyz\nb\n".utf8))
    #expect(fromStdin.lines == ["1:2:abc", "3:1:b"])
    let empty = try CLI.run(["find", "--pattern", "", "--count", "-"], stdin: Data("ab\n\ncd\n".utf8))
    #expect(empty.stdout == "7\n", "an empty pattern matches at every position of every line, as rg")
    let binary = try CLI.temporaryFile(Array("x Imp".utf8) + [0] + Array("ortant y\nImportant\n".utf8), suffix: ".bin")
    defer { try? FileManager.default.removeItem(atPath: binary) }
    let result = try CLI.run(["find", "--pattern", "Important", binary])
    #expect(result.status == 0)
    #expect(result.stdout == "binary file matches (found \"\\0\" byte around offset 5)\n")
    #expect(try CLI.run(["find", "--pattern", "Important", "--text", binary]).lines == ["2:1:Important"])
    #expect(try CLI.run(["find", "--pattern", "Important", "--count", binary]).stdout == "1\n")
  }

  @Test("--json: ripgrep's begin/match/end/summary messages")
  func jsonShape() throws {
    let a = try Self.file("hello Important world\nno\nImportant Important\n")
    defer { try? FileManager.default.removeItem(atPath: a) }
    let result = try CLI.run(["find", "--pattern", "Important", "--json", a])
    #expect(result.status == 0)
    let messages = try result.lines.map(CLI.jsonObject)
    #expect(messages.map { $0["type"] as? String } == ["begin", "match", "match", "end", "summary"])
    let match = try #require(messages[2]["data"] as? [String: Any])
    #expect((match["path"] as? [String: Any])?["text"] as? String == a)
    #expect((match["lines"] as? [String: Any])?["text"] as? String == "Important Important\n")
    #expect(match["line_number"] as? Int == 3)
    #expect(match["absolute_offset"] as? Int == 25)
    let submatches = try #require(match["submatches"] as? [[String: Any]])
    #expect(submatches.map { $0["start"] as? Int } == [0, 10])
    #expect(submatches.map { $0["end"] as? Int } == [9, 19])
    #expect(submatches.map { ($0["match"] as? [String: Any])?["text"] as? String } == ["Important", "Important"])
    let end = try #require(messages[3]["data"] as? [String: Any])
    #expect(end.keys.contains("binary_offset"))
    let stats = try #require(end["stats"] as? [String: Any])
    for key in [
      "elapsed", "searches", "searches_with_match", "bytes_searched", "bytes_printed", "matched_lines", "matches",
    ] {
      #expect(stats[key] != nil, "end.stats.\(key)")
    }
    #expect(stats["matches"] as? Int == 3)
    #expect(stats["matched_lines"] as? Int == 2)
    let summary = try #require(messages[4]["data"] as? [String: Any])
    #expect(summary["elapsed_total"] != nil)
    #expect((summary["stats"] as? [String: Any])?["matches"] as? Int == 3)
  }

  /// Runs `rg` with `arguments`; fails the test (and says how to install it) when it is missing.
  @Test("a byte order mark is not content: `^` matches after it, as in rg")
  func anchorsAfterAByteOrderMark() throws {
    let path = try CLI.temporaryFile([0xEF, 0xBB, 0xBF] + Array("abc def\n\nghi\r\nabc".utf8))
    defer { try? FileManager.default.removeItem(atPath: path) }
    for pattern in [#"^\w+"#, "^a", "^", #"^\w"#] {
      let ours = try CLI.run(["find", "--json", "--regex", pattern, path])
      let theirs = try Self.ripgrep(["--json", "--text", "--no-config", "-e", pattern, path])
      #expect(try Self.matchOffsets(ours.stdout) == Self.matchOffsets(theirs, shift: 3), "\(pattern)")
      #expect(ours.status == 0, "\(pattern): \(ours.stderr)")
    }
  }

  static func ripgrep(_ arguments: [String]) throws -> String {
    let rg = ["/usr/bin/rg", "/usr/local/bin/rg", "/bin/rg"].first { FileManager.default.isExecutableFile(atPath: $0) }
    guard let rg else {
      Issue.record("ripgrep (rg) is needed for this test: apt-get install ripgrep")
      throw CLIError.notAnObject("rg missing")
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: rg)
    process.arguments = arguments
    let out = Pipe()
    process.standardOutput = out
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
  }

  /// The absolute byte ranges of every submatch in `rg --json`-shaped output.
  static func matchOffsets(_ json: String, shift: Int = 0) throws -> [[Int]] {
    var result: [[Int]] = []
    for line in json.split(separator: "\n") {
      let object = try CLI.jsonObject(String(line))
      guard object["type"] as? String == "match", let data = object["data"] as? [String: Any],
        let base = data["absolute_offset"] as? Int, let subs = data["submatches"] as? [[String: Any]]
      else { continue }
      for s in subs { result.append([shift + base + (s["start"] as! Int), shift + base + (s["end"] as! Int)]) }
    }
    return result
  }

  @Test("differential: find --json and rg --json report the same match offsets on the corpora")
  func differentialAgainstRipgrep() throws {
    var files =
      ((try? FileManager.default.contentsOfDirectory(atPath: CLI.packageRoot.appendingPathComponent("Corpora").path))
      ?? [])
      .filter { $0.hasSuffix(".txt") }.sorted().map { CLI.corpus($0) }
    // Files of our own too, so the test means something while the corpora are being written.
    let own = try Self.file("the cat\r\nThe other cat, the end.\nthethe\n\n  the\tthe")
    defer { try? FileManager.default.removeItem(atPath: own) }
    files.append(own)
    // rg counts only LF as a line end; offsets of matches are the same either way.
    let literals = ["the", "e", "Important", "ing", "é", "的", "а", "  ", "line", "."]
    var compared = 0
    // At a reduced TestScale each file gets a share of the literals and option sets, in turn.
    for (n, path) in files.enumerated() {
      // rg strips a byte order mark and counts offsets after it; ours are the file's.
      let bom = (FileManager.default.contents(atPath: path)?.starts(with: [0xEF, 0xBB, 0xBF]) ?? false) ? 3 : 0
      for literal in TestScale.sample(literals, rotation: n) {
        let ours = try CLI.run(["find", "--json", "--pattern", literal, path])
        #expect(ours.status <= 1, "\(path): \(ours.stderr)")
        let theirs = try Self.ripgrep(["--json", "--text", "--fixed-strings", "--no-config", "-e", literal, path])
        #expect(try Self.matchOffsets(ours.stdout) == Self.matchOffsets(theirs, shift: bom), "'\(literal)' in \(path)")
        compared += 1
      }
      // Case-insensitive ASCII and a regex with a literal inside.
      for (args, rgArgs) in TestScale.sample(
        [
          (["-i", "--pattern", "the"], ["-i", "-e", "the"]),
          (["--regex", "--pattern", #"th\w+"#], ["-e", #"th\w+"#]),
          (["-w", "--pattern", "the"], ["-w", "--fixed-strings", "-e", "the"]),
        ], rotation: n)
      {
        let ours = try CLI.run(["find", "--json"] + args + [path])
        let theirs = try Self.ripgrep(["--json", "--text", "--no-config"] + rgArgs + [path])
        #expect(try Self.matchOffsets(ours.stdout) == Self.matchOffsets(theirs, shift: bom), "\(args) in \(path)")
      }
    }
    #expect(compared >= (TestScale.isReduced ? files.count : literals.count))
  }
}

/// What `find` with no path searches, by what standard input is: rg's rule (`is_readable_stdin`).
@Suite("CLI: find with no path")
struct FindNoPathTests {
  /// `executable arguments` run in `directory` with `input` as standard input; its stdout.
  static func run(_ executable: String, _ arguments: [String], in directory: String, input: FileHandle) throws -> String
  {
    try CLI.runProcess(executable, arguments, in: directory, input: input).stdout
  }

  @Test("/dev/null as standard input (cron, an editor's task) searches the current directory, a file searches itself")
  func standardInputOrDirectory() throws {
    let directory = NSTemporaryDirectory() + "textrotor-nopath-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: directory + "/sub", withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    try Data("a needle\n".utf8).write(to: URL(fileURLWithPath: directory + "/a.txt"))
    try Data("none\nneedle b\n".utf8).write(to: URL(fileURLWithPath: directory + "/sub/b.txt"))
    let ours = CLI.executable.path
    let null = try #require(FileHandle(forReadingAtPath: "/dev/null"))
    let listed = try Self.run(ours, ["find", "-l", "needle"], in: directory, input: null)
    #expect(Set(listed.split(separator: "\n")) == ["a.txt", "sub/b.txt"])
    let rg = ["/usr/bin/rg", "/usr/local/bin/rg"].first { FileManager.default.isExecutableFile(atPath: $0) }
    if let rg {
      let theirs = try Self.run(rg, ["--no-config", "-l", "needle"], in: directory, input: null)
      #expect(Set(listed.split(separator: "\n")) == Set(theirs.split(separator: "\n")))
    }
    #expect(
      try Self.run(ours, ["find", "needle"], in: directory, input: null).split(separator: "\n").sorted() == [
        "a.txt:1:3:a needle", "sub/b.txt:2:1:needle b",
      ])
    // Nothing left to search in the current directory: said, exit 2, as rg; a directory named: 1.
    let noPython = try Self.run(ours, ["find", "-t", "py", "needle"], in: directory, input: null)
    #expect(noPython.isEmpty)
    let status = { (executable: String, arguments: [String]) throws -> Int32 in
      try CLI.runProcess(executable, arguments, in: directory).status
    }
    #expect(try status(ours, ["find", "-t", "py", "needle"]) == 2)
    #expect(try status(ours, ["find", "-t", "py", "needle", "."]) == 1)
    if let rg {
      #expect(try status(rg, ["--no-config", "-t", "py", "needle"]) == 2)
      #expect(try status(rg, ["--no-config", "-t", "py", "needle", "."]) == 1)
    }
    // A regular file (`< file`) and a pipe are standard input.
    let file = try #require(FileHandle(forReadingAtPath: directory + "/sub/b.txt"))
    #expect(try Self.run(ours, ["find", "needle"], in: directory, input: file) == "2:1:needle b\n")
    let pipe = Pipe()
    pipe.fileHandleForWriting.write(Data("x needle\n".utf8))
    try pipe.fileHandleForWriting.close()
    #expect(
      try Self.run(ours, ["find", "needle"], in: directory, input: pipe.fileHandleForReading) == "1:3:x needle\n")
  }
}

/// `-t`/`-T`, `--type-list`, `--max-depth` and `-L`, against rg on the same tree.
@Suite("CLI: find's file types, depth and links, as rg")
struct FindTypesDepthLinksTests {
  /// A tree with files of several types, hidden ones, nested directories, a link to a directory
  /// and a link back to the root (a loop).
  static func makeTree() throws -> String {
    let root = NSTemporaryDirectory() + "textrotor-types-\(UUID().uuidString)"
    let files = [
      "a.py", "b.swift", ".hidden.py", ".bashrc", "Makefile", "notes.txt", "README.md", "sub/c.py", "sub/e.rs",
      "sub/deep/d.md", "sub/deep/f.c", "sub/deep/deeper/g.py", "lib/h.hpp", "lib/CMakeLists.txt",
      // For more of rg's types: names, sets and stars in the middle of a glob.
      "LICENSE-MIT", "COPYING", "lib/GPL-3.0.txt", "Cargo.lock", "package-lock.json", "docs/README.rst",
      "x.lua", "GNUmakefile", "sub/y.tf", "sub/z.jsonl", "k.cjs", "Dockerfile.dev",
    ]
    for file in files {
      let path = root + "/" + file
      try FileManager.default.createDirectory(
        atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
      try Data("needle in \(file)\n".utf8).write(to: URL(fileURLWithPath: path))
    }
    try FileManager.default.createSymbolicLink(atPath: root + "/linked", withDestinationPath: "sub/deep")
    try FileManager.default.createSymbolicLink(atPath: root + "/file-link.py", withDestinationPath: "a.py")
    return root
  }

  /// `executable arguments` in `directory`: stdout's lines as a set (a leading `./` dropped), stderr and status.
  static func run(_ executable: String, _ arguments: [String], in directory: String) throws -> (
    Set<String>, String, Int32
  ) {
    let result = try CLI.runProcess(executable, arguments, in: directory)
    let lines = result.stdout.split(separator: "\n").map { $0.hasPrefix("./") ? String($0.dropFirst(2)) : String($0) }
    return (Set(lines), result.stderr, result.status)
  }

  static let rg = ["/usr/bin/rg", "/usr/local/bin/rg"].first { FileManager.default.isExecutableFile(atPath: $0) }

  @Test(
    "the files -t, -T, --max-depth and -L select are rg's",
    arguments: [
      ["-t", "py"], ["-tpy"], ["-T", "py"], ["-t", "py", "-t", "md"], ["-t", "sh"], ["-t", "make"], ["-t", "cpp"],
      ["-t", "cmake"], ["-t", "all"], ["-T", "all"], ["--type", "c", "--type-not", "cpp"], ["--max-depth", "1"],
      ["--max-depth", "0"], ["--max-depth=2"], ["-L"], ["-L", "--max-depth", "2"], ["-L", "-t", "md"],
      ["-t", "py", "-g", "*.swift"],
      ["-t", "py", "-g", "!a.py"], ["--hidden", "-t", "py"], ["-u", "-t", "sh"], ["-t", "py", "sub"],
      ["-t", "md", "notes.txt"], ["-t", "license"], ["-T", "license"], ["-t", "readme"], ["-t", "lock"],
      ["-t", "lua", "-t", "make"], ["-t", "tf", "-t", "jsonl"], ["-t", "js"], ["-t", "docker"],
      ["-t", "rst", "-T", "readme"],
    ])
  func sameFilesAsRipgrep(_ options: [String]) throws {
    let rg = try #require(Self.rg, "ripgrep (rg) is needed for this test")
    let root = try Self.makeTree()
    defer { try? FileManager.default.removeItem(atPath: root) }
    let paths = options.last.map { $0.hasSuffix(".txt") || $0 == "sub" } == true ? [] : ["."]
    let (ours, _, status) = try Self.run(CLI.executable.path, ["find", "-l", "needle"] + options + paths, in: root)
    let (theirs, _, rgStatus) = try Self.run(rg, ["--no-config", "-l", "needle"] + options + paths, in: root)
    #expect(ours == theirs, "\(options)")
    #expect(status == rgStatus, "\(options)")
    // rg 14's short -d (this machine's rg 13 has only --max-depth).
    if let k = options.firstIndex(where: { $0.hasPrefix("--max-depth") }) {
      var short = options
      short[k...k] = options[k] == "--max-depth" ? ["-d"] : ["-d" + options[k].dropFirst("--max-depth=".count)]
      #expect(try Self.run(CLI.executable.path, ["find", "-l", "needle"] + short + paths, in: root).0 == ours)
    }
  }

  @Test("a link back to a directory being walked is reported, as rg reports it, and the rest is searched")
  func loop() throws {
    let rg = try #require(Self.rg, "ripgrep (rg) is needed for this test")
    let root = try Self.makeTree()
    defer { try? FileManager.default.removeItem(atPath: root) }
    try FileManager.default.createSymbolicLink(atPath: root + "/sub/deep/back", withDestinationPath: "../..")
    let (ours, error, status) = try Self.run(CLI.executable.path, ["find", "-L", "-l", "needle", "."], in: root)
    let (theirs, rgError, rgStatus) = try Self.run(rg, ["--no-config", "-L", "-l", "needle", "."], in: root)
    #expect(ours == theirs)
    #expect(error.contains("File system loop found") && rgError.contains("File system loop found"), "\(error)")
    #expect(status == 2 && rgStatus == 2)
    // A broken link and two links to each other: reported, the rest searched.
    try FileManager.default.removeItem(atPath: root + "/sub/deep/back")
    try FileManager.default.createSymbolicLink(atPath: root + "/broken", withDestinationPath: "nowhere")
    try FileManager.default.createSymbolicLink(atPath: root + "/self1", withDestinationPath: "self2")
    try FileManager.default.createSymbolicLink(atPath: root + "/self2", withDestinationPath: "self1")
    let (ours2, error2, status2) = try Self.run(CLI.executable.path, ["find", "-L", "-l", "needle", "."], in: root)
    let (theirs2, _, rgStatus2) = try Self.run(rg, ["--no-config", "-L", "-l", "needle", "."], in: root)
    #expect(ours2 == theirs2 && status2 == 2 && rgStatus2 == 2)
    #expect(error2.contains("broken: No such file or directory"), "\(error2)")
    #expect(error2.contains("self1: Too many levels of symbolic links"), "\(error2)")
  }

  @Test("--type-list: every type textrotor knows is rg's, with the same globs; an unknown type is an error")
  func typeList() throws {
    let rg = try #require(Self.rg, "ripgrep (rg) is needed for this test")
    let root = try Self.makeTree()
    defer { try? FileManager.default.removeItem(atPath: root) }
    let (ours, _, status) = try Self.run(CLI.executable.path, ["find", "--type-list"], in: root)
    let (theirs, _, _) = try Self.run(rg, ["--no-config", "--type-list"], in: root)
    #expect(status == 0 && ours.count >= 169)
    #expect(ours.subtracting(theirs).isEmpty, "\(ours.subtracting(theirs).sorted())")
    // The definitions are ripgrep 13's (Debian 12's): against that version, every type it knows.
    let version = try CLI.runProcess(rg, ["--version"], in: root).stdout
    if version.hasPrefix("ripgrep 13.") {
      #expect(theirs.subtracting(ours).isEmpty, "\(theirs.subtracting(ours).sorted())")
    }
    let (none, error, unknown) = try Self.run(
      CLI.executable.path, ["find", "-t", "nosuchtype", "needle", "."], in: root)
    #expect(none.isEmpty && unknown == 2 && error.contains("unrecognized file type: nosuchtype"), "\(error)")
  }
}

/// UTF-16 files with a byte order mark are searched as their UTF-8 transcoding, as rg searches them.
@Suite("CLI: find in UTF-16 files")
struct FindUTF16Tests {
  @Test("a line longer than a piece (1 MiB) in a UTF-16 file or a pipe is read whole, not spun on")
  func longLines() throws {
    let long = String(repeating: "a", count: 1_100_000)
    let path = try CLI.temporaryFile(Self.utf16(long + "\nneedle\n", bigEndian: false))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let found = try CLI.run(["find", "needle", path])
    #expect(found.stdout == "2:1:needle\n" && found.status == 0, "\(found.stderr)")
    let piped = try CLI.run(
      ["find", "--count", "hit", "-"], stdin: Data((String(repeating: "b", count: 3_000_000) + " hit\nx hit\n").utf8))
    #expect(piped.stdout == "2\n" && piped.status == 0, "\(piped.stderr)")
    let utf16Pipe = try CLI.run(["find", "needle", "-"], stdin: Data(Self.utf16(long + "\nneedle\n", bigEndian: true)))
    #expect(utf16Pipe.stdout == "2:1:needle\n", "\(utf16Pipe.stderr)")
  }

  @Test("segment says a UTF-16 file is UTF-16 (it reads UTF-8: its offsets are the file's), from a file or a pipe")
  func segmentNamesUTF16() throws {
    let bytes = Self.utf16("one two\n", bigEndian: true)
    let path = try CLI.temporaryFile(bytes)
    defer { try? FileManager.default.removeItem(atPath: path) }
    for (arguments, input) in [([path], nil), (["-"], Data(bytes))] as [([String], Data?)] {
      let result = try CLI.run(["segment", "--by", "word", "--count"] + arguments, stdin: input)
      #expect(result.stderr.contains("UTF-16 text (byte order mark FE FF)"), "\(result.stderr)")
      #expect(result.stderr.contains("iconv -f UTF-16 -t UTF-8"))
    }
  }

  @Test("a U+FEFF after the UTF-16 mark is a byte order mark of the transcoding, from a file or a pipe")
  func markAfterMark() throws {
    let bytes: [UInt8] = [0xFF, 0xFE, 0xFF, 0xFE, 0x61, 0x00, 0x0A, 0x00]
    let path = try CLI.temporaryFile(bytes)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let file = try CLI.run(["find", "--regex", "^a", path])
    let piped = try CLI.run(["find", "--regex", "^a", "-"], stdin: Data(bytes))
    #expect(file.stdout == "1:4:a\n" && piped.stdout == file.stdout, "\(piped.stdout)")
    let theirs = try FindRipgrepTests.rg(["-n", "^a", path])
    #expect(theirs == "1:a\n")
  }

  static let text =
    "Line one Important\nsecond line\nthird \u{E9}t\u{E9} Important \u{1F600} x\n\nlast Important \u{10FFFF}"

  /// `text` as UTF-16 with its mark (big- or little-endian), optionally with extra code units.
  static func utf16(_ text: String, bigEndian: Bool, extra: [UInt16] = []) -> [UInt8] {
    var bytes: [UInt8] = bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]
    for unit in Array(text.utf16) + extra {
      bytes += bigEndian ? [UInt8(unit >> 8), UInt8(unit & 0xFF)] : [UInt8(unit & 0xFF), UInt8(unit >> 8)]
    }
    return bytes
  }

  @Test(
    "the same output as rg",
    arguments: [
      ["Important"], ["-o", "Important"], ["--json", "Important"], ["--count", "Important"], ["-c", "e"],
      ["-i", "IMPORTANT"], ["--regex", #"\p{Emoji_Presentation}"#], ["-o", "--regex", #"t\S+"#], ["-w", "line"],
      ["-v", "Important"],
    ])
  func sameAsRipgrep(_ arguments: [String]) throws {
    let directory = NSTemporaryDirectory() + "textrotor-utf16-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    // An unpaired surrogate (U+FFFD for both) in one; the other ends in half a code unit.
    let le = Self.utf16(Self.text, bigEndian: false, extra: [0x0A, 0xD800, 0x41, 0x0A])
    let be = Self.utf16(Self.text, bigEndian: true) + [0x00]
    try Data(le).write(to: URL(fileURLWithPath: directory + "/le.txt"))
    try Data(be).write(to: URL(fileURLWithPath: directory + "/be.txt"))
    let files = [directory + "/be.txt", directory + "/le.txt"]
    let flags = arguments.contains("--json") || arguments.contains("--count") || arguments.contains("-c") ? [] : ["-n"]
    let columns = flags.isEmpty || arguments.contains("-v") ? [] : ["--column"]
    let literal = arguments.contains("--regex") ? [] : ["-F"]
    let theirArguments = arguments.filter { $0 != "--regex" }
    // Files named, and found in a directory (where a file with NUL bytes would be skipped as binary).
    for paths in [files, [directory]] {
      let mine = try CLI.run(["find"] + arguments + paths)
      let expected = try FindRipgrepTests.rg(literal + flags + columns + theirArguments + paths)
      if arguments.contains("--json") {
        // rg's summary holds times; the matches must be the same.
        let keep = { (s: String) in s.split(separator: "\n").filter { $0.contains(#""type":"match""#) } }
        #expect(keep(mine.stdout) == keep(expected), "\(arguments) on \(paths)")
      } else {
        #expect(mine.stdout == expected, "\(arguments) on \(paths)")
      }
      #expect(mine.status == (expected.isEmpty ? 1 : 0), "\(mine.stderr)")
    }
    // From a pipe, a few bytes at a time is not needed: the whole file through standard input.
    let piped = try CLI.run(["find"] + arguments + ["-"], stdin: Data(le))
    let file = try CLI.run(["find"] + arguments + [directory + "/le.txt"])
    // (Without --json's times.)
    let timeless = { (s: String) in s.split(separator: "\n").filter { !$0.contains("elapsed") } }
    #expect(
      timeless(piped.stdout.replacingOccurrences(of: "<stdin>", with: ""))
        == timeless(file.stdout.replacingOccurrences(of: directory + "/le.txt", with: "")))
  }
}

/// What the second review of this change found, each against rg.
@Suite("CLI: find, second review")
struct FindSecondReviewTests {
  @Test("a line-local pattern on an empty line (ICU crashed on an empty UTF-8 text)")
  func emptyLines() throws {
    let path = try CLI.temporaryFile(Array("a\n\nb\n".utf8))
    defer { try? FileManager.default.removeItem(atPath: path) }
    for pattern in ["^(?=.)", "^(?=b)", "(?<=ab)^$", #"^\s*(?=def)"#, "(?!x)"] {
      let mine = try CLI.run(["find", "--regex", pattern, path])
      let theirs = try FindRipgrepTests.rg(["-P", "-n", "--column", pattern, path])
      #expect(mine.stdout == theirs && mine.status == (theirs.isEmpty ? 1 : 0), "\(pattern): \(mine.stderr)")
    }
    let x = try CLI.run(["find", "-x", "--regex", "(?=foo)", path])
    #expect(x.status == 1 && x.stdout.isEmpty, "\(x.stderr)")
    let piped = try CLI.run(["find", "--regex", "^(?=b)", "-"], stdin: Data("\n\nb\n".utf8))
    #expect(piped.stdout == "3:1:b\n")
  }

  @Test("context lines from a stream never hold its byte order mark")
  func markInContext() throws {
    let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("hello\nworld\n".utf8)
    #expect(try CLI.run(["find", "hello", "-C1", "-"], stdin: Data(bytes)).stdout == "1:4:hello\n2-world\n")
    #expect(try CLI.run(["find", "world", "-B1", "-"], stdin: Data(bytes)).stdout == "1-hello\n2:1:world\n")
  }

  @Test("a UTF-16 file holding NUL is binary: skipped in a directory, as rg skips it")
  func binaryUTF16() throws {
    let directory = NSTemporaryDirectory() + "textrotor-nul16-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    try Data(FindUTF16Tests.utf16("hello\n\u{0}world\nhello again\n", bigEndian: false)).write(
      to: URL(fileURLWithPath: directory + "/nul.txt"))
    try Data("plain\n".utf8).write(to: URL(fileURLWithPath: directory + "/plain.txt"))
    #expect(try CLI.run(["find", "--files-without-match", "hello", directory]).stdout == directory + "/plain.txt\n")
    #expect(try CLI.run(["find", "-c", "--include-zero", "hello", directory]).stdout == directory + "/plain.txt:0\n")
    #expect(try FindRipgrepTests.rg(["--files-without-match", "hello", directory]) == directory + "/plain.txt\n")
  }

  @Test("-m 0 finds nothing, as rg")
  func maxCountZero() throws {
    let path = try CLI.temporaryFile(Array("a\na\n".utf8))
    defer { try? FileManager.default.removeItem(atPath: path) }
    for extra in [[], ["-l"], ["-o"], ["-v"]] {
      let mine = try CLI.run(["find", "-m", "0"] + extra + ["a", path])
      #expect(mine.stdout.isEmpty && mine.status == 1, "\(extra)")
    }
    #expect(try CLI.run(["find", "-m", "0", "a", "-"], stdin: Data("a\n".utf8)).status == 1)
  }

  @Test("-L below a link to a parent: the real directory is walked again, the loop reported one level down, as rg")
  func linkToParent() throws {
    let root = NSTemporaryDirectory() + "textrotor-up-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: root + "/a/b", withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: root) }
    try Data("needle\n".utf8).write(to: URL(fileURLWithPath: root + "/a/b/f"))
    try FileManager.default.createSymbolicLink(atPath: root + "/a/b/up", withDestinationPath: "..")
    let rg = try #require(FindTypesDepthLinksTests.rg)
    let (ours, error, status) = try FindTypesDepthLinksTests.run(
      CLI.executable.path, ["find", "-L", "-l", "needle", "a/b"], in: root)
    let (theirs, rgError, rgStatus) = try FindTypesDepthLinksTests.run(
      rg, ["--no-config", "-L", "-l", "needle", "a/b"], in: root)
    #expect(ours == theirs && ours.count == 2 && status == rgStatus)
    #expect(error.contains("a/b/up/b/up points to an ancestor") && rgError.contains("a/b/up/b/up"), "\(error)")
  }
}

/// Files and directories whose names are not valid UTF-8 (a Latin-1 name from an old archive):
/// found, opened and printed byte for byte as rg prints them.
@Suite("CLI: find in files named with bytes that are not UTF-8")
struct FindNonUTF8NamesTests {
  static let rg = ["/usr/bin/rg", "/usr/local/bin/rg"].first { FileManager.default.isExecutableFile(atPath: $0) }

  /// Makes `path` (bytes, relative to `root`) holding `text`; its directories first.
  static func make(_ root: String, _ path: [UInt8], _ text: String) throws {
    var full = Array(root.utf8) + [UInt8(ascii: "/")] + path
    var k = Array(root.utf8).count + 1
    while let slash = full[k...].firstIndex(of: UInt8(ascii: "/")) {
      let directory = full[..<slash].map { CChar(bitPattern: $0) } + [0]
      _ = mkdir(directory, 0o755)
      k = slash + 1
    }
    full.append(0)
    let fd = open(full.map { CChar(bitPattern: $0) }, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    try #require(fd >= 0, "cannot create \(path)")
    defer { close(fd) }
    let bytes = Array(text.utf8)
    #expect(write(fd, bytes, bytes.count) == bytes.count)
  }

  @Test(
    "the output is rg's, byte for byte",
    arguments: [
      ["-l"], ["-n", "--column", "--no-heading"], ["--heading", "--column"], ["--count"], ["-c"], ["--vimgrep"],
      ["--json"], ["-l", "-0"],
      ["--files-without-match"], ["-g", "*.txt", "-l"], ["-g", "!*.log", "-l"],
      // `?` and a set take one byte, an ill-formed one too.
      ["-g", "d?/*", "-l"], ["-g", "z?.txt", "--files-without-match"], ["-g", "caf[!x].txt", "-l"],
      ["-g", "?a.log", "-l"],
    ])
  func sameAsRipgrep(_ options: [String]) throws {
    let rg = try #require(Self.rg, "ripgrep (rg) is needed for this test")
    let root = NSTemporaryDirectory() + "textrotor-names-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: root) }
    // Latin-1 é, a lone continuation byte, a cut sequence, a real name beside them, a directory.
    try Self.make(root, Array("caf".utf8) + [0xE9] + Array(".txt".utf8), "a needle\nnothing\n")
    try Self.make(root, [0x80, 0x61] + Array(".log".utf8), "needle\n")
    try Self.make(root, Array("d".utf8) + [0xFF] + Array("/x".utf8) + [0xC3] + Array(".txt".utf8), "two needle\n")
    try Self.make(root, Array("ok.txt".utf8), "needle ok\n")
    try Self.make(root, Array("z".utf8) + [0xE9] + Array(".txt".utf8), "nothing here\n")
    // Ordered by bytes as rg orders them: a lone 0x80 before é (C3 A9); a real U+10FF80 (the first
    // scalar of the range that stands for ill-formed bytes) is text.
    try Self.make(root, Array("é.txt".utf8), "needle é\n")
    try Self.make(root, Array("r\u{10FF80}.txt".utf8), "needle r\n")
    let arguments = options + ["needle", "."]
    let ours = try CLI.runProcess(CLI.executable.path, ["find", "--sort", "path"] + arguments, in: root)
    let theirs = try CLI.runProcess(rg, ["--no-config", "--sort", "path", "-F"] + arguments, in: root)
    #expect(ours.status == theirs.status && ours.status == 0, "\(options): \(ours.stderr)")
    if options == ["--json"] {
      // Without the times; the path objects (`{"bytes":"Y2Fm6S50eHQ="}`) as rg writes them.
      #expect(
        FindRipgrepTests.withoutTimes(ours.stdout).split(separator: "\n").dropLast()
          == FindRipgrepTests.withoutTimes(theirs.stdout).split(separator: "\n").dropLast(), "\(ours.stdout)")
    } else {
      #expect(ours.stdoutData == theirs.stdoutData, "\(options):\n\(ours.stdout)\nrg:\n\(theirs.stdout)")
    }
  }

  @Test("such a name on the command line is opened; a pattern that is not UTF-8 is refused, as rg refuses it")
  func commandLine() throws {
    let rg = try #require(Self.rg, "ripgrep (rg) is needed for this test")
    let root = NSTemporaryDirectory() + "textrotor-names-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: root) }
    try Self.make(root, Array("caf".utf8) + [0xE9] + Array(".txt".utf8), "a needle\n\u{FFFD} here\n")
    try Self.make(root, Array("ok.txt".utf8), "needle\n")
    // Arguments with raw bytes go through bash's $'...' (a Swift `String` argument cannot hold them).
    func run(_ program: String, _ arguments: String) throws -> CLIResult {
      try CLI.runProcess("/bin/bash", ["-c", "exec \"$0\" " + arguments, program], in: root)
    }
    let ours = try run(CLI.executable.path, #"find -n --column needle ok.txt $'caf\xe9.txt'"#)
    let theirs = try run(rg, #"--no-config -j1 -n --column needle ok.txt $'caf\xe9.txt'"#)
    #expect(ours.status == 0 && ours.stdoutData == theirs.stdoutData, "\(ours.stdout) \(ours.stderr)")
    let segment = try run(CLI.executable.path, #"segment --by word --count $'caf\xe9.txt'"#)
    #expect(segment.status == 0 && segment.stdout == "8\n", "\(segment.stdout) \(segment.stderr)")
    let missing = try run(CLI.executable.path, #"segment --by word --count $'nothere\xe9.txt'"#)
    #expect(missing.status == 2 && missing.stderr.contains("nothere\u{FFFD}.txt: No such file or directory"))
    // A real U+10FF80 in a pattern is text (it is in the file), as in rg.
    try Self.make(root, Array("u.txt".utf8), "x\u{10FF80}y\n")
    let real = try run(CLI.executable.path, #"find --count $'\xf4\x8f\xbe\x80' u.txt"#)
    #expect(real.status == 0 && real.stdout == "1\n", "\(real.stdout) \(real.stderr)")
    for pattern in [#"$'\xff'"#, #"-e x -e $'a\xe9b'"#] {
      let refused = try run(CLI.executable.path, "find \(pattern) ok.txt")
      let rgRefused = try run(rg, "--no-config \(pattern) ok.txt")
      #expect(refused.status == 2 && rgRefused.status == 2 && refused.stdout.isEmpty, "\(pattern)")
      // The same words as rg's, the bytes shown as rg shows them (`a\xE9b`), up to rg's hint.
      let theirs = try #require(rgRefused.stderr.firstRange(of: "found invalid UTF-8 in pattern at byte offset"))
      let said = String(rgRefused.stderr[theirs.lowerBound...])
      let upToHint = String(said[..<(said.firstRange(of: " (")?.lowerBound ?? said.endIndex)])
      #expect(refused.stderr.contains(upToHint), "\(refused.stderr) vs rg's \(rgRefused.stderr)")
    }
    let next = try run(CLI.executable.path, #"next --rotor matches --pattern $'\xfe' --at 0 ok.txt"#)
    #expect(next.status == 2 && next.stderr.contains("found invalid UTF-8 in pattern"), "\(next.stderr)")
  }

  @Test("segment, next and stats print such a name byte for byte, and with U+FFFD in JSON")
  func otherCommands() throws {
    let root = NSTemporaryDirectory() + "textrotor-names-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: root) }
    try Self.make(root, Array("caf".utf8) + [0xE9] + Array(".txt".utf8), "a word\n")
    try Self.make(root, Array("ok.txt".utf8), "ok\n")
    func run(_ arguments: String) throws -> CLIResult {
      try CLI.runProcess("/bin/bash", ["-c", "exec \"$0\" " + arguments, CLI.executable.path], in: root)
    }
    let name = Array("caf".utf8) + [0xE9] + Array(".txt".utf8)
    let counts = try run(#"segment --by word --count $'caf\xe9.txt' ok.txt"#)
    #expect(counts.status == 0 && counts.stdoutData == Data(name + Array(":4\nok.txt:2\n".utf8)), "\(counts.stdout)")
    let entries = try run(#"segment --by word --words-only $'caf\xe9.txt' ok.txt"#)
    #expect(entries.stdoutData == Data(name + Array(":1:1:a\n".utf8) + name + Array(":1:3:word\nok.txt:1:1:ok\n".utf8)))
    let stats = try run(#"stats $'caf\xe9.txt'"#)
    #expect(stats.status == 0 && stats.stdoutData.starts(with: name + Array(": 7 bytes".utf8)), "\(stats.stdout)")
    let json = try run(#"next --rotor words --at 0 --json $'caf\xe9.txt'"#)
    #expect(json.status == 0 && json.stdout.contains("\"path\":\"caf\u{FFFD}.txt\""), "\(json.stdout)")
    let statsJSON = try run(#"stats --json $'caf\xe9.txt'"#)
    #expect(statsJSON.stdout.hasPrefix("{\"path\":\"caf\u{FFFD}.txt\""), "\(statsJSON.stdout)")
  }

  @Test("an error names such a file with U+FFFD for its ill-formed bytes; the other files are searched")
  func errors() throws {
    let root = NSTemporaryDirectory() + "textrotor-names-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: root) }
    try Self.make(root, Array("d".utf8) + [0xFF] + Array("/x.txt".utf8), "needle\n")
    // A link to nowhere, named with a Latin-1 byte, followed with -L: reported by its name.
    let link = Array(root.utf8) + Array("/broken".utf8) + [0xE9, 0]
    #expect(symlink("nowhere", link.map { CChar(bitPattern: $0) }) == 0)
    let ours = try CLI.runProcess(CLI.executable.path, ["find", "-L", "-l", "needle", "."], in: root)
    #expect(ours.stdoutData == Data("./d".utf8 + [0xFF] + "/x.txt\n".utf8))
    #expect(ours.status == 2)
    #expect(ours.stderr.contains("./broken\u{FFFD}: No such file or directory"), "\(ours.stderr)")
  }
}

/// A set in a glob (`[!x]`, `[/]`) may match `/`, in ignore files and in -g, as in rg; a rule
/// without a slash is matched as rg matches it, as `**/RULE` (`*[!x]b` ignores `d/a/b`).
@Suite("CLI: find's glob sets, as rg")
struct FindGlobSetsTests {
  @Test(
    "the files a set rule leaves are rg's",
    arguments: [
      ("d/a[!x]b", [String]()), ("d/a[/]b", []), ("/d/a[!.]b", []), ("d/[!d]*", []), ("*[!x]b", []), ("[!x]*", []),
      ("!*[!x]b", []),
      ("", ["-g", "d/a[!x]b"]), ("", ["-g", "!d/a[/]b"]), ("", ["-g", "*[!x]*"]),
    ])
  func sameAsRipgrep(rule: String, options: [String]) throws {
    let rg = try #require(FindNonUTF8NamesTests.rg, "ripgrep (rg) is needed for this test")
    let root = NSTemporaryDirectory() + "textrotor-sets-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: root) }
    for (path, text) in [
      ("d/a/b", "needle"), ("d/azb", "needle"), ("d/a.b", "needle"), ("e/f", "needle"), (".gitignore", rule),
    ] {
      try FileManager.default.createDirectory(
        atPath: (root + "/" + path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
      try Data((text + "\n").utf8).write(to: URL(fileURLWithPath: root + "/" + path))
    }
    _ = try CLI.runProcess("/usr/bin/git", ["init", "-q"], in: root)
    let ours = try CLI.runProcess(CLI.executable.path, ["find", "-l", "--sort", "path", "needle"] + options, in: root)
    let theirs = try CLI.runProcess(rg, ["--no-config", "-l", "--sort", "path", "needle"] + options, in: root)
    #expect(
      ours.stdout == theirs.stdout && ours.status == theirs.status,
      "\(rule) \(options): \(ours.stdout) vs \(theirs.stdout)")
  }
}
