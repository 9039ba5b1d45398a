import TextRotor

/// One of Unicode's `*BreakTest.txt` files (`/usr/share/unicode/auxiliary/`, Debian package
/// `unicode-data`): lines such as `÷ 0061 × 0308 ÷	#  comment`, where `÷` marks a boundary and `×`
/// a position without one.
struct BreakTestFile {
  struct Case: CustomStringConvertible {
    /// 1-based line in the file.
    var line: Int
    var scalars: [Unicode.Scalar]
    /// The UTF-8 bytes of the scalars.
    var utf8: [UInt8]
    /// UTF-8 offsets of the expected boundaries, 0 (the start of the first segment) and
    /// `utf8.count` included.
    var boundaries: [Int]
    var comment: String

    /// The case's code points as in the file, e.g. `0061 0308`.
    var codePoints: String { scalars.map { hex($0.value) }.joined(separator: " ") }

    var description: String { "line \(line): \(codePoints)" }
  }

  static let directory = "/usr/share/unicode/auxiliary"

  let name: String
  /// The Unicode version in the header, e.g. "15.0.0".
  let unicodeVersion: String
  let cases: [Case]

  enum LoadError: Error, CustomStringConvertible {
    case missing(String)
    case malformed(String, line: Int, String)

    var description: String {
      switch self {
      case .missing(let path):
        "\(path) is missing: the conformance tests need Unicode's break test files; run `apt-get install unicode-data`"
      case .malformed(let path, let line, let why): "\(path):\(line): \(why)"
      }
    }
  }

  /// Reads and parses `name` (e.g. "WordBreakTest.txt").
  static func load(_ name: String) throws -> BreakTestFile {
    let path = "\(directory)/\(name)"
    let bytes: ByteStorage
    do {
      bytes = try ByteStorage.contentsOf(path: path)
    } catch {
      throw LoadError.missing(path)
    }
    let text = bytes.string(0..<bytes.count)
    var version = ""
    var cases: [Case] = []
    var lineNumber = 0
    for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
      lineNumber += 1
      var body = Substring(rawLine)
      var comment = ""
      if let hash = body.firstIndex(of: "#") {
        comment = String(body[body.index(after: hash)...])
        body = body[..<hash]
        if lineNumber == 1, let dash = comment.lastIndex(of: "-") {
          // "# GraphemeBreakTest-15.0.0.txt"
          let tail = comment[comment.index(after: dash)...]
          version = String(tail.hasSuffix(".txt") ? tail.dropLast(4) : tail)
        }
      }
      let tokens = body.split(whereSeparator: { $0 == " " || $0 == "\t" })
      if tokens.isEmpty { continue }
      var scalars: [Unicode.Scalar] = []
      var utf8: [UInt8] = []
      var boundaries: [Int] = []
      for token in tokens {
        switch token {
        case "÷": boundaries.append(utf8.count)
        case "×": break
        default:
          guard let value = UInt32(token, radix: 16), let scalar = Unicode.Scalar(value) else {
            throw LoadError.malformed(path, line: lineNumber, "not a code point: \(token)")
          }
          scalars.append(scalar)
          utf8.append(contentsOf: String(Character(scalar)).utf8)
        }
      }
      // UAX #29 files mark the start of text with ÷, LineBreakTest.txt with × (LB2: never break at
      // the start); either way the text's start is where its first segment starts.
      guard tokens.first == "÷" || tokens.first == "×", tokens.last == "÷", !scalars.isEmpty else {
        throw LoadError.malformed(path, line: lineNumber, "a case must start with ÷ or × and end with ÷")
      }
      if boundaries.first != 0 { boundaries.insert(0, at: 0) }
      cases.append(Case(line: lineNumber, scalars: scalars, utf8: utf8, boundaries: boundaries, comment: comment))
    }
    return BreakTestFile(name: name, unicodeVersion: version, cases: cases)
  }
}

func hex(_ value: UInt32) -> String {
  let digits = String(value, radix: 16, uppercase: true)
  return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
}
