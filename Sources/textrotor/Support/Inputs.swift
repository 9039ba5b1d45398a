import TextRotor

/// Runs a command over its FILE arguments as grep does: a file that cannot be read is reported on
/// stderr (naming it and the reason) and the others are still processed.
struct Inputs {
  /// What a command found in one file.
  enum Outcome {
    case found
    case nothingFound
  }

  let paths: [String]
  /// Whether to scan each whole file for invalid UTF-8 (and warn where it starts).
  var validateUTF8 = true
  /// Threads the scan for invalid UTF-8 uses (a command's `--threads`).
  var threads = Segmenter.availableCores

  init(paths: [String], validateUTF8: Bool = true, threads: Int = Segmenter.availableCores) {
    self.paths = paths
    self.validateUTF8 = validateUTF8
    self.threads = threads
  }

  /// Writes a count, after the file's name (its bytes, as ripgrep prints a name that is not UTF-8)
  /// when there are several files.
  static func writeCount(_ n: Int, of name: String, several: Bool) {
    if several {
      StandardOutput.shared.write(bytes: FileSystem.bytes(of: name))
      StandardOutput.shared.write(":")
    }
    StandardOutput.shared.write("\(n)\n")
  }

  /// The name a path is shown as: standard input is `<stdin>`, as ripgrep shows it.
  static func displayName(_ path: String) -> String { path == "-" ? "<stdin>" : path }

  /// Calls `body` for each readable file; returns the exit status: 0 something found, 1 nothing,
  /// 2 an error in any file.
  ///
  /// With `streamed`, standard input, FIFOs and devices are handed to it as a ``BlockReader`` (read
  /// in blocks, in bounded memory) instead of being read whole.
  func run(
    streamed: ((_ name: String, _ stream: BlockReader) throws -> Outcome)? = nil,
    _ body: (_ name: String, _ bytes: ByteStorage) throws -> Outcome
  ) -> Int32 {
    var found = false
    var failed = false
    for path in paths {
      // A name that is not UTF-8 keeps its bytes (``FileSystem/name(_:)``): printed as they are
      // (``writeCount(_:of:several:)``, ``EntryPrinter``), as U+FFFD in JSON and messages.
      let name = Self.displayName(path)
      do {
        if let streamed, let stream = try BlockReader.open(path: path) {
          if try streamed(name, stream) == .found { found = true }
          continue
        }
        let bytes = try ByteStorage.contentsOf(path: path)
        if validateUTF8 { Self.warnIfInvalidUTF8(bytes, name: name, threads: threads) }
        if try body(name, bytes) == .found { found = true }
        if bytes.shrankWhileReading {
          StandardOutput.shared.flush()
          StandardOutput.error(FileError(path: name, reason: .changedWhileReading).description)
          failed = true
        }
      } catch let error as FileError {
        StandardOutput.shared.flush()
        StandardOutput.error(error.description)
        failed = true
      } catch {
        StandardOutput.shared.flush()
        StandardOutput.error("\(FileSystem.displayName(name)): \(error)")
        failed = true
      }
    }
    StandardOutput.shared.flush()
    return failed ? 2 : (found ? 0 : 1)
  }

  /// Invalid UTF-8 is read as U+FFFD (offsets stay the file's); say where it starts.
  static func warnIfInvalidUTF8(_ bytes: ByteStorage, name: String, threads: Int = Segmenter.availableCores) {
    if let bad = TextFacts.firstInvalidUTF8(bytes, threads: threads) { warnInvalidUTF8(at: bad, in: bytes, name: name) }
  }

  /// The warning for ill-formed UTF-8 first found at `bad`.
  static func warnInvalidUTF8(at bad: Int, in bytes: ByteStorage, name: String) {
    StandardOutput.error(
      invalidUTF8Warning(at: bad, byte: bytes[bad], name: name, secondByte: bytes.count > 1 ? bytes[1] : nil))
  }

  /// "invalid UTF-8 at byte N (0xXX)", or, at byte 0 of UTF-16 text (its byte order mark), that
  /// the text is UTF-16, which only `find` reads (offsets here are the file's UTF-8 bytes).
  static func invalidUTF8Warning(at bad: Int, byte: UInt8, name: String, secondByte: UInt8? = nil) -> String {
    let name = FileSystem.displayName(name)
    if bad == 0, let second = secondByte, UTF16Transcoder.byteOrder([byte, second]) != nil {
      return
        "\(name): UTF-16 text (byte order mark \(byte == 0xFF ? "FF FE" : "FE FF")), read here as UTF-8: every "
        + "other byte is U+0000 or ill-formed; convert it first (iconv -f UTF-16 -t UTF-8), or search it with find, "
        + "which reads UTF-16"
    }
    return
      "\(name): invalid UTF-8 at byte \(bad) (0x\(String(byte, radix: 16, uppercase: true))); such bytes are read as U+FFFD"
  }
}
