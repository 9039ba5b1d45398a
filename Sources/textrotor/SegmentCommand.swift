import ArgumentParser
import TextRotor

/// `segment --by`'s names for the system rotors.
enum SegmentUnit: String, CaseIterable, ExpressibleByArgument {
  case grapheme, word, sentence, line, paragraph, linebreak

  var rotor: SystemRotor {
    switch self {
    case .grapheme: .characters
    case .word: .words
    case .sentence: .sentences
    case .line: .lines
    case .paragraph: .paragraphs
    case .linebreak: .linebreaks
    }
  }
}

struct SegmentCommand: ExitStatusCommand {
  static let configuration = CommandConfiguration(
    commandName: "segment",
    abstract: "Split files into graphemes, words, sentences, lines, paragraphs or line-break segments.",
    discussion: """
      Human output is one entry per line: PATH:LINE:COLUMN:LABEL (PATH when several files are \
      given), with line ends in labels shown as \\n. Offsets in --json are UTF-8 byte offsets into \
      the file. Invalid UTF-8 is read as U+FFFD and reported on stderr.
      """
  )

  @Option(name: .long, help: "grapheme, word, sentence, line, paragraph or linebreak.")
  var by: SegmentUnit

  @Flag(name: .long, help: "With --by word: only segments ICU tags as letters, numbers, kana or ideographs.")
  var wordsOnly = false

  @OptionGroup var text: TextOptions

  @Option(name: .long, help: "Threads to segment with (default: all cores).")
  var threads: Int = Segmenter.availableCores

  @OptionGroup var output: OutputOptions

  @Argument(help: "Files to read; - is standard input.")
  var files: [String] = ["-"]

  func validate() throws {
    if wordsOnly && by != .word { throw ValidationError("--words-only goes with --by word.") }
    if threads < 1 { throw ValidationError("--threads must be at least 1.") }
  }

  mutating func runWithStatus() -> Int32 {
    let rotor = by.rotor
    text.warnIfUnknownLocale()
    var segmenter = Segmenter(locale: text.locale, threads: threads)
    let several = files.count > 1
    let wordsOnly = self.wordsOnly
    let elements = text.elements
    let output = self.output
    return Inputs(paths: files).run { name, bytes in
      let elementRanges = elements.ranges(in: bytes)
      let bar = ProgressBar.make(label: "\(name): \(rotor)", bytes: bytes.count)
      segmenter.progress = bar?.callback
      if output.count {
        let counted = try segmenter.count(bytes, elements: elementRanges, rotor: rotor)
        bar?.finish()
        let n = wordsOnly ? counted.words : counted.entries
        StandardOutput.shared.write(several ? "\(name):\(n)\n" : "\(n)\n")
        return n > 0 ? .found : .nothingFound
      }
      let store = try segmenter.segment(bytes, elements: elementRanges, rotor: rotor)
      bar?.finish()
      let keep: (SegmentStore.Segment) -> Bool = wordsOnly ? { $0.status.isWord } : { _ in true }
      var printer = EntryPrinter(
        rotor: rotor.rawValue, name: name, bytes: bytes, elements: elementRanges,
        encoding: output.positionEncoding, json: output.json, showPath: several)
      var found = false
      store.forEach { segment in
        if keep(segment) {
          printer.print(segment.range)
          found = true
        }
        return true
      }
      return found ? .found : .nothingFound
    }
  }
}
