import Foundation
import Testing

/// `find` against ripgrep itself: the same options give the same output, byte for byte, on the
/// corpora, on directory trees and on standard input.
@Suite("textrotor find feels like rg")
struct FindRipgrepTests {
  /// Corpora whose lines rg and textrotor count alike (no lone CR, no CRLF, no byte order mark).
  static var corpora: [String] {
    let names =
      ((try? FileManager.default.contentsOfDirectory(atPath: CLI.packageRoot.appendingPathComponent("Corpora").path))
        ?? [])
    return names.filter { $0.hasSuffix(".txt") && !["cr.txt", "crlf.txt", "bom.txt"].contains($0) }.sorted().map {
      CLI.corpus($0)
    }
  }

  static func rg(_ arguments: [String]) throws -> String {
    try FindCommandTests.ripgrep(["--no-config", "--sort", "path"] + arguments)
  }

  /// One file holding all the corpora, so context lines and -m have many lines to work on.
  static func allCorpora() throws -> String {
    var bytes: [UInt8] = []
    for path in corpora { bytes += Array(FileManager.default.contents(atPath: path) ?? Data()) }
    return try CLI.temporaryFile(bytes)
  }

  @Test(
    "same output as rg -n --column for the everyday options",
    arguments: [
      // (our arguments, rg's arguments); rg prints line and column only when asked.
      (["the"], ["-F", "-n", "--column", "the"]),
      (["-o", "the"], ["-F", "-o", "-n", "--column", "the"]),
      (["-C2", "Linux"], ["-F", "-C2", "-n", "--column", "Linux"]),
      (["-A", "1", "-B", "3", "the"], ["-F", "-A1", "-B3", "-n", "--column", "the"]),
      (["-m", "3", "-B1", "e"], ["-F", "-m3", "-B1", "-n", "--column", "e"]),
      (["--vimgrep", "an"], ["-F", "--vimgrep", "an"]),
      (["-N", "ing"], ["-F", "ing"]),
      (["--no-column", "ing"], ["-F", "-n", "ing"]),
      (["-e", "the", "-e", "and", "-o"], ["-F", "-e", "the", "-e", "and", "-o", "-n", "--column"]),
      (["-w", "the"], ["-F", "-w", "-n", "--column", "the"]),
      (["-i", "THE"], ["-F", "-i", "-n", "--column", "THE"]),
      (["-S", "the"], ["-F", "-S", "-n", "--column", "the"]),
      (["-S", "The"], ["-F", "-S", "-n", "--column", "The"]),
      (["-i", "ПРИ"], ["-F", "-i", "-n", "--column", "ПРИ"]),
      (["-i", "-o", "ΚΑΙ"], ["-F", "-i", "-o", "-n", "--column", "ΚΑΙ"]),
      (["-i", "-w", "и"], ["-F", "-i", "-w", "-n", "--column", "и"]),
      (["--regex", #"th\w+"#, "-o"], ["-o", "-n", "--column", #"th\w+"#]),
      (["--regex", #"\w+ing\b"#], ["-n", "--column", #"\w+ing\b"#]),
      // \A, \z and look-around see one line, as rg matches each line alone (-P for look-around).
      // (rg's own -o and --count-matches of \A disagree with its -c: they search the whole buffer.)
      (["-c", "--regex", #"\A\w+"#], ["-c", #"\A\w+"#]),
      (["--regex", #"\w+\z"#], ["-n", "--column", #"\w+\z"#]),
      (["-c", "--regex", #"(?-m)\w$"#], ["-c", #"(?-m)\w$"#]),
      (["--regex", #"(?<=the )\w+"#, "-o"], ["-P", "-o", "-n", "--column", #"(?<=the )\w+"#]),
      (
        ["--regex", #"(?<![a-z])[a-z]{3}(?![a-z])"#, "--count"],
        ["-P", "--count-matches", #"(?<![a-z])[a-z]{3}(?![a-z])"#]
      ),
      (["--regex", #"e(?=[a-z]*$)"#, "-o"], ["-P", "-o", "-n", "--column", #"e(?=[a-z]*$)"#]),
      // A look-around's literal next to classes anchors the search (`,` and `of`). (A `\s` there
      // would differ: rg -P's look-behind sees the line before when the line also has a match of
      // its own, `,\nwho said, a`, and not otherwise; textrotor's look-around sees its line.)
      (["--regex", #"(?<=,[ \t])[a-z]+"#, "-o"], ["-P", "-o", "-n", "--column", #"(?<=,[ \t])[a-z]+"#]),
      (["--regex", #"\w+(?=\s+of\b)"#, "--count"], ["-P", "--count-matches", #"\w+(?=\s+of\b)"#]),
      // Without case: windows around the literal's ASCII case variants (look-around too).
      (["-i", "--regex", #"(?<=THE )\w+"#, "-o"], ["-P", "-i", "-o", "-n", "--column", #"(?<=THE )\w+"#]),
      (["-i", "--regex", #"\w+(?= OF)"#, "--count"], ["-P", "-i", "--count-matches", #"\w+(?= OF)"#]),
      (["-i", "--regex", #"\w+TION\b"#, "-o"], ["-i", "-o", "-n", "--column", #"\w+TION\b"#]),
      (["-i", "--regex", #"СНЕ\w*"#, "-o"], ["-i", "-o", "-n", "--column", #"СНЕ\w*"#]),
      (["--count", "e"], ["-F", "--count-matches", "e"]),
      (["-l", "Linux"], ["-F", "-l", "Linux"]),
      // rg's other everyday options.
      (["-v", "the"], ["-F", "-v", "-n", "--column", "the"]),
      (["-v", "--count", "e"], ["-F", "-v", "--count", "e"]),
      (["-c", "the"], ["-F", "-c", "the"]),
      (["-v", "-c", "e"], ["-F", "-v", "-c", "e"]),
      (["-v", "-m", "4", "e"], ["-F", "-v", "-m4", "-n", "e"]),
      (["-v", "-l", "e"], ["-F", "-v", "-l", "e"]),
      (["-x", ""], ["-F", "-x", "-n", "--column", ""]),
      (["-x", "-i", "LINUX"], ["-F", "-x", "-i", "-n", "--column", "LINUX"]),
      (["--files-without-match", "Linux"], ["-F", "--files-without-match", "Linux"]),
      (["-H", "Linux"], ["-F", "-H", "-n", "--column", "Linux"]),
      (["-I", "Linux"], ["-F", "-I", "-n", "--column", "Linux"]),
      (["-l", "--null", "the"], ["-F", "-l", "--null", "the"]),
      (["--null", "Linux"], ["-F", "--null", "-n", "--column", "Linux"]),
      (["-i", "-s", "the"], ["-F", "-i", "-s", "-n", "--column", "the"]),
      (["--color", "always", "-o", "Linux"], ["-F", "--color", "always", "-o", "-n", "--column", "Linux"]),
      (["--colour=never", "Linux"], ["-F", "--colour=never", "-n", "--column", "Linux"]),
      (["--sort", "path", "Linux"], ["-F", "-n", "--column", "Linux"]),
      // Context around -o, --vimgrep and -v; output modes given together resolve as rg's do.
      (["-o", "-C1", "the"], ["-F", "-o", "-C1", "-n", "--column", "the"]),
      (["-o", "-B2", "-A1", "Linux"], ["-F", "-o", "-B2", "-A1", "-n", "--column", "Linux"]),
      (["--vimgrep", "-C1", "an"], ["-F", "--vimgrep", "-C1", "an"]),
      (["--vimgrep", "-o", "-A2", "an"], ["-F", "--vimgrep", "-o", "-A2", "an"]),
      (["-v", "-o", "e"], ["-F", "-v", "-o", "-n", "e"]),
      (["-v", "--vimgrep", "the"], ["-F", "-v", "--vimgrep", "the"]),
      (["-v", "-C1", "the"], ["-F", "-v", "-C1", "-n", "--column", "the"]),
      (["-v", "-B2", "-m", "7", "--no-column", "e"], ["-F", "-v", "-B2", "-m7", "-n", "e"]),
      // After -m's last match, trailing context lines that match are printed as matches, as rg does.
      (["-m", "3", "-A", "2", "e"], ["-F", "-m3", "-A2", "-n", "--column", "e"]),
      (["-o", "-m", "2", "-A", "3", "the"], ["-F", "-o", "-m2", "-A3", "-n", "--column", "the"]),
      (["-v", "-m", "2", "-A", "4", "--no-column", "the"], ["-F", "-v", "-m2", "-A4", "-n", "the"]),
      (["-l", "-c", "the"], ["-F", "-l", "-c", "the"]),
      (["-o", "-l", "Linux"], ["-F", "-o", "-l", "Linux"]),
      (["--vimgrep", "--count", "an"], ["-F", "--vimgrep", "--count-matches", "an"]),
      (["--files-without-match", "-o", "Linux"], ["-F", "--files-without-match", "-o", "Linux"]),
    ])
  func sameAsRipgrep(_ ours: [String], _ theirs: [String]) throws {
    let all = try Self.allCorpora()
    defer { try? FileManager.default.removeItem(atPath: all) }
    for files in [[all], Self.corpora] {
      let mine = try CLI.run(["find"] + ours + files)
      let expected = try Self.rg(theirs + files)
      #expect(mine.stdout == expected, "find \(ours) on \(files.count) files")
      #expect(mine.status == (expected.isEmpty ? 1 : 0), "\(mine.stderr)")
    }
  }

  @Test("a directory: walked as rg walks it (.gitignore, .ignore, hidden, binary, -g), same output")
  func directory() throws {
    let fm = FileManager.default
    let root = NSTemporaryDirectory() + "textrotor-dir-\(UUID().uuidString)"
    defer { try? fm.removeItem(atPath: root) }
    for dir in [".git", "src/deep", "build", ".hidden", "docs"] {
      try fm.createDirectory(atPath: root + "/" + dir, withIntermediateDirectories: true)
    }
    let files: [(String, String)] = [
      ("src/a.swift", "let target = 1\nno\ntarget target\n"), ("src/deep/b.swift", "x\ntarget\n"),
      ("src/deep/skip.log", "target\n"), ("build/out.txt", "target\n"), (".hidden/h.txt", "target\n"),
      (".dot.txt", "target\n"), ("docs/readme.md", "the target is here\n"), ("docs/keep.log", "target again\n"),
      (".gitignore", "build/\n*.log\n!docs/keep.log\nsrc/deep//\n"), ("docs/.ignore", "nothing-here\n"),
      ("top.txt", "target\n"),
    ]
    for (path, text) in files { try Data(text.utf8).write(to: URL(fileURLWithPath: root + "/" + path)) }
    try Data(Array("target\n".utf8) + [0, 1, 2] + Array("target\n".utf8)).write(
      to: URL(fileURLWithPath: root + "/src/blob.bin"))
    for (ours, theirs) in [
      (["target"], ["-n", "--column", "--no-heading", "target"]),
      (["--count", "target"], ["--count-matches", "target"]),
      (["-l", "target"], ["-l", "target"]),
      (["--hidden", "-l", "target"], ["--hidden", "-l", "target"]),
      (["--no-ignore", "-l", "target"], ["--no-ignore", "-l", "target"]),
      (["-g", "*.swift", "-l", "target"], ["-g", "*.swift", "-l", "target"]),
      (["-g", "!src", "-l", "target"], ["-g", "!src", "-l", "target"]),
      (["--json", "target"], ["--json", "target"]),
      (["-u", "-l", "target"], ["-u", "-l", "target"]),
      (["-uu", "-l", "target"], ["-uu", "-l", "target"]),
      (["-uuu", "-l", "target"], ["-uuu", "-l", "target"]),
      (["--files-without-match", "-uu", "the"], ["--files-without-match", "-uu", "the"]),
    ] {
      let mine = try CLI.run(["find"] + ours + [root])
      let expected = try Self.rg(["-F"] + theirs + [root])
      #expect(
        Self.withoutTimes(mine.stdout) == Self.withoutTimes(expected), "find \(ours) on a directory:\n\(mine.stdout)")
      #expect(mine.status == 0)
    }
    // With a heading (rg's output on a terminal): the path above its lines, a blank line between files.
    let headed = try CLI.run(["find", "--heading", "-g", "*.swift", "target", root])
    let rgHeaded = try Self.rg(["-F", "--heading", "-n", "--column", "-g", "*.swift", "target", root])
    #expect(headed.stdout == rgHeaded)
    // Globs that select nothing (`/` is a glob of a slash alone) still select: nothing is searched.
    // An empty glob, one of spaces, and a `#` comment select nothing and whitelist nothing; `!`
    // alone excludes everything.
    for glob in ["/", "//", "nothing-is-named-this", "", " ", "#x", "#", "!", "! ", "\\#x", "src/deep//"] {
      let mine = try CLI.run(["find", "-l", "-g", glob, "target", root])
      let expected = try Self.rg(["-F", "-l", "-g", glob, "target", root])
      #expect(mine.stdout == expected, "-g '\(glob)'")
      #expect(mine.status == (expected.isEmpty ? 1 : 0), "-g '\(glob)': \(mine.stdout)")
    }
  }

  /// JSON output without the times (which differ run to run) and bytes printed (which count the path).
  static func withoutTimes(_ text: String) -> String {
    text.replacingOccurrences(of: #""elapsed(_total)?":\{[^}]*\}"#, with: "", options: .regularExpression)
      .replacingOccurrences(of: #""bytes_printed":[0-9]+"#, with: "", options: .regularExpression)
  }

  @Test("no path and standard input not a terminal: standard input is searched")
  func standardInputByDefault() throws {
    let result = try CLI.run(["find", "b"], stdin: Data("abc\nxyz\nb\n".utf8))
    #expect(result.lines == ["1:2:abc", "3:1:b"])
    #expect(result.status == 0)
    let none = try CLI.run(["find", "-q", "zzz"], stdin: Data("abc\n".utf8))
    #expect(none.status == 1)
    #expect(none.stdout.isEmpty)
  }

  @Test("a pipe is read piece by piece: line numbers, offsets and context carry across pieces")
  func streamedPieces() throws {
    // Over 3 MiB through standard input, so the search runs in several pieces.
    var text = ""
    for i in 0..<200_000 { text += i % 9973 == 0 ? "line \(i) needle here\n" : "line \(i) hay\n" }
    let file = try CLI.temporaryFile(Array(text.utf8))
    defer { try? FileManager.default.removeItem(atPath: file) }
    for args in [["needle"], ["-C", "2", "needle"], ["--json", "needle"], ["--count", "needle"], ["-o", "needle"]] {
      let piped = try CLI.run(["find"] + args + ["-"], stdin: Data(text.utf8))
      let mapped = try CLI.run(["find"] + args + [file])
      #expect(
        Self.withoutTimes(piped.stdout)
          == Self.withoutTimes(mapped.stdout).replacingOccurrences(of: file, with: "<stdin>"), "\(args)")
    }
  }

  @Test("--json's bytes_printed counts every byte of the file's messages before its end, streamed or not")
  func bytesPrinted() throws {
    // Over 64 KiB of messages, so a stream's are written piece by piece; and as UTF-16.
    var text = ""
    for i in 0..<20_000 { text += "line \(i) needle here\n" }
    let file = try CLI.temporaryFile(Array(text.utf8))
    let utf16 = try CLI.temporaryFile([0xFF, 0xFE] + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
    defer {
      try? FileManager.default.removeItem(atPath: file)
      try? FileManager.default.removeItem(atPath: utf16)
    }
    func check(_ output: String, _ what: String) throws {
      var before = 0
      var ends = 0
      for line in output.split(separator: "\n") {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        if object["type"] as? String == "end" {
          let data = try #require(object["data"] as? [String: Any])
          let stats = try #require(data["stats"] as? [String: Any])
          #expect(stats["bytes_printed"] as? Int == before, "\(what)")
          ends += 1
          before = 0
        } else if object["type"] as? String != "summary" {
          before += line.utf8.count + 1
        }
      }
      #expect(ends == 1, "\(what)")
    }
    try check(try CLI.run(["find", "--json", "needle", "-"], stdin: Data(text.utf8)).stdout, "a pipe")
    try check(try CLI.run(["find", "--json", "needle", file]).stdout, "a file")
    try check(try CLI.run(["find", "--json", "needle", utf16]).stdout, "a UTF-16 file")
    try check(
      try CLI.run(["find", "--json", "needle", "-"], stdin: try Data(contentsOf: URL(fileURLWithPath: utf16))).stdout,
      "a UTF-16 pipe")
    #expect(try Self.rg(["--json", "needle", file]).contains(#""bytes_printed":"#))
  }

  /// Runs `textrotor` with `arguments` (standard output to `output`) for `seconds`, sampling its
  /// resident memory every 0.1 s; returns the peak (kB) and whether it was still running, then
  /// kills it (SIGKILL: the test runner's threads block SIGTERM, and the child inherits that mask).
  static func peakResidentKB(_ arguments: [String], output: Any, seconds: Double) throws -> (kB: Int, running: Bool) {
    let process = Process()
    process.executableURL = CLI.executable
    process.arguments = arguments
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    defer {
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
    }
    var peakKB = 0
    for _ in 0..<Int(seconds * 10) {
      Thread.sleep(forTimeInterval: 0.1)
      let status = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)) ?? ""
      for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
        peakKB = max(peakKB, Int(line.split(separator: " ")[1]) ?? 0)
      }
    }
    return (peakKB, process.isRunning)
  }

  @Test("an endless device is read in bounded memory (issue 9, item 7)")
  func endlessInputBoundedMemory() throws {
    let (peakKB, running) = try Self.peakResidentKB(
      ["find", "--count", "a", "/dev/zero"], output: FileHandle.nullDevice, seconds: 1.5)
    #expect(running, "it reads on, without end")
    #expect(
      peakKB > 0 && peakKB < 64 * 1024 + CLI.sanitizerMemorySlackKB,
      "resident memory \(peakKB) kB after 1.5 s of /dev/zero")
  }

  /// --vimgrep prints a line once a match: a 30,000-byte line of 15,000 matches is 450 MB of
  /// output, which was all gathered before the first byte was written.
  @Test("the output of one long line of many matches is written as it grows, in bounded memory")
  func longLineOutputBoundedMemory() throws {
    var generator = SystemRandomNumberGenerator()
    let line = (0..<30_000).map { _ in Bool.random(using: &generator) ? UInt8(ascii: "x") : UInt8(ascii: "a") }
    let path = try CLI.temporaryFile(line + [0x0A])
    defer { try? FileManager.default.removeItem(atPath: path) }
    // A pipe nobody reads: once it is full, the writer waits; what it holds meanwhile is the
    // output not written yet.
    let pipe = Pipe()
    let (peakKB, running) = try Self.peakResidentKB(["find", "--vimgrep", "x", path], output: pipe, seconds: 2)
    #expect(running, "it waits for the pipe to be read")
    #expect(
      peakKB > 0 && peakKB < 64 * 1024 + CLI.sanitizerMemorySlackKB,
      "resident memory \(peakKB) kB with 2 s of output unread")
  }

  @Test("-f FILE: patterns one a line (CRLF too, - for standard input), with -e, as rg reads them")
  func patternFiles() throws {
    let text = try CLI.temporaryFile(Array("alpha Linux\nbeta\n\ngamma\nBETA\n".utf8))
    let patterns = try CLI.temporaryFile(Array("Linux\r\nbeta\n".utf8))
    let empty = try CLI.temporaryFile([])
    defer { for f in [text, patterns, empty] { try? FileManager.default.removeItem(atPath: f) } }
    for args in [["-f", patterns], ["-e", "gamma", "-f", patterns], ["-i", "-f", patterns], ["-f", empty]] {
      let mine = try CLI.run(["find"] + args + [text])
      let expected = try Self.rg(["-F", "-n", "--column"] + args + [text])
      #expect(mine.stdout == expected, "\(args)")
      #expect(mine.status == (expected.isEmpty ? 1 : 0), "\(args): \(mine.stderr)")
    }
    let piped = try CLI.run(["find", "-f", "-", text], stdin: Data("beta\n".utf8))
    #expect(piped.lines == ["2:1:beta"])
    let missing = try CLI.run(["find", "-f", "/nonexistent/patterns", text])
    #expect(missing.status == 2 && missing.stderr.contains("/nonexistent/patterns"))
  }

  /// Thousands of literal patterns are one alternation of literals: RE2 takes it whatever its
  /// program's size (its DFA is their trie), where ICU ran past its time limit (exit 2).
  @Test("-f with 20,000 words: the counts and lines rg finds (on RE2: ICU ran past its time limit)")
  func manyPatterns() throws {
    var state: UInt64 = 0xF11E
    func next() -> UInt64 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return state >> 33
    }
    func word() -> String {
      String((0..<6).map { _ in Character(Unicode.Scalar(UInt8(ascii: "a") + UInt8(next() % 26))) })
    }
    let words = (0..<20_000).map { _ in word() } + ["a.b", "c|d", "(e)"]
    var lines: [String] = []
    for k in 0..<400 {
      let picked = (0..<4).map { _ in next() % 3 == 0 ? words[Int(next() % UInt64(words.count))] : word() }
      lines.append("\(k) " + picked.joined(separator: " ") + (k % 50 == 0 ? " a.b c|d (e)" : ""))
    }
    let text = try CLI.temporaryFile(Array(lines.joined(separator: "\n").utf8))
    let patterns = try CLI.temporaryFile(Array(words.joined(separator: "\n").utf8))
    defer { for f in [text, patterns] { try? FileManager.default.removeItem(atPath: f) } }
    for (ours, theirs) in [(["--count"], ["--count-matches"]), (["-n", "--column"], ["-n", "--column"])] {
      let mine = try CLI.run(["find"] + ours + ["-f", patterns, text])
      let expected = try Self.rg(["-F"] + theirs + ["-f", patterns, text])
      #expect(mine.stdout == expected, "\(ours)")
      #expect(mine.status == 0, "\(ours): \(mine.stderr.prefix(300))")
    }
  }

  @Test("an ill-formed byte matches nothing, whatever the regex (., [^a], \\W, \\S, \\p{Any}), as in rg")
  func illFormedBytesMatchNothing() throws {
    let bytes: [UInt8] =
      Array("a".utf8) + [0xFF] + Array("b x".utf8) + [0xC3] + Array("y\nz".utf8) + [0xE2, 0x82]
      + Array("é\n\u{FFFD}ok\n".utf8)
    let text = try CLI.temporaryFile(bytes)
    defer { try? FileManager.default.removeItem(atPath: text) }
    for pattern in [".", "a.b", "[^a]", "\\W", "a\\Wb", "\\S+", "\\p{Any}", "x.y", ".é", "z..", "(?s).", "[^\\n]+"] {
      let mine = try CLI.run(["find", "-a", "-o", "--regex", pattern, text])
      let expected = try Self.rg(["-a", "-o", "-n", "--column", pattern, text])
      #expect(mine.stdout == expected, "\(pattern)")
    }
    // Past a few thousand matches the whole slab is checked once instead of each match.
    let many = try CLI.temporaryFile(
      Array(String(repeating: "axb ayb\n", count: 5000).utf8) + Array("a".utf8) + [0xFF] + Array("b azb\n".utf8))
    defer { try? FileManager.default.removeItem(atPath: many) }
    for args in [["--count"], ["-o"]] {
      let mine = try CLI.run(["find", "-a", "--regex"] + args + ["a.b", many])
      let expected = try Self.rg(
        ["-a", "-n", "--column"] + (args == ["--count"] ? ["--count-matches"] : args) + ["a.b", many])
      #expect(mine.stdout == expected, "\(args)")
    }
  }

  @Test("a regex spelling a line feed is refused as rg refuses it; [^\\n] and [a\\n] are taken")
  func lineFeedInRegex() throws {
    let text = try CLI.temporaryFile(Array("ab\na\\nb\nx\n".utf8))
    defer { try? FileManager.default.removeItem(atPath: text) }
    for pattern in [
      "a\\nb", "[\\n]", "[^\\n]+", "\\x0A", "a\\x{0a}", "\\x{00A}", "[a\\n]", "\\s", "\\\\n", "a\\u000Ab",
      "(?x) a \\n b",
      "[\\x0A]", "a\\nb|c",
    ] {
      let mine = try CLI.run(["find", "--regex", pattern, text])
      let theirs = try CLI.runProcess(
        "/usr/bin/rg", ["--no-config", "-n", "--column", pattern, text], in: NSTemporaryDirectory())
      #expect((mine.status == 2) == (theirs.status == 2), "\(pattern): \(mine.status) against rg's \(theirs.status)")
      if mine.status == 2 {
        #expect(mine.stderr.contains("not allowed"), "\(pattern): \(mine.stderr)")
      } else {
        #expect(mine.stdout == theirs.stdout, "\(pattern)")
      }
    }
  }

  @Test("a long line of many matches: -c, --count, -m, -l, -q, -v as rg counts them")
  func longLineCounts() throws {
    let text = try CLI.temporaryFile(
      Array(
        ("x\n" + String(repeating: "ab ", count: 200_000) + "\nab\nzz\n" + String(repeating: "b", count: 70_000)).utf8))
    defer { try? FileManager.default.removeItem(atPath: text) }
    for (ours, theirs) in [
      (["-c"], ["-c"]), (["--count"], ["--count-matches"]), (["--count", "-m", "1"], ["--count-matches", "-m", "1"]),
      (["-c", "-m", "1"], ["-c", "-m", "1"]), (["-l"], ["-l"]), (["-q"], ["-q"]), (["-v", "-c"], ["-v", "-c"]),
      (["--count", "-H"], ["--count-matches", "-H"]),
    ] {
      let mine = try CLI.run(["find"] + ours + ["ab", text])
      let expected = try Self.rg(["-F"] + theirs + ["ab", text])
      #expect(mine.stdout == expected, "\(ours)")
      #expect(mine.status == (expected.isEmpty && ours != ["-q"] ? 1 : 0), "\(ours): \(mine.stderr)")
    }
  }

  @Test("exit codes as rg's: with -q a match wins over a missing file; -j 0 is one thread a core")
  func quietAndThreads() throws {
    let text = try CLI.temporaryFile(Array("hello\nworld\n".utf8))
    defer { try? FileManager.default.removeItem(atPath: text) }
    for args in [
      ["-q", "hello", "/nonexistent/a", text], ["-q", "zzz", "/nonexistent/a", text],
      ["-q", "hello", "/nonexistent/a"],
      ["-l", "hello", "/nonexistent/a", text], ["-j", "0", "-l", "hello", text, text],
    ] {
      let mine = try CLI.run(["find"] + args)
      let theirs = try CLI.runProcess("/usr/bin/rg", ["--no-config", "-F"] + args, in: NSTemporaryDirectory())
      #expect(mine.status == theirs.status, "\(args): \(mine.status) against rg's \(theirs.status)")
      #expect(mine.stdout == theirs.stdout, "\(args)")
    }
  }

  @Test("rg's option spellings: -C2, -m1, -iw, -efoo, --count-matches, -- before a pattern starting with -")
  func spellings() throws {
    let file = try CLI.temporaryFile(Array("a\nfoo\nb\n-x Foo\n".utf8))
    defer { try? FileManager.default.removeItem(atPath: file) }
    #expect(try CLI.run(["find", "-C1", "-m1", "foo", file]).lines == ["1-a", "2:1:foo", "3-b"])
    #expect(try CLI.run(["find", "-iw", "foo", file]).lines == ["2:1:foo", "4:4:-x Foo"])
    #expect(try CLI.run(["find", "-efoo", "--count-matches", file]).stdout == "1\n")
    #expect(try CLI.run(["find", "--", "-x", file]).lines == ["4:1:-x Foo"])
    let usage = try CLI.run(["find"])
    #expect(usage.status == 2)
    #expect(usage.stderr.contains("PATTERN"))
  }

  @Test(
    "a CRLF line is printed with its CR as rg prints it; --column under -N, -c -o -v, -S with a spelled capital as rg"
  )
  func crlfLinesAndCounts() throws {
    // CRLF lines, a blank one, an LF line among them, a last line without a terminator (no lone
    // CR: textrotor ends a line there, rg does not).
    let file = try CLI.temporaryFile(
      Array("one foo\r\ntwo\r\n\r\nthree foo bar\r\nfour\nfive foo\r\nHello\r\nhello\r\nlast foo".utf8))
    defer { try? FileManager.default.removeItem(atPath: file) }
    let cases: [([String], [String])] = [
      (["foo"], ["-F", "-n", "--column", "foo"]),
      (["-o", "foo"], ["-F", "-o", "-n", "--column", "foo"]),
      (["--vimgrep", "foo"], ["-F", "--vimgrep", "foo"]),
      (["--vimgrep", "-o", "foo"], ["-F", "--vimgrep", "-o", "foo"]),
      (["-v", "foo"], ["-F", "-v", "-n", "foo"]),
      (["-A1", "foo"], ["-F", "-A1", "-n", "--column", "foo"]),
      (["-C1", "-m", "1", "two"], ["-F", "-C1", "-m1", "-n", "--column", "two"]),
      (["-o", "-v", "-A1", "--no-column", "foo"], ["-F", "-o", "-v", "-A1", "-n", "foo"]),
      (["-v", "-C1", "foo"], ["-F", "-v", "-C1", "-n", "--column", "foo"]),
      (["--color", "always", "foo"], ["-F", "--color", "always", "-n", "--column", "foo"]),
      // --column shows the column under -N too; -v context lines show each match's text under -o.
      (["-N", "--column", "foo"], ["-F", "-N", "--column", "foo"]),
      (["-v", "-A1", "-N", "--column", "foo"], ["-F", "-v", "-A1", "-N", "--column", "foo"]),
      (
        ["--vimgrep", "-o", "-v", "-A1", "--no-column", "foo"],
        ["-F", "--vimgrep", "-o", "-v", "-A1", "--no-column", "foo"]
      ),
      (["--vimgrep", "-o", "-v", "-A1", "-N", "foo"], ["-F", "--vimgrep", "-o", "-v", "-A1", "-N", "foo"]),
      (["-c", "-o", "-v", "foo"], ["-F", "-c", "-o", "-v", "foo"]),
      (["-c", "-o", "-v", "o"], ["-F", "-c", "-o", "-v", "o"]),
      (["--count", "-v", "foo"], ["-F", "--count-matches", "-v", "foo"]),
      (["-c", "-v", "foo"], ["-F", "-c", "-v", "foo"]),
      (["-S", "--regex", #"\x48ello"#], ["-S", "-n", "--column", #"\x48ello"#]),
      (["-S", "--regex", #"\x{48}ello"#], ["-S", "-n", "--column", #"\x{48}ello"#]),
      (["-S", "--regex", #"\u0048ello"#], ["-S", "-n", "--column", #"\u0048ello"#]),
      (["-S", "--regex", #"h\x65llo"#], ["-S", "-n", "--column", #"h\x65llo"#]),
    ]
    for (ours, theirs) in cases {
      let mine = try CLI.run(["find"] + ours + [file])
      let expected = try Self.rg(theirs + [file])
      #expect(mine.stdout == expected, "find \(ours)")
      #expect(mine.status == (expected.isEmpty ? 1 : 0), "find \(ours): \(mine.stderr)")
    }
  }

}
