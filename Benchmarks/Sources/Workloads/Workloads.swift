import Glibc
// The textrotor work the benchmarks measure, behind an API of standard-library types only, so that
// the benchmark target stays a thin list of measurements.
import TextRotor

/// The repository's root, from this file's path (Benchmarks/Sources/Workloads/…).
private let repositoryRoot: String = {
  var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
  parts.removeLast(4)
  return parts.joined(separator: "/")
}()

/// Where the generated corpora are: $TEXTROTOR_CORPORA, or Corpora/generated.
public let corporaFolder: String = {
  if let dir = getenv("TEXTROTOR_CORPORA") { return String(cString: dir) }
  return repositoryRoot + "/Corpora/generated"
}()

public let availableCores = Segmenter.availableCores

/// A loaded text; what the functions below work on.
public struct Text: Sendable {
  let id: Int
  public let byteCount: Int
}

/// A words index built over a text.
public struct WordsIndex: Sendable {
  let id: Int
  public let entryCount: Int
  public let textSize: Int
}

private final class Registry: @unchecked Sendable {
  static let shared = Registry()
  private let lock = Mutex()
  private var texts: [ByteStorage] = []
  private var stores: [SegmentStore] = []

  func add(_ text: ByteStorage) -> Int {
    lock.with {
      texts.append(text); return texts.count - 1
    }
  }
  func add(_ store: SegmentStore) -> Int {
    lock.with {
      stores.append(store); return stores.count - 1
    }
  }
  func text(_ i: Int) -> ByteStorage { lock.with { texts[i] } }
  func store(_ i: Int) -> SegmentStore { lock.with { stores[i] } }
}

private final class Mutex: @unchecked Sendable {
  private var m = pthread_mutex_t()
  init() { pthread_mutex_init(&m, nil) }
  func with<R>(_ body: () throws -> R) rethrows -> R {
    pthread_mutex_lock(&m)
    defer { pthread_mutex_unlock(&m) }
    return try body()
  }
}

/// Loads the generated corpus `name` (memory-mapped), or its first `slice` bytes up to the end of
/// a line (copied into memory). Stops with a clear message when the corpus is missing.
public func loadCorpus(_ name: String, slice: Int? = nil) -> Text {
  let path = corporaFolder + "/" + name
  let bytes: ByteStorage
  do {
    bytes = try ByteStorage.contentsOf(path: path)
  } catch {
    fatalError(
      """
      \(error)
      The benchmark corpora are generated, not committed: run `Corpora/generate` in the repository \
      root (\(repositoryRoot)) first, then run the benchmarks again.
      """)
  }
  var text = bytes
  if let slice, bytes.count > slice {
    let end = bytes.firstIndex(of: 0x0A, in: slice..<bytes.count).map { $0 + 1 } ?? bytes.count
    text = ByteStorage(bytes.copyBytes(0..<end))
  }
  // Touch every page once so that the first measured run does not pay for reading the file.
  var sum: UInt8 = 0
  var i = 0
  while i < text.count {
    sum &+= text[i]
    i += 4096
  }
  if sum == 1 { print("", terminator: "") }
  return Text(id: Registry.shared.add(text), byteCount: text.count)
}

/// Segments `text` into the rotor named `rotor` (characters, words, sentences, lines, paragraphs,
/// linebreaks) with `threads` threads. Returns the number of entries and the index's bytes.
public func segment(_ text: Text, rotor: String, threads: Int) -> (count: Int, memoryBytes: Int) {
  guard let kind = SystemRotor(rawValue: rotor) else { fatalError("no rotor named \(rotor)") }
  let bytes = Registry.shared.text(text.id)
  do {
    let store = try Segmenter(threads: threads)
      .segment(bytes, elements: ElementKind.whole.ranges(in: bytes), rotor: kind)
    return (store.count, store.memoryBytes)
  } catch {
    fatalError("segmenting into \(rotor): \(error)")
  }
}

/// Builds the words index of `text` with every core.
public func buildWordsIndex(_ text: Text) -> WordsIndex {
  let bytes = Registry.shared.text(text.id)
  do {
    let store = try Segmenter(threads: availableCores)
      .segment(bytes, elements: ElementKind.whole.ranges(in: bytes), rotor: .words)
    return WordsIndex(id: Registry.shared.add(store), entryCount: store.count, textSize: bytes.count)
  } catch {
    fatalError("segmenting into words: \(error)")
  }
}

/// A fixed pseudo-random sequence of positions (the same every run).
public struct Positions: Sendable {
  var state: UInt64
  public init(seed: UInt64 = 0x9E37_79B9_7F4A_7C15) { state = seed }
  public mutating func next(below n: Int) -> Int {
    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    return Int((state >> 33) % UInt64(n))
  }
}

/// `calls` times: the first entry starting after a random position (`next --at N`), as
/// `SegmentStore.firstIndex(startingAfter:)` and the subscript answer it. Returns a checksum.
public func nextEntries(_ index: WordsIndex, calls: Int, positions: inout Positions) -> Int {
  let store = Registry.shared.store(index.id)
  var sum = 0
  for _ in 0..<calls {
    let at = positions.next(below: index.textSize)
    let i = store.firstIndex(startingAfter: at)
    if i < store.count { sum &+= store[i].start }
  }
  return sum
}

/// `calls` times: the last entry starting before a random position (`prev --at N`).
public func previousEntries(_ index: WordsIndex, calls: Int, positions: inout Positions) -> Int {
  let store = Registry.shared.store(index.id)
  var sum = 0
  for _ in 0..<calls {
    let at = positions.next(below: index.textSize)
    let i = store.firstIndex(startingAfter: at - 1) - 1
    if i >= 0 { sum &+= store[i].start }
  }
  return sum
}

// MARK: Documents: editing and viewport queries

/// A ``RotorDocument`` read from a generated corpus, with system rotors built.
public struct Document: Sendable {
  let id: Int
  public let elementCount: Int
  public let byteCount: Int
  /// Entries in all its system rotors when it was built.
  public let entryCount: Int
}

private final class Documents: @unchecked Sendable {
  static let shared = Documents()
  private let lock = Mutex()
  private var documents: [RotorDocument<Int>] = []
  func add(_ d: RotorDocument<Int>) -> Int {
    lock.with {
      documents.append(d); return documents.count - 1
    }
  }
  func get(_ i: Int) -> RotorDocument<Int> { lock.with { documents[i] } }
}

/// Reads the generated corpus `name` as a document whose elements are `elements` (whole, lines,
/// paragraphs) and builds the system rotors `rotors` (all of them by default) with every core.
public func loadDocument(_ name: String, elements: String, rotors: [String]? = nil) -> Document {
  guard let kind = ElementKind(rawValue: elements) else { fatalError("no element kind \(elements)") }
  let path = corporaFolder + "/" + name
  do {
    let document = try RotorDocument<Int>(
      contentsOf: path, elements: kind, segmenter: Segmenter(threads: availableCores))
    var entries = 0
    for rotor in rotors?.map({ SystemRotor(rawValue: $0)! }) ?? SystemRotor.allCases {
      entries += try document.rotor(rotor).count
    }
    let bytes = try (0..<document.elementCount).reduce(0) { $0 + (try document.utf8Count(of: $1)) }
    return Document(
      id: Documents.shared.add(document), elementCount: document.elementCount, byteCount: bytes,
      entryCount: entries)
  } catch {
    fatalError(
      """
      reading \(path) as a document: \(error)
      The benchmark corpora are generated, not committed: run `Corpora/generate` first.
      """)
  }
}

/// One-character edits at pseudo-random places, each followed by its undo: an odd `step` types an
/// "x" at a random position of the document, an even one deletes it again, so the text stays
/// the same however many edits run. Every system rotor the document has built is updated by
/// each edit (``RotorDocument/replace(_:in:with:)``). Returns a checksum.
public final class Editor: @unchecked Sendable {
  let document: RotorDocument<Int>
  var positions = Positions(seed: 7)
  /// Where the last "x" was typed (element, UTF-8 offset), while it is there.
  var typed: (element: Int, offset: Int)?

  public init(_ document: Document) { self.document = Documents.shared.get(document.id) }

  public func edit() -> Int {
    if let (element, offset) = typed {
      try! document.replace(utf8Range: offset..<(offset + 1), in: element, with: "")
      typed = nil
      return offset
    }
    let (element, offset) = randomPlace()
    try! document.replace(utf8Range: offset..<offset, in: element, with: "x")
    typed = (element, offset)
    return offset
  }

  /// A random element and a UTF-8 offset in it on a scalar boundary (O(log n): no `String` of
  /// the element is made).
  private func randomPlace() -> (Int, Int) {
    let element = positions.next(below: document.elementCount)
    let count = try! document.utf8Count(of: element)
    var offset = positions.next(below: count + 1)
    while (try? document.position(in: element, utf8Offset: offset)) == nil { offset -= 1 }
    return (element, offset)
  }
}

/// Viewport queries on one system rotor of a document: the entries overlapping `size` bytes from
/// a pseudo-random document offset.
public final class Viewport: @unchecked Sendable {
  let rotor: Rotor<Int>
  let byteCount: Int
  var positions = Positions(seed: 11)

  public init(_ document: Document, rotor: String) {
    let d = Documents.shared.get(document.id)
    do {
      self.rotor = try d.rotor(SystemRotor(rawValue: rotor)!)
    } catch {
      fatalError("\(error)")
    }
    byteCount = document.byteCount
  }

  public var entryCount: Int { rotor.count }

  public enum Detail: Sendable {
    /// Only the entries' indices (`Rotor.indices(overlappingDocumentRange:)`).
    case indices
    /// And each entry's element and byte range (`Rotor.location(at:)`): what drawing needs.
    case locations
    /// And each entry as a `RotorEntry` with its label (a `String`) and `String.Index` range.
    case entries
  }

  /// A checksum of what the queries returned, so that no work is optimised away.
  public private(set) var checksum = 0

  /// `queries` queries; returns the number of entries returned in all.
  public func query(_ queries: Int, size: Int, detail: Detail) -> Int {
    var returned = 0
    var sum = 0
    for _ in 0..<queries {
      let a = positions.next(below: byteCount - size)
      let indices = rotor.indices(overlappingDocumentRange: a..<(a + size))
      returned += indices.count
      switch detail {
      case .indices:
        sum &+= indices.first ?? 0
      case .locations:
        for i in indices { sum &+= rotor.location(at: i)!.utf8Range.upperBound }
      case .entries:
        for i in indices { sum &+= rotor[i].label.utf8.count }
      }
    }
    checksum &+= sum
    return returned
  }
}
