import TextRotorICU

/// The rotors of a document's structure, as VoiceOver's rotor and SwiftUI's
/// `AccessibilitySystemRotor` offer them beside the text units: headings, links, lists, tables,
/// code blocks, block quotes, emphasis (SwiftUI's `.italicText`) and strong text (`.boldText`),
/// and misspelled words (`.misspelledWords`).
///
/// For a Markdown document (``DocumentFormat/markdown``) every kind comes from cmark-gfm, GitHub's
/// CommonMark parser (with GFM's tables, autolinks and strikethrough); in plain text only
/// ``links`` has entries: URLs and e-mail addresses found by GFM's extended-autolink rules (see
/// ``Linkifier``); ``misspelled`` comes from Hunspell in any format. Each element is parsed as its own document. Entries carry their level, URL or
/// item count (``Rotor/structureInfo(at:)``).
public enum StructureRotor: String, CaseIterable, Sendable, Hashable, CustomStringConvertible {
  /// ATX (`# Title`) and setext headings; level 1-6. Label: the heading's text.
  case headings
  /// Inline and reference links, `<autolinks>` and GFM's bare URLs and e-mail addresses (and in
  /// plain text, those bare ones). Label: the link's text; ``StructureInfo/url``: its destination.
  case links
  /// Bullet and ordered lists (nested ones too); ``StructureInfo/items``: their items.
  case lists
  /// The items of every list. Label: the text of the item's first block.
  case listItems
  /// Fenced and indented code blocks; ``StructureInfo/url`` holds a fence's info string.
  case codeBlocks
  /// GFM tables; ``StructureInfo/items``: their rows, the header row included.
  case tables
  /// Block quotes (nested ones too).
  case blockQuotes
  /// Emphasis (`*text*`, `_text_`). Label: the emphasised text.
  case emphasis
  /// Strong emphasis (`**text**`, `__text__`). Label: the text.
  case strong
  /// Misspelled words, in any format (SwiftUI's `.misspelledWords`): the words of the words rotor
  /// that the Hunspell dictionary of the locale does not know (see ``Misspellings``).
  case misspelled

  /// The kinds that cmark-gfm's parse of a Markdown document gives (every kind but
  /// ``misspelled``).
  public static let markdownKinds: [StructureRotor] = allCases.filter { $0 != .misspelled }

  public var description: String { rawValue }

  var nodeKind: MarkdownNodeKind? {
    switch self {
    case .headings: .heading
    case .links: .link
    case .lists: .list
    case .listItems: .listItem
    case .codeBlocks: .codeBlock
    case .tables: .table
    case .blockQuotes: .blockQuote
    case .emphasis: .emphasis
    case .strong: .strong
    case .misspelled: nil
    }
  }

  /// The rotor's index in ``allCases``.
  var ordinal: Int {
    switch self {
    case .headings: 0
    case .links: 1
    case .lists: 2
    case .listItems: 3
    case .codeBlocks: 4
    case .tables: 5
    case .blockQuotes: 6
    case .emphasis: 7
    case .strong: 8
    case .misspelled: 9
    }
  }

  init?(_ kind: MarkdownNodeKind) {
    // A switch, not a search of `allCases` (an array made at each call, once per node).
    switch kind {
    case .heading: self = .headings
    case .link: self = .links
    case .list: self = .lists
    case .listItem: self = .listItems
    case .codeBlock: self = .codeBlocks
    case .table: self = .tables
    case .blockQuote: self = .blockQuotes
    case .emphasis: self = .emphasis
    case .strong: self = .strong
    case .block, .htmlBlock, .paragraph, .definitions: return nil
    }
  }
}

/// How a document's text is read for its structure rotors.
public enum DocumentFormat: String, CaseIterable, Sendable, Hashable {
  /// Plain text: only links (URLs and e-mail addresses).
  case text
  /// Markdown (CommonMark with GitHub's extensions).
  case markdown

  /// The format a file's name suggests: `.md`, `.markdown`, `.mdown`, `.mkd`, `.mkdn` and `.mdx`
  /// (any case) are Markdown; anything else is text.
  public init(path: String) {
    let name = path.split(separator: "/").last.map(String.init) ?? path
    guard let dot = name.lastIndex(of: "."), dot != name.startIndex else {
      self = .text
      return
    }
    let ext = name[name.index(after: dot)...].lowercased()
    self = ["md", "markdown", "mdown", "mkd", "mkdn", "mdx"].contains(ext) ? .markdown : .text
  }
}

/// What a structure entry carries besides its range and label.
public struct StructureInfo: Sendable, Equatable {
  /// A heading's level (1-6).
  public var level: Int?
  /// A link's destination; a fenced code block's info string (its language).
  public var url: String?
  /// A list's items, a table's rows.
  public var items: Int?
  /// Whether a list is ordered.
  public var ordered: Bool?

  public init(level: Int? = nil, url: String? = nil, items: Int? = nil, ordered: Bool? = nil) {
    self.level = level
    self.url = url
    self.items = items
    self.ordered = ordered
  }
}

/// Why a structure rotor could not be built.
public struct StructureError: Error, CustomStringConvertible, Sendable, Equatable {
  public var description: String
  public init(_ description: String) { self.description = description }
}

/// A structure entry's payload: its label (nil: the text at its range) and what ``StructureInfo``
/// tells.
struct StructurePayload: Sendable {
  var label: String?
  var info: StructureInfo

  init(_ node: MarkdownNode) {
    label = node.label
    switch node.kind {
    case .heading: info = StructureInfo(level: Int(node.detail))
    case .link: info = StructureInfo(url: node.url)
    case .codeBlock: info = StructureInfo(url: node.url)
    case .list: info = StructureInfo(items: Int(node.items), ordered: node.detail == 1)
    case .table: info = StructureInfo(items: Int(node.items))
    default: info = StructureInfo()
    }
  }

  init(label: String?, info: StructureInfo) {
    self.label = label
    self.info = info
  }
}
