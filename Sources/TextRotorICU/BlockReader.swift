import Glibc

/// Standard input, a FIFO or a device read in blocks, so that an endless or huge stream is
/// processed in bounded memory. `nextBlock` hands out the bytes read so far up to a cut point the
/// caller chooses (a line break, say); the rest waits for the next block.
public final class BlockReader {
  private let fd: Int32
  private let ownsDescriptor: Bool
  public let path: String
  /// The bytes read and not yet handed out: `buffer[0..<buffered]`, `capacity` allocated.
  private var buffer: UnsafeMutableRawPointer
  private var buffered = 0
  private var capacity = 1 << 16
  private var atEnd = false
  /// Bytes handed out so far: the file offset of the next block.
  public private(set) var offset = 0

  private init(fd: Int32, path: String, ownsDescriptor: Bool) {
    self.fd = fd
    self.path = path
    self.ownsDescriptor = ownsDescriptor
    self.buffer = malloc(capacity)!
  }

  deinit {
    free(buffer)
    if ownsDescriptor { close(fd) }
  }

  /// A stream for `path` when it is standard input (`-`), a FIFO, a socket or a device; nil for a
  /// regular file (map it with ``ByteStorage/contentsOf(path:)``) or a directory (whose error that
  /// reports).
  public static func open(path: String) throws(FileError) -> BlockReader? {
    if path == "-" {
      var info = stat()
      if fstat(0, &info) == 0 && info.st_mode & S_IFMT == S_IFREG { return nil }
      return BlockReader(fd: 0, path: "<stdin>", ownsDescriptor: false)
    }
    var info = stat()
    if FileSystem.withCPath(path, { stat($0, &info) }) != 0 { throw FileError(path: path, errno: errno) }
    let type = info.st_mode & S_IFMT
    if type == S_IFREG || type == S_IFDIR { return nil }
    let fd = FileSystem.withCPath(path) { Glibc.open($0, O_RDONLY | O_CLOEXEC) }
    if fd < 0 { throw FileError(path: path, errno: errno) }
    return BlockReader(fd: fd, path: path, ownsDescriptor: true)
  }

  /// The next block: reads at least `blockSize` more bytes (or to the end), then asks `cut` where
  /// the block may end (given the bytes buffered and whether the input has ended; nil: nowhere
  /// yet). Reads on while `cut` finds no place, until `maximum` bytes are buffered: then throws
  /// ``FileError/Reason/tooLong``, which says it found no `what` to cut at. Returns nil at the end
  /// of the input.
  ///
  /// `whenIdle`: the reading also stops, short of `blockSize`, once the writer of a pipe has sent
  /// nothing more for now (after at least one read), so that what is certain of a slow input is
  /// handed out at once (`tail -f log | textrotor segment --by word -`); the block still ends where
  /// `cut` says, and without a place to cut the reading goes on.
  public func nextBlock(
    blockSize: Int = 8 << 20, maximum: Int = 64 << 20, whenIdle: Bool = false, cutting what: String = "line break",
    cut: (ByteStorage, _ atEnd: Bool) -> Int?
  ) throws(FileError) -> ByteStorage? {
    while true {
      try fill(buffered + blockSize, whenIdle: whenIdle)
      if buffered == 0 && atEnd { return nil }
      if atEnd {
        let storage = ByteStorage(copying: UnsafeRawBufferPointer(start: buffer, count: buffered))
        offset += buffered
        buffered = 0
        return storage
      }
      // The cut is looked for in the buffer itself: a copy of all that is buffered, made at every
      // read of a slow writer (`whenIdle`) that sends no place to cut, took memory and time growing
      // as the square of the bytes buffered (1.6 GB for 60 MB without a line break).
      if let c = cut(ByteStorage.borrowing(buffer, count: buffered), false), c > 0 {
        let block = ByteStorage(copying: UnsafeRawBufferPointer(start: buffer, count: c))
        memmove(buffer, buffer + c, buffered - c)
        buffered -= c
        offset += c
        return block
      }
      if buffered >= maximum { throw FileError(path: path, reason: .tooLong(maximum, what: what)) }
    }
  }

  /// Reads until `target` bytes are buffered or the input ends; with `whenIdle`, also stops after a
  /// read once no more bytes are waiting.
  private func fill(_ target: Int, whenIdle: Bool) throws(FileError) {
    if target > capacity {
      capacity = max(target, capacity * 2)
      buffer = realloc(buffer, capacity)!
    }
    while !atEnd && buffered < target {
      let n = read(fd, buffer + buffered, target - buffered)
      if n == 0 {
        atEnd = true
      } else if n < 0 {
        if errno == EINTR { continue }
        throw FileError(path: path, errno: errno)
      } else {
        buffered += n
        if whenIdle && !hasBytesWaiting { return }
      }
    }
  }

  /// Whether a read would return at once (bytes are waiting, or the input has ended): false while
  /// the writer of a pipe has sent nothing more yet.
  private var hasBytesWaiting: Bool {
    var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    while true {
      let n = poll(&descriptor, 1, 0)
      if n < 0 && errno == EINTR { continue }
      return n != 0
    }
  }
}
