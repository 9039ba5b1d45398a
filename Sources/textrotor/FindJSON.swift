import Glibc
import TextRotor

/// `find --json`: ripgrep's JSON Lines messages. For each file with a match, `begin`, one `match`
/// per matched line (`lines.text` with its terminator, `absolute_offset` of the line,
/// `submatches[].start/end` relative to it, in bytes), and `end` with `binary_offset` and `stats`;
/// then one `summary` for the whole run. Text that is not valid UTF-8 is sent as `{"bytes":BASE64}`,
/// as ripgrep does. Key order follows ripgrep's.
struct FindJSON {
  struct Stats {
    var elapsedNanos = 0
    var searches = 0
    var searchesWithMatch = 0
    var bytesSearched = 0
    var bytesPrinted = 0
    var matchedLines = 0
    var matches = 0

    mutating func add(_ other: Stats) {
      elapsedNanos += other.elapsedNanos
      searches += other.searches
      searchesWithMatch += other.searchesWithMatch
      bytesSearched += other.bytesSearched
      bytesPrinted += other.bytesPrinted
      matchedLines += other.matchedLines
      matches += other.matches
    }
  }

  private let started = FindJSON.now()
  private var total = Stats()
  private var out: [UInt8] = []

  static func now() -> Int {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return t.tv_sec * 1_000_000_000 + t.tv_nsec
  }

  /// Searches one file and prints its messages; returns whether it had a match.
  mutating func search(
    _ matcher: PatternMatcher, name: String, bytes: ByteStorage, range: Range<Int>, binaryOffset: Int?
  ) throws -> Bool {
    let start = Self.now()
    var stats = Stats()
    stats.searches = 1
    stats.bytesSearched = range.count
    var cursor = PositionCursor(bytes)
    var begun = false
    try matcher.forEachMatchedLine(in: bytes, range: range) { line in
      if !begun {
        begun = true
        out.removeAll(keepingCapacity: true)
        append(#"{"type":"begin","data":{"path":"#)
        appendData(name)
        append("}}\n")
        stats.bytesPrinted += flush()
      }
      stats.matchedLines += 1
      stats.matches += line.matches.count
      let lineNumber = cursor.locate(line.content.lowerBound).line
      let base = line.content.lowerBound
      out.removeAll(keepingCapacity: true)
      append(#"{"type":"match","data":{"path":"#)
      appendData(name)
      append(#","lines":"#)
      appendData(line.withTerminator, of: bytes)
      append(#","line_number":"#)
      JSONText.appendInt(lineNumber, to: &out)
      append(#","absolute_offset":"#)
      JSONText.appendInt(base, to: &out)
      append(#","submatches":["#)
      for (k, m) in line.matches.enumerated() {
        if k > 0 { out.append(0x2C) }
        append(#"{"match":"#)
        appendData(m, of: bytes)
        append(#","start":"#)
        JSONText.appendInt(m.lowerBound - base, to: &out)
        append(#","end":"#)
        JSONText.appendInt(m.upperBound - base, to: &out)
        out.append(0x7D)
      }
      append("]}}\n")
      stats.bytesPrinted += flush()
      return true
    }
    guard begun else {
      total.add(stats)
      return false
    }
    stats.searchesWithMatch = 1
    stats.elapsedNanos = Self.now() - start
    out.removeAll(keepingCapacity: true)
    append(#"{"type":"end","data":{"path":"#)
    appendData(name)
    append(#","binary_offset":"#)
    if let binaryOffset { JSONText.appendInt(binaryOffset, to: &out) } else { append("null") }
    append(#","stats":{"elapsed":"#)
    appendDuration(stats.elapsedNanos)
    appendCounts(stats, keys: .end)
    append("}}}\n")
    _ = flush()
    total.add(stats)
    return true
  }

  /// The closing `summary` message.
  mutating func summary() {
    out.removeAll(keepingCapacity: true)
    append(#"{"data":{"elapsed_total":"#)
    appendDuration(Self.now() - started, alphabetical: true)
    append(#","stats":{"#)
    appendCounts(total, keys: .summary)
    append(#"}},"type":"summary"}"#)
    out.append(0x0A)
    _ = flush()
  }

  private enum KeyOrder { case end, summary }

  /// ripgrep writes `end`'s stats in declaration order and `summary`'s in alphabetical order.
  private mutating func appendCounts(_ s: Stats, keys: KeyOrder) {
    func pair(_ key: String, _ value: Int, comma: Bool = true) {
      if comma { out.append(0x2C) }
      append("\"\(key)\":")
      JSONText.appendInt(value, to: &out)
    }
    switch keys {
    case .end:
      pair("searches", s.searches)
      pair("searches_with_match", s.searchesWithMatch)
      pair("bytes_searched", s.bytesSearched)
      pair("bytes_printed", s.bytesPrinted)
      pair("matched_lines", s.matchedLines)
      pair("matches", s.matches)
    case .summary:
      pair("bytes_printed", s.bytesPrinted, comma: false)
      pair("bytes_searched", s.bytesSearched)
      append(#","elapsed":"#)
      appendDuration(s.elapsedNanos, alphabetical: true)
      pair("matched_lines", s.matchedLines)
      pair("matches", s.matches)
      pair("searches", s.searches)
      pair("searches_with_match", s.searchesWithMatch)
    }
  }

  private mutating func appendDuration(_ nanos: Int, alphabetical: Bool = false) {
    let secs = nanos / 1_000_000_000
    let rest = nanos % 1_000_000_000
    var micros = String(rest / 1000)
    while micros.utf8.count < 6 { micros = "0" + micros }
    let human = "\"\(secs).\(micros)s\""
    if alphabetical {
      append("{\"human\":\(human),\"nanos\":\(rest),\"secs\":\(secs)}")
    } else {
      append("{\"secs\":\(secs),\"nanos\":\(rest),\"human\":\(human)}")
    }
  }

  private mutating func append(_ s: String) { out.append(contentsOf: s.utf8) }

  /// `{"text":"..."}`.
  private mutating func appendData(_ text: String) {
    append(#"{"text":"#)
    JSONText.appendString(text, to: &out)
    out.append(0x7D)
  }

  /// `{"text":"..."}`, or `{"bytes":"BASE64"}` when the bytes are not valid UTF-8.
  private mutating func appendData(_ range: Range<Int>, of bytes: ByteStorage) {
    if bytes.firstInvalidUTF8(in: range) == nil {
      appendData(bytes.string(range))
    } else {
      append(#"{"bytes":""#)
      Base64.append(bytes.copyBytes(range), to: &out)
      append(#""}"#)
    }
  }

  private mutating func flush() -> Int {
    let n = out.count
    StandardOutput.shared.write(bytes: out)
    out.removeAll(keepingCapacity: true)
    return n
  }
}

enum Base64 {
  private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

  static func append(_ data: [UInt8], to out: inout [UInt8]) {
    var i = 0
    while i + 3 <= data.count {
      let v = UInt32(data[i]) << 16 | UInt32(data[i + 1]) << 8 | UInt32(data[i + 2])
      for shift in [18, 12, 6, 0] { out.append(alphabet[Int((v >> UInt32(shift)) & 63)]) }
      i += 3
    }
    let rest = data.count - i
    if rest > 0 {
      var v = UInt32(data[i]) << 16
      if rest == 2 { v |= UInt32(data[i + 1]) << 8 }
      out.append(alphabet[Int((v >> 18) & 63)])
      out.append(alphabet[Int((v >> 12) & 63)])
      out.append(rest == 2 ? alphabet[Int((v >> 6) & 63)] : 0x3D)
      out.append(0x3D)
    }
  }
}
