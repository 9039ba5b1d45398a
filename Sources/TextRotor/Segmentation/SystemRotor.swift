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
  /// entry. An empty line is an empty entry; nothing follows a final terminator. In a document of
  /// several elements (a file's lines read as elements), an empty element is an empty line; a lone
  /// empty element is an empty text, with no line.
  case lines
  /// Runs of non-blank lines separated by blank lines (empty, or only spaces and tabs).
  case paragraphs
  /// The segments between UAX #14 line-break opportunities (where text may wrap).
  case linebreaks
  /// Sentences of hard-wrapped prose: UAX #29 sentences of the text in which a single line break
  /// inside a paragraph (between two non-blank lines) reads as a space, so a text wrapped at 72
  /// columns gives the sentences a reader expects; blank lines still end a sentence. Offsets are
  /// those of the text (a line feed and a space are both one byte). On text without hard wraps,
  /// identical to ``sentences``.
  case proseSentences

  public var description: String { rawValue }

  /// Hashes the case, not its name (a raw-value enum would hash the string).
  public func hash(into hasher: inout Hasher) { hasher.combine(ordinal) }

  /// The case's position in ``allCases``: a document's slot for the rotor's index.
  var ordinal: Int {
    switch self {
    case .characters: 0
    case .words: 1
    case .sentences: 2
    case .lines: 3
    case .paragraphs: 4
    case .linebreaks: 5
    case .proseSentences: 6
    }
  }

  /// The ICU break iterator behind the rotor, if any.
  var breakKind: BreakKind? {
    switch self {
    case .characters: .character
    case .words: .word
    case .sentences, .proseSentences: .sentence
    case .linebreaks: .line
    case .lines, .paragraphs: nil
    }
  }

  /// How the rotor's segments are encoded: one byte for a short segment.
  var chunkLayout: SegmentStore.Chunk.Layout {
    switch self {
    case .characters, .sentences, .proseSentences: .plain
    case .words, .linebreaks: .status
    case .lines, .paragraphs: .general
    }
  }

  /// Whether a segment may cross a single line break, so that windows around an edit, pieces
  /// segmented in parallel and streamed blocks are cut after blank lines instead of line breaks.
  public var spansLines: Bool { self == .paragraphs || self == .proseSentences }

  /// Whether the rotor's segments cover each element's text exactly.
  public var coversText: Bool { breakKind != nil }
}
