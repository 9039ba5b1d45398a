import TextRotor

/// How `find` prints what it finds (the options that shape its output).
struct FindFormat: Sendable {
  enum Mode: Sendable, Equatable {
    /// Each matching line (with context lines around it).
    case lines
    /// Each match on its own line (`-o`).
    case onlyMatching
    /// Each match as `path:line:column:line text` (`--vimgrep`).
    case vimgrep
    /// The number of matches per file (`--count`).
    case count
    /// The path of each file with a match (`-l`).
    case filesWithMatches
    /// The path of each file without a match (`--files-without-match`).
    case filesWithoutMatch
    /// Nothing: the exit status says whether something matched (`-q`).
    case quiet
    /// ripgrep's JSON messages.
    case json
  }

  var mode: Mode = .lines
  var showPath = false
  var heading = false
  var lineNumber = true
  /// Whether a match line shows its first match's column (and a -v context line, its first match's).
  var column = true
  var before = 0
  var after = 0
  var maxCount: Int? = nil
  var color = false
  var encoding: PositionEncoding = .utf8
  var includeZeroCounts = false
  var searchBinary = false
  /// Threads that may count one file's slices at once (when one file is searched).
  var countThreads = 1
  /// `-v`: the lines without a match are the ones printed, counted and looked for.
  var invert = false
  /// `-c`: `.count` counts the lines with a match, not the matches.
  var countLines = false
  /// `-c -o -v`: rg counts the matches of the lines printed, and the lines without a match hold
  /// none, so it prints 0 for a file that has such lines (`--count -v`, rg's `--count-matches -v`,
  /// counts them).
  var countsNoMatches = false
  /// `--null`: a NUL byte after each printed path, instead of a newline or ':'.
  var nullAfterPath = false
  /// `--vimgrep -o`: each match's text follows its position, not its line's.
  var matchTextOnly = false

  /// Whether context lines are printed (`-A`/`-B`/`-C` in a mode that prints lines or matches).
  var hasContext: Bool { (before > 0 || after > 0) && Self.printsLines.contains(mode) }

  /// The modes that print lines (or matches), with context lines and "--" between groups of them.
  static let printsLines: [Mode] = [.lines, .onlyMatching, .vimgrep, .json]
}

/// What searching one file gave: its output (printed in file order by the caller), whether it
/// matched, its error messages and its JSON statistics.
struct FileResult: Sendable {
  /// The output not printed yet (all of it, unless the file's search printed some through its sink).
  var output: [UInt8] = []
  /// Whether some of the output was printed already, through the sink.
  var streamed = false
  var found = false
  var errors: [String] = []
  var stats = FindJSON.Stats()
}

/// Takes the output of a file still being searched and prints it now, or refuses it (the output
/// must wait for the files before it). `continuing`: some of the file's output was printed
/// already; `flush`: write it through to standard output now (a streamed piece is done).
typealias OutputSink = (_ bytes: [UInt8], _ continuing: Bool, _ flush: Bool) -> Bool

/// Searches one file for one thread (a ``PatternMatcher`` is not shared between threads).
struct FileSearcher {
  let matcher: PatternMatcher
  let format: FindFormat
  /// A second matcher for the lines searched on their own while `matcher` is in the middle of a
  /// scan (`-v` context lines with their matches, lines after `-m`'s last match): a matcher keeps
  /// state across the lines of a scan (a regex's look-ahead), which a nested search would clobber.
  let lineMatcher: PatternMatcher?

  init(matcher: PatternMatcher, format: FindFormat) {
    self.matcher = matcher
    self.format = format
    let searchesLines = format.hasContext && (format.invert || format.maxCount != nil)
    lineMatcher = searchesLines ? (try? PatternMatcher(matcher.pattern)) ?? matcher : nil
  }

  /// Bytes read from a stream before a piece of it is searched.
  static let streamPiece = 1 << 20

  /// Searches `path` (`-` is standard input). `explicit`: named on the command line (a binary file
  /// is then searched and reported as "binary file matches"); a file found by walking a directory
  /// is skipped when it looks binary, as ripgrep does. With a `sink`, the output is printed as it
  /// is found (memory stays bounded whatever the file prints), else it is all in the result.
  func search(path: String, explicit: Bool, sink: OutputSink? = nil) -> FileResult {
    let name = Inputs.displayName(path)
    var scan = FileScan(matcher: matcher, lineMatcher: lineMatcher ?? matcher, format: format, name: name)
    scan.sink = sink
    do {
      switch try FileSystem.open(path) {
      case .whole(let bytes) where UTF16Transcoder.byteOrder(bytes.copyBytes(0..<min(2, bytes.count))) != nil:
        // UTF-16 with a byte order mark: searched as UTF-8, a piece at a time, as rg does.
        if try !searchStream(UTF16Transcoder(bytes), &scan, explicit: explicit) { return FileResult() }
        if bytes.shrankWhileReading {
          scan.errors.append(FileError(path: name, reason: .changedWhileReading).description)
        }
      case .whole(let bytes):
        let binary = !format.searchBinary && TextFacts.looksBinary(bytes)
        if binary && !explicit { return FileResult() }
        if binary { scan.binaryOffset = bytes.firstIndex(of: 0, in: 0..<min(bytes.count, 1 << 16)) }
        let content = TextFacts.byteOrderMarkLength(bytes)..<bytes.count
        try scan.scan(bytes, range: content, base: 0, lineBase: 0, floor: content.lowerBound)
        scan.stats.bytesSearched = content.count
        if bytes.shrankWhileReading {
          scan.errors.append(FileError(path: name, reason: .changedWhileReading).description)
        }
      case .stream(let stream):
        if try !searchStream(stream, &scan, explicit: explicit) { return FileResult() }
      }
    } catch let error as FileError {
      scan.errors.append(error.description)
    } catch {
      scan.errors.append("\(FileSystem.displayName(name)): \(error)")
    }
    return scan.finish()
  }

  /// Reads a pipe or device a piece at a time, searching the whole lines of each piece, so memory
  /// stays bounded on an endless input (a line longer than a piece grows the buffer, as in rg;
  /// in a binary input NUL bytes also end a piece). A piece ends early when the writer has sent
  /// nothing more yet (`tail -f log | textrotor find x`): its lines are searched and printed now.
  /// Returns false when the input is binary and was not named (skipped, as a file found in a
  /// directory is: reported nowhere).
  private func searchStream(_ stream: ByteSource, _ scan: inout FileScan, explicit: Bool) throws -> Bool {
    var stream = stream
    var buffer: [UInt8] = []
    var base = 0
    var lineBase = 0
    var searchStart = 0
    var first = true
    var binary = false
    var atEnd = false
    // The first 64 KiB are looked at for a NUL byte (a binary input), as a file's are.
    let binaryWindow = 1 << 16
    var checkedForNUL = 0
    let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
    // Set when the bytes read hold no place to cut yet (one long line): read more, however much is
    // buffered (else the loop would spin without reading: a line over a piece hung).
    var mustRead = false
    // The bytes of `buffer` before this hold no place to cut (each piece's new bytes are looked at
    // once: a line of megabytes was scanned again at every read, its time growing as its square).
    var scanned = 0
    // Where the byte order mark ends in the input (0: none); context lines never reach into it.
    var markEnd = 0
    while !atEnd {
      while mustRead || buffer.count - searchStart < Self.streamPiece {
        mustRead = false
        if try stream.read(into: &buffer, maximum: 1 << 18) == 0 {
          atEnd = true
          break
        }
        if !stream.hasDataReady { break }
      }
      if first {
        // A byte order mark may come in more than one read.
        if !atEnd && buffer.count < 3 && byteOrderMark.starts(with: buffer) { continue }
        if !atEnd && buffer.count < 2 { continue }
        if !(stream is UTF16Transcoder), UTF16Transcoder.byteOrder(buffer) != nil {
          // A UTF-16 stream (its mark read): what follows is read through the transcoder, whose
          // text may start with a UTF-8 byte order mark in turn (U+FEFF after the UTF-16 mark).
          stream = UTF16Transcoder(first: buffer, then: stream)
          buffer.removeAll()
          atEnd = false
          continue
        }
        first = false
        if buffer.starts(with: byteOrderMark) {
          searchStart = 3
          markEnd = 3
        }
      }
      if !format.searchBinary && !binary && checkedForNUL < binaryWindow {
        let end = min(binaryWindow, base + buffer.count)
        if let nul = buffer[(checkedForNUL - base)..<(end - base)].firstIndex(of: 0) {
          if !explicit { return false }
          binary = true
          scan.binaryOffset = base + nul
        }
        checkedForNUL = end
      }
      var cut = buffer.count
      if !atEnd {
        let from = min(scanned, buffer.count)
        if let lf = buffer[from...].lastIndex(of: 0x0A) {
          cut = lf + 1
        } else if let cr = buffer[from...].dropLast().lastIndex(of: 0x0D) {
          cut = cr + 1
        } else if binary, let nul = buffer[from...].lastIndex(of: 0) {
          cut = nul + 1
        } else {
          // One long line: read more (a CR last may be a CR LF's: looked at again).
          scanned = max(0, buffer.count - 1)
          mustRead = true
          continue
        }
        if cut <= searchStart {
          scanned = max(0, buffer.count - 1)
          mustRead = true
          continue
        }
      }
      let floor = max(0, markEnd - base)
      let bytes = ByteStorage(buffer)
      try scan.scan(bytes, range: searchStart..<cut, base: base, lineBase: lineBase, floor: floor)
      scan.stats.bytesSearched += cut - searchStart
      scan.drain(force: true)
      if scan.isDone { return true }
      // Keep the lines that before-context may need, and the unfinished line.
      let keep = FileScan.contextStart(before: format.before, at: cut, in: bytes, floor: floor)
      lineBase += bytes.textCounts(in: 0..<keep).lineBreaks
      base += keep
      buffer.removeFirst(keep)
      searchStart = cut - keep
      scanned = 0
    }
    return true
  }
}

/// The state of one file's search: what was printed, the context still owed, counts.
struct FileScan {
  let matcher: PatternMatcher
  /// Searches a line alone while `matcher` scans (see ``FileSearcher/lineMatcher``).
  let lineMatcher: PatternMatcher
  let format: FindFormat
  let name: String
  /// `name`'s bytes as printed (``FileSystem/bytes(of:)``), made once, not once a line.
  let nameBytes: [UInt8]
  var out: [UInt8] = []
  var errors: [String] = []
  var found = false
  var matchedLines = 0
  var matchCount = 0
  var stats = FindJSON.Stats()
  /// Where the line after the last printed one starts (absolute offset), or -1.
  var printedEnd = -1
  var printedLine = 0
  var afterLeft = 0
  var stopped = false
  /// Set for a binary file named on the command line: report "binary file matches" only.
  var binaryOffset: Int? = nil
  /// Where the output goes while the file is searched (see ``drain(force:)``); nil: all at the end.
  var sink: OutputSink? = nil
  /// Whether the sink printed some of the output.
  private(set) var streamed = false
  /// The bytes the sink printed already (`--json`'s `bytes_printed` counts them too).
  private var drained = 0
  /// The size of `out` at which it is next offered to the sink.
  private var drainAt = 1 << 16
  private var begun = false
  private let started = FindJSON.now()

  init(matcher: PatternMatcher, lineMatcher: PatternMatcher, format: FindFormat, name: String) {
    self.matcher = matcher
    self.lineMatcher = lineMatcher
    self.format = format
    self.name = name
    nameBytes = FileSystem.bytes(of: name)
  }

  var isDone: Bool { stopped && afterLeft == 0 }

  private var prefixPath: Bool { format.showPath && !format.heading }

  /// Searches `range` of `bytes` (whole lines), a piece of the file starting at offset `base`,
  /// after `lineBase` lines. Context lines are not taken from before `floor`.
  mutating func scan(_ bytes: ByteStorage, range: Range<Int>, base: Int, lineBase: Int, floor: Int) throws(ICUError) {
    // `-m 0`: no line at all, as rg.
    if format.maxCount == 0 {
      stopped = true
      return
    }
    // Past -m's last match: only the trailing context owed (this piece may hold the rest of it);
    // nothing here is searched again (a piece read after the stop repeated matches as context).
    if stopped {
      printAfterContext(bytes, upTo: range.upperBound, base: base)
      return
    }
    let mode: FindFormat.Mode =
      binaryOffset != nil && [.lines, .onlyMatching, .vimgrep].contains(format.mode) ? .quiet : format.mode
    if format.invert {
      try scanInverted(bytes, range: range, base: base, lineBase: lineBase, mode: mode, floor: floor)
      return
    }
    if mode == .count && format.maxCount == nil && !format.countLines {
      let n = try matcher.count(in: bytes, range: range, threads: format.countThreads)
      matchCount += n
      if n > 0 { found = true }
      return
    }
    if [.quiet, .filesWithMatches, .filesWithoutMatch].contains(mode) {
      // The first match decides (not the end of its line, which may be megabytes on).
      try matcher.forEachMatch(in: bytes, range: range) { _ in
        self.found = true
        self.matchedLines += 1
        self.matchCount += 1
        return false
      }
      if found { stopped = true }
      return
    }
    var cursor = PositionCursor(bytes, encoding: format.encoding)
    // Every match of a line is kept only where each is printed (or highlighted): elsewhere the
    // first (a line's column) and the count.
    let everyMatch = [.onlyMatching, .vimgrep, .json].contains(mode) || (mode == .lines && format.color)
    // Lines printed without colour and lines counted (`-c`) need only a line's first match: the
    // search goes on from the next line. (--json counts every match, --count too.)
    let countingAll = everyMatch || (mode == .count && !format.countLines)
    try matcher.forEachMatchedLine(
      in: bytes, range: range, keeping: everyMatch ? .max : 1, countingAll: countingAll
    ) { line, count in
      self.found = true
      self.matchedLines += 1
      self.matchCount += count
      switch mode {
      case .quiet, .filesWithMatches, .filesWithoutMatch:
        self.stopped = true
        return false
      case .count: break
      case .lines, .onlyMatching, .vimgrep, .json:
        let lineNumber = lineBase + cursor.locate(line.content.lowerBound).line
        self.printAfterContext(bytes, upTo: line.content.lowerBound, base: base)
        self.printBeforeContext(
          bytes, lineStart: line.content.lowerBound, lineNumber: lineNumber, base: base, floor: floor)
        self.printMatch(bytes, line: line, lineNumber: lineNumber, base: base, cursor: &cursor)
        self.printedEnd = base + line.next
        self.printedLine = lineNumber
        self.afterLeft = self.format.after
        self.drain(force: false)
      }
      if let max = self.format.maxCount, self.matchedLines >= max {
        self.stopped = true
        return false
      }
      return true
    }
    printAfterContext(bytes, upTo: range.upperBound, base: base)
  }

  /// Offers the output so far to the sink, once it holds 64 KiB more than when last refused;
  /// `force`: whatever its size, written through to standard output (a streamed piece is done).
  mutating func drain(force: Bool) {
    guard let sink, out.count >= (force ? 1 : drainAt) else { return }
    if sink(out, streamed, force) {
      streamed = true
      drained += out.count
      out.removeAll(keepingCapacity: true)
      drainAt = 1 << 16
    } else {
      drainAt = out.count + (1 << 16)
    }
  }

  /// `-v`: the lines of `range` without a match (the gaps between the lines with one) are what is
  /// printed (with the lines with a match as their context), counted (`--count` counts lines) and
  /// looked for (`-l`, `-q`, `-m`). As rg: -o prints them whole, --vimgrep without a column,
  /// --json as matches without submatches.
  private mutating func scanInverted(
    _ bytes: ByteStorage, range: Range<Int>, base: Int, lineBase: Int, mode: FindFormat.Mode, floor: Int
  ) throws(ICUError) {
    var cursor = PositionCursor(bytes, encoding: format.encoding)
    var position = range.lowerBound
    // Returns false once the search may stop.
    func gap(upTo end: Int) -> Bool {
      guard position < end else { return true }
      var number = lineBase + cursor.locate(position).line
      for line in LineScanner(bytes, range: position..<end) {
        found = true
        matchedLines += 1
        matchCount += 1
        switch mode {
        case .quiet, .filesWithMatches, .filesWithoutMatch:
          stopped = true
          return false
        case .lines, .onlyMatching, .vimgrep, .json:
          printAfterContext(bytes, upTo: line.content.lowerBound, base: base)
          printBeforeContext(bytes, lineStart: line.content.lowerBound, lineNumber: number, base: base, floor: floor)
          separatorIfGap(before: base + line.content.lowerBound)
          printInvertedMatch(bytes, line, number: number, base: base)
          printedEnd = base + line.next
          printedLine = number
          afterLeft = format.after
          drain(force: false)
        case .count: break
        }
        number += 1
        if let max = format.maxCount, matchedLines >= max {
          stopped = true
          return false
        }
      }
      return true
    }
    var going = true
    try matcher.forEachMatchedLine(in: bytes, range: range, keeping: 1) { line, _ in
      going = gap(upTo: line.content.lowerBound)
      position = line.next
      return going
    }
    if going { _ = gap(upTo: range.upperBound) }
    printAfterContext(bytes, upTo: range.upperBound, base: base)
  }

  /// The output of the file, once searched.
  mutating func finish() -> FileResult {
    var result = FileResult()
    result.errors = errors
    result.found = found
    switch format.mode {
    case .count:
      // A file that could not be read gets its error, not a count of 0 (as in rg).
      if found || format.includeZeroCounts && errors.isEmpty {
        if format.showPath { appendPath(separator: 0x3A) }
        let n = format.countsNoMatches ? 0 : format.countLines ? matchedLines : matchCount
        out.append(contentsOf: Array("\(n)\n".utf8))
      }
    case .filesWithMatches:
      if found {
        appendPath(separator: nil)
        if !format.nullAfterPath { out.append(0x0A) }
      }
    case .filesWithoutMatch:
      // What is reported is the file without a match: it is what "found" means for the exit status.
      result.found = !found && errors.isEmpty
      if result.found {
        appendPath(separator: nil)
        if !format.nullAfterPath { out.append(0x0A) }
      }
    case .lines, .onlyMatching, .vimgrep:
      if let offset = binaryOffset, found {
        let text = "binary file matches (found \"\\0\" byte around offset \(offset))\n"
        headingIfNeeded()
        if prefixPath { out.append(contentsOf: nameBytes + Array(": ".utf8)) }
        out.append(contentsOf: text.utf8)
      }
    case .json:
      stats.searches = 1
      if begun {
        stats.searchesWithMatch = 1
        stats.elapsedNanos = FindJSON.now() - started
        FindJSON.end(name: name, binaryOffset: binaryOffset, printed: drained, stats: &stats, into: &out)
      }
    case .quiet: break
    }
    result.output = out
    result.streamed = streamed
    result.stats = stats
    return result
  }

  // MARK: Printing

  private static let reset: [UInt8] = Array("\u{1B}[0m".utf8)
  private static let magenta: [UInt8] = Array("\u{1B}[0m\u{1B}[35m".utf8)
  private static let green: [UInt8] = Array("\u{1B}[0m\u{1B}[32m".utf8)
  private static let boldRed: [UInt8] = Array("\u{1B}[0m\u{1B}[1m\u{1B}[31m".utf8)

  private mutating func field(_ text: some Sequence<UInt8>, color code: [UInt8]) {
    if format.color {
      out.append(contentsOf: code)
      out.append(contentsOf: text)
      out.append(contentsOf: Self.reset)
    } else {
      out.append(contentsOf: text)
    }
  }

  private mutating func appendPath(separator: UInt8?) {
    field(nameBytes, color: Self.magenta)
    if format.nullAfterPath {
      out.append(0)
    } else if let separator {
      out.append(separator)
    }
  }

  private var headed = false

  private mutating func headingIfNeeded() {
    guard format.heading && format.showPath && !headed else { return }
    headed = true
    appendPath(separator: nil)
    if !format.nullAfterPath { out.append(0x0A) }
  }

  /// `PATH:LINE:COLUMN:` (each part as the options ask) before a line; `separator` is `:` for a
  /// match and `-` for a context line (which has no column).
  private mutating func appendPrefix(lineNumber: Int, column: Int?, separator: UInt8) {
    headingIfNeeded()
    if prefixPath { appendPath(separator: separator) }
    if format.lineNumber {
      field(String(lineNumber).utf8, color: Self.green)
      out.append(separator)
    }
    if let column, format.column {
      field(String(column).utf8, color: Self.reset)
      out.append(separator)
    }
  }

  private mutating func appendText(_ bytes: ByteStorage, _ range: Range<Int>, highlight: [Range<Int>]) {
    guard format.color && !highlight.isEmpty else {
      appendBytes(bytes, range)
      return
    }
    var p = range.lowerBound
    var k = 0
    while k < highlight.count {
      let s = max(highlight[k].lowerBound, p)
      // Matches that touch are one highlighted span, as rg colours them (`foofoo`).
      var e = min(highlight[k].upperBound, range.upperBound)
      while k + 1 < highlight.count && highlight[k + 1].lowerBound == highlight[k].upperBound
        && highlight[k + 1].upperBound > highlight[k].upperBound
      {
        k += 1
        e = min(highlight[k].upperBound, range.upperBound)
      }
      k += 1
      guard e > s else { continue }
      appendBytes(bytes, p..<s)
      out.append(contentsOf: Self.boldRed)
      appendBytes(bytes, s..<e)
      out.append(contentsOf: Self.reset)
      p = e
    }
    appendBytes(bytes, p..<range.upperBound)
  }

  /// Appends the text's bytes of `range` to the output a piece of 1 MiB at a time, offered to the
  /// sink between pieces: a line of 100 MB printed whole took two copies of it in memory (an
  /// array of its bytes, then the output), 318 MB for `-w the` on one 100 MB line; now one piece.
  private mutating func appendBytes(_ bytes: ByteStorage, _ range: Range<Int>) {
    var p = range.lowerBound
    while p < range.upperBound {
      let q = min(range.upperBound, p + Self.piece)
      bytes.append(p..<q, to: &out)
      p = q
      if p < range.upperBound { drain(force: false) }
    }
  }

  private static let piece = 1 << 20

  /// Ends a printed line: a whole line (`content`) that a CRLF ends keeps its CR, as rg prints a
  /// line's bytes up to its LF; a match alone (-o, `content` nil) or a line ended otherwise gets
  /// an LF.
  private mutating func endLine(_ bytes: ByteStorage, wholeLine content: Range<Int>?) {
    if let e = content?.upperBound, e + 1 < bytes.count && bytes[e] == 0x0D && bytes[e + 1] == 0x0A {
      out.append(0x0D)
    }
    out.append(0x0A)
  }

  private mutating func separatorIfGap(before start: Int) {
    if format.hasContext && format.mode != .json && printedEnd >= 0 && start > printedEnd {
      out.append(contentsOf: "--\n".utf8)
    }
  }

  private mutating func printMatch(
    _ bytes: ByteStorage, line: MatchedLine, lineNumber: Int, base: Int, cursor: inout PositionCursor
  ) {
    separatorIfGap(before: base + line.content.lowerBound)
    switch format.mode {
    case .lines:
      let column = cursor.locate(line.matches[0].lowerBound).column
      appendPrefix(lineNumber: lineNumber, column: column, separator: 0x3A)
      appendText(bytes, line.content, highlight: line.matches)
      endLine(bytes, wholeLine: line.content)
    case .onlyMatching:
      for m in line.matches {
        appendPrefix(lineNumber: lineNumber, column: cursor.locate(m.lowerBound).column, separator: 0x3A)
        appendText(bytes, m, highlight: [m])
        out.append(0x0A)
        drain(force: false)
      }
    case .vimgrep:
      for m in line.matches {
        appendPrefix(lineNumber: lineNumber, column: cursor.locate(m.lowerBound).column, separator: 0x3A)
        appendText(bytes, format.matchTextOnly ? m : line.content, highlight: [m])
        endLine(bytes, wholeLine: format.matchTextOnly ? nil : line.content)
        // A long line of many matches prints its line once a match: offered as it grows, so
        // that memory stays bounded.
        drain(force: false)
      }
    case .json:
      jsonBegin()
      stats.matchedLines += 1
      stats.matches += line.matches.count
      jsonLine(
        type: "match", bytes: bytes, line: line.withTerminator, lineNumber: format.lineNumber ? lineNumber : nil,
        base: base, submatches: line.matches)
    default: break
    }
  }

  /// A `match` or `context` message for `line` (with its terminator) of a piece of the file
  /// starting at offset `base` (``FindJSON``'s parts), its text and its submatches' offered to
  /// the sink as they grow: a line of 100 MB was escaped into a string and an array, 414 MB
  /// and a second for one match.
  private mutating func jsonLine(
    type: String, bytes: ByteStorage, line: Range<Int>, lineNumber: Int?, base: Int, submatches: [Range<Int>]
  ) {
    FindJSON.lineHead(type: type, name: name, into: &out)
    jsonData(bytes, line)
    FindJSON.lineMiddle(lineNumber: lineNumber, absoluteOffset: base + line.lowerBound, into: &out)
    for (k, m) in submatches.enumerated() {
      FindJSON.submatchHead(first: k == 0, into: &out)
      jsonData(bytes, m)
      FindJSON.submatchTail(start: m.lowerBound - line.lowerBound, end: m.upperBound - line.lowerBound, into: &out)
      drain(force: false)
    }
    FindJSON.lineTail(into: &out)
  }

  /// The bytes of `range` as a JSON data value (`{"text":...}`, or `{"bytes":BASE64}` when they
  /// are not well-formed UTF-8), a piece at a time, each offered to the sink.
  private mutating func jsonData(_ bytes: ByteStorage, _ range: Range<Int>) {
    let text = bytes.firstInvalidUTF8(in: range) == nil
    FindJSON.dataHead(text: text, into: &out)
    // Base64 turns each 3 bytes into 4 characters: pieces of a multiple of 3.
    let piece = text ? Self.piece : Self.piece / 3 * 3
    var p = range.lowerBound
    while p < range.upperBound {
      let q = min(range.upperBound, p + piece)
      if text {
        JSONText.appendEscaped(bytes, p..<q, to: &out)
      } else {
        Base64.append(bytes.copyBytes(p..<q), to: &out)
      }
      p = q
      if p < range.upperBound { drain(force: false) }
    }
    FindJSON.dataTail(into: &out)
  }

  private mutating func jsonBegin() {
    if !begun {
      begun = true
      FindJSON.begin(name: name, into: &out)
    }
  }

  private mutating func printContextLine(_ bytes: ByteStorage, _ line: LineScanner.Line, number: Int, base: Int) {
    // With -v a context line is a line with a match: rg lists its matches (--json) and gives the
    // first one's column.
    var submatches: [Range<Int>] = []
    if format.invert
      && ([.json, .onlyMatching, .vimgrep].contains(format.mode) || format.column || format.color)
    {
      try? lineMatcher.forEachMatchedLine(in: bytes, range: line.content.lowerBound..<line.next, keeping: .max) {
        matched, _ in
        submatches = matched.matches
        return false
      }
    }
    if format.mode == .json {
      jsonBegin()
      jsonLine(
        type: "context", bytes: bytes, line: line.content.lowerBound..<line.next,
        lineNumber: format.lineNumber ? number : nil, base: base, submatches: submatches)
    } else {
      // Columns within the line alone (a cursor over the piece would walk it from its start; the
      // first line's from the file's start, a byte order mark counted, as everywhere); as rg,
      // --vimgrep prints the line once a match and -o each match.
      var shown: [(column: Int?, text: Range<Int>?, highlight: [Range<Int>])] = [(nil, nil, [])]
      if !submatches.isEmpty {
        let bom =
          base == 0 && line.content.lowerBound == 3 && bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB
          && bytes[2] == 0xBF
        let from = bom ? 0 : line.content.lowerBound
        let each = format.mode == .vimgrep || format.mode == .onlyMatching ? submatches : [submatches[0]]
        // Up to the last column asked for, and a little past it (a column in graphemes reads the
        // character there); a line of 100 MB was copied whole for its first match's column.
        let upTo = min(line.content.upperBound, max(from, each.map(\.lowerBound).max()! + 64))
        var cursor = PositionCursor(bytes.copy(from..<upTo), encoding: format.encoding)
        // Coloured, a -v context line's matches are highlighted, as rg does: all of them on the
        // line printed once, the row's own under --vimgrep and -o.
        shown = each.map { m in
          (
            cursor.locate(m.lowerBound - from).column,
            format.mode == .onlyMatching || format.mode == .vimgrep && format.matchTextOnly ? m : nil,
            format.mode == .vimgrep || format.mode == .onlyMatching ? [m] : submatches
          )
        }
      }
      for (column, text, highlight) in shown {
        appendPrefix(lineNumber: number, column: column, separator: 0x2D)
        // nil: the whole line.
        appendText(bytes, text ?? line.content, highlight: format.color ? highlight : [])
        endLine(bytes, wholeLine: text == nil ? line.content : nil)
      }
    }
    printedEnd = base + line.next
    printedLine = number
  }

  /// Prints the after-context lines owed, up to `limit` (a line start).
  mutating func printAfterContext(_ bytes: ByteStorage, upTo limit: Int, base: Int) {
    guard afterLeft > 0, printedEnd >= 0, format.hasContext else { return }
    let start = max(printedEnd - base, 0)
    guard start < limit else { return }
    var lines = LineScanner(bytes, range: start..<limit)
    while afterLeft > 0, let line = lines.next() {
      if !stopped || !printAsMatch(bytes, line, number: printedLine + 1, base: base) {
        printContextLine(bytes, line, number: printedLine + 1, base: base)
      }
      afterLeft -= 1
    }
  }

  /// `-v`: a line without a match, printed as a match (whole, without a column; --json: a match
  /// message without submatches), as rg prints it.
  private mutating func printInvertedMatch(_ bytes: ByteStorage, _ line: LineScanner.Line, number: Int, base: Int) {
    if format.mode == .json {
      jsonBegin()
      stats.matchedLines += 1
      jsonLine(
        type: "match", bytes: bytes, line: line.content.lowerBound..<line.next,
        lineNumber: format.lineNumber ? number : nil, base: base, submatches: [])
    } else {
      appendPrefix(lineNumber: number, column: nil, separator: 0x3A)
      appendText(bytes, line.content, highlight: [])
      endLine(bytes, wholeLine: line.content)
    }
  }

  /// After `-m`'s last match, a trailing context line that matches (that does not, with -v) is
  /// printed as a match, as rg does (and counted in --json's statistics); returns whether it was.
  private mutating func printAsMatch(_ bytes: ByteStorage, _ line: LineScanner.Line, number: Int, base: Int) -> Bool {
    // The line alone, so that columns are counted from its start, not from the piece's.
    let alone = bytes.copy(line.content.lowerBound..<line.next)
    let lineBase = base + line.content.lowerBound
    var matched: MatchedLine? = nil
    try? lineMatcher.forEachMatchedLine(in: alone, range: 0..<alone.count, keeping: .max) { m, _ in
      matched = m
      return false
    }
    if format.invert {
      guard matched == nil else { return false }
      printInvertedMatch(bytes, line, number: number, base: base)
    } else {
      guard let matched else { return false }
      var cursor = PositionCursor(alone, encoding: format.encoding)
      printMatch(alone, line: matched, lineNumber: number, base: lineBase, cursor: &cursor)
    }
    printedEnd = base + line.next
    printedLine = number
    return true
  }

  private mutating func printBeforeContext(
    _ bytes: ByteStorage, lineStart: Int, lineNumber: Int, base: Int, floor: Int
  ) {
    guard format.before > 0, format.hasContext else { return }
    let lowest = max(floor, printedEnd - base)
    let first = Self.contextStart(before: format.before, at: lineStart, in: bytes, floor: max(lowest, 0))
    guard first < lineStart else { return }
    separatorIfGap(before: base + first)
    let count = bytes.textCounts(in: first..<lineStart).lineBreaks
    var number = lineNumber - count
    for context in LineScanner(bytes, range: first..<lineStart) {
      printContextLine(bytes, context, number: number, base: base)
      number += 1
    }
  }

  /// The start of the line `before` lines above the line starting at `start` (not before `floor`).
  static func contextStart(before: Int, at start: Int, in bytes: ByteStorage, floor: Int) -> Int {
    var s = start
    var k = 0
    while k < before && s > floor {
      var e = s - 1
      if bytes[e] == 0x0A && e - 1 >= floor && bytes[e - 1] == 0x0D { e -= 1 }
      let lf = bytes.lastIndex(of: 0x0A, in: floor..<e) ?? (floor - 1)
      let cr = bytes.lastIndex(of: 0x0D, in: (lf + 1)..<e) ?? (floor - 1)
      s = max(lf, cr) + 1
      k += 1
    }
    return s
  }
}
