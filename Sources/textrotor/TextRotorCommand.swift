import ArgumentParser
import Glibc
import TextRotor

@main
struct TextRotorCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "textrotor",
    abstract: "Rotor entries (characters, words, sentences, lines, paragraphs, matches) for large texts.",
    discussion: "Exit status: 0 something found or printed, 1 nothing found, 2 an error.",
    subcommands: [SegmentCommand.self, FindCommand.self, NextCommand.self, PrevCommand.self, StatsCommand.self]
  )

  /// The command line's arguments (without the program's name), each read as a file name is
  /// (``FileSystem/name(_:)``): a path that is not valid UTF-8 (`café.txt` in Latin-1) then opens;
  /// a pattern that is not (``PatternText/invalidUTF8(_:)``) is refused, as rg refuses it.
  /// `CommandLine.arguments` would have put U+FFFD in their place.
  static var rawArguments: [String] {
    (1..<Int(CommandLine.argc)).map { k in
      guard let argument = CommandLine.unsafeArgv[k] else { return "" }
      return FileSystem.name(
        UnsafeBufferPointer(
          start: UnsafeRawPointer(argument).assumingMemoryBound(to: UInt8.self), count: strlen(argument)))
    }
  }

  /// Runs the command; exits as grep does: 0 found, 1 nothing found, 2 error (usage errors too).
  static func main() {
    let status: Int32
    do {
      let arguments = FindCommand.lastFlagsWin(FindCommand.splitAttachedValues(AttachedValues.split(Self.rawArguments)))
      // An everyday `find` line skips the parser (its tables cost most of a short run's start);
      // the parser reads everything else, and reports every error.
      if let options = FindOptions.fastParse(arguments) {
        status = options.run()
        StandardOutput.shared.flush()
        Glibc.exit(status)
      }
      // `segment` parsed alone: the parser then reflects on its own options only, not on every
      // command's (most of a short run's start). Anything it does not accept (help, a usage
      // error) goes through the whole parser below, which prints what it always prints.
      // An everyday `segment` line skips the parser too (its reflection is most of a short run's
      // start, and a serial step before any work can go to a second core).
      if let options = SegmentOptions.fastParse(arguments) {
        if options.threads > 1, let rotor = options.by.rotor { Segmenter.prepare(rotor, locale: options.locale) }
        status = options.run()
        StandardOutput.shared.flush()
        Glibc.exit(status)
      }
      if arguments.first == "segment" { SegmentCommand.prepareRules(arguments) }
      if arguments.first == "segment",
        var segment = (try? SegmentCommand.parseAsRoot(Array(arguments.dropFirst()))) as? SegmentCommand
      {
        status = segment.runWithStatus()
        StandardOutput.shared.flush()
        Glibc.exit(status)
      }
      var command = try parseAsRoot(arguments)
      if var exiting = command as? any ExitStatusCommand {
        status = exiting.runWithStatus()
      } else {
        try command.run()
        status = 0
      }
    } catch {
      let code = exitCode(for: error)
      if code == .success {
        StandardOutput.shared.write(fullMessage(for: error) + "\n")
        status = 0
      } else {
        let message = fullMessage(for: error)
        if !message.isEmpty { StandardOutput.error(message) }
        status = 2
      }
    }
    StandardOutput.shared.flush()
    Glibc.exit(status)
  }
}

/// A command that reports grep's exit status itself instead of throwing.
protocol ExitStatusCommand: ParsableCommand {
  mutating func runWithStatus() -> Int32
}

extension ExitStatusCommand {
  mutating func run() throws {
    let status = runWithStatus()
    if status != 0 { throw ExitCode(status) }
  }
}
