// A client that imports Foundation and TextRotor in the same file. On Linux this only compiles
// because no Swift module of textrotor imports the system ICU headers: they are included only by
// Sources/CTextRotorShim/shim.c, behind a header of plain C types. Foundation carries its own ICU
// (_FoundationICU), whose `UErrorCode` and friends clash with the system ones.
import Foundation
import Testing
import TextRotor

@Suite("Foundation interop")
struct FoundationInteropTests {
  /// Plain ASCII prose without apostrophes or decimal points, so that every maximal run of ASCII
  /// letters and digits is one UAX #29 word.
  static let text = """
    The quick brown fox jumps over 13 lazy dogs.
    Rotors let editors move by words, sentences and lines;
    this file was written with the Foundation types Data and URL.

    A second paragraph, with 2024 and a few more words.
    """

  /// Words counted with Swift and Foundation alone (no ICU of ours).
  static func foundationWordCount(_ text: String) -> Int {
    text.components(separatedBy: CharacterSet.alphanumerics.inverted).filter { !$0.isEmpty }.count
  }

  /// Writes `text` to a new temporary file with Foundation and returns its URL.
  static func temporaryFile(_ text: String) throws -> URL {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("textrotor-interop-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let url = directory.appendingPathComponent("sample.txt")
    try Data(text.utf8).write(to: url)
    return url
  }

  static func remove(_ url: URL) {
    try? FileManager.default.removeItem(at: url.deletingLastPathComponent())
  }

  @Test func segmenterCountsWordsOfAFileWrittenByFoundation() throws {
    let url = try Self.temporaryFile(Self.text)
    defer { Self.remove(url) }
    let bytes = try ByteStorage.contentsOf(path: url.path)
    #expect(bytes.count == Data(Self.text.utf8).count)
    let store = try Segmenter().segment(bytes, elements: [0..<bytes.count], rotor: .words)
    let words = store.segments.filter { $0.status.isWord }
    #expect(words.count == Self.foundationWordCount(Self.text))
    // The words themselves, as Foundation reads them from the file.
    let fromFile = try String(contentsOf: url, encoding: .utf8)
    let expected = fromFile.components(separatedBy: CharacterSet.alphanumerics.inverted).filter { !$0.isEmpty }
    #expect(words.map { bytes.string($0.range) } == expected)
  }

  @Test func documentFromFileMatchesFoundationCounts() throws {
    let url = try Self.temporaryFile(Self.text)
    defer { Self.remove(url) }
    let document = try RotorDocument(contentsOf: url.path, elements: .lines)
    let lines = Self.text.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(document.elementCount == lines.count)
    let words = try document.rotor(.words)
    let wordCount = words.indices.filter { words.segmentStatus(at: $0).isWord }.count
    #expect(wordCount == Self.foundationWordCount(Self.text))
  }

  @Test func errorsReadAsFoundationErrors() throws {
    let missing = FileManager.default.temporaryDirectory.appendingPathComponent("textrotor-\(UUID().uuidString)")
    #expect(throws: FileError.self) { try ByteStorage.contentsOf(path: missing.path) }
    do {
      _ = try ByteStorage.contentsOf(path: missing.path)
    } catch {
      // A TextRotor error bridges to NSError like any Swift error.
      let nsError = error as NSError
      #expect(!nsError.domain.isEmpty)
      #expect(error.description.contains(missing.lastPathComponent))
    }
  }
}
