import FuzzSupport
import TextRotor

/// The native fast paths (ASCII words and graphemes, and the rule machine running ICU's compiled
/// rules for all four rule sets, dictionary spans handed to ICU) against ICU over arbitrary bytes,
/// ill-formed UTF-8 included: the same segments and statuses, whole and in small pieces on two
/// threads.
let locales = ["", "en", "de", "fr", "sv", "fi", "th", "ja", "zh", "en_US_POSIX"]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFastPath(_ data: UnsafeRawPointer?, _ count: Int) -> CInt {
  guard let data else { return 0 }
  var input = FuzzInput(data, count)
  let locale = locales[input.int(below: locales.count)]
  let kind = ElementKind.allCases[input.int(below: ElementKind.allCases.count)]
  let pieceSize = 16 + input.int(below: 200)
  let raw = input.rest()
  let bytes = ByteStorage(raw)
  let elements = kind.ranges(in: bytes)
  for rotor in SystemRotor.allCases {
    var icu = Segmenter(locale: locale)
    icu.useFastPaths = false
    var fast = Segmenter(locale: locale)
    fast.useFastPaths = true
    var pieces = Segmenter(locale: locale, threads: 2, pieceSize: pieceSize)
    pieces.useFastPaths = true
    do {
      let reference = try icu.segment(bytes, elements: elements, rotor: rotor).segments
      let native = try fast.segment(bytes, elements: elements, rotor: rotor).segments
      fuzzCheck(native == reference, "\(rotor) locale '\(locale)': fast path \(native) != ICU \(reference)")
      let cut = try pieces.segment(bytes, elements: elements, rotor: rotor).segments
      fuzzCheck(cut == reference, "\(rotor) locale '\(locale)' in pieces of \(pieceSize): \(cut) != ICU \(reference)")
      // Counting has paths of its own (the ASCII word kernel, counts per batch).
      let words = reference.filter { $0.status.isWord }.count
      let counted = try fast.count(bytes, elements: elements, rotor: rotor)
      fuzzCheck(
        counted.entries == reference.count && counted.words == words,
        "\(rotor) locale '\(locale)': counted \(counted) != ICU \(reference.count) entries, \(words) words")
    } catch {
      fuzzCheck(false, "\(rotor) failed: \(error)")
    }
  }
  return 0
}

@_cdecl("FuzzFastPath_main")
public func entryPoint(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
  runFuzzer(argc, argv) { data, count in fuzzFastPath(data, count) }
}
