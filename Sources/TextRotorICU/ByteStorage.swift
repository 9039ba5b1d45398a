import CTextRotorShim
import Dispatch
import Glibc
import Synchronization

/// Why a file could not be read. `description` names the file and the reason.
public struct FileError: Error, CustomStringConvertible, Equatable, Sendable {
  public enum Reason: Equatable, Sendable {
    case notFound, isDirectory, permissionDenied, changedWhileReading
    case system(Int32)
    /// A streamed input ran this many bytes without a place to cut it (e.g. a line break).
    /// No place to cut a stream (`what`: "line break", "blank line") in its first `Int` bytes.
    case tooLong(Int, what: String = "line break")
    /// A followed symbolic link (`find -L`) leads to a directory above it: this ancestor.
    case loop(ancestor: String)
  }
  public let path: String
  public let reason: Reason

  public init(path: String, reason: Reason) {
    self.path = path
    self.reason = reason
  }

  init(path: String, errno code: Int32) {
    switch code {
    case ENOENT: self.init(path: path, reason: .notFound)
    case EISDIR: self.init(path: path, reason: .isDirectory)
    case EACCES, EPERM: self.init(path: path, reason: .permissionDenied)
    default: self.init(path: path, reason: .system(code))
    }
  }

  public var description: String {
    let path = FileSystem.displayName(path)
    return switch reason {
    case .notFound: "\(path): No such file or directory"
    case .isDirectory: "\(path): Is a directory"
    case .permissionDenied: "\(path): Permission denied"
    case .changedWhileReading: "\(path): the file shrank while it was being read; results are incomplete"
    case .system(let code): "\(path): \(String(cString: strerror(code)))"
    case .loop(let ancestor):
      "File system loop found: \(path) points to an ancestor \(FileSystem.displayName(ancestor))"
    case .tooLong(let limit, let what):
      "\(path): no \(what) in \(limit >> 20) MiB of streamed input; a stream is segmented between \(what)s (a file on disk has no such limit)"
    }
  }
}

/// An immutable run of bytes: a memory-mapped file, a file or pipe read into memory, or a copy of a
/// string. The one place textrotor holds raw pointers to text; everything above reads it through
/// the safe methods here.
public final class ByteStorage: @unchecked Sendable {
  public let count: Int
  /// Internal to this module but for ``subscript(_:)``, which loops above inline.
  @usableFromInline let base: UnsafeMutableRawPointer?
  private enum Release { case none, free, unmap }
  private let release: Release
  /// Faults counted by the SIGBUS guard when this storage was created.
  private let faultsAtStart: Int
  /// The mapped file's path, to learn its new size once the guard has seen a fault.
  private let path: String?
  /// The file's size when a fault was last seen (`Int.max` before any), and that fault count.
  private let shrunk = Mutex<(faults: Int, size: Int)>((0, Int.max))
  /// Whether ``availableCountNow()`` found the file shorter (before any fault).
  private let noticedShrink = Atomic<Bool>(false)
  /// A descriptor of the mapped file (-1 if none), kept for a large file: a count over most of it
  /// reads it with `pread` (see ``lineBreaks(in:threads:)``).
  private let readDescriptor: Int32

  private init(
    base: UnsafeMutableRawPointer?, count: Int, release: Release, path: String? = nil, readDescriptor: Int32 = -1
  ) {
    self.base = base
    self.count = count
    self.release = release
    self.path = path
    self.readDescriptor = readDescriptor
    self.faultsAtStart = cicu_sigbus_fault_count()
  }

  deinit {
    switch release {
    case .none: break
    case .free: Glibc.free(base)
    case .unmap: if let base { munmap(base, count) }
    }
    if readDescriptor >= 0 { close(readDescriptor) }
  }

  /// The `count` bytes at `base`, not copied and not released: a view that must not outlive the
  /// memory, nor be kept past the memory's next change (``BlockReader`` looks for a cut point in
  /// its buffer through one).
  static func borrowing(_ base: UnsafeMutableRawPointer, count: Int) -> ByteStorage {
    ByteStorage(base: base, count: count, release: .none)
  }

  /// A copy of `bytes`.
  public convenience init(_ bytes: some Collection<UInt8>) {
    let n = bytes.count
    let p = Glibc.malloc(max(n, 1))!
    let copied: Bool? = bytes.withContiguousStorageIfAvailable { source in
      if let base = source.baseAddress, n > 0 { memcpy(p, base, n) }
      return true
    }
    if copied == nil {
      let buffer = UnsafeMutableRawBufferPointer(start: p, count: n)
      _ = buffer.initializeMemory(as: UInt8.self, from: bytes)
    }
    self.init(base: p, count: n, release: .free)
  }

  /// A copy of `bytes` (one memcpy).
  public convenience init(copying bytes: UnsafeRawBufferPointer) {
    let p = Glibc.malloc(max(bytes.count, 1))!
    if bytes.count > 0, let source = bytes.baseAddress { memcpy(p, source, bytes.count) }
    self.init(base: p, count: bytes.count, release: .free)
  }

  /// A copy of `range` in which each line break between two non-blank lines is replaced by
  /// spaces (LF by one, CR LF by two): hard-wrapped prose as ICU's sentence rules should read it.
  /// Offsets are unchanged. O(n), memchr-driven.
  public func proseCopy(_ range: Range<Int>) -> ByteStorage {
    precondition(range.lowerBound >= 0 && range.upperBound <= count, "range outside the bytes")
    let n = range.count
    let p = Glibc.malloc(max(n, 1))!
    if n > 0, let base {
      cicu_prose_copy(
        (base + range.lowerBound).assumingMemoryBound(to: UInt8.self), Int64(n), p.assumingMemoryBound(to: UInt8.self))
    }
    return ByteStorage(base: p, count: n, release: .free)
  }

  /// A copy of the UTF-8 bytes of `string`.
  public convenience init(_ string: String) {
    var s = string
    let copied: ByteStorage? = s.withUTF8 { utf8 in ByteStorage(utf8) }
    self.init(copiedFrom: copied!)
  }

  private convenience init(copiedFrom other: ByteStorage) {
    let p = Glibc.malloc(max(other.count, 1))!
    if other.count > 0, let source = other.base { memcpy(p, source, other.count) }
    self.init(base: p, count: other.count, release: .free)
  }

  /// Reads the file at `path`: regular files are memory-mapped (nothing is read until it is used),
  /// anything else (a pipe, a terminal, `/dev/stdin`) is read to its end. `"-"` is standard input.
  /// A regular file smaller than `mapAtLeast` bytes is read instead of mapped (cheaper for the
  /// many small files of a directory tree).
  public static func contentsOf(path: String, mapAtLeast: Int = 0) throws(FileError) -> ByteStorage {
    if path == "-" { return try readAll(fd: 0, path: "<stdin>") }
    let fd = FileSystem.withCPath(path) { open($0, O_RDONLY | O_CLOEXEC) }
    if fd < 0 { throw FileError(path: path, errno: errno) }
    defer { close(fd) }
    var info = stat()
    if fstat(fd, &info) != 0 { throw FileError(path: path, errno: errno) }
    return try contentsOf(fd: fd, info: info, path: path, mapAtLeast: mapAtLeast)
  }

  /// The contents of the open file `fd` (which `info` describes; the caller closes it).
  static func contentsOf(fd: Int32, info: stat, path: String, mapAtLeast: Int) throws(FileError) -> ByteStorage {
    let type = info.st_mode & S_IFMT
    if type == S_IFDIR { throw FileError(path: path, reason: .isDirectory) }
    if type == S_IFREG {
      let size = Int(info.st_size)
      if size == 0 { return ByteStorage(base: nil, count: 0, release: .none) }
      if size < mapAtLeast { return try readAll(fd: fd, path: path, sizeHint: size) }
      cicu_install_sigbus_guard()
      guard let p = cicu_map_file(fd, size) else { return try readAll(fd: fd, path: path) }
      _ = madvise(p, size, MADV_SEQUENTIAL)
      let kept = size >= parallelCountMinimum ? fcntl(fd, F_DUPFD_CLOEXEC, 0) : -1
      return ByteStorage(base: p, count: size, release: .unmap, path: path, readDescriptor: kept)
    }
    return try readAll(fd: fd, path: path)
  }

  private static func readAll(fd: Int32, path: String, sizeHint: Int = 0) throws(FileError) -> ByteStorage {
    var capacity = sizeHint > 0 ? sizeHint + 1 : 1 << 16
    var count = 0
    var p = Glibc.malloc(capacity)!
    while true {
      if count == capacity {
        capacity *= 2
        p = Glibc.realloc(p, capacity)!
      }
      let n = read(fd, p + count, capacity - count)
      if n == 0 { break }
      if n < 0 {
        if errno == EINTR { continue }
        let code = errno
        Glibc.free(p)
        throw FileError(path: path, errno: code)
      }
      count += n
    }
    return ByteStorage(base: p, count: count, release: .free)
  }

  /// Whether a mapped file shrank while it was read (its missing pages were read as zeros). Check
  /// after the work is done and report ``FileError/Reason/changedWhileReading``.
  public var shrankWhileReading: Bool { availableCount < count }

  /// How many bytes are really there: `count`, or for a mapped file that shrank while it was read
  /// (the guard then reads the missing pages as zeros), its new size. Long scans check it now and
  /// then and stop there. Cheap while no fault happened (one load of the guard's counter).
  public var availableCount: Int {
    guard release == .unmap else { return count }
    let faults = cicu_sigbus_fault_count()
    if faults == faultsAtStart && !noticedShrink.load(ordering: .relaxed) { return count }
    return shrunk.withLock { seen in
      if seen.faults != faults {
        // A fault somewhere in the process (maybe another file's): ask this file's size now.
        var info = stat()
        let size = path.map { stat($0, &info) == 0 ? Int(info.st_size) : 0 } ?? 0
        seen = (faults, min(seen.size, size))
      }
      return min(count, seen.size)
    }
  }

  /// ``availableCount`` after asking the file's size now (a `stat`), for readers that must not
  /// touch a page past a new end at all (each such read would be a page of zeros): a mapped file
  /// that shrank is then noticed before the fault. `count` for bytes that are not a mapped file.
  public func availableCountNow() -> Int {
    guard release == .unmap, let path else { return count }
    var info = stat()
    let size = FileSystem.withCPath(path, { stat($0, &info) }) == 0 ? Int(info.st_size) : 0
    if size >= count { return availableCount }
    let available = shrunk.withLock { seen in
      seen.size = min(seen.size, size)
      return min(count, seen.size)
    }
    noticedShrink.store(true, ordering: .relaxed)
    return available
  }

  /// Hands the pages wholly inside `range` of a mapped file back to the system (`MADV_DONTNEED`):
  /// for bytes that were read for the last time, so that their page-table entries are torn down
  /// now, by the calling thread, instead of all at once when the file is unmapped (a serial step
  /// of a few milliseconds per 100 MB). The bytes stay the same and readable: a later read maps
  /// them again from the page cache. Nothing happens for bytes that are not a mapped file.
  public func dropMappedPages(in range: Range<Int>) {
    precondition(range.lowerBound >= 0 && range.upperBound <= count, "range outside the bytes")
    guard release == .unmap, let base else { return }
    let page = Self.pageSize
    let start = (range.lowerBound + page - 1) / page * page
    let end = range.upperBound == count ? range.upperBound : range.upperBound / page * page
    guard end > start else { return }
    _ = madvise(base + start, end - start, MADV_DONTNEED)
  }

  private static let pageSize = max(4096, sysconf(Int32(_SC_PAGESIZE)))

  func pointer(at offset: Int) -> UnsafePointer<CChar> {
    guard let base else { return emptyText }
    return UnsafePointer((base + offset).assumingMemoryBound(to: CChar.self))
  }

  /// The bytes; never a nil base (an empty storage's is a static byte), so that no C kernel is
  /// handed NULL, where `NULL + offset` is undefined behaviour (UBSan reported it for an empty
  /// file searched by the AVX2 needle scan).
  private var bytes: UnsafeBufferPointer<UInt8> {
    let start = base.map { UnsafePointer($0.assumingMemoryBound(to: UInt8.self)) }
    return UnsafeBufferPointer(
      start: start ?? UnsafeRawPointer(emptyText).assumingMemoryBound(to: UInt8.self), count: count)
  }

  /// Runs `body` over the raw bytes (a non-nil base address, an empty storage's too). For the few
  /// hot loops above this layer that need them; the pointer must not escape `body`.
  public func withUnsafeBytes<R, E: Error>(_ body: (UnsafeBufferPointer<UInt8>) throws(E) -> R) throws(E) -> R {
    try body(bytes)
  }

  /// The byte at `offset` (checked). Inlinable: byte-at-a-time loops in the modules above (a
  /// regex window stretched over a class of bytes) called it once per byte.
  @inlinable public subscript(offset: Int) -> UInt8 {
    precondition(offset >= 0 && offset < count, "offset \(offset) outside 0..<\(count)")
    return base.unsafelyUnwrapped.load(fromByteOffset: offset, as: UInt8.self)
  }

  /// The bytes of `range` as a `String`, ill-formed sequences replaced by U+FFFD.
  public func string(_ range: Range<Int>) -> String {
    precondition(range.lowerBound >= 0 && range.upperBound <= count)
    return String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
  }

  /// A copy of the bytes of `range`.
  public func copyBytes(_ range: Range<Int>) -> [UInt8] { Array(bytes[range]) }

  /// Appends the bytes of `range` to `out` (one copy, no array between).
  public func append(_ range: Range<Int>, to out: inout [UInt8]) {
    precondition(range.lowerBound >= 0 && range.upperBound <= count, "range outside the bytes")
    out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[range]))
  }

  /// A storage of its own holding a copy of the bytes of `range`, then `suffix` (one copy, no
  /// array between).
  public func copy(_ range: Range<Int>, appending suffix: [UInt8] = []) -> ByteStorage {
    precondition(range.lowerBound >= 0 && range.upperBound <= count, "range outside the bytes")
    let n = range.count + suffix.count
    let p = Glibc.malloc(Swift.max(n, 1))!
    if range.count > 0 { memcpy(p, UnsafeRawPointer(bytes.baseAddress! + range.lowerBound), range.count) }
    suffix.withUnsafeBytes { if let s = $0.baseAddress, !suffix.isEmpty { memcpy(p + range.count, s, suffix.count) } }
    return ByteStorage(base: p, count: n, release: .free)
  }

  /// The first offset in `range` holding `byte` (memchr).
  public func firstIndex(of byte: UInt8, in range: Range<Int>) -> Int? {
    guard !range.isEmpty, let base else { return nil }
    guard let hit = memchr(base + range.lowerBound, Int32(byte), range.count) else { return nil }
    return UnsafeRawPointer(hit) - UnsafeRawPointer(base)
  }

  /// The last offset in `range` holding `byte` (memrchr).
  public func lastIndex(of byte: UInt8, in range: Range<Int>) -> Int? {
    guard !range.isEmpty, let base else { return nil }
    guard let hit = cicu_memrchr(base + range.lowerBound, Int32(byte), range.count) else { return nil }
    return UnsafeRawPointer(hit) - UnsafeRawPointer(base)
  }

  /// The first offset in `range` where `needle` starts (memmem), or nil.
  public func firstIndex(of needle: [UInt8], in range: Range<Int>) -> Int? {
    guard !needle.isEmpty, range.count >= needle.count, let base else { return nil }
    return needle.withUnsafeBytes { n -> Int? in
      guard let hit = cicu_memmem(base + range.lowerBound, range.count, n.baseAddress, n.count) else { return nil }
      return UnsafeRawPointer(hit) - UnsafeRawPointer(base)
    }
  }

  /// The first offset in `range` of a byte that output escapes: a control byte (below 0x20), `a`
  /// or `b` (`"` and `\\` in a JSON string; 0x7F twice on one line of display), or nil. 16 bytes
  /// at a time.
  public func firstEscape(in range: Range<Int>, or a: UInt8, _ b: UInt8) -> Int? {
    precondition(range.lowerBound >= 0 && range.upperBound <= count, "range outside the bytes")
    guard !range.isEmpty else { return nil }
    let found = withUnsafeBytes { cicu_first_escape($0.baseAddress! + range.lowerBound, range.count, a, b) }
    return found < 0 ? nil : range.lowerBound + Int(found)
  }

  /// The first byte offset in `range` where the text is not well-formed UTF-8 (by the Unicode
  /// standard's definition: no overlongs, no surrogates, nothing past U+10FFFF), or nil.
  /// 32 bytes at a time (AVX2, Keiser and Lemire's check) where the CPU has it.
  public func firstInvalidUTF8(in range: Range<Int>) -> Int? {
    precondition(range.lowerBound >= 0 && range.upperBound <= count, "range outside the bytes")
    guard !range.isEmpty else { return nil }
    let found = withUnsafeBytes { cicu_utf8_first_invalid($0.baseAddress! + range.lowerBound, range.count) }
    return found < 0 ? nil : range.lowerBound + Int(found)
  }

  /// ``firstInvalidUTF8(in:)`` one byte at a time in Swift: the reference the tests compare with.
  public func firstInvalidUTF8Reference(in range: Range<Int>) -> Int? {
    let b = bytes
    var i = range.lowerBound
    let end = range.upperBound
    while i < end {
      // ASCII runs 32 bytes at a time, then 8.
      if end - i >= 32 {
        let p = UnsafeRawPointer(b.baseAddress! + i)
        let any =
          p.loadUnaligned(as: UInt64.self) | p.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
          | p.loadUnaligned(fromByteOffset: 16, as: UInt64.self) | p.loadUnaligned(fromByteOffset: 24, as: UInt64.self)
        if any & 0x8080_8080_8080_8080 == 0 {
          i += 32
          continue
        }
      }
      if end - i >= 8 {
        let word = UnsafeRawPointer(b.baseAddress! + i).loadUnaligned(as: UInt64.self)
        if word & 0x8080_8080_8080_8080 == 0 {
          i += 8
          continue
        }
      }
      let c = b[i]
      if c < 0x80 {
        i += 1
        continue
      }
      let length: Int
      var low: UInt8 = 0x80
      var high: UInt8 = 0xBF
      switch c {
      case 0xC2...0xDF: length = 2
      case 0xE0: length = 3; low = 0xA0
      case 0xE1...0xEC, 0xEE...0xEF: length = 3
      case 0xED: length = 3; high = 0x9F
      case 0xF0: length = 4; low = 0x90
      case 0xF1...0xF3: length = 4
      case 0xF4: length = 4; high = 0x8F
      default: return i
      }
      if end - i < length { return i }
      let second = b[i + 1]
      if second < low || second > high { return i }
      for k in 2..<length where b[i + k] & 0xC0 != 0x80 { return i }
      i += length
    }
    return nil
  }

  /// UTF-16 code units in `range`, the text decoded from the range's start (a 4-byte sequence
  /// counts 2). Ill-formed UTF-8 is read as U+FFFD, one per maximal subpart (the Unicode standard's
  /// substitution, as Swift's `String(decoding:as:)` does): a stray continuation byte, a byte
  /// F5-FF, `C0 80` or `E0 80 80` count one unit per byte, `F0 90 80` (a truncated sequence) one.
  public func utf16Count(in range: Range<Int>) -> Int {
    precondition(range.lowerBound >= 0 && range.upperBound <= count)
    guard !range.isEmpty else { return 0 }
    return countPart(range).utf16Units
  }

  /// Unicode scalars in `range`, the text decoded from the range's start, ill-formed UTF-8 read as
  /// U+FFFD as ``utf16Count(in:)`` does.
  public func scalarCount(in range: Range<Int>) -> Int {
    precondition(range.lowerBound >= 0 && range.upperBound <= count)
    guard !range.isEmpty else { return 0 }
    return Int(withUnsafeBytes { cicu_count_scalars($0.baseAddress! + range.lowerBound, range.count) })
  }
}

nonisolated(unsafe) private let emptyText: UnsafePointer<CChar> = {
  let p = UnsafeMutablePointer<CChar>.allocate(capacity: 1)
  p.initialize(to: 0)
  return UnsafePointer(p)
}()

/// Line terminators and UTF-16 units in a range of text.
public struct TextCounts: Equatable, Sendable {
  public var lineFeeds = 0
  public var carriageReturns = 0
  /// CR LF pairs with both bytes inside the range.
  public var crlfPairs = 0
  public var utf16Units = 0
  /// Bytes that are not continuation bytes: the scalars of well-formed UTF-8.
  public var leadBytes = 0
  /// Whether the range is well-formed UTF-8 (not known when false: see ``ByteStorage/textCounts(in:threads:)``).
  public var isWellFormed = true

  /// The counts of the shim's kernels.
  init(_ c: cicu_text_counts) {
    lineFeeds = Int(c.lineFeeds)
    carriageReturns = Int(c.carriageReturns)
    crlfPairs = Int(c.crlfPairs)
    utf16Units = Int(c.utf16Units)
    leadBytes = Int(c.leads)
  }

  /// Hard line breaks: every LF, and every CR not followed by LF.
  public var lineBreaks: Int { lineFeeds + carriageReturns - crlfPairs }

  public init() {}

  /// Adds the counts of the range right after this one (a CR LF pair split between the two is
  /// the caller's to add).
  mutating func add(_ next: TextCounts) {
    lineFeeds += next.lineFeeds
    carriageReturns += next.carriageReturns
    crlfPairs += next.crlfPairs
    utf16Units += next.utf16Units
    leadBytes += next.leadBytes
    isWellFormed = isWellFormed && next.isWellFormed
  }
}

extension ByteStorage {
  /// Counts line terminators and UTF-16 units in `range` in one vectorised pass (split across
  /// `threads` for large ranges).
  public func textCounts(in range: Range<Int>, threads: Int = 1) -> TextCounts {
    precondition(range.lowerBound >= 0 && range.upperBound <= count)
    // Parts start where a character does (a continuation byte is moved past, at most 3: a
    // character split between two parts would be counted as two U+FFFD, and each part slowly).
    return inParts(range, threads: threads, atCharacters: true) { part, parallel in
      (parallel ? self.countByReading(part, linesOnly: false) : nil) ?? self.countPart(part)
    }
  }

  /// Hard line breaks in `range` (every LF, and every CR not followed by LF inside the range),
  /// without the UTF-8 work of ``textCounts(in:threads:)``: what a line number needs.
  ///
  /// A range of a large mapped file counted on several threads (`next --at N`, whose line number
  /// counts everything before N) is read with `pread`, a block at a time into a buffer that stays
  /// in cache, not through the mapping: the bytes are then copied out of the page cache by the
  /// kernel, on each thread, instead of each of their pages being mapped on a fault and unmapped
  /// again when the process exits (the unmapping on one thread). ``textCounts(in:threads:)`` too.
  public func lineBreaks(in range: Range<Int>, threads: Int = 1) -> Int {
    precondition(range.lowerBound >= 0 && range.upperBound <= count)
    let counts = inParts(range, threads: threads, atCharacters: false) { part, parallel in
      (parallel ? self.countByReading(part, linesOnly: true) : nil) ?? self.lineCounts(part)
    }
    return counts.lineBreaks
  }

  /// The paragraphs that start in `range` (non-blank lines after a blank line, or first: those of
  /// `ElementKind.paragraphs`), where `range` starts a text (after its byte order mark): one
  /// vectorised pass (``cicu_paragraph_starts``), split across `threads` for a large range, each
  /// part starting from the state that the bytes before it give, and read with `pread` as
  /// ``lineBreaks(in:threads:)`` reads. What the index of a paragraph needs.
  public func paragraphStarts(in range: Range<Int>, threads: Int = 1) -> Int {
    precondition(range.lowerBound >= 0 && range.upperBound <= count)
    guard !range.isEmpty else { return 0 }
    let parts = range.count >= Self.parallelCountMinimum ? max(1, threads) : 1
    let size = (range.count + parts - 1) / parts
    let pieces = (0..<parts).map { k in
      (range.lowerBound + k * size)..<Swift.min(range.upperBound, range.lowerBound + (k + 1) * size)
    }
    if parts == 1 { return paragraphStarts(pieces[0], from: range.lowerBound, reading: false) }
    let results = CountResults(parts, 0)
    DispatchQueue.concurrentPerform(iterations: parts) { k in
      results.set(k, self.paragraphStarts(pieces[k], from: range.lowerBound, reading: true))
    }
    return results.values.reduce(0, +)
  }

  /// The paragraph starts in `part` of a text starting at `textStart`, from the state the bytes
  /// before `part` leave (found by reading back over spaces and tabs to the last two events).
  private func paragraphStarts(_ part: Range<Int>, from textStart: Int, reading: Bool) -> Int {
    var state = cicu_paragraph_state(starts: 0, afterBreak: 1, afterBlank: 1)
    // The last two events before the part: a content byte, or a terminator.
    var q = part.lowerBound
    for k in 0..<2 {
      var isTerminator = true
      while q > textStart {
        q -= 1
        let b = self[q]
        if b == 0x20 || b == 0x09 || (b == 0x0D && q + 1 < count && self[q + 1] == 0x0A) { continue }
        isTerminator = b == 0x0A || b == 0x0D
        break
      }
      if k == 0 && !isTerminator {
        state.afterBreak = 0
        state.afterBlank = 0
        break
      }
      if k == 1 { state.afterBlank = isTerminator ? 1 : 0 }
      if q == textStart { break }
    }
    let after = part.upperBound < count ? Int32(self[part.upperBound]) : -1
    if reading, readDescriptor >= 0 {
      let block = Self.countBlock
      // One byte more: the byte after the block, for a CR at its end.
      let p = readInBlocks(part, lookAhead: 1, readEnd: Swift.min(count, part.upperBound + 1)) { bytes, got, p in
        let e = Swift.min(got, block, part.upperBound - p)
        let nextByte = p + e == part.upperBound ? after : e < got ? Int32(bytes[e]) : Int32(self[p + e])
        cicu_paragraph_starts(&state, bytes, e, nextByte)
        return e
      }
      if p < part.upperBound {
        withUnsafeBytes { cicu_paragraph_starts(&state, $0.baseAddress! + p, part.upperBound - p, after) }
      }
    } else {
      withUnsafeBytes {
        cicu_paragraph_starts(&state, $0.baseAddress! + part.lowerBound, part.count, after)
      }
    }
    return Int(state.starts)
  }

  /// The line terminators of `range`, through the mapping (or the bytes in memory).
  private func lineCounts(_ range: Range<Int>) -> TextCounts {
    guard !range.isEmpty else { return TextCounts() }
    // The line kernel leaves the UTF-16 fields at 0.
    return TextCounts(withUnsafeBytes { cicu_count_lines($0.baseAddress! + range.lowerBound, range.count) })
  }

  /// The size from which a count is split across threads.
  static let parallelCountMinimum = 32 << 20

  /// Reads `range` of the file with `pread`, ``countBlock`` bytes at a time into one buffer, each
  /// read asking for up to `lookAhead` bytes more (never past `readEnd`), and hands each read to
  /// `body` (the bytes, how many came, where they start in the file), which returns how many it
  /// used (at least one, at most ``countBlock``). Returns where reading stopped: the range's end,
  /// or earlier when a read came back short or failed (the file shrank), where the caller goes on
  /// through the mapping, whose guard reads missing pages as zeros. The storage must keep a
  /// descriptor of its file.
  private func readInBlocks(
    _ range: Range<Int>, lookAhead: Int, readEnd: Int, _ body: (UnsafeMutablePointer<UInt8>, Int, Int) -> Int
  ) -> Int {
    let block = Self.countBlock
    let buffer = UnsafeMutableRawPointer.allocate(byteCount: block + lookAhead, alignment: 4096)
    defer { buffer.deallocate() }
    let bytes = buffer.assumingMemoryBound(to: UInt8.self)
    var p = range.lowerBound
    while p < range.upperBound {
      let want = Swift.min(readEnd - p, block + lookAhead)
      let got = pread(readDescriptor, buffer, want, off_t(p))
      guard got > 0 else { break }
      p += body(bytes, got, p)
      if got < want { break }
    }
    return p
  }

  /// The counts of `range` of the mapped file read with `pread`, ``countBlock`` bytes at a time
  /// into one buffer (cut where a character starts, as ``countInBlocks(_:)`` cuts, with the CR LF
  /// pairs split between two blocks added); the line terminators only when `linesOnly`. Nil when
  /// the storage keeps no descriptor of its file. A read that comes back short (the file shrank)
  /// leaves the rest to the mapping, whose guard reads the missing pages as zeros.
  private func countByReading(_ range: Range<Int>, linesOnly: Bool) -> TextCounts? {
    guard readDescriptor >= 0, !range.isEmpty else { return nil }
    let block = Self.countBlock
    var total = TextCounts()
    let end = range.upperBound
    // Whether the byte before p (in the range) is a CR: with an LF at p, a pair split at p.
    var afterCR = false
    // 3 bytes more: the rest of a character that the block's end cuts.
    let p = readInBlocks(range, lookAhead: 3, readEnd: end) { bytes, got, _ in
      var e = Swift.min(got, block)
      var moved = 0
      while !linesOnly && e < got && moved < 3 && bytes[e] & 0xC0 == 0x80 {
        e += 1
        moved += 1
      }
      if afterCR && bytes[0] == 0x0A { total.crlfPairs += 1 }
      let view = ByteStorage(base: UnsafeMutableRawPointer(bytes), count: e, release: .none)
      total.add(linesOnly ? view.lineCounts(0..<e) : view.countPart(0..<e, knownWellFormed: false, inBlocks: false))
      afterCR = bytes[e - 1] == 0x0D
      return e
    }
    guard p < end else { return total }
    // The rest through the mapping.
    if afterCR && self[p] == 0x0A { total.crlfPairs += 1 }
    total.add(linesOnly ? lineCounts(p..<end) : countPart(p..<end))
    return total
  }

  /// What the counting kernels alone give for `range`: one call, one thread, no UTF-8 validation
  /// (the UTF-16 fields count lead bytes and 4-byte leads, whatever the bytes are). `linesOnly`
  /// picks the line-terminator kernel (its UTF-16 fields are 0); `portable` the baseline loop
  /// instead of the AVX2 one (which runs only where the CPU has AVX2). For tests, which compare
  /// them with a byte-by-byte count.
  public func kernelCounts(in range: Range<Int>, linesOnly: Bool, portable: Bool) -> TextCounts {
    precondition(range.lowerBound >= 0 && range.upperBound <= count)
    guard !range.isEmpty else { return TextCounts() }
    let c = withUnsafeBytes { all in
      let p = all.baseAddress! + range.lowerBound
      switch (linesOnly, portable) {
      case (true, true): return cicu_count_lines_portable(p, range.count)
      case (true, false): return cicu_count_lines(p, range.count)
      case (false, true): return cicu_count_text_portable(p, range.count)
      case (false, false): return cicu_count_text(p, range.count)
      }
    }
    return TextCounts(c)
  }

  /// `count` of `range`, split across `threads` for a large range (cut at characters' starts when
  /// `atCharacters`), the parts' counts added up with the CR LF pairs split between two parts.
  private func inParts(
    _ range: Range<Int>, threads: Int, atCharacters: Bool,
    _ count: @Sendable (Range<Int>, _ parallel: Bool) -> TextCounts
  ) -> TextCounts {
    guard !range.isEmpty else { return TextCounts() }
    let parts = range.count >= Self.parallelCountMinimum ? max(1, threads) : 1
    if parts == 1 { return count(range, false) }
    let size = (range.count + parts - 1) / parts
    let cuts =
      [range.lowerBound]
      + (1..<parts).map { k in
        var cut = min(range.upperBound, range.lowerBound + k * size)
        var moved = 0
        while atCharacters && cut < range.upperBound && moved < 3 && self[cut] & 0xC0 == 0x80 {
          cut += 1
          moved += 1
        }
        return cut
      } + [range.upperBound]
    let pieces = (0..<parts).map { k in cuts[k]..<cuts[k + 1] }
    let results = CountResults(parts, TextCounts())
    DispatchQueue.concurrentPerform(iterations: parts) { k in
      results.set(k, count(pieces[k], true))
    }
    var total = TextCounts()
    for (k, part) in results.values.enumerated() {
      total.add(part)
      // A CR LF pair split between two parts.
      let end = pieces[k].upperBound
      if k + 1 < parts && self[end - 1] == 0x0D && self[end] == 0x0A { total.crlfPairs += 1 }
    }
    return total
  }

  private func countPart(_ range: Range<Int>) -> TextCounts { countPart(range, knownWellFormed: false) }

  /// `countPart`, skipping the validation when the caller knows `range` is well-formed.
  func countPart(_ range: Range<Int>, knownWellFormed: Bool, inBlocks: Bool = true) -> TextCounts {
    guard !range.isEmpty else { return TextCounts() }
    if inBlocks && !knownWellFormed && range.count > 2 * Self.countBlock { return countInBlocks(range) }
    let c = withUnsafeBytes { cicu_count_text($0.baseAddress! + range.lowerBound, range.count) }
    var result = TextCounts(c)
    // The vectorised count is exact for well-formed UTF-8; ill-formed text is counted again byte
    // by byte, each maximal subpart as one U+FFFD.
    if !knownWellFormed, let bad = firstInvalidUTF8(in: range) {
      result.isWellFormed = false
      result.utf16Units = utf16UnitsOfIllFormed(range, firstInvalid: bad)
    }
    return result
  }

  /// Bytes validated and then counted while still in cache (a quarter of a typical L2).
  public static var countBlock: Int { 256 << 10 }

  /// ``countPart(_:knownWellFormed:)`` of a large range in one pass over memory: block by block
  /// (cut where a character starts), each block validated and then counted while it is in the
  /// cache, where validating all of it and then counting all of it read it twice. From the first
  /// block that is not well-formed on, the exact count takes over.
  private func countInBlocks(_ range: Range<Int>) -> TextCounts {
    var total = TextCounts()
    var p = range.lowerBound
    let end = range.upperBound
    withUnsafeBytes { (all: UnsafeBufferPointer<UInt8>) in
      let base = all.baseAddress!
      while p < end {
        var e = Swift.min(end, p + Self.countBlock)
        var moved = 0
        while e < end && moved < 3 && base[e] & 0xC0 == 0x80 {
          e += 1
          moved += 1
        }
        if cicu_utf8_first_invalid(base + p, e - p) >= 0 { break }
        total.add(countPart(p..<e, knownWellFormed: true))
        // A CR LF pair split between two blocks.
        if e < end && base[e - 1] == 0x0D && base[e] == 0x0A { total.crlfPairs += 1 }
        p = e
      }
    }
    guard p < end else { return total }
    total.add(countPart(p..<end, knownWellFormed: false, inBlocks: false))
    return total
  }

  /// The UTF-16 units of `range` (whose first ill-formed sequence starts at `firstInvalid`) as ICU
  /// reads it, each maximal subpart of an ill-formed sequence one U+FFFD: the well-formed runs by
  /// the vectorised count, the bytes from each ill-formed sequence to the first ASCII byte at
  /// least 64 bytes on (an ASCII byte always starts a character, so the counts add up) one by one.
  /// A stray invalid byte in a large file costs 64 bytes of the slow count, not the whole file.
  private func utf16UnitsOfIllFormed(_ range: Range<Int>, firstInvalid: Int) -> Int {
    let end = range.upperBound
    var total = 0
    var p = range.lowerBound
    var bad: Int? = firstInvalid
    withUnsafeBytes { (all: UnsafeBufferPointer<UInt8>) in
      let base = all.baseAddress!
      while let b = bad {
        if b > p { total += Int(cicu_count_text(base + p, b - p).utf16Units) }
        var e = Swift.min(end, b + 64)
        while e < end && base[e] >= 0x80 { e += 1 }
        total += Int(cicu_count_utf16_exact(base + b, e - b))
        p = e
        bad = p < end ? firstInvalidUTF8(in: p..<end) : nil
      }
      if p < end { total += Int(cicu_count_text(base + p, end - p).utf16Units) }
    }
    return total
  }
}

private final class CountResults<Value: Sendable>: @unchecked Sendable {
  private let lock = Mutex<[Value]>([])
  init(_ n: Int, _ initial: Value) { lock.withLock { $0 = Array(repeating: initial, count: n) } }
  func set(_ k: Int, _ value: Value) { lock.withLock { $0[k] = value } }
  var values: [Value] { lock.withLock { $0 } }
}
