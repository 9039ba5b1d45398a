import TextRotorICU

/// The rotors textrotor computes from the text itself.
public enum SystemRotor: String, CaseIterable, Sendable, Hashable, CustomStringConvertible {
  /// Extended grapheme clusters (UAX #29).
  case characters
  /// UAX #29 word segments: words, and the spaces and punctuation between them (their
  /// ``SegmentStatus`` tells which).
  case words
  /// UAX #29 sentences.
  case sentences
  /// Hard lines, ended by LF, CRLF or CR (as LSP counts lines); the terminator is not part of the
  /// entry. An empty line is an empty entry; nothing follows a final terminator.
  case lines
  /// Runs of non-blank lines separated by blank lines (empty, or only spaces and tabs).
  case paragraphs
  /// The segments between UAX #14 line-break opportunities (where text may wrap).
  case linebreaks

  public var description: String { rawValue }

  /// The ICU break iterator behind the rotor, if any.
  var breakKind: BreakKind? {
    switch self {
    case .characters: .character
    case .words: .word
    case .sentences: .sentence
    case .linebreaks: .line
    case .lines, .paragraphs: nil
    }
  }

  /// How the rotor's segments are encoded: one byte for a short segment.
  var chunkLayout: SegmentStore.Chunk.Layout {
    switch self {
    case .characters, .sentences: .plain
    case .words, .linebreaks: .status
    case .lines, .paragraphs: .general
    }
  }

  /// Whether the rotor's segments cover each element's text exactly.
  public var coversText: Bool { breakKind != nil }
}
