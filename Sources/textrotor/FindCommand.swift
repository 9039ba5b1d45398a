import ArgumentParser
import Glibc
import TextRotor

struct FindCommand: ExitStatusCommand {
  static let configuration = CommandConfiguration(
    commandName: "find",
    abstract: "Find a literal or an ICU regular expression (the `matches` rotor), as ripgrep does.",
    discussion: """
      Output: PATH:LINE:COLUMN:LINE TEXT for each line with a match (PATH when several files are \
      given), matches highlighted on a terminal (not when NO_COLOR is set). --count prints the \
      number of matches per file. Offsets and columns count from the start of the file, a UTF-8 \
      byte order mark included (it is never part of a match or a line). --json speaks ripgrep's --json messages (begin, match, end, \
      summary); offsets in it are UTF-8 byte offsets.

      Matching is line-oriented, as ripgrep's: a match never spans a line terminator (LF, CR or \
      CRLF; lines are counted as LSP does, so a lone CR starts a line), and ^ and $ match at every \
      line's start and end. Matches are leftmost and non-overlapping. An empty pattern matches \
      at every position of every line. As in ripgrep, an empty match right where the previous \
      match ended is not reported ('a*' on 'bab' matches at 0, 1-2 and 3); unlike ripgrep, no \
      match starts inside a UTF-8 sequence or between the CR and LF of a CRLF. A literal pattern \
      holding a line terminator is an error.

      --ignore-case uses Unicode case folding as ICU does: full folding for literal text, so \
      'STRASSE' matches 'straße' and 'ss' matches 'ß' (ripgrep folds simply and does not); sets \
      in a regex fold simply ('[a-z]' does not match 'ß').

      --word keeps a match only when it starts and ends on an ICU (UAX #29) word boundary.

      --regex takes ICU's syntax. A match may run at most --time-limit steps of ICU's engine \
      (about milliseconds); a pattern that backtracks catastrophically, like (a+)+$, then fails \
      with an error (exit status 2) instead of hanging.

      A file with a NUL byte in its first 64 KiB is binary: as ripgrep does, a line saying \
      "binary file matches" is printed instead of its lines (counts and --json are unchanged). \
      --text searches it as text.

      Exit status: 0 a match was found, 1 none, 2 an error (other files are still searched).
      """
  )

  @OptionGroup var patternOptions: PatternOptions

  @Flag(name: [.customShort("a"), .long], help: "Search binary files as text.")
  var text = false

  @OptionGroup var output: OutputOptions

  @Argument(help: "Files to search; - is standard input.")
  var files: [String] = ["-"]

  func validate() throws {
    if patternOptions.pattern == nil { throw ValidationError("Missing expected argument '--pattern <pattern>'.") }
  }

  mutating func runWithStatus() -> Int32 {
    guard let matcher = patternOptions.matcher() else { return 2 }
    let several = files.count > 1
    let output = self.output
    let searchBinary = text
    var json = FindJSON()
    let status = Inputs(paths: files, validateUTF8: false).run { name, bytes in
      let binaryOffset =
        searchBinary || !TextFacts.looksBinary(bytes)
        ? nil : bytes.firstIndex(of: 0, in: 0..<min(bytes.count, 1 << 16))
      // A UTF-8 byte order mark is not text (offsets stay the file's).
      let content = TextFacts.byteOrderMarkLength(bytes)..<bytes.count
      if output.count {
        let n = try matcher.count(in: bytes, range: content)
        StandardOutput.shared.write(several ? "\(name):\(n)\n" : "\(n)\n")
        return n > 0 ? .found : .nothingFound
      }
      if output.json {
        return try json.search(matcher, name: name, bytes: bytes, range: content, binaryOffset: binaryOffset)
          ? .found : .nothingFound
      }
      if let binaryOffset {
        var found = false
        try matcher.forEachMatch(in: bytes, range: content) { _ in
          found = true
          return false
        }
        if found {
          StandardOutput.shared.write(
            (several ? "\(name): " : "") + "binary file matches (found \"\\0\" byte around offset \(binaryOffset))\n")
        }
        return found ? .found : .nothingFound
      }
      var printer = FindPrinter(
        name: several ? name : nil, bytes: bytes, encoding: output.positionEncoding, color: StandardOutput.useColor)
      var found = false
      try matcher.forEachMatchedLine(in: bytes, range: content) { line in
        found = true
        printer.print(line)
        return true
      }
      return found ? .found : .nothingFound
    }
    if output.json { json.summary() }
    StandardOutput.shared.flush()
    return status
  }
}

/// Human output: `[PATH:]LINE:COLUMN:TEXT`, one line per matched line, with ripgrep's colors.
struct FindPrinter {
  let name: String?
  let bytes: ByteStorage
  let color: Bool
  private var cursor: PositionCursor
  private var out: [UInt8] = []

  init(name: String?, bytes: ByteStorage, encoding: PositionEncoding, color: Bool) {
    self.name = name
    self.bytes = bytes
    self.color = color
    self.cursor = PositionCursor(bytes, encoding: encoding)
  }

  private static let reset: [UInt8] = Array("\u{1B}[0m".utf8)
  private static let magenta: [UInt8] = Array("\u{1B}[0m\u{1B}[35m".utf8)
  private static let green: [UInt8] = Array("\u{1B}[0m\u{1B}[32m".utf8)
  private static let boldRed: [UInt8] = Array("\u{1B}[0m\u{1B}[1m\u{1B}[31m".utf8)

  mutating func print(_ line: MatchedLine) {
    let location = cursor.locate(line.matches[0].lowerBound)
    out.removeAll(keepingCapacity: true)
    if let name {
      field(Array(name.utf8), color: Self.magenta)
      out.append(0x3A)
    }
    field(Array(String(location.line).utf8), color: Self.green)
    out.append(0x3A)
    field(Array(String(location.column).utf8), color: Self.reset)
    out.append(0x3A)
    if color {
      var p = line.content.lowerBound
      for m in line.matches {
        let s = max(m.lowerBound, p)
        let e = min(m.upperBound, line.content.upperBound)
        guard e > s else { continue }
        out.append(contentsOf: bytes.copyBytes(p..<s))
        out.append(contentsOf: Self.boldRed)
        out.append(contentsOf: bytes.copyBytes(s..<e))
        out.append(contentsOf: Self.reset)
        p = e
      }
      out.append(contentsOf: bytes.copyBytes(p..<line.content.upperBound))
    } else {
      out.append(contentsOf: bytes.copyBytes(line.content))
    }
    out.append(0x0A)
    StandardOutput.shared.write(bytes: out)
  }

  private mutating func field(_ text: [UInt8], color code: [UInt8]) {
    if color {
      out.append(contentsOf: code)
      out.append(contentsOf: text)
      out.append(contentsOf: Self.reset)
    } else {
      out.append(contentsOf: text)
    }
  }
}
