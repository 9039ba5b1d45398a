import Glibc
import TextRotor

/// The hand-written files of `Corpora/`, found from this source file's path.
enum Fixtures {
  /// The package root: the nearest directory above this file that holds Package.swift.
  static let packageRoot: String = {
    var directory = String(#filePath)
    while let slash = directory.lastIndex(of: "/"), slash > directory.startIndex {
      directory = String(directory[..<slash])
      if access(directory + "/Package.swift", F_OK) == 0 { return directory }
    }
    fatalError("no Package.swift above \(#filePath)")
  }()

  static func path(_ name: String) -> String { "\(packageRoot)/Corpora/\(name)" }

  static func bytes(_ name: String) throws -> ByteStorage { try ByteStorage.contentsOf(path: path(name)) }
}

/// Independent models of hard lines and paragraphs, written from the SPEC's definitions without
/// the library's scanner.
enum LineModel {
  /// Content ranges of the hard lines of `bytes[range]` (LF, CRLF or CR end a line; nothing
  /// follows a final terminator).
  static func lines(_ bytes: [UInt8], _ range: Range<Int>) -> [Range<Int>] {
    var result: [Range<Int>] = []
    var start = range.lowerBound
    var i = range.lowerBound
    while i < range.upperBound {
      switch bytes[i] {
      case 0x0A:
        result.append(start..<i)
        i += 1
        start = i
      case 0x0D:
        result.append(start..<i)
        i += (i + 1 < range.upperBound && bytes[i + 1] == 0x0A) ? 2 : 1
        start = i
      default:
        i += 1
      }
    }
    if start < range.upperBound { result.append(start..<range.upperBound) }
    return result
  }

  static func paragraphs(_ bytes: [UInt8], _ range: Range<Int>) -> [Range<Int>] {
    var result: [Range<Int>] = []
    var current: Range<Int>?
    for line in lines(bytes, range) {
      if bytes[line].allSatisfy({ $0 == 0x20 || $0 == 0x09 }) {
        if let c = current { result.append(c) }
        current = nil
      } else {
        current = (current?.lowerBound ?? line.lowerBound)..<line.upperBound
      }
    }
    if let c = current { result.append(c) }
    return result
  }
}
