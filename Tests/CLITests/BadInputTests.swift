import Foundation
import Testing

/// Bad input, run as processes: each case with its exit code, message and output (issue 9).
@Suite("CLI: bad input", .serialized)
struct BadInputTests {
  static func file(_ bytes: [UInt8]) throws -> String { try CLI.temporaryFile(bytes) }
  static func file(_ text: String) throws -> String { try CLI.temporaryFile(Array(text.utf8)) }
  static func remove(_ paths: String...) { for p in paths { try? FileManager.default.removeItem(atPath: p) } }

  @Test("item 1: a line with 40,000 matches is printed at once", .timeLimit(.minutes(5)))
  func manyMatchesOnALine() throws {
    let f = try Self.file(String(repeating: "a ", count: 40_000) + "\n")
    defer { Self.remove(f) }
    let human = try CLI.run(["find", "--pattern", "a", f])
    #expect(human.status == 0)
    #expect(human.lines.count == 1)
    let json = try CLI.run(["find", "--json", "--pattern", "a", f])
    #expect(json.status == 0)
    let match = try CLI.jsonObject(json.lines[1])
    let data = match["data"] as? [String: Any]
    #expect((data?["submatches"] as? [Any])?.count == 40_000)
  }

  @Test("item 2: a literal with CR LF is an error, for find and for the matches rotor")
  func literalWithCRLF() throws {
    let f = try Self.file("x\r\nab\n")
    defer { Self.remove(f) }
    for arguments in [
      ["find", "--json", "--pattern", "\r\nab", f],
      ["next", "--rotor", "matches", "--pattern", "\r\nab", "--at", "0", f],
    ] {
      let result = try CLI.run(arguments)
      #expect(result.status == 2, "\(arguments)")
      #expect(result.stdout == "")
      #expect(result.stderr.contains("holds a line terminator"), "\(result.stderr)")
      // The literal is quoted with its controls escaped, not as raw CR LF.
      #expect(result.stderr.contains("the literal '\\r\\nab'"), "\(result.stderr)")
    }
  }

  /// Runs textrotor on `file`, waits for its first byte of output (the process then blocks on its
  /// full standard output pipe), truncates `file` to `size` bytes and reads the rest. Expects the
  /// "file shrank" error with exit 2 and no NUL in the output; returns the output.
  static func truncatedWhileRead(_ arguments: [String], file: String, to size: Int) throws -> String {
    let process = Process()
    process.executableURL = CLI.executable
    process.arguments = arguments
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let first = out.fileHandleForReading.readData(ofLength: 1)
    #expect(first.count == 1)
    #expect(truncate(file, off_t(size)) == 0)
    let (rest, errData) = readToEnd(out, err)
    process.waitUntilExit()
    let output = String(decoding: first + rest, as: UTF8.self)
    let stderr = String(decoding: errData, as: UTF8.self)
    #expect(process.terminationStatus == 2)
    #expect(stderr.contains("the file shrank while it was being read"), "\(stderr)")
    #expect(!output.contains("\0"))
    return output
  }

  /// A mapped file truncated while `segment` prints it: the missing pages would read as zeros
  /// (SIGBUS without the guard). The output stops at the new end, with an error and exit 2.
  /// Deterministic: the process segments the whole file before it prints, and blocks on its full
  /// standard output pipe until the test, having truncated the file, reads on.
  @Test("item 8 for segment: a file truncated while it is printed stops at its new end", .timeLimit(.minutes(5)))
  func truncatedWhileSegmented() throws {
    let line = "alpha beta gamma delta\n"  // 23 bytes, 4 words
    let lines = 200_000
    let f = try Self.file(String(repeating: line, count: lines))
    defer { Self.remove(f) }
    // The first output means segmentation is done; the pipe (64 KiB) then holds the process.
    let output = try Self.truncatedWhileRead(
      ["segment", "--by", "word", "--words-only", f], file: f, to: 23 * 40_000 + 6)  // inside line 40,001
    let printed = output.split(separator: "\n")
    let lineNumbers = printed.compactMap { Int($0.split(separator: ":")[0]) }
    #expect(lineNumbers.count == printed.count)
    // Every word of the first 40,000 lines and the "alpha" of line 40,001, nothing after it.
    #expect(printed.count == 40_000 * 4 + 1, "\(printed.count) entries")
    #expect(lineNumbers.max() == 40_001)
    #expect(printed.last == "40001:1:alpha")
  }

  /// Item 8 as reported: `find --json` on a mapped file truncated while it is searched printed the
  /// zeroed pages as one huge line. Deterministic: `find` prints as it searches one file and blocks
  /// on its full standard output pipe until the test, having truncated the file, reads on.
  @Test("item 8 for find: a file truncated while it is searched stops at its new end", .timeLimit(.minutes(5)))
  func truncatedWhileSearched() throws {
    let line = "abc a def\n"  // 10 bytes, one match
    // 2 MB: over 1 MiB, so the file is mapped (smaller files are read whole at once).
    let f = try Self.file(String(repeating: line, count: 200_000))
    defer { Self.remove(f) }
    // The first output comes when 64 KiB of it is ready; the pipe (64 KiB) then holds the process.
    // Truncated inside line 60,001.
    let output = try Self.truncatedWhileRead(["find", "--json", "def", f], file: f, to: 10 * 60_000 + 4)
    #expect(!output.contains("\\u0000"))
    let messages = try output.split(separator: "\n").map { try CLI.jsonObject(String($0)) }
    let matches = messages.filter { $0["type"] as? String == "match" }
    #expect(matches.count == 60_000, "\(matches.count) matches")
    let last = matches.last?["data"] as? [String: Any]
    #expect(last?["line_number"] as? Int == 60_000)
    #expect(messages.last?["type"] as? String == "summary")
  }

  @Test("item 6: empty regex matches as ripgrep's")
  func emptyRegexMatches() throws {
    let f = try Self.file("bab\n")
    defer { Self.remove(f) }
    let result = try CLI.run(["find", "--json", "--regex", "--pattern", "a*", f])
    #expect(result.status == 0)
    let data = try CLI.jsonObject(result.lines[1])["data"] as? [String: Any]
    let offsets = (data?["submatches"] as? [[String: Any]])?.map { [$0["start"] as? Int, $0["end"] as? Int] }
    #expect(offsets == [[0, 0], [1, 2], [3, 3]])
    #expect(try CLI.run(["find", "--count", "--regex", "--pattern", "a*", f]).stdout == "3\n")
  }

  @Test(
    "item 5: --pattern=TEXT where TEXT starts with a combining mark, ZWJ or variation selector",
    arguments: ["\u{301}x", "\u{200D}y", "\u{FE0F}z"])
  func attachedValueStartingWithAMark(pattern: String) throws {
    let f = try Self.file("e\(pattern) and more\n")
    defer { Self.remove(f) }
    let result = try CLI.run(["find", "--pattern=\(pattern)", f])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.lines == ["1:2:e\(pattern) and more"])
    #expect(result.stderr == "")
  }

  @Test("item 9: an unknown --locale says so on stderr, exit status unchanged")
  func unknownLocale() throws {
    let f = try Self.file("hello world\n")
    defer { Self.remove(f) }
    for locale in ["xx", "../../etc/passwd", String(repeating: "a", count: 200)] {
      for arguments in [["segment", "--by", "word", "--count"], ["next", "--rotor", "words", "--at", "0"]] {
        let result = try CLI.run(arguments + ["--locale", locale, f])
        #expect(result.status == 0)
        #expect(!result.stdout.isEmpty)
        #expect(result.stderr.contains("ICU has no data for the locale '\(locale.prefix(40))"), "\(result.stderr)")
        #expect(result.stderr.contains("root (language-independent) rules are used"))
      }
    }
    for locale in ["", "de", "th", "ja", "sv", "de_CH", "en_US_POSIX", "root"] {
      let result = try CLI.run(["segment", "--by", "word", "--count", "--locale", locale, f])
      #expect(result.status == 0)
      #expect(result.stderr == "", "\(locale): \(result.stderr)")
    }
  }

  @Test("item 10: --elements lines lists the empty lines that --elements whole lists")
  func emptyLinesAsElements() throws {
    let f = try Self.file("a\n\nb\r\n\r\nc\rd\n")
    defer { Self.remove(f) }
    func starts(_ extra: [String]) throws -> [Int] {
      try CLI.run(["segment", "--by", "line", "--json"] + extra + [f]).lines.map {
        try CLI.jsonObject($0)["start"] as! Int
      }
    }
    let whole = try starts([])
    #expect(whole == [0, 2, 3, 6, 8, 10])
    #expect(try starts(["--elements", "lines"]) == whole)
    #expect(try CLI.run(["segment", "--by", "line", "--count", "--elements", "lines", f]).stdout == "6\n")
    let next = try CLI.run(["next", "--rotor", "lines", "--at", "1", "--elements", "lines", "--json", f])
    #expect(try CLI.jsonObject(next.lines[0])["start"] as? Int == 2)
    let prev = try CLI.run(["prev", "--rotor", "lines", "--at", "8", "--elements", "lines", "--json", f])
    #expect(try CLI.jsonObject(prev.lines[0])["start"] as? Int == 6)
  }

  @Test("items 3 and 4: UTF-16 offsets of ill-formed UTF-8 and grapheme columns in the JSON")
  func utf16AndGraphemeColumns() throws {
    let f = try Self.file([0x61, 0x80, 0x62, 0xFF, 0x63, 0xE0, 0x80, 0x80, 0x64, 0x0A])
    let g = try Self.file(Array("a\u{6DD})bb".utf8))
    defer { Self.remove(f, g) }
    let result = try CLI.run(["segment", "--by", "grapheme", "--json", f])
    #expect(result.status == 0)
    #expect(result.stderr.contains("invalid UTF-8 at byte 1 (0x80)"))
    let last = try CLI.jsonObject(result.lines.last!)
    #expect(last["utf16"] as? [Int] == [9, 10])
    #expect(last["label"] as? String == "\n")
    let words = try CLI.run(["segment", "--by", "word", "--json", "--position-encoding", "grapheme", g])
    let bb = try CLI.jsonObject(words.lines.last!)
    #expect(bb["label"] as? String == "bb")
    #expect(bb["column"] as? Int == 3)
    let prev = try CLI.run(["prev", "--rotor", "words", "--at", "5", "--json", "--position-encoding", "grapheme", g])
    #expect(try CLI.jsonObject(prev.lines[0])["column"] as? Int == 3)
  }

  // MARK: item 7: streams

  /// `segment` of standard input, read in tiny blocks, prints what it prints for the file.
  @Test(
    "item 7: a stream segmented block by block equals the file",
    arguments: ["demo.txt", "crlf.txt", "cr.txt", "bom.txt", "emoji.txt", "invalid-utf8.bin", "no-final-newline.txt"])
  func streamEqualsFile(corpus: String) throws {
    let path = CLI.corpus(corpus)
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    let modes: [[String]] = [
      ["--by", "line", "--json"], ["--by", "line", "--json", "--elements", "lines"], ["--by", "word", "--count"],
      ["--by", "word", "--json", "--words-only"], ["--by", "paragraph", "--json"],
      ["--by", "sentence", "--json", "--elements", "lines"],
      ["--by", "grapheme", "--json", "--elements", "paragraphs"],
      ["--by", "linebreak", "--json", "--position-encoding", "utf-16"],
    ]
    // At a reduced TestScale each corpus gets a share of the modes, in turn.
    let rotation =
      ["demo.txt", "crlf.txt", "cr.txt", "bom.txt", "emoji.txt", "invalid-utf8.bin"].firstIndex(of: corpus) ?? 6
    for mode in TestScale.sample(modes, rotation: rotation) {
      let file = try CLI.run(["segment"] + mode + [path])
      for blockSize in ["1", "37"] {
        let stream = try CLI.run(
          ["segment"] + mode + ["-"], stdin: data, environment: ["TEXTROTOR_STREAM_BLOCK_SIZE": blockSize])
        #expect(stream.status == file.status, "\(corpus) \(mode)")
        #expect(
          stream.stdout.replacingOccurrences(of: "\"<stdin>\"", with: "\"\(path)\"") == file.stdout,
          "\(corpus) \(mode) blocks of \(blockSize)")
        #expect(stream.stderr.replacingOccurrences(of: "<stdin>", with: path) == file.stderr)
      }
    }
  }

  @Test("item 7: a FIFO is streamed like standard input")
  func fifo() throws {
    let path = NSTemporaryDirectory() + "textrotor-fifo-\(UUID().uuidString)"
    #expect(mkfifo(path, 0o600) == 0)
    defer { Self.remove(path) }
    let text = "one two\nthree\r\nfour\n"
    let writer = Thread {
      if let handle = FileHandle(forWritingAtPath: path) {
        handle.write(Data(text.utf8))
        try? handle.close()
      }
    }
    writer.start()
    let result = try CLI.run(["segment", "--by", "word", "--words-only", "--count", path])
    #expect(result.status == 0)
    #expect(result.stdout == "4\n")
  }

  /// Peak resident memory (KiB) of `textrotor arguments`, run under GNU time, or nil without it.
  static func peakMemory(_ arguments: [String], stdin: Data? = nil) throws -> (CLIResult, Int)? {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/time") else { return nil }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/time")
    process.arguments = ["-f", "peak-kb=%M", CLI.executable.path] + arguments
    let out = Pipe()
    let err = Pipe()
    let input = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = input
    try process.run()
    let feeder = Thread {
      if let stdin { input.fileHandleForWriting.write(stdin) }
      try? input.fileHandleForWriting.close()
    }
    feeder.start()
    let (outData, errData) = readToEnd(out, err)
    process.waitUntilExit()
    let stderr = String(decoding: errData, as: UTF8.self)
    guard let range = stderr.range(of: "peak-kb="), let kb = Int(stderr[range.upperBound...].prefix { $0.isNumber })
    else { return nil }
    let result = CLIResult(
      status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
      stderr: String(stderr[..<range.lowerBound]))
    return (result, kb)
  }

  @Test("item 7: 150 MB of standard input is counted in bounded memory", .timeLimit(.minutes(5)))
  func boundedStream() throws {
    let line = Array("The quick brown fox jumps over the lazy dog. Again!\n".utf8)
    var data = Data(capacity: 150 << 20)
    while data.count < 150 << 20 { data.append(contentsOf: line) }
    let lines = data.count / line.count
    guard let (result, kb) = try Self.peakMemory(["segment", "--by", "line", "--count", "-"], stdin: data) else {
      return
    }
    #expect(result.status == 0)
    #expect(result.stdout == "\(lines)\n")
    #expect(kb < (120 << 10) + CLI.sanitizerMemorySlackKB, "peak \(kb) KiB for 150 MB of input")
  }

  /// A streamed block's entries were printed from an array of them (24 bytes an entry, besides the
  /// segmenter's compact store): 8 MB of one-letter words on one line took 230 MB, the file 55 MB
  /// (found by a review; a 32 MB line took 880 MB).
  @Test("item 7: a streamed block's entries are printed without an array of them", .timeLimit(.minutes(5)))
  func streamedEntriesInBoundedMemory() throws {
    let data = Data((0..<(8 << 20)).map { $0 % 2 == 0 ? UInt8(0x79) : 0x20 })
    guard let (result, kb) = try Self.peakMemory(["segment", "--by", "word", "-"], stdin: data) else { return }
    #expect(result.status == 0)
    // One entry a byte: `y` and ` `, each on its own output line.
    #expect(result.stdout.utf8.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) } == 8 << 20)
    #expect(kb < (120 << 10) + CLI.sanitizerMemorySlackKB, "peak \(kb) KiB for 8 MB of one-letter words")
  }

  @Test("item 7: an endless device without line breaks stops with an error in bounded memory", .timeLimit(.minutes(5)))
  func endlessDevice() throws {
    guard let (result, kb) = try Self.peakMemory(["segment", "--by", "word", "--count", "/dev/zero"]) else { return }
    #expect(result.status == 2)
    #expect(result.stdout == "")
    #expect(result.stderr.contains("/dev/zero: no line break in 64 MiB of streamed input"))
    #expect(kb < (300 << 10) + CLI.sanitizerMemorySlackKB, "peak \(kb) KiB")
  }

  /// A stream segmented by paragraph is cut at blank lines: without one in 64 MiB the error said
  /// "no line break", of an input with one every two bytes.
  @Test(
    "a stream without a blank line in 64 MiB, by paragraph: the error names the blank line", .timeLimit(.minutes(5)))
  func endlessParagraph() throws {
    // Through a pipe from a shell: the program stops reading at 64 MiB, and a writer in this
    // process would be killed by SIGPIPE.
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = [
      "-c",
      "yes | head -c 70000000 | '\(CLI.executable.path)' segment --by paragraph --count - 2>&1 >/dev/null; echo $?",
    ]
    let out = Pipe()
    process.standardOutput = out
    try process.run()
    let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(text.contains("<stdin>: no blank line in 64 MiB of streamed input"), "\(text)")
    #expect(text.hasSuffix("2\n"), "\(text)")
  }

  /// `find` printed nothing of a stream before its end, and held all of its output in memory till
  /// then: `yes hello | textrotor find hello` grew without end, `tail -f log | textrotor find x`
  /// showed nothing. It prints each piece's matches as soon as that piece is searched.
  @Test("item 7: find prints what it finds in a pipe that stays open", .timeLimit(.minutes(5)))
  func findPrintsWhileThePipeIsOpen() throws {
    let process = Process()
    process.executableURL = CLI.executable
    process.arguments = ["find", "needle", "-"]
    let input = Pipe()
    let out = Pipe()
    process.standardInput = input
    process.standardOutput = out
    process.standardError = FileHandle.nullDevice
    try process.run()
    defer {
      try? input.fileHandleForWriting.close()
      process.waitUntilExit()
    }
    /// Whether standard output has something to read within `seconds`.
    func outputArrives(within seconds: Int32) -> Bool {
      var descriptor = pollfd(fd: out.fileHandleForReading.fileDescriptor, events: Int16(POLLIN), revents: 0)
      return poll(&descriptor, 1, seconds * 1000) == 1
    }
    var printed = Data()
    // A small write (a log line arriving), then 2 MiB (more than a piece); the pipe stays open.
    input.fileHandleForWriting.write(Data("one needle\n".utf8))
    #expect(outputArrives(within: 60), "nothing printed of a line read from an open pipe")
    if outputArrives(within: 0) { printed.append(out.fileHandleForReading.availableData) }
    var text = ""
    for i in 0..<100_000 { text += i % 16 == 0 ? "line \(i) needle\n" : "line \(i) hay\n" }
    // Written on another thread: the output (150 KB) is read here meanwhile, or both pipes fill.
    let written = DispatchSemaphore(value: 0)
    let writer = Thread { [text] in
      input.fileHandleForWriting.write(Data(text.utf8))
      written.signal()
    }
    writer.start()
    #expect(outputArrives(within: 60), "nothing printed of 2 MiB read from an open pipe")
    while written.wait(timeout: .now()) == .timedOut {
      if outputArrives(within: 0) { printed.append(out.fileHandleForReading.availableData) } else { usleep(1000) }
    }
    try input.fileHandleForWriting.close()
    printed.append(out.fileHandleForReading.readDataToEndOfFile())
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    let lines = String(decoding: printed, as: UTF8.self).split(separator: "\n")
    #expect(lines.count == 1 + 100_000 / 16)
    #expect(lines.first == "1:5:one needle")
    #expect(lines.last == "99986:12:line 99984 needle")
  }

  /// `segment` read 8 MiB of a stream (or to its end) before it printed anything:
  /// `(echo 'Hello world.'; sleep 5; echo more) | textrotor segment --by word -` showed nothing for
  /// 5 s. It prints the entries that are certain (up to the last line break, or the last blank line
  /// for paragraphs) as soon as the writer pauses, and they are those of the whole input.
  @Test(
    "item 7: segment prints what is certain of a pipe that stays open",
    .timeLimit(.minutes(5)),
    arguments: [
      ("word", "Hello world.\n", "more\n", 5), ("paragraph", "One.\n\nTwo\n", "x\n\nThree\n", 1),
      ("sentence", "One. Two\r\n\r\n", "three.\n", 3), ("line", "a\n\nb c", "\n", 2),
    ])
  func segmentPrintsWhileThePipeIsOpen(unit: String, first: String, rest: String, certain: Int) throws {
    let f = try Self.file(first + rest)
    defer { Self.remove(f) }
    let whole = try CLI.run(["segment", "--by", unit, f])
    #expect(whole.status == 0)
    #expect(whole.lines.count > certain, "\(unit): \(whole.lines)")
    let process = Process()
    process.executableURL = CLI.executable
    process.arguments = ["segment", "--by", unit, "-"]
    let input = Pipe()
    let out = Pipe()
    process.standardInput = input
    process.standardOutput = out
    process.standardError = FileHandle.nullDevice
    try process.run()
    defer {
      try? input.fileHandleForWriting.close()
      process.waitUntilExit()
    }
    input.fileHandleForWriting.write(Data(first.utf8))
    // The certain entries, read while the pipe stays open (60 s at most).
    var printed = Data()
    var descriptor = pollfd(fd: out.fileHandleForReading.fileDescriptor, events: Int16(POLLIN), revents: 0)
    let deadline = Date().addingTimeInterval(60)
    while printed.count(where: { $0 == 0x0A }) < certain && Date() < deadline {
      if poll(&descriptor, 1, 100) == 1 { printed.append(out.fileHandleForReading.availableData) }
    }
    let early = String(decoding: printed, as: UTF8.self).split(separator: "\n").map(String.init)
    #expect(early == Array(whole.lines.prefix(certain)), "\(unit): printed before the writer closed: \(early)")
    input.fileHandleForWriting.write(Data(rest.utf8))
    try input.fileHandleForWriting.close()
    printed.append(out.fileHandleForReading.readDataToEndOfFile())
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    #expect(String(decoding: printed, as: UTF8.self) == whole.stdout, "\(unit)")
  }

  /// A stream written in random pieces with pauses between them (so `segment` cuts its blocks where
  /// the writer paused, at any byte) prints what it prints for the file. The seed is printed on
  /// failure (TEXTROTOR_SEED replays it).
  @Test(
    "item 7: segment of a stream written with pauses equals the file",
    .timeLimit(.minutes(5)),
    arguments: [
      ["--by", "word", "--json"], ["--by", "paragraph", "--json"], ["--by", "sentence", "--prose"],
      ["--by", "line", "--elements", "lines"], ["--by", "grapheme", "--elements", "paragraphs", "--json"],
    ])
  func pausedStreamEqualsFile(mode: [String]) throws {
    let seed: UInt64 = {
      if let text = getenv("TEXTROTOR_SEED"), let value = UInt64(String(cString: text)) { return value }
      return UInt64.random(in: 1...UInt64.max)
    }()
    var state = seed
    /// A number in 0..<n (SplitMix64).
    func random(_ n: Int) -> Int {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return Int((z ^ (z >> 31)) % UInt64(n))
    }
    for corpus in ["wrapped-prose.txt", "crlf.txt", "cr.txt", "emoji.txt", "invalid-utf8.bin"] {
      let path = CLI.corpus(corpus)
      let data = try Data(contentsOf: URL(fileURLWithPath: path))
      let file = try CLI.run(["segment"] + mode + [path])
      let process = Process()
      process.executableURL = CLI.executable
      process.arguments = ["segment"] + mode + ["-"]
      let input = Pipe()
      let out = Pipe()
      process.standardInput = input
      process.standardOutput = out
      process.standardError = FileHandle.nullDevice
      try process.run()
      // The output is small (under the pipe's 64 KiB): it waits in the pipe until the end.
      var at = 0
      while at < data.count {
        let n = min(data.count - at, 1 + random(120))
        input.fileHandleForWriting.write(data[at..<(at + n)])
        at += n
        usleep(UInt32(2000 + random(3000)))
      }
      try input.fileHandleForWriting.close()
      let printed = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      process.waitUntilExit()
      #expect(process.terminationStatus == file.status, "seed \(seed): \(corpus) \(mode)")
      #expect(
        printed.replacingOccurrences(of: "\"<stdin>\"", with: "\"\(path)\"") == file.stdout,
        "seed \(seed): \(corpus) \(mode)")
    }
  }

  /// `find` kept a file's whole output in memory before printing it: a stream or a file with
  /// many matching lines needed memory in proportion to what it printed.
  @Test(
    "item 7: find's output is printed as it is found, in bounded memory",
    .timeLimit(.minutes(5)),
    arguments: [["-"], ["-", "/dev/null"], ["FILE"]])
  func boundedOutput(paths: [String]) throws {
    // 64 MiB (8 MiB at a reduced TestScale) of 128-byte lines, each with one match.
    let line = Array(
      (String(repeating: "The quick brown fox jumps over the lazy dog. ", count: 3).prefix(127) + "\n").utf8)
    let size = (TestScale.isReduced ? 8 : 64) << 20
    var data = Data(capacity: size)
    while data.count < size { data.append(contentsOf: line) }
    let file = try Self.file([UInt8](data))
    defer { Self.remove(file) }
    let arguments = ["find", "fox"] + paths.map { $0 == "FILE" ? file : $0 }
    guard let (result, kb) = try Self.peakMemory(arguments, stdin: paths == ["FILE"] ? nil : data) else { return }
    #expect(result.status == 0)
    #expect(result.stdout.utf8.count > size, "\(paths)")
    // The mapped file's pages count in the resident size; its output must not.
    let fileKB = paths == ["FILE"] ? size >> 10 : 0
    #expect(kb < fileKB + (40 << 10) + CLI.sanitizerMemorySlackKB, "\(paths): peak \(kb) KiB for \(size >> 20) MiB")
  }

  /// `next` and `prev` read a stream to its end before answering: on an endless one
  /// (`yes | textrotor next --rotor words --at 5 -`) they never answered and grew without end.
  @Test(
    "item 7: next and prev answer from a pipe that stays open",
    .timeLimit(.minutes(5)),
    arguments: [("next", "5", "1:7:world"), ("prev", "8", "1:7:world"), ("next", "17", "2:7:world")])
  func navigateAnOpenPipe(command: String, at: String, expected: String) throws {
    let process = Process()
    process.executableURL = CLI.executable
    process.arguments = [command, "--rotor", "words", "--at", at, "-"]
    let input = Pipe()
    let out = Pipe()
    process.standardInput = input
    process.standardOutput = out
    process.standardError = FileHandle.nullDevice
    try process.run()
    // 100 KiB of lines; the pipe stays open until the answer is read. The answer may come, and
    // the process end, before it has read all of them: the rest of the write then fails (EPIPE)
    // and raises a SIGPIPE, which would end this test process. It is blocked on this thread for
    // the write and taken back (pending) before it is unblocked.
    var pipeSignal = sigset_t()
    sigemptyset(&pipeSignal)
    sigaddset(&pipeSignal, SIGPIPE)
    var previousMask = sigset_t()
    pthread_sigmask(SIG_BLOCK, &pipeSignal, &previousMask)
    try? input.fileHandleForWriting.write(contentsOf: Data(String(repeating: "hello world\n", count: 8_500).utf8))
    var noWait = timespec(tv_sec: 0, tv_nsec: 0)
    while sigtimedwait(&pipeSignal, nil, &noWait) == SIGPIPE {}
    pthread_sigmask(SIG_SETMASK, &previousMask, nil)
    var descriptor = pollfd(fd: out.fileHandleForReading.fileDescriptor, events: Int16(POLLIN), revents: 0)
    #expect(poll(&descriptor, 1, 60_000) == 1, "no answer in 60 s while standard input stayed open")
    try input.fileHandleForWriting.close()
    let printed = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    #expect(printed == expected + "\n")
  }

  /// `next`/`prev` of a stream, read in tiny blocks, answer as for the file, for every system rotor,
  /// the matches, the three element kinds, and offsets from the start to past the end.
  @Test(
    "item 7: next and prev on a stream answer as on the file",
    arguments: ["demo.txt", "crlf.txt", "cr.txt", "bom.txt", "emoji.txt", "invalid-utf8.bin", "wrapped-prose.txt"])
  func navigateStreamEqualsFile(corpus: String) throws {
    let path = CLI.corpus(corpus)
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    let n = data.count
    let rotors: [[String]] = [
      ["characters"], ["words"], ["words", "--words-only"], ["sentences"], ["proseSentences"], ["lines"],
      ["paragraphs"], ["linebreaks"], ["matches", "--pattern", "e"],
    ]
    let elements = ["whole", "lines", "paragraphs"]
    let offsets = [0, 1, n / 3, n / 2, 2 * n / 3, n - 1, n, n + 1]
    var run = 0
    for (r, rotor) in rotors.enumerated() {
      // Each rotor gets three of the offsets, in turn (a share of them at a reduced TestScale).
      for k in TestScale.sample(0..<3, rotation: r) {
        let at = offsets[(r + 3 * k) % offsets.count]
        run += 1
        let command = run % 2 == 0 ? "next" : "prev"
        let arguments =
          [command, "--rotor"] + rotor + ["--at", "\(at)", "--json", "--elements", elements[run % 3]]
        let file = try CLI.run(arguments + [path])
        let stream = try CLI.run(
          arguments + ["-"], stdin: data, environment: ["TEXTROTOR_STREAM_BLOCK_SIZE": run / 2 % 2 == 0 ? "1" : "37"])
        #expect(stream.status == file.status, "\(corpus) \(arguments)")
        #expect(
          stream.stdout.replacingOccurrences(of: "\"<stdin>\"", with: "\"\(path)\"") == file.stdout,
          "\(corpus) \(arguments)")
        #expect(stream.stderr.replacingOccurrences(of: "<stdin>", with: path) == file.stderr, "\(corpus) \(arguments)")
      }
    }
  }

  // MARK: other bad input

  @Test("ill-formed UTF-8 of every kind: U+FFFD labels, UTF-16 offsets as String(decoding:)")
  func illFormedUTF8() throws {
    let bytes: [UInt8] =
      [
        0x61, 0x80, 0xBF, 0x62, 0xC0, 0x80, 0xC1, 0xBF, 0xE0, 0x80, 0x80, 0xED, 0xA0, 0x80, 0xF0, 0x90, 0x80, 0x20,
        0xF4, 0x90, 0x80, 0x80, 0xF5, 0xF8, 0xFF, 0xFE, 0xC3, 0x0A, 0xE4, 0xB8, 0x0A, 0xF0, 0x9F, 0x98, 0x80, 0x63,
      ]
    let f = try Self.file(bytes)
    defer { Self.remove(f) }
    for unit in ["grapheme", "word", "linebreak"] {
      let result = try CLI.run(["segment", "--by", unit, "--json", f])
      #expect(result.status == 0)
      #expect(result.stderr.contains("\(f): invalid UTF-8 at byte 1 (0x80); such bytes are read as U+FFFD"))
      let objects = try result.lines.map(CLI.jsonObject)
      var covered = 0
      for o in objects {
        let start = o["start"] as! Int
        let end = o["end"] as! Int
        #expect(start == covered, "\(unit): entries cover the text")
        covered = end
        let utf16 = o["utf16"] as! [Int]
        #expect(utf16[0] == String(decoding: bytes[0..<start], as: UTF8.self).utf16.count, "\(unit) at \(start)")
        #expect(utf16[1] == String(decoding: bytes[0..<end], as: UTF8.self).utf16.count, "\(unit) at \(end)")
        #expect(o["label"] as? String == String(decoding: bytes[start..<end], as: UTF8.self))
      }
      #expect(covered == bytes.count)
    }
  }

  @Test("NUL bytes: find says binary file matches, segment segments them")
  func nulBytes() throws {
    let f = try Self.file([0x61, 0x00, 0x62, 0x0A, 0x61, 0x62, 0x0A])
    defer { Self.remove(f) }
    let find = try CLI.run(["find", "--pattern", "ab", f])
    #expect(find.status == 0)
    #expect(find.stdout == "binary file matches (found \"\\0\" byte around offset 1)\n")
    let segment = try CLI.run(["segment", "--by", "grapheme", "--count", f])
    #expect(segment.status == 0)
    #expect(segment.stdout == "7\n")
  }

  @Test("empty file and /dev/null: nothing found, exit 1")
  func emptyInputs() throws {
    let f = try Self.file([UInt8]())
    defer { Self.remove(f) }
    for path in [f, "/dev/null"] {
      let find = try CLI.run(["find", "--pattern", "a", path])
      #expect(find.status == 1)
      #expect(find.stdout == "" && find.stderr == "")
      let segment = try CLI.run(["segment", "--by", "word", "--count", path])
      #expect(segment.status == 1)
      #expect(segment.stdout == "0\n")
      let next = try CLI.run(["next", "--rotor", "lines", "--at", "0", path])
      #expect(next.status == 1)
      #expect(next.stdout == "")
    }
  }

  @Test("a 200 MB single line: find --count and next on it", .timeLimit(.minutes(5)))
  func hugeSingleLine() throws {
    // 40 MB at a reduced TestScale (under the sanitizers): the same paths, in their time limit.
    var bytes = [UInt8](repeating: 0x61, count: (TestScale.isReduced ? 40 : 200) << 20)
    for i in stride(from: 7, to: bytes.count, by: 8) { bytes[i] = 0x20 }
    bytes.append(contentsOf: Array("needle".utf8))
    let f = try Self.file(bytes)
    defer { Self.remove(f) }
    let count = try CLI.run(["find", "--count", "--pattern", "needle", f])
    #expect(count.status == 0)
    #expect(count.stdout == "1\n")
    let next = try CLI.run(["next", "--rotor", "words", "--words-only", "--at", "\(bytes.count - 10)", "--json", f])
    #expect(next.status == 0)
    let entry = try CLI.jsonObject(next.lines[0])
    #expect(entry["label"] as? String == "needle")
    #expect(entry["line"] as? Int == 1)
  }

  @Test("no final newline, CR only and mixed line ends")
  func lineEnds() throws {
    let f = try Self.file("a\rb\r\nc\nd")
    defer { Self.remove(f) }
    let result = try CLI.run(["segment", "--by", "line", "--json", f])
    let entries = try result.lines.map(CLI.jsonObject)
    #expect(entries.map { $0["start"] as? Int } == [0, 2, 5, 7])
    #expect(entries.map { $0["line"] as? Int } == [1, 2, 3, 4])
    #expect(entries.map { $0["label"] as? String } == ["a", "b", "c", "d"])
    let find = try CLI.run(["find", "--pattern", "d", f])
    #expect(find.lines == ["4:1:d"])
  }

  @Test("a byte order mark is not content: find offsets and segment entries start after it")
  func byteOrderMark() throws {
    let f = try Self.file([0xEF, 0xBB, 0xBF] + Array("ab ab\n".utf8))
    defer { Self.remove(f) }
    let find = try CLI.run(["find", "--json", "--pattern", "ab", f])
    let data = try CLI.jsonObject(find.lines[1])["data"] as? [String: Any]
    #expect(data?["absolute_offset"] as? Int == 3)
    let segment = try CLI.run(["segment", "--by", "word", "--json", f])
    #expect(try CLI.jsonObject(segment.lines[0])["start"] as? Int == 3)
  }

  @Test("a directory and a missing file are errors naming them; other files are still read")
  func directoryAndMissingFile() throws {
    let f = try Self.file("word\n")
    defer { Self.remove(f) }
    let result = try CLI.run(["segment", "--by", "word", "--count", "/tmp", "/nonexistent/x", f])
    #expect(result.status == 2)
    #expect(result.stderr.contains("/tmp: Is a directory"))
    #expect(result.stderr.contains("/nonexistent/x: No such file or directory"))
    #expect(result.stdout == "\(f):2\n")
  }

  @Test("standard input twice: the second reads nothing")
  func standardInputTwice() throws {
    let result = try CLI.run(["segment", "--by", "line", "--count", "-", "-"], stdin: Data("a\nb\n".utf8))
    #expect(result.status == 0)
    #expect(result.stdout == "<stdin>:2\n<stdin>:0\n")
  }

  @Test("offsets: beyond the end, inside a sequence, negative, not a number")
  func badOffsets() throws {
    let f = try Self.file("aé b\n")
    defer { Self.remove(f) }
    let cases: [(String, String)] = [
      ("99", "offset 99 is beyond the end of the file (6 bytes)"),
      ("2", "offset 2 is inside a UTF-8 sequence (its character starts at byte 1)"),
      ("-1", "--at must be a byte offset of 0 or more, not -1."),
      ("x", "The value 'x' is invalid for '--at <at>'"),
    ]
    for (at, message) in cases {
      let result = try CLI.run(["next", "--rotor", "words", "--at", at, f])
      #expect(result.status == 2, "--at \(at)")
      #expect(result.stdout == "")
      #expect(result.stderr.contains(message), "--at \(at): \(result.stderr)")
    }
  }

  @Test("an invalid regex, a catastrophic one, and a 100 KB pattern")
  func patterns() throws {
    // `ac`: RE2, searching `(a+)+(?=c)` without its look-ahead, gives the line to ICU.
    let f = try Self.file(String(repeating: "a", count: 3000) + "b ac\nabab\n")
    defer { Self.remove(f) }
    let invalid = try CLI.run(["find", "--regex", "--pattern", "a(b", f])
    #expect(invalid.status == 2)
    #expect(invalid.stderr.contains("U_REGEX_MISMATCHED_PAREN"))
    // On ICU (a look-ahead keeps it off RE2): the time limit stops it.
    let catastrophic = try CLI.run(["find", "--regex", "--time-limit", "200", "--pattern", "(a+)+(?=c)", f])
    #expect(catastrophic.status == 2)
    #expect(catastrophic.stderr.contains("time limit"))
    let big = String(repeating: "ab", count: 50_000)
    for extra in [[], ["--regex"], ["-i"]] {
      let result = try CLI.run(["find"] + extra + ["--pattern", big, f])
      #expect(result.status == 1, "\(extra): \(result.stderr)")
      #expect(result.stdout == "")
    }
  }

  /// Regexes past what RE2 does well: before, `\w{1000}` took 190 MB to compile and RE2 ran it at
  /// 60 KB/s, `\w|\w|…` (100 KB) wrote `\w`'s 13 KB of ranges 33,000 times for RE2 (2.3 GB, no end
  /// in 2 minutes), `\w{40}` and `[a-z]` 1,200 times in a row ran on RE2's slow paths. Now each is a
  /// clear error (ICU's) or goes to ICU with its time limit, in bounded memory, and `--debug` says why.
  @Test(
    "RE2's bad input: patterns past its budget go to ICU with its time limit, in bounded memory",
    .timeLimit(.minutes(5)))
  func patternsPastRE2Budget() throws {
    let f = try Self.file(String(repeating: "a", count: 12_000) + "b\nabab\nword word\n")
    defer { Self.remove(f) }
    let alternation = Array(repeating: #"\w"#, count: 33_000).joined(separator: "|")
    let cases: [(pattern: String, extra: [String], status: Int32, stdout: String, stderr: String)] = [
      (#"\w{1000}"#, [], 0, "12\n", "over 200000 instructions (estimated"),
      (#"(\w{100}){100}"#, [], 0, "1\n", "over 200000 instructions (estimated"),
      (#"\w{40}"#, [], 0, "300\n", "its RE2 program has 55724 instructions, over the 50000"),
      ("[a-z]{600}[a-z]{600}", [], 0, "10\n", "over 1000 characters in a row"),
      (alternation, [], 0, "12013\n", "an RE2 translation over 1 MB"),
      // A search that failed gives its error, not a count (which would read as "no match").
      (#"(\w{1,40}){1,40}x"#, ["--time-limit", "200"], 2, "", "ran past its time limit"),
      (".{1000}{1000}", [], 2, "", "invalid regular expression '.{1000}{1000}' at column 9"),
    ]
    for c in cases {
      let name = String(c.pattern.prefix(30))
      guard
        let (result, kb) = try Self.peakMemory(
          ["find", "--debug", "--count", "--regex"] + c.extra + ["-e", c.pattern, f])
      else { return }
      #expect(result.status == c.status, "\(name): \(result.stderr.suffix(300))")
      #expect(result.stdout == c.stdout, "\(name)")
      #expect(result.stderr.contains(c.stderr), "\(name): \(result.stderr.suffix(300))")
      if c.status == 0 { #expect(result.stderr.contains("ICU, not RE2"), "\(name)") }
      #expect(kb < (100 << 10) + CLI.sanitizerMemorySlackKB, "\(name): peak \(kb) KiB")
    }
  }
}
