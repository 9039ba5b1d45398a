import FuzzSupport
import Glibc
import TextRotorICU

@testable import TextRotor

/// `find`'s matcher on arbitrary text with an arbitrary literal or regex and options, against the
/// plain ICU search line by line (the reference path) and, for case-sensitive literals, a naive
/// byte search; plus the invariants (sorted, non-overlapping, never spanning a line terminator)
/// and the matched-line grouping and count agreeing with the matches.
///
/// A regex RE2 takes (``RE2Translation``) is also run on RE2 over the whole text with no prefilter
/// (`PatternMatcher.Strategy.wholeText`), so RE2's matches are checked against ICU's on every line,
/// not only on the lines or windows a prefilter hands it. How many regexes went to RE2 is printed
/// when the run ends (`FuzzFind: ... on RE2`), to see that the RE2 path is reached.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFind(_ data: UnsafeRawPointer?, _ count: Int) -> CInt {
  guard let data else { return 0 }
  var input = FuzzInput(data, count)
  let flags = input.byte()
  let patternBytes = input.take(input.int(below: 12))
  let raw = input.rest()
  let text = String(decoding: patternBytes, as: UTF8.self)
  var pattern = Pattern(
    text, syntax: flags & 1 == 0 ? .literal : .regex, ignoreCase: flags & 2 != 0, wholeWord: flags & 4 != 0,
    timeLimit: 20)
  if flags & 8 != 0 { pattern.syntax = .literal }
  let bytes = ByteStorage(raw)
  guard let fast = try? PatternMatcher(pattern), let reference = try? PatternMatcher(pattern, strategy: .icu) else {
    return 0
  }
  guard let got = try? fast.matches(in: bytes), let want = try? reference.matches(in: bytes) else { return 0 }
  fuzzCheck(got == want, "\(pattern) on \(raw): \(got) != ICU \(want)")
  if pattern.syntax == .regex {
    if FuzzFindStats.regexes == 0 { atexit { FuzzFindStats.report() } }
    FuzzFindStats.regexes += 1
    if let whole = try? PatternMatcher(pattern, strategy: .wholeText), case .regex(let search) = whole.engine,
      search.regex.linear != nil
    {
      FuzzFindStats.onRE2 += 1
      // RE2 throws nothing; ICU (on the regions RE2 leaves it: ill-formed UTF-8) may time out.
      if let linear = try? whole.matches(in: bytes) {
        if search.regex.linearRegions > 0 { FuzzFindStats.searchedOnRE2 += 1 }
        fuzzCheck(linear == want, "\(pattern) on \(raw): RE2 over the whole text \(linear) != ICU \(want)")
      }
    }
  }
  var previousEnd = -1
  for m in got {
    fuzzCheck(m.lowerBound >= previousEnd && m.upperBound <= raw.count, "\(pattern): \(m) out of order")
    fuzzCheck(!raw[m].contains(0x0A) && !raw[m].contains(0x0D), "\(pattern): \(m) spans a line terminator")
    previousEnd = m.upperBound
  }
  if let n = try? fast.count(in: bytes) { fuzzCheck(n == got.count, "\(pattern): count \(n) != \(got.count)") }
  var grouped: [Range<Int>] = []
  try? fast.forEachMatchedLine(in: bytes) { line in
    for m in line.matches {
      fuzzCheck(
        line.content.lowerBound <= m.lowerBound && m.upperBound <= line.content.upperBound, "\(m) outside \(line)")
    }
    grouped += line.matches
    return true
  }
  fuzzCheck(grouped == got, "\(pattern): matched lines \(grouped) != \(got)")
  if pattern.syntax == .literal && !pattern.ignoreCase && !pattern.wholeWord && !text.isEmpty {
    let naive = naiveMatches(raw, Array(text.utf8))
    fuzzCheck(got == naive, "\(pattern) on \(raw): \(got) != naive \(naive)")
  }
  return 0
}

/// Counts of the regex inputs (libFuzzer runs the target on one thread).
enum FuzzFindStats {
  nonisolated(unsafe) static var regexes = 0
  nonisolated(unsafe) static var onRE2 = 0
  nonisolated(unsafe) static var searchedOnRE2 = 0

  static func report() {
    let line = "FuzzFind: \(regexes) regex inputs, \(onRE2) on RE2, \(searchedOnRE2) with text RE2 searched\n"
    var text = line
    text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
  }
}

/// Leftmost non-overlapping occurrences of `needle` inside each line.
func naiveMatches(_ text: [UInt8], _ needle: [UInt8]) -> [Range<Int>] {
  var result: [Range<Int>] = []
  var i = 0
  while i + needle.count <= text.count {
    if Array(text[i..<(i + needle.count)]) == needle && !needle.contains(0x0A) && !needle.contains(0x0D) {
      result.append(i..<(i + needle.count))
      i += needle.count
    } else {
      i += 1
    }
  }
  return result
}

@_cdecl("FuzzFind_main")
public func entryPoint(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
  runFuzzer(argc, argv) { data, count in fuzzFind(data, count) }
}
