import Foundation
import Testing
import TextRotor

/// The misspelled-words rotor: Hunspell's answers on known words of three dictionaries, no
/// Chinese, Japanese or Thai word flagged by a Latin dictionary, the same words as `hunspell -l`,
/// edits against rebuilds, and the message when no dictionary is installed.
@Suite struct MisspelledTests {
  static func misspelled(_ text: String, locale: String = "en_US") throws -> [String] {
    let bytes = ByteStorage(Array(text.utf8))
    let speller = try Speller.forLocale(locale)
    return try Misspellings.find(in: bytes, elements: [0..<bytes.count], speller: speller).map { bytes.string($0) }
  }

  @Test("known correct and misspelled words of en_US, de_DE and ru_RU")
  func knownWords() throws {
    #expect(
      try Self.misspelled("Teh quick brown fox recieved the color, don't you think? Don’t.") == ["Teh", "recieved"])
    // en_US is American: a British spelling is flagged.
    #expect(try Self.misspelled("The colour of the kilometre") == ["colour", "kilometre"])
    #expect(try Self.misspelled("Viele Grüße aus dem Hauss an der Straße", locale: "de_DE") == ["Hauss"])
    #expect(try Self.misspelled("Привет из Москвы, превед", locale: "ru") == ["превед"])
    // A language without a region takes its usual one; dashes and encodings are accepted.
    #expect(try Speller.forLocale("de").dictionary == "de_DE")
    #expect(try Speller.forLocale("en-US.UTF-8").dictionary == "en_US")
    #expect(try Speller.forLocale("").dictionary == "en_US")
    let en = try Speller.forLocale("en_US")
    #expect(en.check("receive") == .correct)
    #expect(en.check("recieve") == .misspelled)
    #expect(en.check("mp3") == .skipped)
    #expect(en.scripts == ["Latin"])
    #expect(try Speller.forLocale("ru_RU").scripts == ["Cyrillic"])
  }

  @Test("a Latin dictionary flags no Chinese, Japanese or Thai word, nor a Cyrillic one")
  func otherScriptsSkipped() throws {
    for name in ["chinese.txt", "japanese.txt", "thai.txt", "russian.txt"] {
      let bytes = try Fixtures.bytes(name)
      let found = try Misspellings.find(
        in: bytes, elements: [0..<bytes.count], speller: try Speller.forLocale("en_US"),
        segmenter: Segmenter(locale: name == "thai.txt" ? "th" : ""))
      for word in found {
        let text = bytes.string(word)
        #expect(text.unicodeScalars.contains { $0.isASCII && $0.properties.isAlphabetic }, "\(name): \(text)")
      }
    }
    #expect(try Self.misspelled("東京は大きい。ภาษาไทยง่าย 北京欢迎你 Москва") == [])
    // A Cyrillic dictionary skips Latin words.
    #expect(try Self.misspelled("Teh Москва", locale: "ru_RU") == [])
  }

  /// The words checked (not skipped) in `bytes`, and the misspelled ones.
  static func checkedWords(_ bytes: ByteStorage, speller: Speller) throws -> (words: [String], misspelled: [String]) {
    let store = try Segmenter().segment(bytes, elements: [0..<bytes.count], rotor: .words)
    let ranges = store.segments.filter { $0.status == .letter || $0.status == .kana || $0.status == .ideograph }
      .map(\.range)
    let answers = speller.check(bytes, words: ranges)
    var words: [String] = []
    var misspelled: [String] = []
    for (range, answer) in zip(ranges, answers) where answer != .skipped {
      words.append(bytes.string(range))
      if answer == .misspelled { misspelled.append(bytes.string(range)) }
    }
    return (words, misspelled)
  }

  /// `hunspell -l` on `words`, one per line.
  static func hunspellList(_ words: [String], dictionary: String) throws -> [String] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/hunspell")
    process.arguments = ["-d", dictionary, "-i", "utf-8", "-l"]
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    try process.run()
    let writer = Thread {
      input.fileHandleForWriting.write(Data((words.joined(separator: "\n") + "\n").utf8))
      try? input.fileHandleForWriting.close()
    }
    writer.start()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
  }

  @Test("misspelled words equal hunspell -l on the same words (fixtures and Debian's documentation)")
  func differentialAgainstHunspell() throws {
    var texts: [(String, String)] = [
      ("english.txt", "en_US"), ("german.txt", "de_DE"), ("russian.txt", "ru_RU"), ("demo.txt", "en_US"),
      ("wrapped-prose.txt", "en_US"), ("markdown/structure.md", "en_US"),
    ].map { (Fixtures.path($0.0), $0.1) }
    // Real English prose, when Debian's documentation is installed.
    for path in ["/usr/share/common-licenses/GPL-3", "/usr/share/common-licenses/Apache-2.0"]
    where FileManager.default.fileExists(atPath: path) {
      texts.append((path, "en_US"))
    }
    var compared = 0
    for (path, dictionary) in texts {
      let bytes = try ByteStorage.contentsOf(path: path)
      let speller = try Speller.forLocale(dictionary)
      let (words, ours) = try Self.checkedWords(bytes, speller: speller)
      let theirs = try Self.hunspellList(words, dictionary: dictionary)
      #expect(
        ours == theirs,
        "\(path): ours only \(Set(ours).subtracting(theirs)), hunspell's only \(Set(theirs).subtracting(ours))")
      compared += words.count
    }
    #expect(compared > 1000)
  }

  @Test("no dictionary for the locale: an error naming the locale and the folder searched")
  func missingDictionary() throws {
    do {
      _ = try Speller.forLocale("xx_YY")
      Issue.record("no error")
    } catch {
      #expect(error.description.contains("\"xx_YY\""))
      #expect(error.description.contains("/usr/share/hunspell"))
      #expect(error.description.contains("xx_YY.dic"))
    }
    let document = try RotorDocument(
      elements: [TextElement(id: 0, text: "Teh text")], segmenter: Segmenter(locale: "xx"))
    #expect(throws: StructureError.self) { try document.rotor(.misspelled) }
    // Another locale's dictionary works for the same document.
    #expect(try document.misspelledWords(locale: "en_US").count == 1)
  }

  static let pieces = [
    " ", "\n", "\n\n", "teh", "the", "word", "recieve", "receive", "Grüße", "東京", "ภาษาไทย", "don't", "'", "-", ".",
    "x",
    "colour", "e", "mp3", "\t", "😀", "é", "\r\n", "Москва",
  ]

  static func snapshot(_ document: RotorDocument<Int>) throws -> [String] {
    let rotor = try document.rotor(.misspelled)
    return rotor.indices.map { i in
      "\(rotor.location(at: i)!.element):\(rotor.location(at: i)!.utf8Range):\(rotor[i].label)"
    }
  }

  @Test("random edits, element insertions, removals and moves keep the rotor equal to a rebuild")
  func randomEditsMatchRebuild() throws {
    var seeds = SeededRandom(seed: SeededRandom.seedFromEnvironment(default: 0x5BE1))
    for _ in 0..<30 {
      let seed = seeds.next()
      var rng = SeededRandom(seed: seed)
      func text(_ count: Int) -> String {
        (0..<count).map { _ in Self.pieces[Int(rng.next() % UInt64(Self.pieces.count))] }.joined()
      }
      let count = 1 + Int(rng.next() % 3)
      let document = try RotorDocument(
        elements: (0..<count).map { TextElement(id: $0, text: text(Int(rng.next() % 40))) })
      _ = try document.rotor(.misspelled)
      // Words held too, so edits also go through the long-line path sometimes.
      _ = try document.rotor(.words)
      var nextID = count
      for step in 0..<30 {
        let ids = document.elementIDs
        var lastEdit = ""
        let roll = rng.next() % 16
        if roll == 0 && ids.count > 1 {
          try document.remove(ids[Int(rng.next() % UInt64(ids.count))])
          lastEdit = "remove"
        } else if roll == 1 {
          try document.insert(TextElement(id: nextID, text: text(6)), at: Int(rng.next() % UInt64(ids.count + 1)))
          nextID += 1
          lastEdit = "insert"
        } else if roll == 2 && ids.count > 1 {
          _ = try document.move(ids[Int(rng.next() % UInt64(ids.count))], to: Int(rng.next() % UInt64(ids.count)))
          lastEdit = "move"
        } else {
          let id = ids[Int(rng.next() % UInt64(ids.count))]
          let old = try document.text(of: id)
          let scalars = Array(old.unicodeScalars.indices) + [old.endIndex]
          let a = scalars[Int(rng.next() % UInt64(scalars.count))]
          let b = old.unicodeScalars.index(a, offsetBy: Int(rng.next() % 6), limitedBy: old.endIndex) ?? old.endIndex
          let inserted = rng.next() % 3 == 0 ? "" : text(1 + Int(rng.next() % 2))
          lastEdit =
            "element \(id): \(String(old[a..<b]).debugDescription) -> \(inserted.debugDescription) in \(old.debugDescription)"
          try document.replace(a..<b, in: id, with: inserted)
        }
        let fresh = try RotorDocument(elements: document.elements)
        let got = try Self.snapshot(document)
        let expected = try Self.snapshot(fresh)
        if got != expected {
          Issue.record("seed \(seed), step \(step): got \(got), expected \(expected); last edit \(lastEdit)")
          return
        }
      }
    }
  }

  @Test("an edit reports the entries it removed and added, and re-checks only its window")
  func editChange() throws {
    let words = Array(repeating: "fine words here", count: 2000).joined(separator: " ")
    let document = try RotorDocument(elements: [TextElement(id: 0, text: words + " teh end")])
    #expect(try document.rotor(.misspelled).count == 1)
    // "fine words" -> "fine xwords".
    let change = try document.replace(utf8Range: 5..<5, in: 0, with: "x")
    #expect(change.rotors["misspelled"] != nil)
    let rotor = try document.rotor(.misspelled)
    #expect(rotor.count == 2)
    #expect(rotor[0].label == "xwords")
    #expect(change.rotors["misspelled"]?.added == 0..<1)
    #expect(change.rotors["misspelled"]?.removed == 0..<0)
  }
}
