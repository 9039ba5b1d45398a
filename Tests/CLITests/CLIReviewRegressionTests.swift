import Foundation
import Testing

/// Regressions found by using the command line as a new user would.
@Suite("CLI: review regressions")
struct CLIReviewRegressionTests {
  /// `find -f FILE` with no path searches standard input (a file here), as `-f FILE PATH` searches
  /// the path, and `-f -` (the patterns on standard input) with no path searches the current
  /// directory, as rg does. With no `-e`, no argument is the pattern: it trapped on the missing one.
  @Test func patternFileWithoutPath() throws {
    let directory = NSTemporaryDirectory() + "textrotor-f-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    try Data("cat\ndog\n".utf8).write(to: URL(fileURLWithPath: directory + "/pats"))
    try Data("the category\nno match\nhot dog\n".utf8).write(to: URL(fileURLWithPath: directory + "/text.txt"))
    let bin = CLI.executable.path
    let explicit = try CLI.runProcess(bin, ["find", "-f", "pats", "text.txt"], in: directory)
    #expect(explicit.status == 0 && explicit.stdout == "1:5:the category\n3:5:hot dog\n")
    let input = try #require(FileHandle(forReadingAtPath: directory + "/text.txt"))
    let fromInput = try CLI.runProcess(bin, ["find", "-f", "pats"], in: directory, input: input)
    #expect(fromInput.status == explicit.status && fromInput.stdout == explicit.stdout, "\(fromInput)")
    // `-f -`: the patterns come from standard input, so the directory is searched.
    let patterns = try #require(FileHandle(forReadingAtPath: directory + "/pats"))
    let fromDirectory = try CLI.runProcess(bin, ["find", "-f", "-"], in: directory, input: patterns)
    let eachPattern = try CLI.runProcess(bin, ["find", "-e", "cat", "-e", "dog"], in: directory)
    #expect(fromDirectory.status == 0 && fromDirectory.stdout == eachPattern.stdout, "\(fromDirectory)")
    #expect(fromDirectory.stdout.contains("text.txt:1:5:the category"))
  }

  /// `next`/`prev --rotor matches` take several `--pattern`s, as `find` does: the entries are the
  /// matches of any of them (only the last one was used). Checked at every offset against the
  /// occurrences of the literals found by Swift.
  @Test func navigationWithSeveralPatterns() throws {
    let text = "foo bar\nbaz foo barfoo\n"
    let path = try CLI.temporaryFile(Array(text.utf8))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let bytes = Array(text.utf8)
    let literals = ["bar", "foo", "baz"]
    var starts: [Int] = []
    for literal in literals {
      let l = Array(literal.utf8)
      for i in 0...(bytes.count - l.count) where Array(bytes[i..<(i + l.count)]) == l { starts.append(i) }
    }
    starts.sort()
    let patterns = literals.flatMap { ["--pattern", $0] }
    for offset in 0...bytes.count {
      for (command, want) in [("next", starts.first { $0 > offset }), ("prev", starts.last { $0 < offset })] {
        let result = try CLI.run([command, "--rotor", "matches", "--at", "\(offset)", "--json"] + patterns + [path])
        if let want {
          let o = try CLI.jsonObject(try #require(result.lines.first, "\(command) at \(offset)"))
          #expect(o["start"] as? Int == want, "\(command) at \(offset)")
        } else {
          #expect(result.status == 1, "\(command) at \(offset): none")
        }
      }
    }
  }

  /// `stats --elements lines` counts the `lines` rotor as `segment` does: an empty line is an
  /// element and a line (stats left the empty ones out).
  @Test func statsCountsEmptyLineElements() throws {
    for text in ["\n\n\n", "a\n\nb\r\n\r\nc\rd\n", "only", "x\n\n"] {
      let path = try CLI.temporaryFile(Array(text.utf8))
      defer { try? FileManager.default.removeItem(atPath: path) }
      for kind in ["whole", "lines", "paragraphs"] {
        let segment = try CLI.run(["segment", "--by", "line", "--elements", kind, "--count", path])
        let stats = try CLI.run(["stats", "--elements", kind, "--rotors", "lines", "--json", path])
        let o = try CLI.jsonObject(try #require(stats.lines.first))
        let rotors = try #require(o["rotors"] as? [String: Any], "\(stats.stdout)")
        let lines = try #require(rotors["lines"] as? [String: Any], "\(stats.stdout)")
        #expect(
          lines["entries"] as? Int == Int(segment.stdout.trimmingCharacters(in: .whitespacesAndNewlines)),
          "\(text.debugDescription), --elements \(kind): \(stats.stdout) vs \(segment.stdout)")
      }
    }
  }

  /// `-w` with several patterns (or a regex with alternatives): a leftmost match that is not a
  /// whole word does not hide a whole-word match of another alternative at the same place
  /// (`-w -e cat -e category` on `category` found nothing). On random lines of ASCII words and
  /// single spaces, where the word boundaries are the words' edges, the matches are the words equal
  /// to a pattern (rg 13 disagrees on some: it reports `a` inside `ba` for `-w -e a -e ba`, a bug
  /// its later versions fixed). The seed is printed.
  @Test func wholeWordAlternatives() throws {
    let seed = UInt64.random(in: 0...UInt64.max)
    var rng = SplitMix(state: seed)
    let words = ["a", "ab", "abc", "b", "ba", "cat", "category", "cats", "at"]
    for round in 0..<TestScale.count(40) {
      var lines: [[String]] = []
      for _ in 0..<4 {
        lines.append((0..<Int(rng.next() % 6 + 1)).map { _ in words[Int(rng.next() % UInt64(words.count))] })
      }
      let text = lines.map { $0.joined(separator: " ") }.joined(separator: "\n") + "\n"
      let path = try CLI.temporaryFile(Array(text.utf8))
      defer { try? FileManager.default.removeItem(atPath: path) }
      let patterns = (0..<Int(rng.next() % 3 + 2)).map { _ in words[Int(rng.next() % UInt64(words.count))] }
      let want = lines.flatMap { $0.filter(patterns.contains) }.map { $0 + "\n" }.joined()
      let literals = patterns.flatMap { ["-e", $0] }
      let ours = try CLI.run(["find", "-o", "-N", "--no-column", "-w"] + literals + [path])
      #expect(ours.stdout == want, "seed \(seed) round \(round): \(patterns) on \(text.debugDescription)")
      let regex = try CLI.run([
        "find", "-o", "-N", "--no-column", "-w", "--regex", patterns.joined(separator: "|"), path,
      ])
      #expect(regex.stdout == want, "seed \(seed) round \(round): regex \(patterns) on \(text.debugDescription)")
    }
  }

  /// A file that cannot be read gets its error and no count, with `--include-zero` or alone (a
  /// missing file was counted as `missing:0`, or `0`), as in rg.
  @Test func noCountForUnreadableFile() throws {
    let path = try CLI.temporaryFile(Array("foo\nbar foo\n".utf8))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let missing = path + ".missing"
    for arguments in [["-c", "--include-zero"], ["--count", "--include-zero"]] {
      let both = try CLI.run(["find"] + arguments + ["foo", path, missing])
      #expect(both.status == 2 && both.lines.count == 1 && both.lines.first?.hasPrefix(path + ":") == true, "\(both)")
      #expect(both.stderr.contains("No such file or directory"))
      let alone = try CLI.run(["find"] + arguments + ["foo", missing])
      #expect(alone.status == 2 && alone.stdout.isEmpty, "\(alone)")
    }
  }

  /// Output modes given together resolve as rg resolves them (they were refused): -q prints
  /// nothing, --json wins over -o and --vimgrep, a count over -l, -l over -o; -v works with -o,
  /// --vimgrep, --json and context (its context lines are the lines with a match, whose matches
  /// --json lists). The pairs rg resolves by their order, and --json with a count or a file list
  /// (which rg refuses too), are refused with a message naming them.
  @Test func outputModesTogether() throws {
    let path = try CLI.temporaryFile(Array("a\nfoo bar foo\nb\nc\nfoo\nd\n".utf8))
    defer { try? FileManager.default.removeItem(atPath: path) }
    // The JSON messages without their timings, in order.
    func messages(_ json: String) throws -> [String] {
      try json.split(separator: "\n").map { line in
        var object = try CLI.jsonObject(String(line))
        var data = try #require(object["data"] as? [String: Any])
        data["stats"] = nil
        data["elapsed_total"] = nil
        object["data"] = data
        let encoded = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        return String(decoding: encoded, as: UTF8.self)
      }
    }
    let modes = [
      ["-o"], ["--vimgrep"], ["-v"], ["-v", "-C1"], ["-v", "-B1"], ["-o", "-C1"], ["-m1", "-A2"], ["-v", "-m1", "-A2"],
    ]
    for options in modes {
      let ours = try CLI.run(["find", "--json"] + options + ["foo", path])
      let theirs = try FindCommandTests.ripgrep(["--no-config", "--json"] + options + ["foo", path])
      let same = try messages(ours.stdout) == messages(theirs)
      #expect(ours.status == 0 && same, "--json \(options)")
    }
    for options in [["-q", "-l"], ["-q", "-c"], ["-q", "--json"], ["-q", "--vimgrep", "-o"]] {
      let found = try CLI.run(["find"] + options + ["foo", path])
      #expect(found.status == 0 && found.stdout.isEmpty, "\(options): \(found)")
      let none = try CLI.run(["find"] + options + ["nothing", path])
      #expect(none.status == 1 && none.stdout.isEmpty, "\(options): \(none)")
    }
    // (--count with -c, and -l with --files-without-match: the last wins, see
    // lastOfOverridingFlagsWins.)
    for (options, named) in [
      (["--json", "-c"], "--json"), (["--json", "-l"], "--json"), (["--json", "--count"], "--json"),
    ] {
      let refused = try CLI.run(["find"] + options + ["foo", path])
      #expect(refused.status == 2 && refused.stderr.contains(named), "\(options): \(refused)")
    }
  }

  /// A pattern starting with `-` is given with `-e`, `-e-foo` or `--pattern` (as in rg; the
  /// parser refused it as a missing value, and `--pattern -foo` was read as `-f oo`).
  @Test func patternStartingWithADash() throws {
    let path = try CLI.temporaryFile(Array("-foo\n--bar\nfoo\n".utf8))
    defer { try? FileManager.default.removeItem(atPath: path) }
    for arguments in [
      ["-e", "-foo"], ["-e-foo"], ["--pattern", "-foo"], ["-e", "--bar"], ["-e", "x", "-e", "-foo"],
    ] {
      let ours = try CLI.run(["find", "-N", "--no-column"] + arguments + [path])
      // rg spells --pattern --regexp.
      let theirs = try FindCommandTests.ripgrep(
        ["--no-config", "-F"] + arguments.map { $0 == "--pattern" ? "--regexp" : $0 } + [path])
      #expect(ours.status == 0 && ours.stdout == theirs, "\(arguments): \(ours)")
    }
  }

  /// `-c`/`--count` print no count for a file without a match unless --include-zero, one file or
  /// standard input alone too, as rg (textrotor printed 0 there).
  @Test func noZeroCountWithoutIncludeZero() throws {
    let path = try CLI.temporaryFile(Array("x\n".utf8))
    defer { try? FileManager.default.removeItem(atPath: path) }
    for option in ["-c", "--count"] {
      let alone = try CLI.run(["find", option, "zzz", path])
      #expect(alone.status == 1 && alone.stdout.isEmpty, "\(option): \(alone)")
      let input = try CLI.run(["find", option, "zzz"], stdin: Data("x\n".utf8))
      #expect(input.status == 1 && input.stdout.isEmpty, "\(option) on standard input: \(input)")
      let zero = try CLI.run(["find", option, "--include-zero", "zzz", path])
      #expect(zero.status == 1 && zero.stdout == "0\n", "\(option) --include-zero: \(zero)")
    }
  }

  /// Git's global excludes file applies in a repository, as in git and rg (it was not read):
  /// `~/.config/git/ignore` (`$XDG_CONFIG_HOME/git/ignore`), or `core.excludesFile` in
  /// `~/.gitconfig`; not outside a repository, not with --no-ignore.
  @Test func gitGlobalExcludes() throws {
    let root = NSTemporaryDirectory() + "textrotor-global-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: root) }
    let home = root + "/home"
    let repo = root + "/repo"
    for directory in [home + "/.config/git", repo + "/.git", repo + "/secret", repo + "/sub"] {
      try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }
    for file in ["secret/a.txt", "b.txt", "sub/c.log"] {
      try Data("needle\n".utf8).write(to: URL(fileURLWithPath: repo + "/" + file))
    }
    try Data("secret/\n*.log\n".utf8).write(to: URL(fileURLWithPath: home + "/.config/git/ignore"))
    func found(_ extra: [String] = [], environment: [String: String]) throws -> [String] {
      let result = try CLI.run(["find", "-l"] + extra + ["needle", repo], environment: environment)
      return result.lines.map { String($0.dropFirst(repo.count + 1)) }.sorted()
    }
    let environment = ["HOME": home, "XDG_CONFIG_HOME": ""]
    #expect(try found(environment: environment) == ["b.txt"])
    #expect(try found(["--no-ignore"], environment: environment) == ["b.txt", "secret/a.txt", "sub/c.log"])
    #expect(try found(environment: ["HOME": root, "XDG_CONFIG_HOME": home + "/.config"]) == ["b.txt"])
    // core.excludesFile wins over the default file.
    try Data("[core]\n\texcludesFile = ~/mine\n".utf8).write(to: URL(fileURLWithPath: home + "/.gitconfig"))
    try Data("b.txt\n".utf8).write(to: URL(fileURLWithPath: home + "/mine"))
    #expect(try found(environment: environment) == ["secret/a.txt", "sub/c.log"])
    // Outside a repository it does not apply.
    try FileManager.default.removeItem(atPath: repo + "/.git")
    #expect(try found(environment: environment) == ["b.txt", "secret/a.txt", "sub/c.log"])
  }

  /// `-m` with trailing context on standard input read in pieces prints what a file gives: the
  /// piece read after the stop was searched again (a match printed twice, context past -A). The
  /// pieces are written with pauses, so the reader hands each over on its own.
  @Test func maxCountContextAcrossPieces() throws {
    let pieces = ["ab\nx\n", "ab1\n", "ab2\nab3\nab4\nab5\n"]
    let path = try CLI.temporaryFile(Array(pieces.joined().utf8))
    defer { try? FileManager.default.removeItem(atPath: path) }
    for options in [["-m1", "-A3"], ["-m1", "-A3", "-o"], ["-v", "-m1", "-A2"]] {
      let file = try CLI.run(["find"] + options + ["ab", path])
      let pipe = Pipe()
      let writer = pipe.fileHandleForWriting
      DispatchQueue.global().async {
        for piece in pieces {
          writer.write(Data(piece.utf8))
          usleep(300_000)
        }
        try? writer.close()
      }
      let piped = try CLI.runProcess(
        CLI.executable.path, ["find"] + options + ["ab"], in: NSTemporaryDirectory(), input: pipe.fileHandleForReading)
      #expect(piped.stdout == file.stdout, "\(options): \(piped.stdout.debugDescription)")
    }
  }

  /// With -v, -o prints each match of a context line with its column, as rg; a context line's
  /// column counts a byte order mark as every column does.
  @Test func invertedContextColumns() throws {
    let path = try CLI.temporaryFile(Array("ab x ab\nzz\n".utf8))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let ours = try CLI.run(["find", "-v", "-o", "-B1", "ab", path])
    let theirs = try FindCommandTests.ripgrep(["--no-config", "-n", "--column", "-v", "-o", "-B1", "ab", path])
    #expect(ours.stdout == theirs && ours.lines == ["1-1-ab", "1-6-ab", "2:zz"], "\(ours)")
    let bom = try CLI.temporaryFile([0xEF, 0xBB, 0xBF] + Array("xx ab\nzz\n".utf8))
    defer { try? FileManager.default.removeItem(atPath: bom) }
    let column = try CLI.run(["find", "ab", bom]).lines.first?.split(separator: ":").dropFirst().first
    #expect(column == "7")
    #expect(try CLI.run(["find", "-v", "-C1", "ab", bom]).lines == ["1-7-xx ab", "2:zz"])
  }

  /// A -v context line's matches (its column, --json's submatches) were searched with the very
  /// matcher whose scan was going on: a regex keeps state across a scan's lines, and the nested
  /// search clobbered it, so with two patterns and a context line of 254 bytes or more a line
  /// holding a match (`6:b`) was printed as a line without one.
  @Test func invertedContextWithSeveralPatterns() throws {
    let path = try CLI.temporaryFile(Array(("\n" + String(repeating: "b", count: 254) + "\n\nb\nb\nb").utf8))
    defer { try? FileManager.default.removeItem(atPath: path) }
    for after in ["-A1", "-A2"] {
      let ours = try CLI.run(["find", "-v", after, "-e", "b", "-e", "q", path])
      let theirs = try FindCommandTests.ripgrep([
        "--no-config", "-n", "--column", "-v", after, "-e", "b", "-e", "q", path,
      ])
      #expect(ours.stdout == theirs, "\(after): \(ours.stdout)")
      #expect(!ours.lines.contains("6:b"))
      let json = try CLI.run(["find", "--json", "-v", after, "-e", "b", "-e", "q", path])
      let rgJSON = try FindCommandTests.ripgrep(["--no-config", "--json", "-v", after, "-e", "b", "-e", "q", path])
      #expect(FindRipgrepTests.withoutTimes(json.stdout) == FindRipgrepTests.withoutTimes(rgJSON), "\(after)")
    }
  }

  /// `--json -N` wrote each line's number where rg writes `null`.
  @Test func jsonWithoutLineNumbers() throws {
    let path = try CLI.temporaryFile(Array("ab\nx\nab\n".utf8))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let ours = try CLI.run(["find", "--json", "-N", "-A1", "ab", path])
    let theirs = try FindCommandTests.ripgrep(["--no-config", "--json", "-N", "-A1", "ab", path])
    #expect(FindRipgrepTests.withoutTimes(ours.stdout) == FindRipgrepTests.withoutTimes(theirs))
    #expect(ours.stdout.contains(#""line_number":null"#))
  }

  /// `-m 0` asks for no match: as rg, nothing is searched, printed or reported, and the exit
  /// status is 1 (a missing file included); textrotor used to search and list files without a match.
  @Test func maxCountZero() throws {
    let path = try CLI.temporaryFile(Array("ab\n".utf8))
    defer { try? FileManager.default.removeItem(atPath: path) }
    for options in [[], ["--files-without-match"], ["-c", "--include-zero"], ["--json"], ["-v"], ["-q"]] {
      let ours = try CLI.run(["find", "-m", "0"] + options + ["ab", path, path + ".missing"])
      #expect(ours.status == 1 && ours.stdout.isEmpty && ours.stderr.isEmpty, "\(options): \(ours)")
      let theirs = try FindCommandTests.ripgrep(
        ["--no-config", "-m", "0"] + options + ["ab", path, path + ".missing"])
      #expect(theirs.isEmpty)
    }
    // A pattern that is no regex is still an error.
    #expect(try CLI.run(["find", "-m", "0", "--regex", "(", path]).status == 2)
  }

  /// Overriding flags given together: the last one wins, as in rg (the differential test's table).
  @Test func lastOfOverridingFlagsWins() throws {
    let lines = try CLI.temporaryFile(Array("l1\nl2\nl3\nfoo\nl5\nl6\nl7\n".utf8))
    let cased = try CLI.temporaryFile(Array("ab\nAB\nab(\n".utf8))
    defer {
      try? FileManager.default.removeItem(atPath: lines)
      try? FileManager.default.removeItem(atPath: cased)
    }
    let contexts: [[String]] = [
      ["-B", "3", "-C", "0"], ["-C", "2", "-B", "0"], ["-C", "1", "-A", "3"], ["-A", "3", "-C", "1"],
      ["-B", "2", "-A", "1", "-C", "1"],
    ]
    for options in contexts {
      let ours = try CLI.run(["find", "--no-column"] + options + ["foo", lines])
      let theirs = try FindCommandTests.ripgrep(["--no-config", "-n"] + options + ["foo", lines])
      #expect(ours.stdout == theirs, "\(options): \(ours)")
    }
    let flags: [[String]] = [
      ["-s", "-i"], ["-i", "-s"], ["-S", "-i"], ["-i", "-S"], ["-x", "-w"], ["-w", "-x"], ["-H", "-I"], ["-I", "-H"],
      ["-l", "--files-without-match"], ["--files-without-match", "-l"],
    ]
    for options in flags {
      let ours = try CLI.run(["find", "-N"] + options + ["ab", cased, lines])
      let theirs = try FindCommandTests.ripgrep(["--no-config", "--sort", "path"] + options + ["ab", cased, lines])
      #expect(ours.stdout == theirs && ours.status == (theirs.isEmpty ? 1 : 0), "\(options): \(ours)")
    }
    // textrotor's --count is rg's --count-matches.
    for (ours, theirs) in [
      (["-c", "--count"], ["-c", "--count-matches"]), (["--count", "-c"], ["--count-matches", "-c"]),
    ] {
      let mine = try CLI.run(["find", "-i"] + ours + ["ab", cased])
      #expect(
        mine.stdout == (try FindCommandTests.ripgrep(["--no-config", "-i"] + theirs + ["ab", cased])), "\(ours)")
    }
  }

  /// `--heading -I` (a terminal's default with -I): files apart by a blank line, as rg, though no
  /// path is shown (headings were off without a path, so files ran together, or "--" between
  /// context groups); `-g -x` takes `-x` as the glob, as rg (the parser wanted a value).
  @Test func headingWithoutPathsAndDashGlob() throws {
    let directory = NSTemporaryDirectory() + "textrotor-heading-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    try Data("foo\nx\nfoo\n".utf8).write(to: URL(fileURLWithPath: directory + "/h1.txt"))
    try Data("y\nfoo\n".utf8).write(to: URL(fileURLWithPath: directory + "/h2.txt"))
    try Data("foo\n".utf8).write(to: URL(fileURLWithPath: directory + "/-x"))
    let files = [directory + "/h1.txt", directory + "/h2.txt"]
    for options in [["--heading", "-I"], ["--heading", "-I", "-A1"], ["-I", "-A1"], ["--heading", "-A1"]] {
      let ours = try CLI.run(["find"] + options + ["foo"] + files)
      let theirs = try FindCommandTests.ripgrep(
        ["--no-config", "--sort", "path", "-n", "--column"] + options + ["foo"] + files)
      #expect(ours.stdout == theirs, "\(options): \(ours.stdout)")
    }
    let bin = CLI.executable.path
    let glob = try CLI.runProcess(bin, ["find", "-g", "-x", "foo"], in: directory)
    #expect(glob.status == 0 && glob.stdout == "-x:1:1:foo\n", "\(glob)")
  }

  /// Colours as rg's: matches that touch are one highlighted span (`foofoo`), and a -v context
  /// line's matches are highlighted (all on the line printed once, the row's own under --vimgrep).
  @Test func colouredLikeRipgrep() throws {
    let path = try CLI.temporaryFile(Array("a foo b foo\nx\nfoo\nfoofoo y\nz\n".utf8))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let modes: [[String]] = [
      [], ["-o"], ["--vimgrep"], ["-C1"], ["-v", "-C1"], ["-v", "-C1", "-o"], ["-v", "-C1", "--vimgrep"],
      ["-v", "-C1", "--vimgrep", "-o"],
    ]
    for options in modes {
      let ours = try CLI.run(["find", "--color", "always"] + options + ["foo", path])
      let theirs = try FindCommandTests.ripgrep(
        ["--no-config", "-n", "--column", "--color", "always"] + options + ["foo", path])
      #expect(ours.stdout == theirs, "\(options): \(ours.stdout.debugDescription)")
    }
  }

}
