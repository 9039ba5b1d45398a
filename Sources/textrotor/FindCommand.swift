import ArgumentParser
import Dispatch
import Glibc
import Synchronization
import TextRotor

struct FindCommand: ExitStatusCommand {
  static let configuration = CommandConfiguration(
    commandName: "find",
    abstract: "Find a literal or an ICU regular expression in files and directories, as ripgrep does.",
    usage: "textrotor find [-e] PATTERN [--regex] [-i | -S] [-w] [OPTIONS] [PATH ...]",
    discussion: """
      PATTERN is the first argument, or given with -e/--pattern (several -e: any of them). A \
      directory is searched recursively, several files at once, skipping hidden files and \
      directories, binary files, and what .gitignore, .git/info/exclude and git's global excludes \
      file (in a git repository), .ignore and .rgignore \
      files exclude (--hidden, --no-ignore, -g GLOB change that). With no PATH, standard input is \
      searched when it is a file, a pipe or a socket, else (a terminal, /dev/null or another \
      device, as cron and editors' task runners give) the current directory, as rg decides. \
      Standard input, pipes and devices are read piece by piece, in bounded memory.

      Output: [PATH:]LINE:COLUMN:LINE TEXT for each line with a match (PATH when several files or a \
      directory are searched; on a terminal the path is a heading above its file's lines), matches \
      highlighted on a terminal (not when NO_COLOR is set). Files are printed in the order given, \
      a directory's files sorted by name, whatever order they were searched in. --count prints \
      the number of matches per file (rg's --count-matches). --json speaks ripgrep's --json \
      messages (begin, match, context, end, summary); offsets in it are UTF-8 byte offsets. \
      Offsets and columns count from the start of the file, a UTF-8 byte order mark included \
      (it is never part of a match or a line).

      Matching is line-oriented, as ripgrep's: a match never spans a line terminator (LF, CR or \
      CRLF; lines are counted as LSP does, so a lone CR starts a line), and ^ and $ match at every \
      line's start and end. Matches are leftmost and non-overlapping. An empty pattern matches \
      at every position of every line. As in ripgrep, an empty match right where the previous \
      match ended is not reported ('a*' on 'bab' matches at 0, 1-2 and 3); unlike ripgrep, no \
      match starts inside a UTF-8 sequence or between the CR and LF of a CRLF. A literal pattern \
      holding a line terminator is an error.

      Where textrotor differs from ripgrep on purpose:
      - PATTERN is a literal unless --regex is given (-F is accepted and changes nothing); \
      --regex takes ICU's syntax (https://unicode-org.github.io/icu/userguide/strings/regexp.html), \
      not Rust's. As in rg, each line is matched alone: \\A and \\z match at its start and end, \
      and look-around sees only the line (rg has look-around with --pcre2 only, and there a \
      look-behind sees the line before when the line also matches on its own).
      - --ignore-case uses Unicode full case folding for literal text, so 'STRASSE' matches \
      'straße' and 'ss' matches 'ß' (ripgrep folds simply and does not); sets in a regex fold \
      simply ('[a-z]' does not match 'ß').
      - --word keeps a match only when it starts and ends on a Unicode (UAX #29) word boundary.
      - LINE:COLUMN is printed by default (-N hides both unless --column is given, --no-column \
      the column); the column \
      counts what --position-encoding says (UTF-8 bytes by default, or UTF-16 units, scalars, \
      graphemes).
      - A lone CR ends a line, as LSP counts lines.
      - A file found in a directory with a NUL byte in its first 64 KiB is skipped whole; one \
      whose first NUL comes later is searched whole (rg stops at that NUL, with a warning).
      - A file or directory found in a walk whose name is not valid UTF-8 is searched and \
      printed byte for byte, as rg does; a path given on the command line is read as UTF-8.
      - Options of rg's not listed here are refused (--iglob, --ignore-file, --files, \
      --type-add, ...). -t/-T know rg 13's types (--type-list).
      - Flags that override one another win as in rg, the last given: -i, -S and -s; --count \
      and -c; -l and --files-without-match; -H and -I; -n and -N; --column and --no-column; \
      --heading and --no-heading; -x and -w; -C against -A/-B (-C 1 -A 3 is -A 3 alone). --sort \
      takes only path (the order textrotor always prints in) or none. --count counts matches (rg's --count-matches); -c counts lines with a \
      match, as rg's -c.

      A regex runs on RE2 (linear time: (a+)+$ on a long line takes no time) when it provably \
      means the same there as in ICU: literals, escaped punctuation, \\t \\xhh \\x{...} \\uhhhh, \
      ., \\d \\w \\s (and \\D \\W \\S), \\p{...}, classes [...] without set operations, groups \
      (...) and (?:...), |, * + ? {n,m} greedy or lazy, ^ and $, without -i. Any other pattern \
      (-i, \\b, look-around, backreferences, possessive or atomic groups, flags, a repeated group \
      that can match empty, ...) runs on ICU's backtracking engine, as do lines with ill-formed \
      UTF-8 (and, for ^/$, lines with a CR, VT, FF, NEL, LS or PS). --debug prints which. On ICU \
      a match may run at most --time-limit steps (about milliseconds); a pattern that \
      backtracks catastrophically, like (a+)+(?=c), then fails with an error (exit status 2) \
      instead of hanging.

      A UTF-16 file with a byte order mark (FF FE or FE FF) is searched as its UTF-8 \
      transcoding, a piece at a time, as rg does: offsets, columns and --json are the \
      transcoding's. A file named on the command line with a NUL byte in its first 64 KiB is binary: as ripgrep \
      does, a line saying "binary file matches" is printed instead of its lines (counts and --json \
      are unchanged). --text searches it as text.

      Exit status: 0 a match was found, 1 none, 2 an error (other files are still searched).
      """
  )

  @Option(
    name: [.customShort("e"), .customLong("pattern")], parsing: .unconditionalSingleValue,
    help: ArgumentHelp("A pattern to find (repeat for several: any of them).", valueName: "pattern"))
  var patterns: [String] = []

  @Flag(name: .long, help: "Read the pattern as an ICU regular expression.")
  var regex = false

  @Flag(name: [.customShort("F"), .customLong("fixed-strings")], help: "The pattern is a literal (the default).")
  var fixedStrings = false

  @Flag(
    name: [.customShort("i"), .long], help: "Match without case (Unicode full case folding: STRASSE matches straße).")
  var ignoreCase = false

  @Flag(
    name: [.customShort("S"), .long], help: "Match without case when the pattern has no upper-case letter.")
  var smartCase = false

  @Flag(name: [.customShort("w"), .long], help: "Only matches that start and end on word boundaries.")
  var word = false

  @Option(name: .long, help: "Steps of ICU's regex engine one match may take (about milliseconds).")
  var timeLimit: Int = 3000

  @Flag(name: [.customShort("a"), .long], help: "Search binary files as text.")
  var text = false

  @Flag(name: .long, help: "Search hidden files and directories.")
  var hidden = false

  @Flag(name: .long, help: "Do not skip what .gitignore, .ignore and .rgignore files exclude.")
  var noIgnore = false

  @Option(
    name: [.customShort("g"), .long], parsing: .unconditionalSingleValue,
    help: "Search only files matching GLOB (gitignore syntax); !GLOB excludes. Repeatable.")
  var glob: [String] = []

  @Flag(name: [.customLong("count"), .customLong("count-matches")], help: "Print the number of matches per file.")
  var count = false

  @Flag(name: .customShort("c"), help: "Print the number of lines with a match per file (rg's -c).")
  var countLines = false

  @Flag(name: [.customShort("l"), .long], help: "Print only the paths of files with a match.")
  var filesWithMatches = false

  @Flag(name: [.customShort("o"), .long], help: "Print each match on its own line.")
  var onlyMatching = false

  @Flag(name: [.customShort("q"), .long], help: "Print nothing; the exit status says whether there was a match.")
  var quiet = false

  @Flag(name: .long, help: "Print each match as PATH:LINE:COLUMN:LINE TEXT.")
  var vimgrep = false

  @Flag(name: .long, help: "Print ripgrep's JSON Lines messages.")
  var json = false

  @Option(name: [.customShort("A"), .long], help: "Lines of context after each match.")
  var afterContext: Int?

  @Option(name: [.customShort("B"), .long], help: "Lines of context before each match.")
  var beforeContext: Int?

  @Option(name: [.customShort("C"), .long], help: "Lines of context before and after each match.")
  var context: Int?

  @Option(name: [.customShort("m"), .long], help: "Stop after NUM matching lines in each file.")
  var maxCount: Int?

  @Flag(name: [.customShort("n"), .long], help: "Print line numbers (the default).")
  var lineNumber = false

  @Flag(name: [.customShort("N"), .long], help: "Print no line numbers (nor columns, unless --column).")
  var noLineNumber = false

  @Flag(name: .long, help: "Print the column of the first match (the default).")
  var column = false

  @Flag(name: .long, help: "Print no column numbers.")
  var noColumn = false

  @Flag(name: .long, help: "Print the path above its file's matches (the default on a terminal).")
  var heading = false

  @Flag(name: .long, help: "Print the path on every line.")
  var noHeading = false

  @Flag(name: .long, help: "With --count, also print files without a match.")
  var includeZero = false

  @Option(name: [.customShort("j"), .long], help: "Files searched at once (default, or 0: the number of cores).")
  var threads: Int?

  @Flag(name: .long, help: "Print how the pattern is searched (the engine and its prefilter) on standard error.")
  var debug = false

  @Option(name: .long, help: "What a column counts: utf-8, utf-16, utf-32 or grapheme.")
  var positionEncoding: PositionEncoding = .utf8

  @Option(
    name: .customLong("color"), help: "When to colour the output: auto (on a terminal), never, always, ansi.")
  var color: ColorChoice = .auto

  @Option(name: .customLong("colour"), help: .hidden)
  var colour: ColorChoice?

  @Flag(name: [.customShort("H"), .long], help: "Print the path with each match, even for one file.")
  var withFilename = false

  @Flag(name: [.customShort("I"), .long], help: "Never print paths, even for several files.")
  var noFilename = false

  @Flag(name: [.customShort("s"), .long], help: "Match case (overrides -i and -S).")
  var caseSensitive = false

  @Flag(name: [.customShort("x"), .long], help: "Only matches that are a whole line.")
  var lineRegexp = false

  @Flag(name: [.customShort("v"), .long], help: "Print the lines without a match (counts count them).")
  var invertMatch = false

  @Flag(name: .long, help: "Print only the paths of files without a match.")
  var filesWithoutMatch = false

  @Flag(
    name: [.customShort("0"), .long],
    help: "Follow each printed path with a NUL byte (for xargs -0) instead of a newline or ':'.")
  var null = false

  @Flag(
    name: .customShort("u"),
    help: "Search more: -u as --no-ignore, -uu also hidden files (--hidden), -uuu also binary files (--text).")
  var unrestricted: Int

  @Option(
    name: [.customShort("f"), .customLong("file")], parsing: .singleValue,
    help: ArgumentHelp("Read patterns from FILE, one a line (- is standard input); repeatable.", valueName: "file"))
  var patternFiles: [String] = []

  @Option(
    name: .long,
    help: "Order of files: path (the only order textrotor prints in) or none; accepted for rg's scripts.")
  var sort: SortChoice?

  @Option(
    name: [.customShort("t"), .customLong("type")], parsing: .singleValue,
    help: ArgumentHelp(
      "Search only files of TYPE (rg's names: py, swift, md, c, ...; all: any known type). Repeatable.",
      valueName: "type"))
  var types: [String] = []

  @Option(
    name: [.customShort("T"), .customLong("type-not")], parsing: .singleValue,
    help: ArgumentHelp("Do not search files of TYPE. Repeatable.", valueName: "type"))
  var typesNot: [String] = []

  @Flag(name: .long, help: "List the file types -t and -T take, with their globs, and exit.")
  var typeList = false

  @Option(
    name: [.customShort("d"), .customLong("max-depth")],
    help: ArgumentHelp("Descend at most NUM directories below each path (0: only the paths given).", valueName: "num"))
  var maxDepth: Int?

  @Flag(name: [.customShort("L"), .customLong("follow")], help: "Follow symbolic links (a loop is reported).")
  var follow = false

  @Argument(
    help: ArgumentHelp("The pattern (when no -e is given), then files and directories; - is standard input."))
  var arguments: [String] = []

  func validate() throws {
    if let problem = options.problem { throw ValidationError(problem) }
  }

  /// The parsed options as plain values (what ``FindOptions/fastParse(_:)`` gives without the parser).
  var options: FindOptions {
    FindOptions(
      patterns: patterns, regex: regex, fixedStrings: fixedStrings, ignoreCase: ignoreCase, smartCase: smartCase,
      word: word, timeLimit: timeLimit, text: text, hidden: hidden, noIgnore: noIgnore, glob: glob, count: count,
      filesWithMatches: filesWithMatches, onlyMatching: onlyMatching, quiet: quiet, vimgrep: vimgrep, json: json,
      afterContext: afterContext, beforeContext: beforeContext, context: context, maxCount: maxCount,
      lineNumber: lineNumber, noLineNumber: noLineNumber, column: column, noColumn: noColumn, heading: heading,
      noHeading: noHeading, includeZero: includeZero, threads: threads, debug: debug,
      positionEncoding: positionEncoding, color: colour ?? color, withFilename: withFilename,
      noFilename: noFilename, caseSensitive: caseSensitive, lineRegexp: lineRegexp, invertMatch: invertMatch,
      filesWithoutMatch: filesWithoutMatch, countLines: countLines, null: null, unrestricted: unrestricted,
      patternFiles: patternFiles,
      sort: sort, types: types, typesNot: typesNot, typeList: typeList, maxDepth: maxDepth, follow: follow,
      arguments: arguments)
  }

  mutating func runWithStatus() -> Int32 { options.run() }

  /// Short options of `find` that take a value.
  static let shortOptionsWithValue: Set<Character> = ["e", "g", "A", "B", "C", "m", "j", "f", "t", "T", "d"]

  /// ripgrep's users write `-C2`, `-m1`, `-efoo` and `-iC2`: for `find`, splits a value attached
  /// to a short option into its own argument (`-C2` → `-C 2`), which the parser requires.
  static func splitAttachedValues(_ arguments: [String]) -> [String] {
    guard arguments.first == "find" else { return arguments }
    var result = ["find"]
    var takesValue = false
    var rest = false
    for argument in arguments.dropFirst() {
      if rest || takesValue || argument == "--" || !argument.hasPrefix("-") || argument.hasPrefix("--") {
        if argument == "--" && !takesValue { rest = true }
        // `--pattern -foo`: the value is taken whatever it starts with (as `-e -foo`), not split.
        takesValue = !takesValue && argument == "--pattern"
        result.append(argument)
        continue
      }
      let letters = Array(argument.dropFirst())
      guard let k = letters.firstIndex(where: { shortOptionsWithValue.contains($0) }) else {
        result.append(argument)
        continue
      }
      result.append("-" + String(letters[...k]))
      if k + 1 < letters.count {
        result.append(String(letters[(k + 1)...]))
      } else {
        takesValue = true
      }
    }
    return result
  }
}

extension FindCommand {
  /// Whether the long option `name` of `find` takes a value (the next argument, or after `=`).
  static func longOptionTakesValue(_ name: Substring) -> Bool {
    switch name {
    case "pattern", "time-limit", "glob", "after-context", "before-context", "context", "max-count", "threads",
      "position-encoding", "color", "colour", "file", "sort", "type", "type-not", "max-depth":
      true
    default: false
    }
  }

  /// The flags that override one another in rg, by group: of a group, the flag given last wins
  /// (`-i -s` searches with case, `-s -i` without; `-l --files-without-match` lists the files
  /// without a match). Short letters and long names; a switch, not a dictionary, which each
  /// process would build (a third of a short search's start).
  static func overrideGroup(_ name: Substring) -> Int? {
    switch name {
    case "i", "ignore-case", "S", "smart-case", "s", "case-sensitive": 0
    case "c", "count", "count-matches": 1
    case "l", "files-with-matches", "files-without-match": 2
    case "H", "with-filename", "I", "no-filename": 3
    case "n", "line-number", "N", "no-line-number": 4
    case "column", "no-column": 5
    case "heading", "no-heading": 6
    case "x", "line-regexp", "w", "word": 7
    case "A", "after-context", "B", "before-context": Self.afterOrBefore
    case "C", "context": Self.around
    default: nil
    }
  }

  /// The groups of -A/-B and of -C (``overrideGroup(_:)``), which override each other (not
  /// themselves: -A and -B both stay).
  static let afterOrBefore = 8
  static let around = 9

  /// rg lets the last of overriding flags win, where the parser sees only which were given: for
  /// `find` (`arguments` as ``splitAttachedValues(_:)`` leaves them), the flags of each group of
  /// ``overrideGroup(_:)`` but the last one given are taken out, and so is `-C` when `-A` or `-B`
  /// comes after it, or `-A` and `-B` when `-C` comes after both (rg: `-C 1 -A 3` is `-A 3`
  /// alone, `-A 3 -C 1` is `-C 1`). Values are left alone (`-e -i` is a pattern).
  static func lastFlagsWin(_ arguments: [String]) -> [String] {
    guard arguments.first == "find" else { return arguments }
    // Each flag of a group, in order, as one Int (plain arrays of Int: a dictionary or a set of
    // tuples here made each process instantiate their generic metadata, a fifth of a short
    // search's start): its argument << 40 | (its letter in a cluster of short flags + 1, 0 for
    // a long option) << 8 | its group (an argument holds at most 128 KiB: MAX_ARG_STRLEN).
    var places: [Int] = []
    var k = 1
    while k < arguments.count {
      let argument = arguments[k]
      if argument == "--" { break }
      guard argument.hasPrefix("-"), argument.utf8.count > 1 else {
        k += 1
        continue
      }
      if argument.hasPrefix("--") {
        let name = argument.dropFirst(2).prefix { $0 != "=" }
        let attached = argument.contains("=")
        if let group = overrideGroup(name), !attached || group >= Self.afterOrBefore {
          places.append(k << 40 | group)
        }
        k += longOptionTakesValue(name) && !attached ? 2 : 1
        continue
      }
      for (j, letter) in argument.dropFirst().enumerated() {
        let group = overrideGroup(Substring(String(letter)))
        if let group { places.append(k << 40 | (j + 1) << 8 | group) }
        // splitAttachedValues left a letter that takes a value last, its value next.
        if shortOptionsWithValue.contains(letter) {
          k += 1
          break
        }
      }
      k += 1
    }
    var lastOfGroup = [Int](repeating: -1, count: 10)
    for (index, place) in places.enumerated() { lastOfGroup[place & 0xFF] = index }
    var removed: [Int] = []
    for (index, place) in places.enumerated() {
      let group = place & 0xFF
      let out =
        switch group {
        // -A/-B: when a -C comes after it.
        case Self.afterOrBefore: lastOfGroup[Self.around] > index
        // -C: when an -A or -B comes after it, or another -C.
        case Self.around: lastOfGroup[Self.afterOrBefore] > index || lastOfGroup[Self.around] != index
        default: lastOfGroup[group] != index
        }
      if out { removed.append(place) }
    }
    guard !removed.isEmpty else { return arguments }
    var result = arguments
    var gone = [Bool](repeating: false, count: arguments.count)
    // From the last backwards, so that the letters' places in a cluster stay right. An option
    // with a value takes its value with it.
    for place in removed.reversed() {
      let argument = place >> 40
      let letter = (place >> 8 & 0xFFFF_FFFF) - 1
      if letter >= 0 {
        var letters = Array(result[argument].dropFirst())
        let takesValue = shortOptionsWithValue.contains(letters[letter])
        letters.remove(at: letter)
        if letters.isEmpty { gone[argument] = true } else { result[argument] = "-" + String(letters) }
        if takesValue { gone[argument + 1] = true }
      } else {
        gone[argument] = true
        let name = result[argument].dropFirst(2)
        if !name.contains("=") && longOptionTakesValue(name) { gone[argument + 1] = true }
      }
    }
    return result.indices.filter { !gone[$0] }.map { result[$0] }
  }
}

/// A file to search; `explicit` when named on the command line (not found in a directory).
struct Target: Sendable {
  var path: String
  var explicit: Bool
}

/// The files to search, in order, as the walk finds them; workers take them by index.
final class TargetQueue: Sendable {
  private let state = Mutex<(items: [Target], done: Bool)>(([], false))

  func push(_ target: Target) { state.withLock { $0.items.append(target) } }

  func finish() { state.withLock { $0.done = true } }

  /// The target at `index`, waiting until the walk has found it; nil when the walk is over first.
  func take(_ index: Int) -> Target? {
    while true {
      let (item, done) = state.withLock { s in (index < s.items.count ? s.items[index] : nil, s.done) }
      if let item { return item }
      if done { return nil }
      usleep(50)
    }
  }
}

/// Searches the targets on several threads while they are being found, and prints each file's
/// output in the targets' order.
struct FindRun: Sendable {
  let pattern: Pattern
  let format: FindFormat

  private struct Shared: ~Copyable {
    var results: [Int: FileResult] = [:]
    var nextToPrint = 0
    var printedAny = false
    var found = false
    var failed = false
    var stats = FindJSON.Stats()
  }

  /// Runs `produce` (which pushes the targets and returns whether it failed) on this thread and
  /// `threads` workers; returns whether something matched and whether an error occurred.
  func run(threads: Int, produce: (TargetQueue) -> Bool) -> (found: Bool, failed: Bool) {
    let started = FindJSON.now()
    let shared = Mutex(Shared())
    let queue = TargetQueue()
    let next = Atomic<Int>(0)
    let stop = Atomic<Bool>(false)
    let format = self.format
    let pattern = self.pattern
    let work: @Sendable () -> Void = {
      guard let matcher = try? PatternMatcher(pattern) else { return }
      let searcher = FileSearcher(matcher: matcher, format: format)
      while !stop.load(ordering: .relaxed) {
        let i = next.wrappingAdd(1, ordering: .relaxed).oldValue
        guard let target = queue.take(i) else { return }
        // The file whose output is next to print prints it as it is found.
        let result = searcher.search(path: target.path, explicit: target.explicit) { bytes, continuing, flush in
          shared.withLock { s in
            guard s.nextToPrint == i else { return false }
            Self.write(bytes, continuing: continuing, &s, format: format)
            if flush { StandardOutput.shared.flush() }
            return true
          }
        }
        if result.found && format.mode == .quiet { stop.store(true, ordering: .relaxed) }
        shared.withLock { s in
          s.results[i] = result
          while let r = s.results.removeValue(forKey: s.nextToPrint) {
            s.nextToPrint += 1
            Self.emit(r, &s, format: format)
          }
        }
      }
    }
    let group = DispatchGroup()
    for _ in 0..<threads { DispatchQueue.global().async(group: group, execute: work) }
    let walkFailed = produce(queue)
    queue.finish()
    group.wait()
    return shared.withLock { s in
      if format.mode == .json {
        var out: [UInt8] = []
        FindJSON.summary(s.stats, elapsed: FindJSON.now() - started, into: &out)
        StandardOutput.shared.write(bytes: out)
      }
      StandardOutput.shared.flush()
      return (s.found, s.failed || walkFailed)
    }
  }

  /// Searches one target on this thread with `matcher`; returns whether something matched and
  /// whether an error occurred.
  func runOne(_ target: Target, matcher: PatternMatcher) -> (found: Bool, failed: Bool) {
    let started = FindJSON.now()
    var shared = Shared()
    let result = FileSearcher(matcher: matcher, format: format).search(path: target.path, explicit: target.explicit) {
      bytes, _, flush in
      StandardOutput.shared.write(bytes: bytes)
      if flush { StandardOutput.shared.flush() }
      return true
    }
    Self.emit(result, &shared, format: format)
    if format.mode == .json {
      var out: [UInt8] = []
      FindJSON.summary(shared.stats, elapsed: FindJSON.now() - started, into: &out)
      StandardOutput.shared.write(bytes: out)
    }
    StandardOutput.shared.flush()
    return (shared.found, shared.failed)
  }

  /// Prints output of a file; `continuing`: some of the file's output was printed already.
  private static func write(_ bytes: [UInt8], continuing: Bool, _ s: inout Shared, format: FindFormat) {
    guard !bytes.isEmpty else { return }
    if !continuing && s.printedAny && format.mode != .json && FindFormat.printsLines.contains(format.mode) {
      // As rg: a blank line between files under headings, "--" between context groups.
      if format.heading {
        StandardOutput.shared.write(bytes: [0x0A])
      } else if format.hasContext {
        StandardOutput.shared.write(bytes: Array("--\n".utf8))
      }
    }
    StandardOutput.shared.write(bytes: bytes)
    s.printedAny = true
  }

  private static func emit(_ r: FileResult, _ s: inout Shared, format: FindFormat) {
    if r.found { s.found = true }
    s.stats.add(r.stats)
    write(r.output, continuing: r.streamed, &s, format: format)
    if !r.errors.isEmpty {
      StandardOutput.shared.flush()
      for e in r.errors { StandardOutput.error(e) }
      s.failed = true
    }
  }
}

extension ColorChoice: ExpressibleByArgument {}
extension SortChoice: ExpressibleByArgument {}
