import Dispatch
import Glibc
import TextRotor

/// The options of `find` as plain values: what ``FindCommand``'s parser gives, or what
/// ``fastParse(_:)`` gives for an everyday command line without building the parser's tables
/// (about 70 % of the process start of `find` on a small file went to them).
struct FindOptions: Equatable, Sendable {
  var patterns: [String] = []
  var regex = false
  var fixedStrings = false
  var ignoreCase = false
  var smartCase = false
  var word = false
  var timeLimit = 3000
  var text = false
  var hidden = false
  var noIgnore = false
  var glob: [String] = []
  var count = false
  var filesWithMatches = false
  var onlyMatching = false
  var quiet = false
  var vimgrep = false
  var json = false
  var afterContext: Int? = nil
  var beforeContext: Int? = nil
  var context: Int? = nil
  var maxCount: Int? = nil
  var lineNumber = false
  var noLineNumber = false
  var column = false
  var noColumn = false
  var heading = false
  var noHeading = false
  var includeZero = false
  var threads: Int? = nil
  var debug = false
  var positionEncoding: PositionEncoding = .utf8
  var color: ColorChoice = .auto
  var withFilename = false
  var noFilename = false
  var caseSensitive = false
  var lineRegexp = false
  var invertMatch = false
  var filesWithoutMatch = false
  var countLines = false
  var null = false
  var unrestricted = 0
  var patternFiles: [String] = []
  var sort: SortChoice? = nil
  var types: [String] = []
  var typesNot: [String] = []
  var typeList = false
  var maxDepth: Int? = nil
  var follow = false
  var arguments: [String] = []

  /// What is wrong with the options (``FindCommand/validate()`` throws it), or nil.
  var problem: String? {
    if timeLimit < 1 { return "--time-limit must be at least 1." }
    if patterns.isEmpty && patternFiles.isEmpty && arguments.isEmpty && !typeList {
      return "Missing expected argument 'PATTERN'."
    }
    if let maxDepth, maxDepth < 0 { return "--max-depth must not be negative." }
    // Output modes combine as in rg: -q wins over all, then --json, a count, -l or
    // --files-without-match, --vimgrep, -o (-o with a count counts matches; with --vimgrep each
    // match's text is printed, not its line). Of flags that override one another (--count and
    // -c, -l and --files-without-match, -i and -S, -H and -I), the command line keeps the last
    // (``FindCommand/lastFlagsWin(_:)``), as rg: given together here, they are refused.
    if count && countLines {
      return "--count (matches) and -c (lines with a match) cannot be used together: give one of them."
    }
    if filesWithMatches && filesWithoutMatch {
      return "-l and --files-without-match cannot be used together: give one of them."
    }
    if json && (count || countLines || filesWithMatches || filesWithoutMatch) {
      return "--json cannot be used with --count, -c, -l or --files-without-match (as in rg)."
    }
    if withFilename && noFilename { return "-H and -I cannot be used together." }
    for (name, value) in [("-A", afterContext), ("-B", beforeContext), ("-C", context), ("-m", maxCount)] {
      if let value, value < 0 { return "\(name) must not be negative." }
    }
    // As rg: 0 picks the number of cores.
    if let threads, threads < 0 { return "-j must be 0 (one thread a core) or more." }
    if ignoreCase && smartCase { return "-i and -S cannot be used together." }
    if unrestricted > 3 { return "-u may be given at most 3 times (-uuu)." }
    return nil
  }

  // MARK: The fast path

  private static func shortFlags(_ key: UInt8) -> WritableKeyPath<FindOptions, Bool>? {
    switch key {
    case UInt8(ascii: "F"): \.fixedStrings
    case UInt8(ascii: "i"): \.ignoreCase
    case UInt8(ascii: "S"): \.smartCase
    case UInt8(ascii: "w"): \.word
    case UInt8(ascii: "a"): \.text
    case UInt8(ascii: "l"): \.filesWithMatches
    case UInt8(ascii: "o"): \.onlyMatching
    case UInt8(ascii: "q"): \.quiet
    case UInt8(ascii: "n"): \.lineNumber
    case UInt8(ascii: "N"): \.noLineNumber
    case UInt8(ascii: "H"): \.withFilename
    case UInt8(ascii: "I"): \.noFilename
    case UInt8(ascii: "s"): \.caseSensitive
    case UInt8(ascii: "x"): \.lineRegexp
    case UInt8(ascii: "v"): \.invertMatch
    case UInt8(ascii: "0"): \.null
    case UInt8(ascii: "c"): \.countLines
    default: nil
    }
  }

  private static func longFlags(_ key: String) -> WritableKeyPath<FindOptions, Bool>? {
    switch key {
    case "regex": \.regex
    case "fixed-strings": \.fixedStrings
    case "ignore-case": \.ignoreCase
    case "smart-case": \.smartCase
    case "word": \.word
    case "text": \.text
    case "hidden": \.hidden
    case "no-ignore": \.noIgnore
    case "count": \.count
    case "count-matches": \.count
    case "files-with-matches": \.filesWithMatches
    case "only-matching": \.onlyMatching
    case "quiet": \.quiet
    case "vimgrep": \.vimgrep
    case "json": \.json
    case "line-number": \.lineNumber
    case "no-line-number": \.noLineNumber
    case "column": \.column
    case "no-column": \.noColumn
    case "heading": \.heading
    case "no-heading": \.noHeading
    case "include-zero": \.includeZero
    case "debug": \.debug
    case "with-filename": \.withFilename
    case "no-filename": \.noFilename
    case "case-sensitive": \.caseSensitive
    case "line-regexp": \.lineRegexp
    case "invert-match": \.invertMatch
    case "files-without-match": \.filesWithoutMatch
    case "null": \.null
    default: nil
    }
  }

  private static func intOptions(_ key: String) -> WritableKeyPath<FindOptions, Int?>? {
    switch key {
    case "-A": \.afterContext
    case "--after-context": \.afterContext
    case "-B": \.beforeContext
    case "--before-context": \.beforeContext
    case "-C": \.context
    case "--context": \.context
    case "-m": \.maxCount
    case "--max-count": \.maxCount
    case "-j": \.threads
    case "--threads": \.threads
    default: nil
    }
  }

  /// The options of an everyday `find` command line (`arguments` as ``FindCommand/splitAttachedValues(_:)``
  /// leaves them, `find` first), read without ArgumentParser; nil when the line holds anything else
  /// (help, `--`, `-`, an unknown or repeated option, a value that is not plain digits or that starts
  /// with `-`, a problem the parser would report), which then goes to the parser. Where it answers,
  /// it answers what the parser would (`FindOptionsTests` compares both on random command lines).
  static func fastParse(_ arguments: [String]) -> FindOptions? {
    guard arguments.first == "find" else { return nil }
    var options = FindOptions()
    var seen: Set<AnyKeyPath> = []
    var k = 1
    var attached: String? = nil  // the value of `--name=value`
    func value() -> String? {
      if let v = attached { return v.isEmpty || v.utf8.first == UInt8(ascii: "-") ? nil : v }
      guard k + 1 < arguments.count else { return nil }
      let v = arguments[k + 1]
      if v.utf8.first == UInt8(ascii: "-") { return nil }
      k += 1
      return v
    }
    while k < arguments.count {
      let argument = arguments[k]
      let utf8 = Array(argument.utf8)
      defer { k += 1 }
      attached = nil
      guard utf8.first == UInt8(ascii: "-") else {
        if argument == "help" { return nil }
        options.arguments.append(argument)
        continue
      }
      guard utf8.count >= 2 else { return nil }  // "-"
      if utf8[1] == UInt8(ascii: "-") {
        var name = String(argument.dropFirst(2))
        var argument = argument
        if let equals = name.firstIndex(of: "=") {
          attached = String(name[name.index(after: equals)...])
          name = String(name[..<equals])
          argument = "--" + name
          if longFlags(name) != nil { return nil }
        }
        if let flag = longFlags(name) {
          guard seen.insert(flag).inserted else { return nil }
          options[keyPath: flag] = true
          continue
        }
        switch name {
        case "pattern", "glob":
          guard let v = value() else { return nil }
          if name == "pattern" { options.patterns.append(v) } else { options.glob.append(v) }
          continue
        case "time-limit":
          guard seen.insert(\FindOptions.timeLimit).inserted, let v = value(), let n = plainInt(v) else { return nil }
          options.timeLimit = n
          continue
        case "position-encoding":
          guard seen.insert(\FindOptions.positionEncoding).inserted, let v = value(),
            let e = PositionEncoding(rawValue: v)
          else {
            return nil
          }
          options.positionEncoding = e
          continue
        case "color", "colour":
          guard seen.insert(\FindOptions.color).inserted, let v = value(), let c = ColorChoice(rawValue: v) else {
            return nil
          }
          options.color = c
          continue
        default: break
        }
        guard let option = intOptions(argument), seen.insert(option).inserted, let v = value(),
          let n = plainInt(v)
        else { return nil }
        options[keyPath: option] = n
        continue
      }
      if utf8.count == 2 {
        switch utf8[1] {
        case UInt8(ascii: "e"):
          guard let v = value() else { return nil }
          options.patterns.append(v)
          continue
        case UInt8(ascii: "g"):
          guard let v = value() else { return nil }
          options.glob.append(v)
          continue
        default: break
        }
        if let option = intOptions(argument) {
          guard seen.insert(option).inserted, let v = value(), let n = plainInt(v) else { return nil }
          options[keyPath: option] = n
          continue
        }
      }
      // One or more short flags (`-i`, `-iw`).
      for letter in utf8.dropFirst() {
        guard let flag = shortFlags(letter), seen.insert(flag).inserted else { return nil }
        options[keyPath: flag] = true
      }
    }
    guard options.problem == nil else { return nil }
    return options
  }

  /// A value of plain ASCII digits (at most 18) as an Int, else nil.
  private static func plainInt(_ text: String) -> Int? {
    let utf8 = text.utf8
    guard !utf8.isEmpty, utf8.count <= 18, utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
    return Int(text)
  }

  /// The pattern and paths: the first argument is the pattern when neither -e nor -f gives one
  /// (as in rg: with either, every argument is a path, and there may be none).
  private var patternsAndPaths: (patterns: [String], paths: [String]) {
    let args = arguments
    if !patterns.isEmpty || !patternFiles.isEmpty { return (patterns, args) }
    return ([args[0]], Array(args.dropFirst()))
  }

  /// The patterns of `-f FILE` (one a line; `-` is standard input), or the reason they cannot be read.
  private func patternsFromFiles() -> Result<[String], FileError> {
    var result: [String] = []
    for path in patternFiles {
      do {
        let storage = try ByteStorage.contentsOf(path: path)
        var bytes = storage.copyBytes(0..<storage.count)
        if bytes.isEmpty { continue }
        if bytes.last == 0x0A { bytes.removeLast() }
        // By bytes: "\r\n" is one Character, which a split on "\n" would not cut.
        // Read as a command-line argument is: a line that is not UTF-8 is refused as a pattern.
        result += bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map { line in
          FileSystem.name(line.last == 0x0D ? line.dropLast() : line)
        }
      } catch {
        return .failure(error)
      }
    }
    return .success(result)
  }

  /// Searches as the options say; returns grep's exit status.
  func run() -> Int32 {
    if typeList {
      StandardOutput.shared.write(FileTypes.listing)
      StandardOutput.shared.flush()
      return 0
    }
    let typeSelection: FileTypes.Selection
    do {
      typeSelection = try FileTypes.Selection(select: types, negate: typesNot)
    } catch {
      StandardOutput.error(error.description)
      return 2
    }
    let (given, givenPaths) = patternsAndPaths
    var texts = given
    if !patternFiles.isEmpty {
      switch patternsFromFiles() {
      case .success(let more): texts += more
      case .failure(let error):
        StandardOutput.error(error.description)
        return 2
      }
      if texts.isEmpty { return 1 }  // an empty pattern file matches nothing, as in rg
    }
    if let message = PatternText.invalidUTF8(texts) {
      StandardOutput.error(message)
      return 2
    }
    texts = texts.map(PatternText.text)
    let syntax: Pattern.Syntax = regex ? .regex : .literal
    let caseless =
      !caseSensitive
      && (ignoreCase || (smartCase && texts.allSatisfy { Pattern.isAllLowercase($0, syntax: syntax) }))
    let pattern = Pattern.anyOf(
      texts, syntax: syntax, ignoreCase: caseless, wholeWord: word, wholeLine: lineRegexp, timeLimit: timeLimit)
    let matcher: PatternMatcher
    do {
      matcher = try PatternMatcher(pattern)
      if debug { StandardOutput.error("\(pattern): \(matcher.searchPath)") }
    } catch {
      StandardOutput.error(error.description)
      return 2
    }
    // As rg: -m 0 asks for no match, so nothing is searched (nor opened) and nothing is found.
    if maxCount == 0 { return 1 }

    // What to search: no path means standard input when it is a file, a pipe or a socket (rg's
    // rule: a terminal or /dev/null is not input) and `-f -` did not read the patterns from it,
    // else ".".
    var roots = givenPaths
    var implicitDirectory = false
    if roots.isEmpty {
      if !FileSystem.standardInputIsReadable || patternFiles.contains("-") {
        roots = ["."]
        implicitDirectory = true
      } else {
        roots = ["-"]
      }
    }
    var walkOptions = FileWalker.Options()
    walkOptions.hidden = hidden || unrestricted >= 2
    walkOptions.respectIgnoreFiles = !noIgnore && unrestricted < 1
    walkOptions.globs = glob
    walkOptions.types = typeSelection
    walkOptions.maxDepth = maxDepth
    walkOptions.followLinks = follow
    walkOptions.globalGitignore = FileWalker.gitGlobalExcludesFile()
    let walker = FileWalker(options: walkOptions)
    let directories = roots.map { $0 != "-" && FileSystem.kind(of: $0, followLinks: true) == .directory }
    var format = makeFormat(
      // --vimgrep shows paths (unless -I), as in rg, whatever mode it resolves to.
      showPath: withFilename || (!noFilename && (vimgrep || roots.count > 1 || directories.contains(true))))
    let threads = max(self.threads.flatMap { $0 == 0 ? nil : $0 } ?? Segmenter.availableCores, 1)
    if roots.count == 1 && !directories.contains(true) { format.countThreads = threads }
    let run = FindRun(pattern: pattern, format: format)
    if roots.count == 1 && !directories[0] {
      // One file: searched on this thread (no hand-off to a worker, which on a busy machine waits
      // for the scheduler), with the matcher already compiled.
      let (found, failed) = run.runOne(Target(path: roots[0], explicit: true), matcher: matcher)
      if failed { return 2 }
      return found ? 0 : 1
    }
    // The directories are walked on this thread while the workers search what is found so far.
    var searched = 0
    let (found, failed) = run.run(threads: directories.contains(true) ? threads : min(threads, roots.count)) { queue in
      var failed = false
      for (root, isDirectory) in zip(roots, directories) {
        guard isDirectory else {
          queue.push(Target(path: root, explicit: true))
          continue
        }
        walker.walk(
          root,
          onError: { error in
            StandardOutput.error(error.description)
            failed = true
          }
        ) { path in
          let shown = implicitDirectory && path.hasPrefix("./") ? String(path.dropFirst(2)) : path
          queue.push(Target(path: shown, explicit: false))
          searched += 1
        }
      }
      return failed
    }
    StandardOutput.shared.flush()
    // As rg: the current directory (no path given) held no file to search once filtered.
    if implicitDirectory && searched == 0 {
      StandardOutput.error(
        "no files were searched: hidden files, .gitignore/.ignore/.rgignore, -g, -t/-T or --max-depth "
          + "left out every file under the current directory (--hidden, --no-ignore or -u search more)")
      return 2
    }
    // As rg: with -q a match wins over an error (exit 0 once something is found).
    if failed && !(quiet && found) { return 2 }
    return found ? 0 : 1
  }

  private func makeFormat(showPath: Bool) -> FindFormat {
    var format = FindFormat()
    if quiet {
      format.mode = .quiet
    } else if json {
      format.mode = .json
    } else if count || countLines {
      format.mode = .count
      format.countLines = countLines && !onlyMatching
      format.countsNoMatches = countLines && onlyMatching && invertMatch
    } else if filesWithMatches {
      format.mode = .filesWithMatches
    } else if filesWithoutMatch {
      format.mode = .filesWithoutMatch
    } else if vimgrep {
      format.mode = .vimgrep
      format.matchTextOnly = onlyMatching
    } else if onlyMatching {
      format.mode = .onlyMatching
    }
    format.showPath = showPath
    // Headings group each file's lines (the path above them when it is shown; files apart by a
    // blank line, with -I too, as rg).
    format.heading = !noHeading && (heading || StandardOutput.isTerminal) && !vimgrep
    format.lineNumber = !noLineNumber
    // The column shows with the line number (textrotor's default), under --vimgrep, or when
    // --column asks for it (-N then hides the line alone, as in rg); --no-column hides it.
    format.column = !noColumn && (column || !noLineNumber || vimgrep)
    format.before = beforeContext ?? context ?? 0
    format.after = afterContext ?? context ?? 0
    format.maxCount = maxCount
    switch color {
    case .never: format.color = false
    case .always, .ansi: format.color = true
    case .auto: format.color = StandardOutput.useColor
    }
    format.invert = invertMatch
    format.nullAfterPath = null
    format.encoding = positionEncoding
    // As rg: a file without a match gets no count unless --include-zero, one file alone too.
    format.includeZeroCounts = includeZero
    format.searchBinary = text || unrestricted >= 3
    return format
  }
}

/// When `find` colours its output (`--color`, as rg's).
enum ColorChoice: String, CaseIterable, Sendable {
  /// On a terminal, unless NO_COLOR is set.
  case auto
  case never
  case always
  /// As `always` (rg's name for its ANSI escapes).
  case ansi
}

/// How `find` orders files (`--sort`, as rg's; only `path` and `none`: files are always printed in
/// the order given and a directory's files sorted by path, which is rg's `--sort path`).
enum SortChoice: String, CaseIterable, Sendable {
  case path
  case none
}
