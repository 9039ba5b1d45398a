import ArgumentParser
import Glibc
import TextRotor

/// The rotors `next` and `prev` navigate.
enum RotorName: String, CaseIterable, ExpressibleByArgument {
  case characters, words, sentences, proseSentences, lines, paragraphs, linebreaks, matches
  case headings, links, lists, listItems, codeBlocks, tables, blockQuotes, emphasis, strong, misspelled

  var systemRotor: SystemRotor? { SystemRotor(rawValue: rawValue) }
  var structureRotor: StructureRotor? { StructureRotor(rawValue: rawValue) }
}

/// Options shared by `next` and `prev`.
struct NavigationOptions: ParsableArguments {
  @Option(
    name: .long,
    help:
      "characters, words, sentences, proseSentences, lines, paragraphs, linebreaks or matches; or a structure rotor: headings, links, lists, listItems, codeBlocks, tables, blockQuotes, emphasis, strong, misspelled (Hunspell, --locale's dictionary)."
  )
  var rotor: RotorName

  @Option(name: .long, help: "A UTF-8 byte offset into the file (0 ... file size).")
  var at: Int

  @OptionGroup var patternOptions: PatternOptions

  @Flag(name: .long, help: "With --rotor words: skip segments that are not words (spaces, punctuation).")
  var wordsOnly = false

  @OptionGroup var text: TextOptions

  @Flag(name: .long, help: "Print the entry as a JSON Lines object.")
  var json = false

  @Option(name: .long, help: "What a column counts: utf-8, utf-16, utf-32 or grapheme.")
  var positionEncoding: PositionEncoding = .utf8

  @Argument(help: "The file to read; - is standard input.")
  var file: String

  func validate() throws {
    if at < 0 { throw ValidationError("--at must be a byte offset of 0 or more, not \(at).") }
    if wordsOnly && rotor != .words { throw ValidationError("--words-only goes with --rotor words.") }
    if rotor == .matches && !patternOptions.isGiven {
      throw ValidationError("--rotor matches needs --pattern.")
    }
    if rotor != .matches && patternOptions.isGiven {
      throw ValidationError("--pattern goes with --rotor matches.")
    }
    if text.format != nil && rotor.structureRotor == nil {
      throw ValidationError("--format goes with a structure rotor (--rotor headings, links, ...).")
    }
  }

  enum Direction { case next, previous }

  /// Finds and prints the entry; returns grep's exit status.
  func run(_ direction: Direction) -> Int32 {
    var matcher: PatternMatcher? = nil
    if rotor != .matches { text.warnIfUnknownLocale() }
    if rotor == .matches {
      guard let made = patternOptions.matcher() else { return 2 }
      matcher = made
    }
    // A structure rotor reads its stream whole (Markdown is not local); the others stream.
    let streamed: ((String, BlockReader) throws -> Inputs.Outcome)? =
      rotor.structureRotor != nil
      ? nil : { name, stream in try navigateStream(direction, name: name, stream: stream, matcher: matcher) }
    return Inputs(paths: [file], validateUTF8: false).run(streamed: streamed) { name, bytes in
      try answer(direction, name: name, bytes: bytes, matcher: matcher)
    }
  }

  /// Finds and prints the entry in the whole text `bytes`.
  private func answer(_ direction: Direction, name: String, bytes: ByteStorage, matcher: PatternMatcher?) throws
    -> Inputs.Outcome
  {
    try Self.check(offset: at, in: bytes)
    if let kind = rotor.structureRotor {
      let elementRanges = text.elements.ranges(in: bytes)
      // The whole file is parsed (Markdown is not local), then the entry is looked up.
      let entries =
        try StructureScan.entries(
          [kind], in: bytes, elements: elementRanges, format: text.format(of: name),
          segmenter: Segmenter(locale: text.locale, threads: Segmenter.availableCores))[kind] ?? []
      let entry =
        direction == .next
        ? entries.first { $0.range.lowerBound > at } : entries.last { $0.range.lowerBound < at }
      guard let entry else { return .nothingFound }
      var printer = EntryPrinter(
        rotor: rotor.rawValue, name: name, bytes: bytes, elements: elementRanges, encoding: positionEncoding,
        json: json, showPath: false)
      printer.print(entry.range, label: entry.label, info: entry.info)
      return .found
    }
    guard let found = try locate(direction, bytes, matcher) else { return .nothingFound }
    print(found, name: name, bytes: bytes)
    return .found
  }

  /// The entry of a system rotor or of the matches, with its element; the elements are read from
  /// the lines around the answer, not listed.
  private func locate(_ direction: Direction, _ bytes: ByteStorage, _ matcher: PatternMatcher?) throws
    -> (element: Range<Int>, range: Range<Int>)?
  {
    if let matcher { return try findMatch(direction, matcher, bytes) }
    return try findSegment(direction, rotor.systemRotor!, bytes)
  }

  private func print(_ found: (element: Range<Int>, range: Range<Int>), name: String, bytes: ByteStorage) {
    // Only JSON shows the element's index: counted then, from the start of the file (a line's from
    // the entry's line number, which JSON counts anyway).
    var printer = EntryPrinter(
      rotor: rotor.rawValue, name: name, bytes: bytes, elements: [],
      encoding: positionEncoding, json: json, showPath: false, threads: Segmenter.availableCores)
    printer.print(found.range) { location in
      FileNavigation.elementIndex(
        of: found.element, kind: text.elements, in: bytes, threads: Segmenter.availableCores,
        lineOfEntry: location.line)
    }
  }

  /// Bytes read per block of a stream (64 KiB; TEXTROTOR_STREAM_BLOCK_SIZE sets it, for tests).
  static let streamBlockSize: Int = {
    if let text = getenv("TEXTROTOR_STREAM_BLOCK_SIZE"), let n = Int(String(cString: text)), n > 0 { return n }
    return 1 << 16
  }()

  /// Standard input, a FIFO or a device, read only as far as the answer needs: `next` on an
  /// endless stream answers, and memory is bounded by the offset and the answer's distance from
  /// it. A line break (a blank line when paragraphs are involved) is a boundary for every rotor
  /// (as `segment` uses it), so the bytes before the last one read give the whole input's answer
  /// once they reach past the offset, for `prev`, or hold an entry after it, for `next`.
  private func navigateStream(_ direction: Direction, name: String, stream: BlockReader, matcher: PatternMatcher?)
    throws -> Inputs.Outcome
  {
    let paragraphs = (rotor.systemRotor?.spansLines ?? false) || text.elements == .paragraphs
    var data: [UInt8] = []
    var triedAt = 0
    while true {
      let block = try stream.nextBlock(blockSize: Self.streamBlockSize, cut: { bytes, _ in bytes.count })
      if let block { block.withUnsafeBytes { data.append(contentsOf: $0) } }
      guard block != nil else { return try answer(direction, name: name, bytes: ByteStorage(data), matcher: matcher) }
      // Tried at doubling sizes, so the tries cost a constant factor of one.
      if triedAt > 0 && data.count < 2 * triedAt { continue }
      triedAt = data.count
      let bytes = ByteStorage(data)
      guard let cut = paragraphs ? SegmentCommand.lastParagraphCut(bytes) : SegmentCommand.lastLineCut(bytes),
        cut > at
      else { continue }
      let prefix = ByteStorage(data[0..<cut])
      let elementRanges = text.elements.ranges(in: prefix)
      // A lone empty element has no line; the same element followed by others is an empty line.
      if text.elements != .whole && elementRanges.count < 2 { continue }
      try Self.check(offset: at, in: prefix)
      guard let found = try locate(direction, prefix, matcher) else {
        if direction == .previous { return .nothingFound }
        continue
      }
      print(found, name: name, bytes: prefix)
      return .found
    }
  }

  /// An offset past the end, or inside a UTF-8 sequence, is an error that says which.
  static func check(offset: Int, in bytes: ByteStorage) throws {
    if offset > bytes.count {
      throw NavigationError("offset \(offset) is beyond the end of the file (\(bytes.count) bytes)")
    }
    if !TextFacts.isCharacterBoundary(bytes, offset) {
      var start = offset - 1
      while bytes[start] & 0xC0 == 0x80 { start -= 1 }
      throw NavigationError("offset \(offset) is inside a UTF-8 sequence (its character starts at byte \(start))")
    }
  }

  private func findSegment(_ direction: Direction, _ rotor: SystemRotor, _ bytes: ByteStorage)
    throws -> (element: Range<Int>, range: Range<Int>)?
  {
    let segmenter = Segmenter(locale: text.locale)
    let kind = text.elements
    var position = at
    while true {
      let found =
        direction == .next
        ? try FileNavigation.entry(after: position, rotor: rotor, in: bytes, elements: kind, segmenter: segmenter)
        : try FileNavigation.entry(before: position, rotor: rotor, in: bytes, elements: kind, segmenter: segmenter)
      guard let found else { return nil }
      if !wordsOnly || found.status.isWord { return (found.element, found.range) }
      position = found.range.lowerBound
    }
  }

  private func findMatch(_ direction: Direction, _ matcher: PatternMatcher, _ bytes: ByteStorage)
    throws -> (element: Range<Int>, range: Range<Int>)?
  {
    // Matches never span a line, so they never span an element: search the file's text, then name
    // the element holding the match (skipping matches outside every element, e.g. in a blank line).
    let content = TextFacts.byteOrderMarkLength(bytes)..<bytes.count
    var position = at
    while true {
      let found =
        direction == .next
        ? try FileNavigation.match(after: position, of: matcher, in: bytes, range: content)
        : try FileNavigation.match(before: position, of: matcher, in: bytes, range: content)
      guard let found else { return nil }
      if let element = FileNavigation.element(holding: found, kind: text.elements, in: bytes) {
        return (element, found)
      }
      position = found.lowerBound
    }
  }
}

struct NavigationError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

struct NextCommand: ExitStatusCommand {
  static let configuration = CommandConfiguration(
    commandName: "next",
    abstract: "Print the first entry of a rotor that starts after a byte offset.",
    discussion:
      "Only the lines around the offset are segmented or searched, so the answer comes at once on any file size."
  )
  @OptionGroup var options: NavigationOptions
  mutating func runWithStatus() -> Int32 { options.run(.next) }
}

struct PrevCommand: ExitStatusCommand {
  static let configuration = CommandConfiguration(
    commandName: "prev",
    abstract: "Print the last entry of a rotor that starts before a byte offset.",
    discussion:
      "Only the lines around the offset are segmented or searched, so the answer comes at once on any file size."
  )
  @OptionGroup var options: NavigationOptions
  mutating func runWithStatus() -> Int32 { options.run(.previous) }
}
