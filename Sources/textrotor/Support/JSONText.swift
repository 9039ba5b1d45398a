/// Minimal JSON writing into a byte buffer: strings escaped as RFC 8259 requires.
enum JSONText {
  static func appendString(_ s: String, to out: inout [UInt8]) {
    out.append(0x22)
    for byte in s.utf8 {
      switch byte {
      case 0x22: out.append(contentsOf: [0x5C, 0x22])
      case 0x5C: out.append(contentsOf: [0x5C, 0x5C])
      case 0x0A: out.append(contentsOf: [0x5C, 0x6E])
      case 0x0D: out.append(contentsOf: [0x5C, 0x72])
      case 0x09: out.append(contentsOf: [0x5C, 0x74])
      case 0x00..<0x20:
        out.append(contentsOf: Array("\\u00".utf8))
        out.append(hexDigit(byte >> 4))
        out.append(hexDigit(byte & 0xF))
      default: out.append(byte)
      }
    }
    out.append(0x22)
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

/// Escapes control characters for one-line human output (a label that spans lines).
enum DisplayText {
  static func oneLine(_ s: String) -> String {
    var out = ""
    out.reserveCapacity(s.utf8.count)
    for scalar in s.unicodeScalars {
      switch scalar {
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      default:
        if scalar.value < 0x20 || scalar.value == 0x7F {
          out += "\\u{\(String(scalar.value, radix: 16))}"
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out
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
