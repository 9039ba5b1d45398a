import Testing
import TextRotor

/// Runs our segmenter over every case of Unicode's break test files (Debian's `unicode-data`,
/// `/usr/share/unicode/auxiliary/*BreakTest.txt`) and compares the boundaries, byte for byte.
///
/// ICU 72 implements Unicode 15.0 and so must the files. Each case is one element covering the
/// whole string, from its first byte: a leading U+FEFF is text here, not a byte order mark.
@Suite struct ConformanceTests {
  static let unicodeVersion = "15.0.0"

  /// Where ICU 72's root rules deliberately differ from the default algorithm the files test.
  enum Tailoring: CustomStringConvertible {
    /// CLDR 42 (ICU 72) took U+003A COLON out of Word_Break=MidLetter in the root locale (it stays
    /// for Swedish and Finnish, where "EU:s" is one word), so WB6/WB7 no longer join `a:b`.
    case colonIsNotMidLetter
    /// ICU's LB 20.09 (as CSS): a hyphen after a break opportunity (here the start of the text) is
    /// not separated from the letter after it ("-foo" stays whole); UAX #14 15.0 breaks HY ÷ AL.
    case hyphenBeforeLetter
    /// ICU lets a number begin with an infix separator (`.35`, `,0`: IS × NU even without a digit
    /// before the IS), and allows a break between a space and such a number (what Unicode 15.1 made
    /// LB15c/LB15d); the 15.0 file, using UAX #14's Example 7 number regex, wants IS ÷ NU and no
    /// break before the IS.
    case numberStartsWithSeparator

    var description: String {
      switch self {
      case .colonIsNotMidLetter: "CLDR 42 root: colon is not MidLetter"
      case .hyphenBeforeLetter: "ICU LB 20.09: no break between a leading hyphen and a letter"
      case .numberStartsWithSeparator:
        "ICU LB 25: a number may start with IS (.35), break allowed before it after a space"
      }
    }
  }

  /// A case where ICU gives other boundaries than the file: the case's code points, the line it is
  /// on (Unicode 15.0.0 files), and ICU's boundaries (UTF-8 offsets, 0 and the end included).
  struct Deviation {
    var line: Int
    var codePoints: String
    var icu: [Int]
    var why: Tailoring
  }

  static let wordDeviations: [Deviation] = [
    .init(line: 1253, codePoints: "0061 003A 0041", icu: [0, 1, 2, 3], why: .colonIsNotMidLetter),
    .init(line: 1254, codePoints: "0061 003A 0308 0041", icu: [0, 1, 4, 5], why: .colonIsNotMidLetter),
    .init(line: 1267, codePoints: "0061 003A 05D0", icu: [0, 1, 2, 4], why: .colonIsNotMidLetter),
    .init(line: 1268, codePoints: "0061 003A 0308 05D0", icu: [0, 1, 4, 6], why: .colonIsNotMidLetter),
    .init(line: 1283, codePoints: "0061 003A 0061 2060", icu: [0, 1, 2, 6], why: .colonIsNotMidLetter),
    .init(line: 1284, codePoints: "0061 003A 0308 0061 2060", icu: [0, 1, 4, 8], why: .colonIsNotMidLetter),
    .init(line: 1285, codePoints: "0061 003A 0061 003A", icu: [0, 1, 2, 3, 4], why: .colonIsNotMidLetter),
    .init(line: 1286, codePoints: "0061 003A 0308 0061 003A", icu: [0, 1, 4, 5, 6], why: .colonIsNotMidLetter),
    .init(line: 1287, codePoints: "0061 003A 0061 0027", icu: [0, 1, 2, 3, 4], why: .colonIsNotMidLetter),
    .init(line: 1288, codePoints: "0061 003A 0308 0061 0027", icu: [0, 1, 4, 5, 6], why: .colonIsNotMidLetter),
    .init(line: 1289, codePoints: "0061 003A 0061 0027 2060", icu: [0, 1, 2, 3, 7], why: .colonIsNotMidLetter),
    .init(line: 1290, codePoints: "0061 003A 0308 0061 0027 2060", icu: [0, 1, 4, 5, 9], why: .colonIsNotMidLetter),
    .init(line: 1291, codePoints: "0061 003A 0061 002C", icu: [0, 1, 2, 3, 4], why: .colonIsNotMidLetter),
    .init(line: 1292, codePoints: "0061 003A 0308 0061 002C", icu: [0, 1, 4, 5, 6], why: .colonIsNotMidLetter),
    .init(line: 1712, codePoints: "0041 003A 0041", icu: [0, 1, 2, 3], why: .colonIsNotMidLetter),
  ]

  static let lineDeviations: [Deviation] = [
    .init(line: 2265, codePoints: "002D 0023", icu: [0, 2], why: .hyphenBeforeLetter),
    .init(line: 2267, codePoints: "002D 0308 0023", icu: [0, 4], why: .hyphenBeforeLetter),
    .init(line: 2421, codePoints: "002D 00A7", icu: [0, 3], why: .hyphenBeforeLetter),
    .init(line: 2423, codePoints: "002D 0308 00A7", icu: [0, 5], why: .hyphenBeforeLetter),
    .init(line: 2425, codePoints: "002D 50005", icu: [0, 5], why: .hyphenBeforeLetter),
    .init(line: 2427, codePoints: "002D 0308 50005", icu: [0, 7], why: .hyphenBeforeLetter),
    .init(line: 2429, codePoints: "002D 0E01", icu: [0, 4], why: .hyphenBeforeLetter),
    .init(line: 2431, codePoints: "002D 0308 0E01", icu: [0, 6], why: .hyphenBeforeLetter),
    .init(line: 2873, codePoints: "002C 0030", icu: [0, 2], why: .numberStartsWithSeparator),
    .init(line: 2875, codePoints: "002C 0308 0030", icu: [0, 4], why: .numberStartsWithSeparator),
    .init(
      line: 7477, codePoints: "0065 0071 0075 0061 006C 0073 0020 002E 0033 0035 0020 0063 0065 006E 0074 0073",
      icu: [0, 7, 11, 16], why: .numberStartsWithSeparator),
    .init(line: 7576, codePoints: "0061 002E 0032 0020", icu: [0, 4], why: .numberStartsWithSeparator),
    .init(line: 7577, codePoints: "0061 002E 0032 0020 0915", icu: [0, 4, 7], why: .numberStartsWithSeparator),
    .init(line: 7578, codePoints: "0061 002E 0032 0020 672C", icu: [0, 4, 7], why: .numberStartsWithSeparator),
    .init(line: 7579, codePoints: "0061 002E 0032 3000 672C", icu: [0, 6, 9], why: .numberStartsWithSeparator),
    .init(line: 7580, codePoints: "0061 002E 0032 3000 307E", icu: [0, 6, 9], why: .numberStartsWithSeparator),
    .init(line: 7581, codePoints: "0061 002E 0032 3000 0033", icu: [0, 6, 7], why: .numberStartsWithSeparator),
    .init(line: 7583, codePoints: "0041 002E 0031 0020 BABB", icu: [0, 4, 7], why: .numberStartsWithSeparator),
    .init(
      line: 7584, codePoints: "BD24 C5B4 002E 0020 0041 002E 0032 0020 BCFC", icu: [0, 3, 8, 12, 15],
      why: .numberStartsWithSeparator),
    .init(
      line: 7585, codePoints: "BD10 C694 002E 0020 0041 002E 0033 0020 BABB", icu: [0, 3, 8, 12, 15],
      why: .numberStartsWithSeparator),
    .init(
      line: 7586, codePoints: "C694 002E 0020 0041 002E 0034 0020 BABB", icu: [0, 5, 9, 12],
      why: .numberStartsWithSeparator),
    .init(line: 7587, codePoints: "0061 002E 0032 3000 300C", icu: [0, 6, 9], why: .numberStartsWithSeparator),
  ]

  /// Boundaries (UTF-8 offsets, 0 and the end included) our segmenter finds in `utf8`.
  static func boundaries(_ utf8: [UInt8], _ rotor: SystemRotor, locale: String) throws -> [Int] {
    let bytes = ByteStorage(utf8)
    let store = try Segmenter(locale: locale, threads: 1).segment(bytes, elements: [0..<bytes.count], rotor: rotor)
    var result = [0]
    for segment in store.segments {
      #expect(segment.start == result.last!, "segments must be contiguous: \(store.segments)")
      result.append(segment.end)
    }
    return result
  }

  struct Failure: CustomStringConvertible {
    var testCase: BreakTestFile.Case
    var found: [Int]
    var description: String {
      "\(testCase) expected \(testCase.boundaries), ICU \(found)   #\(testCase.comment)"
    }
  }

  /// Runs every case of `name`; returns the file and the cases whose boundaries differ.
  static func run(_ name: String, _ rotor: SystemRotor, locale: String = "") throws -> (BreakTestFile, [Failure]) {
    let file = try BreakTestFile.load(name)
    #expect(
      file.unicodeVersion == unicodeVersion,
      "\(name) is for Unicode \(file.unicodeVersion) but ICU 72 implements \(unicodeVersion)")
    var failed: [Failure] = []
    for testCase in file.cases {
      let found = try boundaries(testCase.utf8, rotor, locale: locale)
      if found != testCase.boundaries { failed.append(Failure(testCase: testCase, found: found)) }
    }
    return (file, failed)
  }

  /// Checks that the failures are exactly `deviations` (same code points, same ICU boundaries).
  static func expectOnly(_ deviations: [Deviation], _ failed: [Failure], in name: String) {
    var unexplained: [Failure] = []
    var seen = Set<String>()
    for failure in failed {
      if let d = deviations.first(where: { $0.codePoints == failure.testCase.codePoints }), d.icu == failure.found {
        #expect(
          d.line == failure.testCase.line, "\(name): deviation \(d.codePoints) moved to line \(failure.testCase.line)")
        seen.insert(d.codePoints)
      } else {
        unexplained.append(failure)
      }
    }
    #expect(
      unexplained.isEmpty,
      "\(unexplained.count) unexplained failures in \(name):\n\(unexplained.map(\.description).joined(separator: "\n"))"
    )
    let vanished = deviations.filter { !seen.contains($0.codePoints) }
    #expect(
      vanished.isEmpty,
      "listed deviations of \(name) that no longer occur (update the list): \(vanished.map { "line \($0.line) \($0.codePoints)" })"
    )
    #expect(
      failed.count == deviations.count, "\(name): \(failed.count) failures, \(deviations.count) accepted deviations")
  }

  @Test func graphemeBreakTest() throws {
    let (file, failed) = try Self.run("GraphemeBreakTest.txt", .characters)
    #expect(file.cases.count == 602, "the whole file must be read")
    #expect(
      failed.isEmpty,
      "\(failed.count) of \(file.cases.count) fail:\n\(failed.map(\.description).joined(separator: "\n"))")
  }

  @Test func sentenceBreakTest() throws {
    let (file, failed) = try Self.run("SentenceBreakTest.txt", .sentences)
    #expect(file.cases.count == 502, "the whole file must be read")
    #expect(
      failed.isEmpty,
      "\(failed.count) of \(file.cases.count) fail:\n\(failed.map(\.description).joined(separator: "\n"))")
  }

  /// Root locale: everything but the 15 colon cases of CLDR 42's tailoring.
  @Test func wordBreakTest() throws {
    let (file, failed) = try Self.run("WordBreakTest.txt", .words)
    #expect(file.cases.count == 1823, "the whole file must be read")
    Self.expectOnly(Self.wordDeviations, failed, in: file.name)
  }

  /// Swedish and Finnish keep the colon as MidLetter: there ICU passes the whole file, which shows
  /// that the colon is the only difference of the root rules.
  @Test(arguments: ["sv", "fi"]) func wordBreakTestWithColonLocales(locale: String) throws {
    let (file, failed) = try Self.run("WordBreakTest.txt", .words, locale: locale)
    #expect(
      failed.isEmpty,
      "\(locale): \(failed.count) of \(file.cases.count) fail:\n\(failed.map(\.description).joined(separator: "\n"))")
  }

  @Test func lineBreakTest() throws {
    let (file, failed) = try Self.run("LineBreakTest.txt", .linebreaks)
    #expect(file.cases.count == 7654, "the whole file must be read")
    Self.expectOnly(Self.lineDeviations, failed, in: file.name)
    #expect(Self.lineDeviations.filter { $0.why == .hyphenBeforeLetter }.count == 8)
    #expect(Self.lineDeviations.filter { $0.why == .numberStartsWithSeparator }.count == 14)
  }

  /// Without the data files the suite fails and says how to get them.
  @Test func missingFileSaysWhatToInstall() {
    do {
      _ = try BreakTestFile.load("NoSuchBreakTest.txt")
      Issue.record("loading a missing file must throw")
    } catch {
      #expect("\(error)".contains("apt-get install unicode-data"))
    }
  }

  /// The parser itself, on cases whose answer is known.
  @Test func parserReadsBoundariesAsUTF8Offsets() throws {
    let file = try BreakTestFile.load("GraphemeBreakTest.txt")
    let crlf = try #require(file.cases.first { $0.codePoints == "000D 000A" })
    #expect(crlf.utf8 == [0x0D, 0x0A])
    #expect(crlf.boundaries == [0, 2])
    let multi = try #require(file.cases.first { $0.codePoints == "0020 0308 0020" })
    #expect(multi.utf8 == [0x20, 0xCC, 0x88, 0x20])
    #expect(multi.boundaries == [0, 3, 4])
  }
}
