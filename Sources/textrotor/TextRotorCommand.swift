import ArgumentParser

@main
struct TextRotorCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "textrotor",
    abstract: "Rotor entries (characters, words, sentences, lines, paragraphs, matches) for large texts.",
    subcommands: [SegmentCommand.self]
  )
}
