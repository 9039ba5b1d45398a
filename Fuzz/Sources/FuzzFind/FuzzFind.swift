import FuzzSupport
import TextRotorICU

@testable import TextRotor

/// `find`'s matcher on arbitrary text with an arbitrary literal or regex and options, against the
/// plain ICU search line by line (the reference path) and, for case-sensitive literals, a naive
/// byte search; plus the invariants (sorted, non-overlapping, never spanning a line terminator)
/// and the matched-line grouping and count agreeing with the matches.
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
