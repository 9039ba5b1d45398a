import ArgumentParser
import Glibc
import Testing

@testable import textrotor

/// `SegmentOptions.fastParse` (the parser-free path for everyday `segment` lines) against
/// ArgumentParser: wherever the fast path answers, the parser must give the same options without
/// an error.
@Suite struct SegmentOptionsTests {
  /// The options the parser gives for `arguments` (as `main` prepares them), or nil on any error.
  private func parsed(_ arguments: [String]) -> SegmentOptions? {
    let prepared = FindCommand.splitAttachedValues(AttachedValues.split(arguments))
    guard let command = try? TextRotorCommand.parseAsRoot(prepared) as? SegmentCommand else { return nil }
    return command.options
  }

  private func fast(_ arguments: [String]) -> SegmentOptions? {
    SegmentOptions.fastParse(FindCommand.splitAttachedValues(AttachedValues.split(arguments)))
  }

  @Test(arguments: [
    ["segment", "--by", "grapheme", "--count", "f.txt"],
    ["segment", "--by", "word", "--count", "--threads", "1", "f.txt"],
    ["segment", "--by", "word", "--words-only", "--json", "a", "b"],
    ["segment", "--count", "--by", "linebreak", "--threads", "2", "--locale", "th", "f"],
    ["segment", "--by", "sentence", "--prose", "--elements", "paragraphs", "f"],
    ["segment", "--by", "heading", "--format", "markdown", "--position-encoding", "utf-16", "f"],
    ["segment", "--by", "line"],
  ])
  func everydayLinesTakeTheFastPathWithTheParsersOptions(_ arguments: [String]) throws {
    let options = try #require(fast(arguments), "the fast path declined \(arguments)")
    #expect(options == parsed(arguments), "\(arguments)")
  }

  @Test(arguments: [
    ["segment", "--help"], ["segment", "-h"], ["segment"], ["segment", "--by", "word", "--", "-x"],
    ["segment", "--by", "word", "-"], ["segment", "--by", "bogus", "f"], ["segment", "--by", "word", "--by", "line"],
    ["segment", "--by", "line", "--words-only", "f"], ["segment", "--by", "word", "--count", "--json", "f"],
    ["segment", "--by", "word", "--threads", "0", "f"], ["segment", "--by", "word", "--threads", "+2", "f"],
    ["segment", "--by=word", "f"], ["segment", "--by", "word", "--format", "text", "f"], ["segment", "help"],
    ["find", "--count", "x", "f"], ["segment", "--by", "word", "--bogus", "f"], ["segment", "--by"],
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
      "--count", "--json", "--words-only", "--prose", "--bogus", "--help", "-h", "--", "-", "-c", "--count=1",
    ]
    let valued = ["--by", "--locale", "--elements", "--format", "--threads", "--position-encoding", "--bogus"]
    let values = [
      "grapheme", "word", "sentence", "line", "paragraph", "linebreak", "heading", "link", "misspelled", "whole",
      "lines", "paragraphs", "markdown", "text", "utf-8", "utf-16", "grapheme", "0", "1", "2", "007", "+2", "-1",
      "", "th", "ja", "x", "--count", "99999999999999999999",
    ]
    let words = ["f.txt", "a", "", "help", ".", "a=b", "--by=word", "--locale=de", "-5", "word"]
    // Lines are drawn until the fast path has answered 150 of them (a fixed number of lines made
    // the count a random variable: a seed gave 78 where more than 80 were expected).
    var answered = 0
    var tries = 0
    while answered < 150 && tries < 20_000 {
      tries += 1
      var line = ["segment"]
      if Int.random(in: 0..<4, using: &random) != 0 { line += ["--by", values.randomElement(using: &random)!] }
      for _ in 0..<Int.random(in: 0...5, using: &random) {
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
    #expect(answered == 150, "seed \(seed): the fast path answered only \(answered) of \(tries) lines")
  }
}
