import ArgumentParser
import Glibc
import Testing

@testable import textrotor

/// `FindOptions.fastParse` (the parser-free path for everyday `find` lines) against ArgumentParser:
/// wherever the fast path answers, the parser must give the same options without an error.
@Suite struct FindOptionsTests {
  /// The options the parser gives for `arguments` (as `main` prepares them), or nil on any error.
  private func parsed(_ arguments: [String]) -> FindOptions? {
    let prepared = FindCommand.lastFlagsWin(FindCommand.splitAttachedValues(AttachedValues.split(arguments)))
    guard let command = try? TextRotorCommand.parseAsRoot(prepared) as? FindCommand else { return nil }
    return command.options
  }

  private func fast(_ arguments: [String]) -> FindOptions? {
    FindOptions.fastParse(FindCommand.lastFlagsWin(FindCommand.splitAttachedValues(AttachedValues.split(arguments))))
  }

  @Test(arguments: [
    ["find", "Linux", "doc.txt"],
    ["find", "--count", "Linux", "doc.txt"],
    ["find", "--count", "-i", "should", "a.txt"],
    ["find", "--count", "-w", "файл", "a.txt"],
    ["find", "--count", "--regex", "\\w+tion\\b", "a.txt"],
    ["find", "-iw", "x", "a", "b"],
    ["find", "-e", "a", "-e", "b", "dir"],
    ["find", "-C2", "x"],
    ["find", "-m", "3", "-A", "1", "--json", "x", "f"],
    ["find", "--pattern=x", "--position-encoding", "utf-16", "f"],
    ["find", "-g", "*.swift", "-g", "!*.md", "--hidden", "--no-ignore", "x", "."],
    ["find", "--time-limit", "10", "-S", "--vimgrep", "x"],
    ["find", "-l", "-j", "2", "--debug", "x"],
    ["find", "--color", "never", "-H", "x", "f"],
    ["find", "--colour=always", "-sxv", "--null", "x"],
    ["find", "--files-without-match", "-I", "--line-regexp", "x", "a", "b"],
  ])
  func everydayLinesTakeTheFastPathWithTheParsersOptions(_ arguments: [String]) throws {
    let options = try #require(fast(arguments), "the fast path declined \(arguments)")
    #expect(options == parsed(arguments), "\(arguments)")
  }

  @Test(arguments: [
    ["find", "--help"], ["find", "-h"], ["find"], ["find", "--", "-x"], ["find", "x", "-"],
    ["find", "-A", "-1", "x"], ["find", "-F", "-F", "x"], ["find", "--regex", "--regex", "x"],
    ["find", "--bogus", "x"], ["find", "-A", "1", "-A", "2", "x"], ["find", "--position-encoding", "utf-7", "x"],
    ["find", "-e"], ["segment", "--by", "word", "f"], ["find", "--time-limit", "0", "x"], ["find", "help"],
  ])
  func otherLinesGoToTheParser(_ arguments: [String]) {
    #expect(fast(arguments) == nil, "\(arguments)")
  }

  /// Random command lines from options, values and words (good and bad): where the fast path
  /// answers, the parser agrees. The seed is printed on failure (TEXTROTOR_SEED replays it).
  @Test func randomLinesAgreeWithTheParser() {
    let seed: UInt64 = {
      if let text = getenv("TEXTROTOR_SEED"), let value = UInt64(String(cString: text)) { return value }
      return UInt64.random(in: 1...UInt64.max)
    }()
    var random = SplitMix(state: seed)
    let flags = [
      "-F", "-i", "-S", "-w", "-a", "-l", "-o", "-q", "-n", "-N", "-iw", "-wi", "-Fi", "-iS", "-lo", "-ii", "-x",
      "-iC", "-Ci", "--regex", "--fixed-strings", "--ignore-case", "--smart-case", "--word", "--text", "--hidden",
      "--no-ignore", "--count", "--count-matches", "--files-with-matches", "--only-matching", "--quiet",
      "--vimgrep", "--json", "--line-number", "--no-line-number", "--column", "--no-column", "--heading",
      "--no-heading", "--include-zero", "--debug", "--bogus", "--help", "-h", "--", "-", "--regex=true",
      "-H", "-I", "-s", "-v", "-0", "-xv", "-Hs", "--with-filename", "--no-filename", "--case-sensitive",
      "--line-regexp", "--invert-match", "--files-without-match", "--null", "-u", "-uu", "-c", "-cv",
    ]
    let valued = [
      "-e", "--pattern", "-g", "--glob", "-A", "--after-context", "-B", "--before-context", "-C", "--context", "-m",
      "--max-count", "-j", "--threads", "--time-limit", "--position-encoding", "--color", "--colour", "-f",
      "--sort",
    ]
    let values = [
      "0", "1", "3", "007", "+2", "-1", "x", "", "utf-8", "utf-16", "utf-32", "grapheme", "bogus",
      "99999999999999999999",
      "*.swift", "!*.md", "a b", "-e", "--count", "never", "always", "auto", "ansi", "path",
    ]
    let words = [
      "Linux", "файл", "x", "", "help", "doc.txt", ".", "a=b", "--pattern=x", "-C2", "-m1", "-efoo", "-5",
      "--pattern=x", "--pattern=", "--glob=*.c", "--context=2", "--context=-1", "--count=1", "--time-limit=7",
      "--position-encoding=utf-16", "--pattern=-x", "--max-count=+1",
    ]
    var answered = 0
    for _ in 0..<1500 {
      var line = ["find"]
      for _ in 0..<Int.random(in: 0...6, using: &random) {
        switch Int.random(in: 0..<3, using: &random) {
        case 0: line.append(flags.randomElement(using: &random)!)
        case 1:
          line.append(valued.randomElement(using: &random)!)
          line.append(values.randomElement(using: &random)!)
        default: line.append(words.randomElement(using: &random)!)
        }
      }
      guard let options = fast(line) else { continue }
      answered += 1
      let reference = parsed(line)
      #expect(options == reference, "seed \(seed): \(line)")
      if options != reference { return }
    }
    #expect(answered > 80, "seed \(seed): the fast path answered only \(answered) of 1500 lines")
  }

  /// rg lets the last of overriding flags win; textrotor refused some pairs (`-i -S`, `-H -I`,
  /// `-c --count`, `-l --files-without-match`) and resolved others one fixed way (`-s` over `-i`,
  /// `-N` over `-n`, `-A`/`-B` over `-C`, `-x` over `-w`).
  @Test(
    "of flags that override one another, the last given stays; values and what follows -- are left alone",
    arguments: [
      (["find", "-i", "-S", "x"], ["find", "-S", "x"]),
      (["find", "-S", "-i", "-s", "x"], ["find", "-s", "x"]),
      (["find", "-si", "x"], ["find", "-i", "x"]),
      (["find", "-iw", "-s", "x"], ["find", "-w", "-s", "x"]),
      (["find", "-c", "--count", "x"], ["find", "--count", "x"]),
      (["find", "--count-matches", "-vc", "x"], ["find", "-vc", "x"]),
      (["find", "-l", "--files-without-match", "x"], ["find", "--files-without-match", "x"]),
      (["find", "-H", "-I", "-n", "-N", "x"], ["find", "-I", "-N", "x"]),
      (
        ["find", "--no-column", "--column", "--heading", "--no-heading", "x"],
        ["find", "--column", "--no-heading", "x"]
      ),
      (["find", "-x", "-w", "x"], ["find", "-w", "x"]),
      (["find", "-C", "1", "-A", "3", "x"], ["find", "-A", "3", "x"]),
      (["find", "-A", "3", "-C", "1", "x"], ["find", "-C", "1", "x"]),
      (["find", "-B", "2", "-A", "1", "-C", "1", "x"], ["find", "-C", "1", "x"]),
      (["find", "-A", "1", "-C", "2", "-B", "3", "x"], ["find", "-B", "3", "x"]),
      (["find", "-iC", "1", "-A", "2", "x"], ["find", "-i", "-A", "2", "x"]),
      (["find", "--context=1", "--after-context", "2", "x"], ["find", "--after-context", "2", "x"]),
      (["find", "-C", "1", "-C", "2", "x"], ["find", "-C", "2", "x"]),
      // Values that look like flags are values; after --, nothing is a flag.
      (["find", "-e", "-i", "-s", "x"], ["find", "-e", "-i", "-s", "x"]),
      (["find", "--pattern", "-S", "-i", "x"], ["find", "--pattern", "-S", "-i", "x"]),
      (["find", "-i", "-g", "-s", "x"], ["find", "-i", "-g", "-s", "x"]),
      (["find", "-i", "--", "-s"], ["find", "-i", "--", "-s"]),
      (["find", "-i", "-", "-s", "x"], ["find", "-", "-s", "x"]),
      (["segment", "-i", "-s"], ["segment", "-i", "-s"]),
      // A cluster of 256 letters or more (their places once overflowed into the argument's bits:
      // a trap, or the wrong argument taken out).
      (["find", "x", "-" + String(repeating: "i", count: 300), "f"], ["find", "x", "-i", "f"]),
      (["find", "-" + String(repeating: "i", count: 299) + "s", "-n", "x"], ["find", "-s", "-n", "x"]),
      (
        ["find", "-" + String(repeating: "v", count: 255) + "iS", "x"],
        ["find", "-" + String(repeating: "v", count: 255) + "S", "x"]
      ),
    ])
  func lastFlagsWin(_ given: [String], _ expected: [String]) {
    #expect(FindCommand.lastFlagsWin(FindCommand.splitAttachedValues(given)) == expected)
  }

}
