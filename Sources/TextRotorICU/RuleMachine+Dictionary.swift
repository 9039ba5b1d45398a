import CTextRotorShim
import Glibc

/// Chinese and Japanese words without ICU's iterator: ICU's CjkBreakEngine (its dictionary, read
/// from the installed ICU, its costs and its katakana rule) runs natively (`cicu_cjk_divide`,
/// Sources/CTextRotorShim/cjk.cpp) inside the rule segments the machine finds, as ICU's
/// `DictionaryCache::populateDictionary` divides them. Whatever else ICU would do there (Thai, Lao,
/// Khmer or Burmese in the segment, a Hangul syllable beside an ideograph, text NFKC would change,
/// phrase breaking) is declined and left to ICU.
extension RuleMachine {
  /// Whether the native dictionary runs (the default), unless `TEXTROTOR_NO_NATIVE_DICTIONARY` is
  /// set to anything but "" or "0" (for comparisons).
  public static let nativeDictionaryByDefault: Bool = {
    guard let value = getenv("TEXTROTOR_NO_NATIVE_DICTIONARY") else { return true }
    let text = String(cString: value)
    return text.isEmpty || text == "0"
  }()

  /// Whether ICU's word iterator for `locale` runs its Chinese/Japanese engine plainly: no
  /// keywords (`@lw=phrase` turns on phrase breaking) and no Unicode extension.
  static func plainWordLocale(_ locale: String) -> Bool {
    !locale.contains("@") && !locale.lowercased().contains("-u-") && !locale.lowercased().contains("_u_")
  }

  func cjkEngine() -> OpaquePointer? {
    if !cjkOpened {
      cjkOpened = true
      if rules.kind == .word && Self.nativeDictionaryByDefault && Self.plainWordLocale(rules.locale)
        && dictionaryStart < UInt16(clamping: categories)
      {
        cjk = cicu_cjk_open()
      }
    }
    return cjk
  }

  private func reserveDictionary(_ count: Int) -> UnsafeMutablePointer<Int> {
    if let dictionaryEnds, count <= dictionaryCapacity { return dictionaryEnds }
    dictionaryEnds?.deallocate()
    let capacity = Swift.max(count, 1024)
    let made = UnsafeMutablePointer<Int>.allocate(capacity: capacity)
    dictionaryEnds = made
    dictionaryCapacity = capacity
    return made
  }

  /// The boundaries ICU gives after the boundary `start` of `text[..<end]` through the end of the
  /// rule segment that starts there, with ICU's Chinese/Japanese dictionary dividing it: their
  /// number (into ``dictionaryEnds``, ascending, all after `start`) and their rule status (ICU
  /// gives every boundary of a divided segment the segment's). Nil when ICU would do more than
  /// this engine (see the extension), or for rules other than words.
  public func dictionarySegment(_ text: UnsafePointer<UInt8>, from start: Int, end: Int) -> (count: Int, status: Int32)?
  {
    guard let engine = cjkEngine() else { return nil }
    let found = nextThroughDictionary(text, from: start, end: end)
    let segmentEnd = found.end
    let ends = reserveDictionary(segmentEnd - start + 2)
    var n = 0
    // The machine read a dictionary character, perhaps only past the segment's end (looking
    // ahead): then the segment is the rules' alone.
    if found.dictionary && !hasDictionaryCharacter(text, start, segmentEnd, end) {
      return (Self.single(ends, segmentEnd), found.status)
    }
    if found.dictionary {
      // Only a rule segment that is one run of the engine's characters, from a character of a
      // dictionary category on: ICU then divides exactly that run (its start, the engine's
      // boundaries, the run's end taken back by the engine and given again as the segment's
      // end). That holds for a run that starts with the prolonged sound mark ー too (script
      // Common), as ICU's word iterators have the engine loaded before their first text
      // (`BreakIterator.setText`). A segment with anything else in it (an ideographic tone mark or
      // a voicing mark, an underscore before katakana, Thai, Hangul) goes to ICU: there ICU's
      // boundaries at the runs' starts and ends depend on what the runs hold.
      let (c, length) = Self.decode(text, start, end)
      let category = Int(c < 0x10000 ? bmp[Int(c)] : rules.category(c))
      guard category >= Int(dictionaryStart), cicu_cjk_flags(engine, Int32(bitPattern: c)) & CICU_CJK_IN_SET != 0 else {
        return nil
      }
      var position = start + length
      while position < segmentEnd {
        let (d, length) = Self.decode(text, position, end)
        if cicu_cjk_flags(engine, Int32(bitPattern: d)) & CICU_CJK_IN_SET == 0 { return nil }
        position += length
      }
      let breaks = UnsafeMutablePointer<Int64>.allocate(capacity: (segmentEnd - start) / 3 + 2)
      defer { breaks.deallocate() }
      let k = Int(cicu_cjk_divide(engine, text, Int64(start), Int64(segmentEnd), breaks))
      if k <= 0 { return nil }
      for j in 0..<k { ends[j] = Int(breaks[j]) }
      n = k
    }
    if n == 0 {
      ends[0] = segmentEnd
      n = 1
    }
    return (n, found.status)
  }

  private static func single(_ ends: UnsafeMutablePointer<Int>, _ end: Int) -> Int {
    ends[0] = end
    return 1
  }

  /// Whether `text[from..<to]` holds a character of one of ICU's dictionary categories.
  private func hasDictionaryCharacter(_ text: UnsafePointer<UInt8>, _ from: Int, _ to: Int, _ end: Int) -> Bool {
    let icuStart = Int(rules.icuDictionaryStart)
    var position = from
    while position < to {
      let (c, length) = Self.decode(text, position, end)
      if Int(c < 0x10000 ? bmp[Int(c)] : rules.category(c)) >= icuStart { return true }
      position += length
    }
    return false
  }
}
