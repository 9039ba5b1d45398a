import Glibc

/// What a path names, as `lstat` (or a directory entry's type) says.
public enum FileKind: Sendable, Equatable {
  case regular, directory, symbolicLink, other
}

/// Directory listings and file kinds, without Foundation: `opendir`/`readdir` and `stat`.
///
/// Paths are `String`s, but a Linux file name is any bytes: a name that is not valid UTF-8 (a
/// Latin-1 name from an old archive) is held with each byte of its ill-formed sequences as one
/// scalar of U+10FF80–U+10FFFF (``name(_:)``), and every system call here gets the original bytes
/// back (``bytes(of:)``), so such a file is listed, opened and printed as it is named, as ripgrep
/// does. (A name that really holds one of those 128 private-use scalars has their bytes escaped
/// too, so every name comes back exactly.)
public enum FileSystem {
  /// The first scalar standing for a byte of an ill-formed name: U+10FF00 + the byte (0x80–0xFF).
  private static let escapeBase: UInt32 = 0x10_FF00

  /// A file name or path read from the system (`bytes`, no NUL): the string itself when it is
  /// valid UTF-8, else with its ill-formed bytes escaped (see ``FileSystem``).
  public static func name(_ bytes: some Collection<UInt8>) -> String {
    // Scalars of the escapes' range start with F4 (as every scalar from U+100000 does).
    if let valid = String(validating: bytes, as: UTF8.self),
      !bytes.contains(0xF4) || !valid.unicodeScalars.contains(where: { $0.value >= escapeBase + 0x80 })
    {
      return valid
    }
    let all = Array(bytes)
    var scalars = String.UnicodeScalarView()
    var parser = Unicode.UTF8.ForwardParser()
    var iterator = all.makeIterator()
    var offset = 0
    while true {
      switch parser.parseScalar(from: &iterator) {
      case .valid(let encoded):
        let scalar = Unicode.UTF8.decode(encoded)
        if scalar.value >= escapeBase + 0x80 {
          // A real scalar of the escapes' range: its bytes are escaped too, so that they come back.
          for byte in encoded { scalars.append(Unicode.Scalar(escapeBase + UInt32(byte))!) }
        } else {
          scalars.append(scalar)
        }
        offset += encoded.count
      case .error(let length):
        // `length` bytes that are no scalar: each is escaped.
        for byte in all[offset..<(offset + length)] { scalars.append(Unicode.Scalar(escapeBase + UInt32(byte))!) }
        offset += length
      case .emptyInput: return String(scalars)
      }
    }
  }

  /// The bytes `path` stands for: its UTF-8, with each escaped byte of an ill-formed name (see
  /// ``FileSystem``) back as itself.
  public static func bytes(of path: String) -> [UInt8] {
    // U+100000 and above start with F4: a path without that byte holds no escape.
    guard path.utf8.contains(0xF4) else { return Array(path.utf8) }
    var out: [UInt8] = []
    out.reserveCapacity(path.utf8.count)
    for scalar in path.unicodeScalars {
      if scalar.value >= escapeBase + 0x80 {
        out.append(UInt8(scalar.value - escapeBase))
      } else {
        Unicode.UTF8.encode(scalar) { out.append($0) }
      }
    }
    return out
  }

  /// `path` as it is printed in a message: its bytes, each ill-formed sequence as U+FFFD.
  public static func displayName(_ path: String) -> String {
    guard path.utf8.contains(0xF4) else { return path }
    return String(decoding: bytes(of: path), as: UTF8.self)
  }

  /// Calls `body` with `path`'s bytes (``bytes(of:)``) as a C string: what every system call
  /// on a path is given.
  public static func withCPath<R, E: Error>(_ path: String, _ body: (UnsafePointer<CChar>) throws(E) -> R) throws(E)
    -> R
  {
    var result: Result<R, E>! = nil
    func call(_ p: UnsafePointer<CChar>) {
      do throws(E) {
        result = .success(try body(p))
      } catch {
        result = .failure(error)
      }
    }
    if path.utf8.contains(0xF4) {
      var raw = bytes(of: path).map { CChar(bitPattern: $0) }
      raw.append(0)
      raw.withUnsafeBufferPointer { call($0.baseAddress!) }
    } else {
      path.withCString(call)  // no escape: the string's own bytes, not copied
    }
    return try result.get()
  }

  /// One entry of a directory listing (never `.` or `..`).
  public struct Entry: Sendable, Equatable {
    public var name: String
    public var kind: FileKind
  }

  /// The entries of the directory at `path`, in the order the file system lists them.
  public static func entries(of path: String) throws(FileError) -> [Entry] {
    guard let dir = withCPath(path, { opendir($0) }) else { throw FileError(path: path, errno: errno) }
    defer { closedir(dir) }
    var result: [Entry] = []
    while let entry = readdir(dir) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw -> String in
        let bytes = raw.bindMemory(to: UInt8.self)
        let n = bytes.firstIndex(of: 0) ?? bytes.count
        return Self.name(UnsafeBufferPointer(rebasing: bytes[0..<n]))
      }
      if name == "." || name == ".." { continue }
      let kind: FileKind
      switch Int32(entry.pointee.d_type) {
      case Int32(DT_REG): kind = .regular
      case Int32(DT_DIR): kind = .directory
      case Int32(DT_LNK): kind = .symbolicLink
      case Int32(DT_UNKNOWN): kind = Self.kind(of: path.hasSuffix("/") ? path + name : path + "/" + name) ?? .other
      default: kind = .other
      }
      result.append(Entry(name: name, kind: kind))
    }
    return result
  }

  /// What `path` names (without following a final symbolic link when `followLinks` is false), or
  /// nil when it does not exist or cannot be examined.
  public static func kind(of path: String, followLinks: Bool = false) -> FileKind? {
    var info = stat()
    let status = withCPath(path) { followLinks ? stat($0, &info) : lstat($0, &info) }
    guard status == 0 else { return nil }
    switch info.st_mode & S_IFMT {
    case S_IFREG: return .regular
    case S_IFDIR: return .directory
    case S_IFLNK: return .symbolicLink
    default: return .other
    }
  }

  /// What the symbolic link `path` leads to, or why it leads nowhere (a broken link, a loop of
  /// links: `ELOOP`).
  public static func target(of path: String) -> Result<FileKind, FileError> {
    var info = stat()
    guard withCPath(path, { stat($0, &info) }) == 0 else { return .failure(FileError(path: path, errno: errno)) }
    switch info.st_mode & S_IFMT {
    case S_IFREG: return .success(.regular)
    case S_IFDIR: return .success(.directory)
    default: return .success(.other)
    }
  }

  /// The device and inode of what `path` names (symbolic links followed), or nil: tells one
  /// directory reached twice through links.
  public static func identity(of path: String) -> [UInt64]? {
    var info = stat()
    guard withCPath(path, { stat($0, &info) }) == 0 else { return nil }
    return [UInt64(info.st_dev), UInt64(info.st_ino)]
  }

  /// The absolute path of `path` with every symbolic link resolved (`realpath`), or nil.
  public static func realPath(_ path: String) -> String? {
    guard let resolved = withCPath(path, { realpath($0, nil) }) else { return nil }
    defer { free(resolved) }
    return name(
      UnsafeBufferPointer(
        start: UnsafeRawPointer(resolved).assumingMemoryBound(to: UInt8.self), count: strlen(resolved)))
  }

  /// The current directory, or nil when it cannot be known.
  /// The environment variable `name`, or nil when it is not set.
  public static func environment(_ name: String) -> String? {
    guard let value = getenv(name) else { return nil }
    return String(cString: value)
  }

  public static func currentDirectory() -> String? {
    var buffer = [CChar](repeating: 0, count: 4096)
    guard getcwd(&buffer, buffer.count) != nil else { return nil }
    return name(buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) })
  }

  /// Whether standard input is a terminal.
  public static var standardInputIsTerminal: Bool { isatty(0) != 0 }

  /// Whether standard input holds something to read when no path is given: a regular file, a pipe
  /// or a socket, as ripgrep decides (`is_readable_stdin`). A terminal, `/dev/null` or another
  /// device (what cron, editors' task runners and `subprocess` with DEVNULL give a process) is
  /// not input: the current directory is searched instead.
  public static var standardInputIsReadable: Bool {
    guard isatty(0) == 0 else { return false }
    var info = stat()
    guard fstat(0, &info) == 0 else { return false }
    let kind = info.st_mode & S_IFMT
    return kind == S_IFREG || kind == S_IFIFO || kind == S_IFSOCK
  }

  /// The file at `path` if it is a regular file: mapped, to be searched whole. Anything else (a
  /// pipe, a character device, standard input as `-`) is opened as a ``ByteStream``, so an endless
  /// input is read in bounded memory.
  public static func open(_ path: String) throws(FileError) -> Input {
    if path == "-" {
      var info = stat()
      if fstat(0, &info) == 0 && info.st_mode & S_IFMT == S_IFREG {
        return .whole(try ByteStorage.contentsOf(path: "-"))
      }
      return .stream(ByteStream(fd: 0, path: "<stdin>", owned: false))
    }
    // Opened first and examined through the descriptor: one stat a file, not two (a walk of
    // 20,000 small files made 34,000 stat calls).
    let fd = withCPath(path) { Glibc.open($0, O_RDONLY | O_CLOEXEC) }
    if fd < 0 { throw FileError(path: path, errno: errno) }
    var info = stat()
    if fstat(fd, &info) != 0 {
      let code = errno
      close(fd)
      throw FileError(path: path, errno: code)
    }
    switch info.st_mode & S_IFMT {
    case S_IFREG:
      defer { close(fd) }
      return .whole(try ByteStorage.contentsOf(fd: fd, info: info, path: path, mapAtLeast: 1 << 20))
    case S_IFDIR:
      close(fd)
      throw FileError(path: path, reason: .isDirectory)
    default:
      return .stream(ByteStream(fd: fd, path: path, owned: true))
    }
  }

  /// An opened input: a whole (mapped) file, or a stream read piece by piece.
  public enum Input {
    case whole(ByteStorage)
    case stream(ByteStream)
  }
}

/// Bytes read a piece at a time: a ``ByteStream``, or UTF-16 text read as UTF-8
/// (``UTF16Transcoder``).
public protocol ByteSource: AnyObject {
  /// Appends up to about `maximum` bytes to `buffer`; returns how many (0 at the end of the input).
  func read(into buffer: inout [UInt8], maximum: Int) throws(FileError) -> Int
  /// Whether a read would return at once.
  var hasDataReady: Bool { get }
}

/// A pipe, device or standard input, read in pieces.
public final class ByteStream: ByteSource {
  private let fd: Int32
  public let path: String
  private let owned: Bool

  init(fd: Int32, path: String, owned: Bool) {
    self.fd = fd
    self.path = path
    self.owned = owned
  }

  deinit { if owned { close(fd) } }

  private var scratch: [UInt8] = []

  /// Appends up to `maximum` bytes to `buffer`; returns how many (0 at the end of the input).
  public func read(into buffer: inout [UInt8], maximum: Int) throws(FileError) -> Int {
    if scratch.count < maximum { scratch = [UInt8](repeating: 0, count: maximum) }
    while true {
      let n = scratch.withUnsafeMutableBytes { raw in Glibc.read(fd, raw.baseAddress!, maximum) }
      if n < 0 {
        if errno == EINTR { continue }
        throw FileError(path: path, errno: errno)
      }
      buffer.append(contentsOf: scratch[0..<n])
      return n
    }
  }

  /// Whether a read would return at once (bytes are waiting, or the input has ended): false while
  /// the writer of a pipe has sent nothing more yet.
  public var hasDataReady: Bool {
    var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    while true {
      let n = poll(&descriptor, 1, 0)
      if n < 0 && errno == EINTR { continue }
      return n != 0
    }
  }
}

/// UTF-16 text with a byte order mark (`FF FE` little-endian, `FE FF` big-endian) read as UTF-8, a
/// piece at a time, as ripgrep reads such files: the mark is dropped, a surrogate pair becomes one
/// 4-byte sequence (also when a read splits it), and an unpaired surrogate or a final odd byte
/// becomes U+FFFD. Memory stays bounded whatever the input's size.
public final class UTF16Transcoder: ByteSource {
  /// Where the UTF-16 bytes come from after `pending`.
  private let source: ByteSource?
  /// UTF-16 bytes not transcoded yet (a file's whole mapped bytes are given as a storage instead).
  private var pending: [UInt8]
  private var storage: ByteStorage?
  private var storageOffset = 0
  private let bigEndian: Bool
  private var atEnd = false
  /// A high surrogate waiting for its low half.
  private var high: UInt32? = nil

  /// Whether `bytes` starts with a UTF-16 byte order mark: true for big-endian, false for
  /// little-endian, nil for none.
  public static func byteOrder(_ bytes: some Collection<UInt8>) -> Bool? {
    var i = bytes.makeIterator()
    guard let a = i.next(), let b = i.next() else { return nil }
    if a == 0xFF && b == 0xFE { return false }
    if a == 0xFE && b == 0xFF { return true }
    return nil
  }

  /// The UTF-16 text in `bytes` (which starts with its mark).
  public init(_ bytes: ByteStorage) {
    bigEndian = Self.byteOrder(bytes.copyBytes(0..<Swift.min(2, bytes.count))) == true
    storage = bytes
    storageOffset = 2
    pending = []
    source = nil
  }

  /// The UTF-16 text of `first` (which starts with its mark), then of what `source` reads.
  public init(first: [UInt8], then source: ByteSource) {
    bigEndian = Self.byteOrder(first) == true
    pending = Array(first.dropFirst(2))
    self.source = source
  }

  public var hasDataReady: Bool { !pending.isEmpty || storage != nil || (source?.hasDataReady ?? true) }

  public func read(into buffer: inout [UInt8], maximum: Int) throws(FileError) -> Int {
    let before = buffer.count
    // 0 only at the end: a read that made no UTF-8 yet (half a unit, a lone high surrogate) reads on.
    repeat { try transcode(into: &buffer, maximum: maximum) } while buffer.count == before && !atEnd
    return buffer.count - before
  }

  private func transcode(into buffer: inout [UInt8], maximum: Int) throws(FileError) {
    // UTF-16 in: at most about `maximum` bytes of it (UTF-8 out is at most 1.5 times that).
    let want = Swift.max(2, maximum / 2 * 2)
    if let storage, pending.isEmpty {
      // A mapped file: transcoded where it lies, no copy.
      var end = Swift.min(storage.count, storageOffset + want)
      if end == storage.count {
        self.storage = nil
        atEnd = true
        // A final odd byte is left for the end's U+FFFD.
        if (end - storageOffset) % 2 == 1 {
          end -= 1
          pending = [storage[end]]
        }
      }
      let from = storageOffset
      storageOffset = end
      storage.withUnsafeBytes { all in
        _ = transcode(UnsafeBufferPointer(rebasing: all[from..<end]), into: &buffer)
      }
      finishIfAtEnd(&buffer)
      return
    }
    var readOnce = false
    while pending.count < want && !atEnd {
      if let storage {
        let end = Swift.min(storage.count, storageOffset + want - pending.count)
        pending += storage.copyBytes(storageOffset..<end)
        storageOffset = end
        if end == storage.count {
          self.storage = nil
          atEnd = true
        }
      } else if let source {
        // A pipe's writer may pause: read what has come (at least once), transcode it.
        if readOnce && !source.hasDataReady { break }
        if try source.read(into: &pending, maximum: want - pending.count) == 0 { atEnd = true }
        readOnce = true
      } else {
        atEnd = true
      }
    }
    let consumed = pending.withUnsafeBufferPointer { transcode($0, into: &buffer) }
    pending.removeFirst(consumed)
    finishIfAtEnd(&buffer)
  }

  /// At the end: a high surrogate still waiting, or a final odd byte, is one U+FFFD each.
  private func finishIfAtEnd(_ buffer: inout [UInt8]) {
    guard atEnd else { return }
    if high != nil {
      high = nil
      Self.append(0xFFFD, to: &buffer)
    }
    if !pending.isEmpty {
      pending.removeAll()
      Self.append(0xFFFD, to: &buffer)
    }
  }

  /// Appends the UTF-8 of `input`'s whole code units to `buffer`; returns the bytes consumed (the
  /// units': an odd last byte is left).
  private func transcode(_ input: UnsafeBufferPointer<UInt8>, into buffer: inout [UInt8]) -> Int {
    let units = input.count / 2
    guard units > 0 else { return 0 }
    let start = buffer.count
    // At most 3 bytes a unit (a pair's 4 bytes are 2 a unit), and one U+FFFD for a waiting surrogate.
    buffer.append(contentsOf: repeatElement(0, count: units * 3 + 3))
    let big = bigEndian
    var high = self.high
    var w = start
    buffer.withUnsafeMutableBufferPointer { out in
      func put(_ scalar: UInt32) {
        switch scalar {
        case 0..<0x80:
          out[w] = UInt8(scalar)
          w += 1
        case 0x80..<0x800:
          out[w] = UInt8(0xC0 | scalar >> 6)
          out[w + 1] = UInt8(0x80 | scalar & 0x3F)
          w += 2
        case 0x800..<0x10000:
          out[w] = UInt8(0xE0 | scalar >> 12)
          out[w + 1] = UInt8(0x80 | scalar >> 6 & 0x3F)
          out[w + 2] = UInt8(0x80 | scalar & 0x3F)
          w += 3
        default:
          out[w] = UInt8(0xF0 | scalar >> 18)
          out[w + 1] = UInt8(0x80 | scalar >> 12 & 0x3F)
          out[w + 2] = UInt8(0x80 | scalar >> 6 & 0x3F)
          out[w + 3] = UInt8(0x80 | scalar & 0x3F)
          w += 4
        }
      }
      var k = 0
      while k < units {
        let a = UInt32(input[2 &* k])
        let b = UInt32(input[2 &* k &+ 1])
        let unit = big ? a << 8 | b : b << 8 | a
        k &+= 1
        if unit < 0x80 && high == nil {
          out[w] = UInt8(truncatingIfNeeded: unit)
          w &+= 1
          continue
        }
        if let h = high {
          high = nil
          if unit >= 0xDC00 && unit <= 0xDFFF {
            put(0x10000 + ((h - 0xD800) << 10) + (unit - 0xDC00))
            continue
          }
          put(0xFFFD)
        }
        if unit >= 0xD800 && unit <= 0xDBFF {
          high = unit
        } else {
          put(unit >= 0xDC00 && unit <= 0xDFFF ? 0xFFFD : unit)
        }
      }
    }
    self.high = high
    buffer.removeLast(buffer.count - w)
    return units * 2
  }

  private static func append(_ scalar: UInt32, to buffer: inout [UInt8]) {
    switch scalar {
    case 0..<0x80: buffer.append(UInt8(scalar))
    case 0x80..<0x800:
      buffer.append(UInt8(0xC0 | scalar >> 6))
      buffer.append(UInt8(0x80 | scalar & 0x3F))
    case 0x800..<0x10000:
      buffer.append(UInt8(0xE0 | scalar >> 12))
      buffer.append(UInt8(0x80 | scalar >> 6 & 0x3F))
      buffer.append(UInt8(0x80 | scalar & 0x3F))
    default:
      buffer.append(UInt8(0xF0 | scalar >> 18))
      buffer.append(UInt8(0x80 | scalar >> 12 & 0x3F))
      buffer.append(UInt8(0x80 | scalar >> 6 & 0x3F))
      buffer.append(UInt8(0x80 | scalar & 0x3F))
    }
  }
}
