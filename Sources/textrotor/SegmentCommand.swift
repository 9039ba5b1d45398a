import ArgumentParser
import TextRotor

struct SegmentCommand: ParsableCommand {
  static let configuration = CommandConfiguration(commandName: "segment", abstract: "Segment files.")
  @Argument var files: [String]
  func run() throws {}
}
