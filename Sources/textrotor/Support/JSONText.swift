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

  static func appendKey(_ key: StaticString, to out: inout [UInt8]) {
    out.append(0x22)
    key.withUTF8Buffer { out.append(contentsOf: $0) }
    out.append(contentsOf: [0x22, 0x3A])
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
