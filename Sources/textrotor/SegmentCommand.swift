import ArgumentParser
import Glibc
import TextRotor

/// `segment --by`'s names for the system and structure rotors.
enum SegmentUnit: String, CaseIterable, ExpressibleByArgument {
  case grapheme, word, sentence, line, paragraph, linebreak
  case heading, link, list, listitem, code, table, blockquote, emphasis, strong, misspelled

  /// A `--by` name: these, in any case, or the rotor's own name (`listItems`, `codeBlock`,
  /// `blockQuotes`, `words`, `characters`, ...), singular or plural.
  init?(argument: String) {
    let name = argument.lowercased()
    if let unit = SegmentUnit(rawValue: name) {
      self = unit
      return
    }
    let aliases: [String: SegmentUnit] = [
      "character": .grapheme, "characters": .grapheme, "graphemes": .grapheme, "words": .word, "sentences": .sentence,
      "lines": .line, "paragraphs": .paragraph, "linebreaks": .linebreak, "headings": .heading, "links": .link,
      "lists": .list, "listitems": .listitem, "codeblock": .code, "codeblocks": .code, "tables": .table,
      "blockquotes": .blockquote,
    ]
    guard let unit = aliases[name] else { return nil }
    self = unit
  }

  var rotor: SystemRotor? {
    switch self {
    case .grapheme: .characters
    case .word: .words
    case .sentence: .sentences
    case .line: .lines
    case .paragraph: .paragraphs
    case .linebreak: .linebreaks
    default: nil
    }
  }

  var structure: StructureRotor? {
    switch self {
    case .heading: .headings
    case .link: .links
    case .list: .lists
    case .listitem: .listItems
    case .code: .codeBlocks
    case .table: .tables
    case .blockquote: .blockQuotes
    case .emphasis: .emphasis
    case .strong: .strong
    case .misspelled: .misspelled
    default: nil
    }
  }
}

struct SegmentCommand: ExitStatusCommand {
  static let configuration = CommandConfiguration(
    commandName: "segment",
    abstract:
      "Split files into graphemes, words, sentences, lines, paragraphs or line-break segments, or list their structure (headings, links, lists, ...).",
    discussion: """
      Human output is one entry per line: PATH:LINE:COLUMN:LABEL (PATH when several files are \
      given), with line ends in labels shown as \\n. Offsets in --json are UTF-8 byte offsets into \
      the file. Invalid UTF-8 is read as U+FFFD and reported on stderr.
      """
  )

  @Option(
    name: .long,
    help:
      "grapheme, word, sentence, line, paragraph or linebreak; or a structure rotor: heading, link, list, listitem, code, table, blockquote, emphasis or strong (Markdown through cmark-gfm; links also in plain text); or misspelled (words the Hunspell dictionary of --locale does not know; default en_US). The rotors' own names are taken too, in any case (characters, words, listItems, codeBlocks, blockQuotes, ...)."
  )
  var by: SegmentUnit

  @Flag(name: .long, help: "With --by word: only segments ICU tags as letters, numbers, kana or ideographs.")
  var wordsOnly = false

  @Flag(
    name: .long,
    help:
      "With --by sentence: read a single line break inside a paragraph as a space (hard-wrapped prose; the proseSentences rotor)."
  )
  var prose = false

  @OptionGroup var text: TextOptions

  @Option(
    name: .long,
    help:
      "Threads to read and segment with (default: every core). A file is cut after hard line breaks, where every rule set breaks, and the pieces are segmented at once; the entries are the same whatever the number."
  )
  var threads: Int = Segmenter.availableCores

  @OptionGroup var output: OutputOptions

  @Argument(help: "Files to read; - is standard input.")
  var files: [String] = ["-"]

  func validate() throws {
    if wordsOnly && by != .word { throw ValidationError("--words-only goes with --by word.") }
    if text.format != nil && by.structure == nil {
      throw ValidationError("--format goes with a structure rotor (--by heading, link, list, ...).")
    }
    if prose && by != .sentence { throw ValidationError("--prose goes with --by sentence.") }
    if threads < 1 { throw ValidationError("--threads must be at least 1.") }
  }

  /// Starts loading the break rules that `arguments` (a `segment` command line, not parsed yet)
  /// will segment with, on another core (`Segmenter.prepare`), unless it asks for one thread:
  /// the parser, the file's mapping and its validity pass then run beside the load. A guess from
  /// `--by` and `--locale`; the parser still reads and checks everything.
  static func prepareRules(_ arguments: [String]) {
    func value(_ name: String) -> String? {
      guard let k = arguments.lastIndex(of: name), k + 1 < arguments.count else { return nil }
      return arguments[k + 1]
    }
    guard value("--threads") != "1", let by = value("--by").flatMap(SegmentUnit.init(rawValue:)), let rotor = by.rotor
    else { return }
    Segmenter.prepare(rotor, locale: value("--locale") ?? "")
  }

  /// The parsed options as plain values.
  var options: SegmentOptions {
    SegmentOptions(
      by: by, wordsOnly: wordsOnly, prose: prose, locale: text.locale, elements: text.elements, format: text.format,
      threads: threads, count: output.count, json: output.json, positionEncoding: output.positionEncoding,
      files: files)
  }

  mutating func runWithStatus() -> Int32 { options.run() }

  /// After the last line break of `bytes` (not after a final CR, whose LF may come next).
  static func lastLineCut(_ bytes: ByteStorage) -> Int? { SegmentOptions.lastLineCut(bytes) }

  /// After the last blank line of `bytes` that is followed by more text, so no paragraph is cut.
  static func lastParagraphCut(_ bytes: ByteStorage) -> Int? { SegmentOptions.lastParagraphCut(bytes) }
}

extension SegmentOptions {
  /// Segments (or lists the structure of) the files as the options say; returns grep's exit status.
  func run() -> Int32 {
    if let structure = by.structure { return runStructure(structure) }
    let rotor = prose ? SystemRotor.proseSentences : by.rotor!
    warnIfUnknownLocale()
    var segmenter = Segmenter(locale: locale, threads: threads)
    let several = files.count > 1
    let wordsOnly = self.wordsOnly
    let elements = self.elements
    let output = self
    let streamed = { (name: String, stream: BlockReader) throws -> Inputs.Outcome in
      try Self.segmentStream(
        stream, name: name, rotor: rotor, elements: elements, segmenter: segmenter, wordsOnly: wordsOnly,
        output: output, several: several)
    }
    let threads = self.threads
    // The check for ill-formed UTF-8 is done by the segmenter, each piece just before it is
    // segmented, when the elements are the whole file (after a byte order mark): no pass of its own.
    return Inputs(paths: files, validateUTF8: false, threads: threads).run(streamed: streamed) { name, bytes in
      let elementRanges = elements.ranges(in: bytes)
      // (Lines and paragraphs are found by a scan of line breaks alone: their files are checked
      // by the parallel pass of their own.)
      let checkedBySegmenter =
        elementRanges.count == 1 && elementRanges[0].upperBound == bytes.count && rotor != .lines
        && rotor != .paragraphs
      // Before the elements: nothing or a byte order mark (well-formed, so the file's first
      // ill-formed byte is the elements' first).
      let beforeElements = checkedBySegmenter ? bytes.firstInvalidUTF8(in: 0..<elementRanges[0].lowerBound) : nil
      if let bad = beforeElements {
        Inputs.warnInvalidUTF8(at: bad, in: bytes, name: name)
      } else if !checkedBySegmenter {
        Inputs.warnIfInvalidUTF8(bytes, name: name, threads: threads)
      }
      // The segmenter's finding, said once it is known (before any entry is printed).
      func warn(_ bad: Int?) {
        if beforeElements == nil, let bad { Inputs.warnInvalidUTF8(at: bad, in: bytes, name: name) }
      }
      let bar = ProgressBar.make(label: "\(FileSystem.displayName(name)): \(rotor)", bytes: bytes.count)
      segmenter.progress = bar?.callback
      segmenter.pieceSize = Self.pieceSize(bytes: bytes.count, threads: threads)
      if rotor == .lines && elements == .lines {
        // Each line element is a line, an empty one included (as `--elements whole` lists it).
        bar?.finish()
        let limit = bytes.availableCountNow()
        return Self.print(
          elementRanges.filter { $0.upperBound <= limit }, name: name, bytes: bytes, rotor: rotor,
          elements: elementRanges, output: output, several: several)
      }
      if output.count {
        // The bytes are read no more: the threads hand each piece's pages back as they go.
        let counted = try segmenter.count(
          bytes, elements: elementRanges, rotor: rotor, words: wordsOnly, checkingUTF8: checkedBySegmenter,
          lastRead: true)
        bar?.finish()
        warn(counted.firstInvalidUTF8)
        let n = wordsOnly ? counted.words : counted.entries
        Inputs.writeCount(n, of: name, several: several)
        return n > 0 ? .found : .nothingFound
      }
      let (store, invalid) = try segmenter.segment(
        bytes, elements: elementRanges, rotor: rotor, checkingUTF8: checkedBySegmenter)
      bar?.finish()
      warn(invalid)
      let keep: (SegmentStore.Segment) -> Bool = wordsOnly ? { $0.status.isWord } : { _ in true }
      var printer = EntryPrinter(
        rotor: rotor.rawValue, name: name, bytes: bytes, elements: elementRanges,
        encoding: output.positionEncoding, json: output.json, showPath: several)
      var found = false
      // A mapped file truncated while it is read: its missing pages would read as zeros. Its size
      // is asked again at each new page the entries reach, and nothing past its new end is
      // printed (Inputs then reports the file as changed, exit 2).
      var limit = bytes.count
      var checked = 0
      store.forEach { segment in
        if segment.end > checked {
          limit = bytes.availableCountNow()
          checked = min(limit, segment.end + 4096)
        }
        if segment.end > limit { return false }
        if keep(segment) {
          printer.print(segment.range)
          found = true
        }
        return true
      }
      return found ? .found : .nothingFound
    }
  }

  /// A structure rotor: each file parsed whole (standard input too: Markdown needs the whole text),
  /// its format from --format or its name.
  func runStructure(_ kind: StructureRotor) -> Int32 {
    let several = files.count > 1
    let output = self
    let text = self
    if kind == .misspelled {
      text.warnIfUnknownLocale()
      // No dictionary for the locale: one message, not one per file.
      do {
        _ = try Speller.forLocale(text.locale)
      } catch {
        StandardOutput.error("--locale: \(error)")
        return 2
      }
    }
    let segmenter = Segmenter(locale: text.locale, threads: threads)
    return Inputs(paths: files, threads: threads).run { name, bytes in
      let elementRanges = text.elements.ranges(in: bytes)
      let found =
        try StructureScan.entries(
          [kind], in: bytes, elements: elementRanges, format: text.format(of: name), segmenter: segmenter,
          labels: !output.count)[kind] ?? []
      if output.count {
        Inputs.writeCount(found.count, of: name, several: several)
      } else {
        var printer = EntryPrinter(
          rotor: kind.rawValue, name: name, bytes: bytes, elements: elementRanges, encoding: output.positionEncoding,
          json: output.json, showPath: several)
        for entry in found { printer.print(entry.range, label: entry.label, info: entry.info) }
      }
      return found.isEmpty ? .nothingFound : .found
    }
  }

  /// Prints (or counts) `entries`.
  static func print(
    _ entries: [Range<Int>], name: String, bytes: ByteStorage, rotor: SystemRotor, elements: [Range<Int>],
    output: SegmentOptions, several: Bool
  ) -> Inputs.Outcome {
    if output.count {
      Inputs.writeCount(entries.count, of: name, several: several)
    } else {
      var printer = EntryPrinter(
        rotor: rotor.rawValue, name: name, bytes: bytes, elements: elements, encoding: output.positionEncoding,
        json: output.json, showPath: several)
      for entry in entries { printer.print(entry) }
    }
    return entries.isEmpty ? .nothingFound : .found
  }

  /// Standard input, a FIFO or a device: segmented block by block, each block ending at a line
  /// break (after a blank line when paragraphs are involved), which every segmenter treats as a
  /// boundary, so the entries are those of the whole input; memory stays bounded by the blocks.
  /// A block ends early when the writer pauses: its entries are printed at once.
  static func segmentStream(
    _ stream: BlockReader, name: String, rotor: SystemRotor, elements kind: ElementKind, segmenter: Segmenter,
    wordsOnly: Bool, output: SegmentOptions, several: Bool
  ) throws -> Inputs.Outcome {
    let paragraphs = rotor.spansLines || kind == .paragraphs
    var printer: EntryPrinter? = nil
    var base = EntryPrinter.Base()
    var count = 0
    var warned = false
    var first = true
    // What is certain is printed as soon as the writer pauses (a block then ends early, still at
    // a line break); a count is printed at the end only, so it reads whole blocks.
    while true {
      // The buffered bytes only grow until a block is cut off: each look for a cut reads only the
      // bytes it has not read yet (every read of a pipe looks for one; reading them all each time
      // took time growing as the square of a long paragraph: 40 s for 32 MB of `yes`).
      var scan = StreamCutScan()
      guard
        let block = try stream.nextBlock(
          blockSize: Self.streamBlockSize, whenIdle: !output.count, cutting: paragraphs ? "blank line" : "line break",
          cut: { bytes, _ in
            paragraphs ? scan.lastParagraphCut(bytes) : scan.lastLineCut(bytes)
          })
      else { break }
      let start = first ? TextFacts.byteOrderMarkLength(block) : 0
      first = false
      if !warned, let bad = block.firstInvalidUTF8(in: 0..<block.count) {
        warned = true
        StandardOutput.error(
          Inputs.invalidUTF8Warning(
            at: base.offset + bad, byte: block[bad], name: name, secondByte: block.count > 1 ? block[1] : nil))
      }
      let elementRanges = kind.ranges(in: block, from: start)
      // The entries are printed from the segmenter's compact store, not from an array of them
      // (24 bytes an entry: 880 MB for a 32 MB block of one-letter words, 126 MB for the file).
      var store: SegmentStore? = nil
      var lines: [Range<Int>] = []
      if rotor == .lines && kind == .lines {
        // Each line element is its own line, an empty one included.
        lines = elementRanges
      } else if output.count {
        let counted = try segmenter.count(block, elements: elementRanges, rotor: rotor, words: wordsOnly)
        count += wordsOnly ? counted.words : counted.entries
      } else {
        store = try segmenter.segment(block, elements: elementRanges, rotor: rotor)
      }
      if output.count {
        count += lines.count
      } else if !lines.isEmpty || (store?.count ?? 0) > 0 {
        var p = EntryPrinter(
          rotor: rotor.rawValue, name: name, bytes: block, elements: elementRanges,
          encoding: output.positionEncoding, json: output.json, showPath: several)
        p.base = base
        for line in lines { p.print(line) }
        count += lines.count
        store?.forEach { segment in
          if !wordsOnly || segment.status.isWord {
            p.print(segment.range)
            count += 1
          }
          return true
        }
        printer = p
      }
      let counts = block.textCounts(in: 0..<block.count)
      base.offset += block.count
      base.line += counts.lineBreaks
      base.utf16 += counts.utf16Units
      if kind != .whole { base.element += elementRanges.count }
      if !output.count { StandardOutput.shared.flush() }
    }
    _ = printer
    if output.count { Inputs.writeCount(count, of: name, several: several) }
    return count > 0 ? .found : .nothingFound
  }

  /// Bytes per piece for a file of `bytes` bytes: 1 MiB, smaller for files of less than 64 pieces
  /// a thread (down to 64 KiB), so that the threads finish together (the pieces are handed out one
  /// by one; the last one a thread takes can leave the others idle for its time: on a 20 MB file
  /// and 2 threads a 1 MiB piece is 1/20 of the work). The entries are the same for any size.
  static func pieceSize(bytes: Int, threads: Int) -> Int {
    guard threads > 1 else { return 1 << 20 }
    return max(64 << 10, min(1 << 20, bytes / (threads * 64)))
  }

  /// Bytes read per block of a stream (8 MiB; TEXTROTOR_STREAM_BLOCK_SIZE sets it, for tests).
  static let streamBlockSize: Int = {
    if let text = getenv("TEXTROTOR_STREAM_BLOCK_SIZE"), let n = Int(String(cString: text)), n > 0 { return n }
    return 8 << 20
  }()

  /// After the last line break of `bytes` (not after a final CR, whose LF may come next).
  static func lastLineCut(_ bytes: ByteStorage) -> Int? {
    let n = bytes.count
    let lf = bytes.lastIndex(of: 0x0A, in: 0..<n).map { $0 + 1 } ?? 0
    let cr = n >= 2 ? bytes.lastIndex(of: 0x0D, in: 0..<(n - 1)).map { $0 + 1 } ?? 0 : 0
    let cut = max(lf, cr)
    return cut > 0 ? cut : nil
  }

  /// After the last blank line of `bytes` that is followed by more text, so no paragraph is cut.
  static func lastParagraphCut(_ bytes: ByteStorage) -> Int? {
    var scan = StreamCutScan()
    return scan.lastParagraphCut(bytes)
  }
}

/// `SegmentOptions.lastLineCut` and `lastParagraphCut` over bytes that only grow between calls (a
/// stream's buffer until a block is cut off): each call reads only what the calls before it did not.
struct StreamCutScan {
  /// Where the bytes not read yet start (a line start for paragraphs).
  private var resume = 0
  /// The last cut found in the bytes before `resume`.
  private var cut: Int? = nil

  /// As `SegmentOptions.lastLineCut`: after the last line break (not after a final CR).
  mutating func lastLineCut(_ bytes: ByteStorage) -> Int? {
    let n = bytes.count
    if let lf = bytes.lastIndex(of: 0x0A, in: min(resume, n)..<n) { cut = max(cut ?? 0, lf + 1) }
    if n >= 2, resume < n - 1, let cr = bytes.lastIndex(of: 0x0D, in: resume..<(n - 1)) {
      cut = max(cut ?? 0, cr + 1)
    }
    // A final CR is read again: whether an LF follows it is not known yet.
    resume = max(resume, n - 1)
    return cut
  }

  /// As `SegmentOptions.lastParagraphCut`: after the last blank line that more text follows.
  mutating func lastParagraphCut(_ bytes: ByteStorage) -> Int? {
    for line in LineScanner(bytes, range: resume..<bytes.count) {
      // A line at the end (or a blank line at the end) is read again when more bytes have come.
      guard line.hasTerminator, line.next < bytes.count else { break }
      if line.content.allSatisfy({ bytes[$0] == 0x20 || bytes[$0] == 0x09 }) { cut = line.next }
      resume = line.next
    }
    return cut
  }
}
