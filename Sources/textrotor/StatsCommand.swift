import ArgumentParser
import Glibc
import TextRotor

/// A comma-separated list of system and structure rotors, e.g. `words,sentences,headings`.
struct RotorList: ExpressibleByArgument {
  var rotors: [SystemRotor]
  var structure: [StructureRotor] = []
  /// No --rotors: every system rotor, and the structure rotors of the file's format.
  var isDefault = false

  init(_ rotors: [SystemRotor]) {
    self.rotors = rotors
    isDefault = true
  }

  init?(argument: String) {
    var rotors: [SystemRotor] = []
    for name in argument.split(separator: ",") {
      if let rotor = SystemRotor(rawValue: String(name)) {
        rotors.append(rotor)
      } else if let kind = StructureRotor(rawValue: String(name)) {
        structure.append(kind)
      } else {
        return nil
      }
    }
    guard !rotors.isEmpty || !structure.isEmpty else { return nil }
    self.rotors = rotors
  }

  /// The structure rotors to count in a file of `format` (by default `misspelled` too, when a
  /// Hunspell dictionary for `locale` is installed).
  func structure(for format: DocumentFormat, locale: String) -> [StructureRotor] {
    guard isDefault else { return structure }
    var kinds = format == .markdown ? StructureRotor.markdownKinds : [.links]
    if (try? Speller.forLocale(locale)) != nil { kinds.append(.misspelled) }
    return kinds
  }

  var defaultValueDescription: String { "all" }
}

struct StatsCommand: ExitStatusCommand {
  static let configuration = CommandConfiguration(
    commandName: "stats",
    abstract: "Entries per system rotor, bytes, time and memory used.",
    discussion: """
      For each file: its size, invalid UTF-8 (if any), and for each system rotor (or those of \
      --rotors) the number of entries, the time to compute them and the bytes of memory their \
      index holds; then the process's peak resident memory, with all those indexes held at once \
      (as a document that uses them holds them).
      """
  )

  @OptionGroup var text: TextOptions

  @Option(name: .long, help: "Threads to segment with (default: all cores).")
  var threads: Int = Segmenter.availableCores

  @Option(
    name: .long,
    help:
      "The rotors to index, comma-separated (default: all): characters,words,sentences,proseSentences,lines,paragraphs,linebreaks, and the structure rotors headings,links,lists,listItems,codeBlocks,tables,blockQuotes,emphasis,strong,misspelled (default: those of the file's format, and misspelled when a Hunspell dictionary for --locale is installed)."
  )
  var rotors = RotorList(SystemRotor.allCases)

  @Flag(name: .long, help: "Print one JSON object per file.")
  var json = false

  @Argument(help: "Files to read; - is standard input.")
  var files: [String] = ["-"]

  mutating func runWithStatus() -> Int32 {
    text.warnIfUnknownLocale()
    var segmenter = Segmenter(locale: text.locale, threads: threads)
    let elements = text.elements
    let json = self.json
    let rotors = self.rotors.rotors
    let rotorList = self.rotors
    let text = self.text
    return Inputs(paths: files).run { name, bytes in
      let elementRanges = elements.ranges(in: bytes)
      var rows: [(String, Int, Double, Int?)] = []
      var held: [SegmentStore] = []  // kept until the peak is read
      for rotor in rotors {
        let started = Clock.now
        let bar = ProgressBar.make(label: "\(FileSystem.displayName(name)): \(rotor)", bytes: bytes.count)
        segmenter.progress = bar?.callback
        let store = try segmenter.segment(bytes, elements: elementRanges, rotor: rotor)
        bar?.finish()
        rows.append((rotor.rawValue, store.count, Clock.seconds(since: started), store.memoryBytes))
        held.append(store)
      }
      // Structure rotors: one parse for all of them (its time on each row).
      let kinds = rotorList.structure(for: text.format(of: name), locale: text.locale)
      var structure: [StructureRotor: [StructureEntry]] = [:]
      if !kinds.isEmpty {
        let started = Clock.now
        let parsed = kinds.filter { $0 != .misspelled }
        if !parsed.isEmpty {
          structure = try StructureScan.entries(
            parsed, in: bytes, elements: elementRanges, format: text.format(of: name))
          let seconds = Clock.seconds(since: started)
          for kind in parsed { rows.append((kind.rawValue, structure[kind]?.count ?? 0, seconds, nil)) }
        }
        if kinds.contains(.misspelled) {
          let checked = Clock.now
          let words = try StructureScan.entries(
            [.misspelled], in: bytes, elements: elementRanges, format: text.format(of: name),
            segmenter: Segmenter(locale: text.locale, threads: segmenter.threads))
          structure[.misspelled] = words[.misspelled]
          rows.append(("misspelled", words[.misspelled]?.count ?? 0, Clock.seconds(since: checked), nil))
        }
      }
      let peak = Clock.peakResidentBytes
      held.removeAll()
      structure.removeAll()
      if json {
        var line: [UInt8] = []
        JSONObject.write(into: &line) { o in
          o.field("path", FileSystem.displayName(name))
          o.field("bytes", bytes.count)
          o.field("elements", elementRanges.count)
          o.object("rotors") { r in
            for (rotor, entries, seconds, indexBytes) in rows {
              r.object(named: rotor) { e in
                e.field("entries", entries)
                e.field("seconds", number: Clock.format(seconds))
                if let indexBytes { e.field("indexBytes", indexBytes) }
              }
            }
          }
          o.field("peakResidentBytes", peak)
        }
        line.append(0x0A)
        StandardOutput.shared.write(bytes: line)
      } else {
        // The name's own bytes (one that is not UTF-8 as it is), then the table.
        StandardOutput.shared.write(bytes: FileSystem.bytes(of: name))
        var out = ": \(bytes.count) bytes, \(elementRanges.count) element(s)\n"
        out += "  rotor           entries     seconds   index bytes   bytes/entry\n"
        for (rotor, count, seconds, memory) in rows {
          let perEntry = count > 0 && memory != nil ? Clock.format(Double(memory!) / Double(count)) : "-"
          out +=
            "  " + Clock.pad(rotor, 14, left: true) + Clock.pad("\(count)", 9)
            + Clock.pad(Clock.format(seconds), 12) + Clock.pad(memory.map { "\($0)" } ?? "-", 14)
            + Clock.pad(perEntry, 14)
            + "\n"
        }
        out += "  peak resident memory: \(peak) bytes\n"
        StandardOutput.shared.write(out)
      }
      return .found
    }
  }
}

/// Wall-clock time and memory figures for `stats`.
enum Clock {
  static var now: timespec {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return t
  }

  static func seconds(since start: timespec) -> Double {
    let end = now
    return Double(end.tv_sec - start.tv_sec) + Double(end.tv_nsec - start.tv_nsec) / 1e9
  }

  /// Peak resident set size of this process, in bytes.
  static var peakResidentBytes: Int {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return usage.ru_maxrss * 1024
  }

  static func format(_ value: Double) -> String {
    let scaled = (value * 1000).rounded() / 1000
    return "\(scaled)"
  }

  static func pad(_ s: String, _ width: Int, left: Bool = false) -> String {
    let fill = String(repeating: " ", count: max(0, width - s.count))
    return left ? s + fill : fill + s
  }
}
