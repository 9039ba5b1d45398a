import Glibc

/// What a path names, as `lstat` (or a directory entry's type) says.
public enum FileKind: Sendable, Equatable {
  case regular, directory, symbolicLink, other
}

/// Directory listings and file kinds, without Foundation: `opendir`/`readdir` and `stat`.
public enum FileSystem {
  /// One entry of a directory listing (never `.` or `..`).
  public struct Entry: Sendable, Equatable {
    public var name: String
    public var kind: FileKind
  }

  /// The entries of the directory at `path`, in the order the file system lists them.
  public static func entries(of path: String) throws(FileError) -> [Entry] {
    guard let dir = opendir(path) else { throw FileError(path: path, errno: errno) }
    defer { closedir(dir) }
    var result: [Entry] = []
    while let entry = readdir(dir) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw -> String in
        let bytes = raw.bindMemory(to: UInt8.self)
        let n = bytes.firstIndex(of: 0) ?? bytes.count
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[0..<n]), as: UTF8.self)
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
    let status = followLinks ? stat(path, &info) : lstat(path, &info)
    guard status == 0 else { return nil }
    switch info.st_mode & S_IFMT {
    case S_IFREG: return .regular
    case S_IFDIR: return .directory
    case S_IFLNK: return .symbolicLink
    default: return .other
    }
  }

  /// The device and inode of what `path` names (symbolic links followed), or nil: tells one
  /// directory reached twice through links.
  public static func identity(of path: String) -> [UInt64]? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return [UInt64(info.st_dev), UInt64(info.st_ino)]
  }

  /// The absolute path of `path` with every symbolic link resolved (`realpath`), or nil.
  public static func realPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }

  /// The current directory, or nil when it cannot be known.
  public static func currentDirectory() -> String? {
    var buffer = [CChar](repeating: 0, count: 4096)
    guard getcwd(&buffer, buffer.count) != nil else { return nil }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
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
    let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
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

/// A pipe, device or standard input, read in pieces.
public final class ByteStream {
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
