import Glibc
import TextRotor

/// `find --json`: ripgrep's JSON Lines messages. For each file with a match, `begin`, one `match`
/// per matched line (`lines.text` with its terminator, `absolute_offset` of the line,
/// `submatches[].start/end` relative to it, in bytes), `context` for each context line, and `end`
/// with `binary_offset` and `stats`; then one `summary` for the whole run. Text that is not valid
/// UTF-8 is sent as `{"bytes":BASE64}`, as ripgrep does. Key order follows ripgrep's.
enum FindJSON {
  struct Stats: Sendable {
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

  static func now() -> Int {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return t.tv_sec * 1_000_000_000 + t.tv_nsec
  }

  static func begin(name: String, into out: inout [UInt8]) {
    append(#"{"type":"begin","data":{"path":"#, &out)
    appendPath(name, &out)
    append("}}\n", &out)
  }

  // A `match` or `context` message for a line (with its terminator) is written in parts, so that
  // the text of a line of 100 MB (and of a match as long) is escaped and written out a piece at
  // a time (``FileScan``'s `jsonLine`): `lineHead`, the line's data, `lineMiddle`, then per
  // submatch `submatchHead`, its data and `submatchTail`, then `lineTail`. A `lineNumber` of nil
  // (`-N`) is written `null`, as rg writes it.

  /// `{"type":"match","data":{"path":...,"lines":` (`type` is `match` or `context`).
  static func lineHead(type: String, name: String, into out: inout [UInt8]) {
    append(#"{"type":""#, &out)
    append(type, &out)
    append(#"","data":{"path":"#, &out)
    appendPath(name, &out)
    append(#","lines":"#, &out)
  }

  /// `,"line_number":N,"absolute_offset":N,"submatches":[`.
  static func lineMiddle(lineNumber: Int?, absoluteOffset: Int, into out: inout [UInt8]) {
    append(#","line_number":"#, &out)
    if let lineNumber { JSONText.appendInt(lineNumber, to: &out) } else { append("null", &out) }
    append(#","absolute_offset":"#, &out)
    JSONText.appendInt(absoluteOffset, to: &out)
    append(#","submatches":["#, &out)
  }

  /// `{"match":` after a comma unless it is the first.
  static func submatchHead(first: Bool, into out: inout [UInt8]) {
    if !first { out.append(0x2C) }
    append(#"{"match":"#, &out)
  }

  /// `,"start":N,"end":N}` (relative to the line).
  static func submatchTail(start: Int, end: Int, into out: inout [UInt8]) {
    append(#","start":"#, &out)
    JSONText.appendInt(start, to: &out)
    append(#","end":"#, &out)
    JSONText.appendInt(end, to: &out)
    out.append(0x7D)
  }

  static func lineTail(into out: inout [UInt8]) { append("]}}\n", &out) }

  /// The start of a data value: `{"text":"` for well-formed UTF-8, `{"bytes":"` (base64) for
  /// other bytes, as ripgrep writes them; ``dataTail(into:)`` ends it.
  static func dataHead(text: Bool, into out: inout [UInt8]) {
    append(text ? #"{"text":""# : #"{"bytes":""#, &out)
  }

  static func dataTail(into out: inout [UInt8]) { append(#""}"#, &out) }

  /// The `end` message; `stats.bytesPrinted` is set to what `out` holds before it and the
  /// `printed` bytes of the file's messages written already (a stream's, piece by piece).
  static func end(name: String, binaryOffset: Int?, printed: Int, stats: inout Stats, into out: inout [UInt8]) {
    stats.bytesPrinted = printed + out.count
    append(#"{"type":"end","data":{"path":"#, &out)
    appendPath(name, &out)
    append(#","binary_offset":"#, &out)
    if let binaryOffset { JSONText.appendInt(binaryOffset, to: &out) } else { append("null", &out) }
    append(#","stats":{"elapsed":"#, &out)
    appendDuration(stats.elapsedNanos, &out)
    appendCounts(stats, keys: .end, &out)
    append("}}}\n", &out)
  }

  /// The closing `summary` message.
  static func summary(_ total: Stats, elapsed: Int, into out: inout [UInt8]) {
    append(#"{"data":{"elapsed_total":"#, &out)
    appendDuration(elapsed, alphabetical: true, &out)
    append(#","stats":{"#, &out)
    appendCounts(total, keys: .summary, &out)
    append(#"}},"type":"summary"}"#, &out)
    out.append(0x0A)
  }

  private enum KeyOrder { case end, summary }

  /// ripgrep writes `end`'s stats in declaration order and `summary`'s in alphabetical order.
  private static func appendCounts(_ s: Stats, keys: KeyOrder, _ out: inout [UInt8]) {
    func pair(_ key: String, _ value: Int, comma: Bool = true) {
      if comma { out.append(0x2C) }
      append("\"\(key)\":", &out)
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
      append(#","elapsed":"#, &out)
      appendDuration(s.elapsedNanos, alphabetical: true, &out)
      pair("matched_lines", s.matchedLines)
      pair("matches", s.matches)
      pair("searches", s.searches)
      pair("searches_with_match", s.searchesWithMatch)
    }
  }

  private static func appendDuration(_ nanos: Int, alphabetical: Bool = false, _ out: inout [UInt8]) {
    let secs = nanos / 1_000_000_000
    let rest = nanos % 1_000_000_000
    var micros = String(rest / 1000)
    while micros.utf8.count < 6 { micros = "0" + micros }
    let human = "\"\(secs).\(micros)s\""
    if alphabetical {
      append("{\"human\":\(human),\"nanos\":\(rest),\"secs\":\(secs)}", &out)
    } else {
      append("{\"secs\":\(secs),\"nanos\":\(rest),\"human\":\(human)}", &out)
    }
  }

  private static func append(_ s: String, _ out: inout [UInt8]) { out.append(contentsOf: s.utf8) }

  /// `{"text":"..."}`.
  private static func appendData(_ text: String, _ out: inout [UInt8]) {
    append(#"{"text":"#, &out)
    JSONText.appendString(text, to: &out)
    out.append(0x7D)
  }

  /// A path as `{"text":"..."}`, or `{"bytes":"BASE64"}` for a file name that is not valid UTF-8
  /// (``FileSystem/bytes(of:)``), as ripgrep writes it.
  private static func appendPath(_ path: String, _ out: inout [UInt8]) {
    // No escape (U+100000 and above start with F4): the string itself, as every message writes it.
    guard path.utf8.contains(0xF4) else { return appendData(path, &out) }
    let bytes = FileSystem.bytes(of: path)
    if let text = String(validating: bytes, as: UTF8.self) {
      appendData(text, &out)
    } else {
      append(#"{"bytes":""#, &out)
      Base64.append(bytes, to: &out)
      append(#""}"#, &out)
    }
  }
}

enum Base64 {
  private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

  static func append(_ data: [UInt8], to out: inout [UInt8]) {
    var i = 0
    while i + 3 <= data.count {
      let v = UInt32(data[i]) << 16 | UInt32(data[i + 1]) << 8 | UInt32(data[i + 2])
      out.append(alphabet[Int(v >> 18)])
      out.append(alphabet[Int((v >> 12) & 63)])
      out.append(alphabet[Int((v >> 6) & 63)])
      out.append(alphabet[Int(v & 63)])
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
