import TextRotor

/// Minimal JSON writing into a byte buffer: strings escaped as RFC 8259 requires.
enum JSONText {
  static func appendString(_ s: String, to out: inout [UInt8]) {
    out.append(0x22)
    EscapedRuns.append(s, escaping: 0x22, 0x5C, with: appendEscape, to: &out)
    out.append(0x22)
  }

  /// The bytes of `range` (well-formed UTF-8) as the inside of a JSON string, no quotes: each run
  /// without an escape found by a 16-byte scan and copied whole.
  static func appendEscaped(_ bytes: ByteStorage, _ range: Range<Int>, to out: inout [UInt8]) {
    EscapedRuns.append(bytes, range, escaping: 0x22, 0x5C, with: appendEscape, to: &out)
  }

  /// The escape of `byte` (a control byte, `"` or `\\`) in a JSON string.
  private static func appendEscape(_ byte: UInt8, _ out: inout [UInt8]) {
    switch byte {
    case 0x22: out.append(contentsOf: [0x5C, 0x22])
    case 0x5C: out.append(contentsOf: [0x5C, 0x5C])
    case 0x0A: out.append(contentsOf: [0x5C, 0x6E])
    case 0x0D: out.append(contentsOf: [0x5C, 0x72])
    case 0x09: out.append(contentsOf: [0x5C, 0x74])
    default:
      out.append(contentsOf: [0x5C, 0x75, 0x30, 0x30])
      out.append(hexDigit(byte >> 4))
      out.append(hexDigit(byte & 0xF))
    }
  }

  static func appendInt(_ n: Int, to out: inout [UInt8]) {
    if n == 0 {
      out.append(0x30)
      return
    }
    var v = n.magnitude
    if n < 0 { out.append(0x2D) }
    var digits:
      (
        UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
        UInt8, UInt8, UInt8, UInt8
      ) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    var count = 0
    withUnsafeMutableBytes(of: &digits) { d in
      while v > 0 {
        d[count] = UInt8(v % 10) + 0x30
        v /= 10
        count += 1
      }
      for i in stride(from: count - 1, through: 0, by: -1) { out.append(d[i]) }
    }
  }

  private static func hexDigit(_ v: UInt8) -> UInt8 { v < 10 ? 0x30 + v : 0x61 + v - 10 }
}

/// Text written with escapes: the runs that need none appended whole (a byte at a time, a label
/// of 100 MB took a second), each byte that does (a control byte, `a` or `b`) by `escape`. UTF-8
/// finds them byte by byte: every byte of a scalar past ASCII is 0x80 or above.
enum EscapedRuns {
  static func append(
    _ s: String, escaping a: UInt8, _ b: UInt8, with escape: (UInt8, inout [UInt8]) -> Void, to out: inout [UInt8]
  ) {
    let utf8 = s.utf8
    var run = utf8.startIndex
    var i = run
    while i != utf8.endIndex {
      let byte = utf8[i]
      if byte < 0x20 || byte == a || byte == b {
        out.append(contentsOf: utf8[run..<i])
        escape(byte, &out)
        run = utf8.index(after: i)
      }
      i = utf8.index(after: i)
    }
    out.append(contentsOf: utf8[run..<i])
  }

  /// The bytes of `range` (well-formed UTF-8), each run without an escape found by a 16-byte scan.
  static func append(
    _ bytes: ByteStorage, _ range: Range<Int>, escaping a: UInt8, _ b: UInt8,
    with escape: (UInt8, inout [UInt8]) -> Void, to out: inout [UInt8]
  ) {
    var p = range.lowerBound
    while let e = bytes.firstEscape(in: p..<range.upperBound, or: a, b) {
      bytes.append(p..<e, to: &out)
      escape(bytes[e], &out)
      p = e + 1
    }
    bytes.append(p..<range.upperBound, to: &out)
  }
}

/// Escapes control characters for one-line human output (a label that spans lines): `\\n`, `\\r`,
/// `\\t`, and `\\u{hex}` for the other C0 controls and DEL.
enum DisplayText {
  static func oneLine(_ s: String) -> String {
    var out: [UInt8] = []
    out.reserveCapacity(s.utf8.count)
    appendOneLine(s, to: &out)
    return String(decoding: out, as: UTF8.self)
  }

  /// ``oneLine(_:)`` appended to `out`; runs that need no escape are appended whole (every byte of
  /// a scalar past ASCII is 0x80 or above, so escapes are found byte by byte).
  static func appendOneLine(_ s: String, to out: inout [UInt8]) {
    EscapedRuns.append(s, escaping: 0x7F, 0x7F, with: appendEscape, to: &out)
  }

  /// The bytes of `range` (well-formed UTF-8) as ``oneLine(_:)`` writes them, each run without an
  /// escape found by a 16-byte scan and copied whole.
  static func appendOneLine(_ bytes: ByteStorage, _ range: Range<Int>, to out: inout [UInt8]) {
    EscapedRuns.append(bytes, range, escaping: 0x7F, 0x7F, with: appendEscape, to: &out)
  }

  private static func appendEscape(_ byte: UInt8, _ out: inout [UInt8]) {
    switch byte {
    case 0x0A: out.append(contentsOf: [0x5C, 0x6E])
    case 0x0D: out.append(contentsOf: [0x5C, 0x72])
    case 0x09: out.append(contentsOf: [0x5C, 0x74])
    default: out.append(contentsOf: "\\u{\(String(byte, radix: 16))}".utf8)
    }
  }
}

/// One JSON object written member by member into a byte buffer, commas placed for the caller.
/// `JSONObject.write(into:)` reuses the buffer's storage, so a line per entry allocates nothing.
struct JSONObject {
  private var out: [UInt8] = []
  private var empty = true

  /// Appends `{`, the members `body` writes, then `}` to `buffer`.
  static func write(into buffer: inout [UInt8], _ body: (inout JSONObject) -> Void) {
    var object = JSONObject()
    swap(&object.out, &buffer)
    object.out.append(0x7B)
    body(&object)
    object.out.append(0x7D)
    swap(&object.out, &buffer)
  }

  /// A key known at compile time: written as is, with no escaping to do.
  private mutating func key(_ key: StaticString) {
    if !empty { out.append(0x2C) }
    empty = false
    out.append(0x22)
    key.withUTF8Buffer { out.append(contentsOf: $0) }
    out.append(contentsOf: [0x22, 0x3A])
  }

  mutating func field(_ key: StaticString, _ value: String) {
    self.key(key)
    JSONText.appendString(value, to: &out)
  }

  /// A string member whose value is the bytes of `range` (well-formed UTF-8), escaped a piece of
  /// ``EntryPrinter/piece`` bytes at a time; `flush` is given the buffer between pieces (the
  /// whole output so far, this object's start included) to write out and empty.
  mutating func field(_ key: StaticString, _ bytes: ByteStorage, _ range: Range<Int>, flush: (inout [UInt8]) -> Void) {
    self.key(key)
    out.append(0x22)
    var p = range.lowerBound
    while p < range.upperBound {
      let q = min(range.upperBound, p + EntryPrinter.piece)
      JSONText.appendEscaped(bytes, p..<q, to: &out)
      p = q
      if p < range.upperBound { flush(&out) }
    }
    out.append(0x22)
  }

  mutating func field(_ key: StaticString, _ value: Int) {
    self.key(key)
    JSONText.appendInt(value, to: &out)
  }

  /// A number written as given (e.g. seconds with three decimals).
  mutating func field(_ key: StaticString, number: String) {
    self.key(key)
    out.append(contentsOf: number.utf8)
  }

  mutating func field(_ key: StaticString, _ values: [Int]) {
    self.key(key)
    out.append(0x5B)
    for (k, v) in values.enumerated() {
      if k > 0 { out.append(0x2C) }
      JSONText.appendInt(v, to: &out)
    }
    out.append(0x5D)
  }

  mutating func object(_ key: StaticString, _ body: (inout JSONObject) -> Void) {
    self.key(key)
    JSONObject.write(into: &out, body)
  }

  /// A member whose key is data (escaped), holding an object.
  mutating func object(named key: String, _ body: (inout JSONObject) -> Void) {
    if !empty { out.append(0x2C) }
    empty = false
    JSONText.appendString(key, to: &out)
    out.append(0x3A)
    JSONObject.write(into: &out, body)
  }
}
