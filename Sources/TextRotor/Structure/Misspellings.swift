import TextRotorICU

/// The misspelled-words rotor of a document: the speller it was built with and its entries.
struct SpellingIndex: Sendable {
  var speller: Speller
  var index: IntervalIndex<StructurePayload>
}

/// Misspelled words: the words of the words rotor (the segments ICU tags as letters, kana or
/// ideographs) that a Hunspell dictionary does not know. Words of scripts the dictionary does not
/// cover (a Chinese or Thai word for an English dictionary) and words with a digit, a period or an
/// underscore (`mp3`, `www.example.org`, `README.md`, `snake_case`) are not checked.
public enum Misspellings {
  /// Words checked per call into Hunspell's layer (bounds the memory of a batch).
  static let batch = 8192

  /// The misspelled words of `elements` of `bytes`, in order.
  public static func find(
    in bytes: ByteStorage, elements: [Range<Int>], speller: Speller, segmenter: Segmenter = Segmenter()
  ) throws(ICUError) -> [Range<Int>] {
    let store = try segmenter.segment(bytes, elements: elements, rotor: .words)
    return check(store, in: bytes, speller: speller)
  }

  /// The misspelled words among `store`'s segments (of `bytes`), in order.
  static func check(_ store: SegmentStore, in bytes: ByteStorage, speller: Speller, shift: Int = 0) -> [Range<Int>] {
    var result: [Range<Int>] = []
    var words: [Range<Int>] = []
    words.reserveCapacity(Swift.min(batch, store.count))
    func flush() {
      let answers = speller.check(bytes, words: words)
      for (word, answer) in zip(words, answers) where answer == .misspelled {
        result.append((word.lowerBound + shift)..<(word.upperBound + shift))
      }
      words.removeAll(keepingCapacity: true)
    }
    store.forEach { segment in
      switch segment.status {
      case .letter, .kana, .ideograph:
        words.append(segment.range)
        if words.count == batch { flush() }
      default: break
      }
      return true
    }
    if !words.isEmpty { flush() }
    return result
  }

  /// A window around the edited bytes `a..<end` of `text` (new offsets) that starts and ends at
  /// ASCII white space (or the text's ends): no word crosses white space, and ICU segments the
  /// text between white space alone as it does in context, so only the words in it can change.
  /// A run of 4 KB without white space (a long CJK or Thai run) widens it to whole lines.
  static func window(_ text: TextRope, a: Int, end: Int) -> Range<Int> {
    func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D }
    let limit = 4096
    var ws: Int? = a == 0 ? 0 : nil
    if ws == nil {
      let from = Swift.max(0, a - limit)
      let bytes = text.bytes(from..<a)
      if let k = bytes.lastIndex(where: isSpace) { ws = from + k + 1 } else if from == 0 { ws = 0 }
    }
    var we: Int? = end == text.utf8Count ? end : nil
    if we == nil {
      let to = Swift.min(text.utf8Count, end + limit)
      let bytes = text.bytes(end..<to)
      if let k = bytes.firstIndex(where: isSpace) { we = end + k } else if to == text.utf8Count { we = to }
    }
    return (ws ?? text.cut(before: a, rotor: nil))..<(we ?? text.cut(after: end, rotor: nil))
  }
}

extension RotorDocument {
  /// The misspelled words (``StructureRotor/misspelled``) for the dictionary of `locale` (nil: the
  /// segmenter's locale; empty means `en_US`), built on first use and then kept up to date by
  /// edits (only the words around an edit are checked again). Throws, naming the locale and the
  /// folders searched, when no Hunspell dictionary is installed for it.
  public func misspelledWords(locale: String? = nil) throws(StructureError) -> Rotor<ID> {
    let st = try spellingIndex(locale: locale ?? segmenter.locale)
    return Rotor(name: StructureRotor.misspelled.rawValue, storage: .structure(st.index), table: table)
  }

  func spellingIndex(locale: String) throws(StructureError) -> SpellingIndex {
    let speller: Speller
    do {
      speller = try Speller.forLocale(locale)
    } catch {
      throw StructureError(error.description)
    }
    if let spelling, spelling.speller === speller { return spelling }
    var entries: [(Range<Int>, StructurePayload)] = []
    let payload = StructurePayload(label: nil, info: StructureInfo())
    do throws(ICUError) {
      for i in 0..<table.count {
        let (bytes, range) = structureBytes(of: i)
        let shift = table.start(of: i) - range.lowerBound
        for word in try Misspellings.find(in: bytes, elements: [range], speller: speller, segmenter: segmenter) {
          entries.append(((word.lowerBound + shift)..<(word.upperBound + shift), payload))
        }
      }
    } catch {
      throw StructureError(error.description)
    }
    let built = SpellingIndex(speller: speller, index: IntervalIndex(sorted: entries, width: table.length))
    spelling = built
    return built
  }

  /// After element `e` (at document offset `s`, its text now `text`) had its bytes `range`
  /// replaced by `n` bytes: the words of the window around the edit are checked again.
  func updateSpelling(
    element e: Int, start s: Int, text: TextRope, range: Range<Int>, inserted n: Int,
    change: inout DocumentChange<ID>
  ) {
    guard var st = spelling else { return }
    spelling = nil
    let name = StructureRotor.misspelled.rawValue
    let delta = n - range.count
    let window = Misspellings.window(text, a: range.lowerBound, end: range.lowerBound + n)
    let (bytes, r) = text.contiguous(window)
    guard let store = try? windowSegmenter.segment(bytes, r, rotor: .words) else {
      change.named[name] = RotorChange(removed: 0..<0, added: 0..<0, rebuilt: true)
      return
    }
    let payload = StructurePayload(label: nil, info: StructureInfo())
    let found = Misspellings.check(store, in: bytes, speller: st.speller, shift: s + window.lowerBound - r.lowerBound)
    let old = (s + window.lowerBound)..<(s + window.upperBound - delta)
    let i0 = st.index.firstIndex(startingAtLeast: old.lowerBound)
    let i1 = st.index.firstIndex(startingAtLeast: old.upperBound)
    st.index.apply(edit: old, newCount: window.count, inserting: found.map { ($0, payload) }) { r, _ in
      old.contains(r.lowerBound) ? nil : r
    }
    change.named[name] = RotorChange(removed: i0..<i1, added: i0..<(i0 + found.count))
    spelling = st
  }

  /// After element `index` was inserted at document offset `x` (`span` bytes with its gap).
  func spellingInserted(at index: Int, _ x: Int, span: Int, change: inout DocumentChange<ID>) {
    guard var st = spelling else { return }
    spelling = nil
    let text = table[index].text
    let (bytes, r) = text.contiguous(0..<text.utf8Count)
    guard let store = try? windowSegmenter.segment(bytes, r, rotor: .words) else {
      change.named[StructureRotor.misspelled.rawValue] = RotorChange(removed: 0..<0, added: 0..<0, rebuilt: true)
      return
    }
    let payload = StructurePayload(label: nil, info: StructureInfo())
    let found = Misspellings.check(store, in: bytes, speller: st.speller, shift: x - r.lowerBound)
    let i0 = st.index.firstIndex(startingAtLeast: x)
    st.index.apply(edit: x..<x, newCount: span, inserting: found.map { ($0, payload) }) { r, _ in
      r.lowerBound >= x ? (r.lowerBound + span)..<(r.upperBound + span) : r
    }
    change.named[StructureRotor.misspelled.rawValue] = RotorChange(removed: i0..<i0, added: i0..<(i0 + found.count))
    spelling = st
  }

  /// Before the element spanning `old` (document offsets) is removed.
  func spellingRemoved(_ old: Range<Int>, change: inout DocumentChange<ID>) {
    guard var st = spelling else { return }
    spelling = nil  // the only reference: the index changes in place
    let i0 = st.index.firstIndex(startingAtLeast: old.lowerBound)
    let i1 = st.index.firstIndex(startingAtLeast: old.upperBound)
    st.index.apply(edit: old, newCount: 0) { r, _ in old.contains(r.lowerBound) ? nil : r }
    change.named[StructureRotor.misspelled.rawValue] = RotorChange(removed: i0..<i1, added: i0..<i0)
    spelling = st
  }
}
