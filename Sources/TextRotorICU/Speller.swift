import CTextRotorSpell
import Glibc
import Synchronization

/// Why a speller could not be opened: no dictionary for the locale, or one Hunspell cannot read.
public struct SpellerError: Error, CustomStringConvertible, Sendable, Equatable {
  public var description: String
  public init(_ description: String) { self.description = description }
}

/// What ``Speller/check(_:words:)`` says of a word.
public enum SpellResult: UInt8, Sendable, Equatable {
  case correct = 0
  case misspelled = 1
  /// Not checked: no letter of a script the dictionary covers (a Chinese or Thai word for an
  /// English dictionary), or a digit, period or underscore in it (ICU's words hold them between
  /// letters: `v2`, `www.example.org`, `README.md`, `snake_case`).
  case skipped = 2
}

/// A Hunspell dictionary (`LANG_REGION.aff` and `.dic`, as Debian's `hunspell-*` packages install
/// them in /usr/share/hunspell). Safe to share between threads: Hunspell's handle is not
/// thread-safe, so checks take a lock (a batch at a time). Answers are cached per word.
public final class Speller: Sendable {
  /// The dictionary's name, e.g. `en_US`.
  public let dictionary: String
  /// The `.dic` file.
  public let path: String
  /// The scripts of the dictionary's letters (ICU's script names, e.g. "Latin", "Cyrillic").
  public let scripts: [String]
  private let handle: Mutex<Handle>

  private struct Handle: ~Copyable, @unchecked Sendable {
    let pointer: OpaquePointer
  }

  /// Where dictionaries are looked for: the folders of `DICPATH` (colon-separated, as the
  /// `hunspell` command reads it), then /usr/share/hunspell.
  public static var searchPaths: [String] {
    var paths: [String] = []
    if let raw = getenv("DICPATH") {
      paths += String(cString: raw).split(separator: ":").map(String.init).filter { !$0.isEmpty }
    }
    paths.append("/usr/share/hunspell")
    return paths
  }

  private static let opened = Mutex<[String: Speller]>([:])

  /// The speller of `locale` (`en_US`, `en-US`, `de`, `ru_RU.UTF-8`; empty, `root`, `C` and
  /// `POSIX` mean `en_US`), opened once per process and dictionary. A language without a region
  /// takes its usual one (`de` → `de_DE`, `en` → `en_US`), else the first `LANG_*` dictionary.
  /// Throws, naming the locale and the folders searched, when no dictionary is installed.
  public static func forLocale(_ locale: String, searchPaths: [String] = Speller.searchPaths) throws(SpellerError)
    -> Speller
  {
    let names = candidates(for: locale, in: searchPaths)
    for folder in searchPaths {
      for name in names {
        let base = folder.hasSuffix("/") ? folder + name : folder + "/" + name
        let aff = base + ".aff"
        let dic = base + ".dic"
        guard FileSystem.kind(of: aff, followLinks: true) == .regular,
          FileSystem.kind(of: dic, followLinks: true) == .regular
        else { continue }
        // Opened under the lock: two threads asking at once open it once (a second handle,
        // closed at once, was Hunspell's global state changed twice under the feet of checks).
        let speller: Speller? = opened.withLock { cache in
          if let found = cache[dic] { return found }
          guard let pointer = ctr_spell_open(aff, dic) else { return nil }
          let made = Speller(dictionary: name, path: dic, pointer: pointer)
          cache[dic] = made
          return made
        }
        guard let speller else {
          throw SpellerError("Hunspell could not read the dictionary \(dic) (for locale \"\(locale)\")")
        }
        return speller
      }
    }
    let shown = locale.isEmpty ? "en_US (the default)" : "\"\(locale)\""
    let language = names.first?.split(separator: "_").first.map { String($0).lowercased() } ?? "xx"
    throw SpellerError(
      "no Hunspell dictionary for locale \(shown) in \(searchPaths.joined(separator: ", ")) (looked for "
        + names.map { $0 + ".dic" }.joined(separator: ", ")
        + " with its .aff; Debian ships them as hunspell-\(language)-* packages, e.g. hunspell-en-us)")
  }

  /// The dictionary names to try for `locale`, best first.
  static func candidates(for locale: String, in folders: [String]) -> [String] {
    var name = locale
    if let cut = name.firstIndex(where: { $0 == "." || $0 == "@" }) { name = String(name[..<cut]) }
    name = name.replacingDashes()
    if name.isEmpty || name == "root" || name == "C" || name == "POSIX" { name = "en_US" }
    let parts = name.split(separator: "_", maxSplits: 1).map(String.init)
    let language = parts[0].lowercased()
    guard language.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else { return [name] }
    if parts.count == 2 {
      let region = parts[1].count == 2 ? parts[1].uppercased() : parts[1]
      return [language + "_" + region, language]
    }
    var result = [language + "_" + (language == "en" ? "US" : language.uppercased()), language]
    var others: [String] = []
    for folder in folders {
      for entry in (try? FileSystem.entries(of: folder)) ?? [] where entry.name.hasSuffix(".dic") {
        let stem = String(entry.name.dropLast(4))
        if stem.hasPrefix(language + "_") && !result.contains(stem) && !others.contains(stem) { others.append(stem) }
      }
    }
    result += others.sorted()
    return result
  }

  private init(dictionary: String, path: String, pointer: OpaquePointer) {
    self.dictionary = dictionary
    self.path = path
    var codes = [Int32](repeating: 0, count: 256)
    let n = Int(ctr_spell_scripts(pointer, &codes, Int32(codes.count)))
    scripts = codes.prefix(min(n, codes.count)).map { Self.scriptName($0) }
    handle = Mutex(Handle(pointer: pointer))
  }

  deinit {
    handle.withLock { ctr_spell_close($0.pointer) }
  }

  /// ICU's name of a few scripts (others by number).
  static func scriptName(_ code: Int32) -> String {
    switch code {
    case 2: "Arabic"
    case 3: "Armenian"
    case 5: "Bopomofo"
    case 8: "Cyrillic"
    case 10: "Devanagari"
    case 14: "Greek"
    case 17: "Han"
    case 18: "Hangul"
    case 19: "Hebrew"
    case 20: "Hiragana"
    case 22: "Katakana"
    case 25: "Latin"
    case 38: "Thai"
    default: "script \(code)"
    }
  }

  /// Checks the words at `words` (sorted or not; UTF-8 ranges of `bytes`), one answer per word.
  public func check(_ bytes: ByteStorage, words: [Range<Int>]) -> [SpellResult] {
    guard !words.isEmpty else { return [] }
    var starts = [Int64](repeating: 0, count: words.count)
    var lengths = [Int32](repeating: 0, count: words.count)
    for (k, word) in words.enumerated() {
      precondition(word.lowerBound >= 0 && word.upperBound <= bytes.count, "word outside the bytes")
      starts[k] = Int64(word.lowerBound)
      lengths[k] = Int32(clamping: word.count)
    }
    var raw = [UInt8](repeating: 0, count: words.count)
    bytes.withUnsafeBytes { all in
      guard let base = all.baseAddress else { return }
      handle.withLock { h in
        ctr_spell_check(
          h.pointer, UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self), starts, lengths,
          Int64(words.count), &raw)
      }
    }
    return raw.map { SpellResult(rawValue: $0) ?? .skipped }
  }

  /// Checks one word.
  public func check(_ word: String) -> SpellResult {
    let storage = ByteStorage(Array(word.utf8))
    return check(storage, words: [0..<storage.count]).first ?? .skipped
  }
}

extension String {
  fileprivate func replacingDashes() -> String { String(map { $0 == "-" ? "_" : $0 }) }
}
