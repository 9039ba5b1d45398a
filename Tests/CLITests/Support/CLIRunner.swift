import Foundation
import Testing

/// Runs the built `textrotor` binary as a process, as a user would.
struct CLIResult {
  var status: Int32
  var stdout: String
  var stderr: String
  /// Standard output's bytes as written (`stdout` is their UTF-8 reading).
  var stdoutData = Data()
  var lines: [String] { stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) }
}

enum CLI {
  /// KiB added to the peak-memory bounds of the bounded-memory tests when the binary runs under a
  /// sanitizer (Scripts/sanitize sets TEXTROTOR_SANITIZER_MEMORY_SLACK_KB): ASan keeps up to 256 MB
  /// of freed memory in quarantine and both sanitizers add shadow memory, so their resident sizes
  /// say nothing about textrotor's own; the bound still catches a process that grows without end.
  static let sanitizerMemorySlackKB: Int = {
    guard let text = ProcessInfo.processInfo.environment["TEXTROTOR_SANITIZER_MEMORY_SLACK_KB"] else { return 0 }
    return Int(text) ?? 0
  }()

  /// The package root, found from this file's path.
  static let packageRoot: URL = {
    var url = URL(fileURLWithPath: #filePath)
    while url.path != "/" {
      url.deleteLastPathComponent()
      if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
    }
    fatalError("no Package.swift above \(#filePath)")
  }()

  /// The `textrotor` executable built next to this test bundle (`swift build` builds it), or the one
  /// `TEXTROTOR_BIN` names (to run the CLI tests against the release build of `Scripts/build-release`).
  static let executable: URL = {
    if let path = ProcessInfo.processInfo.environment["TEXTROTOR_BIN"], !path.isEmpty {
      return URL(fileURLWithPath: path)
    }
    var dir = Bundle.main.bundleURL
    for _ in 0..<4 {
      let candidate = dir.appendingPathComponent("textrotor")
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
      dir.deleteLastPathComponent()
    }
    // Fall back to the default debug build folder.
    return packageRoot.appendingPathComponent(".build/debug/textrotor")
  }()

  static func corpus(_ name: String) -> String { packageRoot.appendingPathComponent("Corpora/\(name)").path }

  /// Runs `textrotor arguments...`, feeding `stdin` if given.
  static func run(_ arguments: [String], stdin: Data? = nil, environment: [String: String] = [:]) throws -> CLIResult {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.currentDirectoryURL = packageRoot
    var env = ProcessInfo.processInfo.environment
    for (k, v) in environment { env[k] = v }
    process.environment = env
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    let input = Pipe()
    process.standardInput = input
    try process.run()
    // Written on another thread while the output is read: a process that prints more than a pipe
    // holds before it has read all of its input would otherwise wait on us as we wait on it.
    let writer = DispatchGroup()
    let writing = input.fileHandleForWriting
    writer.enter()
    DispatchQueue.global().async {
      if let stdin { writing.write(stdin) }
      try? writing.close()
      writer.leave()
    }
    let (outData, errData) = readToEnd(out, err)
    writer.wait()
    process.waitUntilExit()
    return CLIResult(
      status: process.terminationStatus,
      stdout: String(decoding: outData, as: UTF8.self),
      stderr: String(decoding: errData, as: UTF8.self))
  }

  /// Runs `executable arguments` (textrotor or rg) in `directory` with `input` as standard input
  /// (a file, `/dev/null`, a pipe): what it printed and its exit status.
  static func runProcess(
    _ executable: String, _ arguments: [String], in directory: String, input: FileHandle = FileHandle.nullDevice
  ) throws -> CLIResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.currentDirectoryURL = URL(fileURLWithPath: directory)
    process.standardInput = input
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let (o, e) = readToEnd(out, err)
    process.waitUntilExit()
    return CLIResult(
      status: process.terminationStatus, stdout: String(decoding: o, as: UTF8.self),
      stderr: String(decoding: e, as: UTF8.self), stdoutData: o)
  }

  /// A temporary file holding `bytes`, removed by the caller.
  static func temporaryFile(_ bytes: [UInt8], suffix: String = ".txt") throws -> String {
    let path = NSTemporaryDirectory() + "textrotor-\(UUID().uuidString)\(suffix)"
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return path
  }

  /// Parses one JSON Lines object, keeping key order.
  static func jsonObject(_ line: String) throws -> [String: Any] {
    let value = try JSONSerialization.jsonObject(with: Data(line.utf8))
    guard let object = value as? [String: Any] else { throw CLIError.notAnObject(line) }
    return object
  }

  /// The keys of a JSON object in the order they appear in the text (top level only).
  static func keyOrder(_ line: String) -> [String] {
    var keys: [String] = []
    var depth = 0
    var inString = false
    var escaped = false
    var current = ""
    var expectingKey = false
    for ch in line {
      if inString {
        if escaped {
          escaped = false
          current.append(ch)
        } else if ch == "\\" {
          escaped = true
        } else if ch == "\"" {
          inString = false
          if expectingKey && depth == 1 { keys.append(current) }
          expectingKey = false
        } else {
          current.append(ch)
        }
        continue
      }
      switch ch {
      case "{", "[":
        depth += 1
        expectingKey = ch == "{" && depth == 1
      case "}", "]": depth -= 1
      case ",": expectingKey = depth == 1 && !line.isEmpty
      case "\"":
        inString = true
        current = ""
      default: break
      }
    }
    return keys
  }
}

enum CLIError: Error { case notAnObject(String) }

/// Reads `out` and `err` to their ends at the same time (the error pipe on another thread), so
/// that a child filling one pipe cannot block while the other is read.
func readToEnd(_ out: Pipe, _ err: Pipe) -> (Data, Data) {
  nonisolated(unsafe) var errData = Data()
  let group = DispatchGroup()
  group.enter()
  DispatchQueue.global().async {
    errData = err.fileHandleForReading.readDataToEndOfFile()
    group.leave()
  }
  let outData = out.fileHandleForReading.readDataToEndOfFile()
  group.wait()
  return (outData, errData)
}
