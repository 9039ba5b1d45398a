/// Edits. After each one every rotor is correct:
/// - system rotors are re-segmented locally: from the start of the line before the edit to the end
///   of the line after it (hard line breaks are boundaries for every segmentation; paragraphs
///   widen to blank lines), within the element; the entries after it move by changing one delta
///   per piece (O(pieces));
/// - computed (pattern) rotors are recomputed over the same lines;
/// - custom rotors' entries move with the text: positions before the edit stay, positions after
///   it move by the change in length, entries grow when text is typed at their edges, and entries
///   follow their element when it moves.
///
/// If re-segmenting fails (an ICU error), the rotor's cache is dropped and rebuilt in full when
/// next asked for.
extension RotorDocument {
  /// Replaces `range` of element `id`'s text with `text`.
  public func replace(_ range: Range<String.Index>, in id: ID, with text: String) {
    let e = table.index(of: id)
    let a = table.utf8Offset(element: e, range.lowerBound)
    let b = table.utf8Offset(element: e, range.upperBound)
    // Take the text out of the table so that, unless a rotor snapshot still holds it, the edit
    // happens in place instead of copying the whole text.
    var newText = table.texts[e]
    table.texts[e] = ""
    let inserted = text.utf8.count
    newText.replaceSubrange(range, with: text)
    newText.makeContiguousUTF8()
    table.texts[e] = newText
    let delta = inserted - (b - a)
    if delta != 0 {
      for j in (e + 1)..<table.count { table.starts[j] += delta }
    }
    source = nil
    let s = table.starts[e]

    newText.utf8.withContiguousStorageIfAvailable { buffer in
      let upper = buffer.count
      for kind in Array(systemIndexes.keys) {
        let ws = SafeCuts.start(before: a, rotor: kind, buffer, lower: 0)
        let we = SafeCuts.end(after: a + inserted, rotor: kind, buffer, upper: upper)
        let window = ByteStorage(UnsafeBufferPointer(rebasing: buffer[ws..<we]))
        do {
          let store = try localSegmenter.segment(window, elements: [0..<window.count], rotor: kind)
          systemIndexes[kind]!.replace(
            startingIn: (s + ws)..<(s + we - delta), movingLaterBy: delta, with: store, storeDelta: s + ws)
        } catch {
          systemIndexes[kind] = nil
        }
      }
      for name in Array(customRotors.keys) {
        customRotors[name]!.remap(replacing: (s + a)..<(s + b), insertedCount: inserted)
      }
      if !computedRotors.isEmpty {
        let ws = SafeCuts.start(before: a, rotor: nil, buffer, lower: 0)
        let we = SafeCuts.end(after: a + inserted, rotor: nil, buffer, upper: upper)
        let window = ByteStorage(UnsafeBufferPointer(rebasing: buffer[ws..<we]))
        for name in Array(computedRotors.keys) {
          guard var index = computedRotors[name]!.index else { continue }
          computedRotors[name]!.index = nil
          guard let found = try? computedRotors[name]!.compute(window, 0..<window.count) else { continue }
          index.replace(startingIn: (s + ws)..<(s + we - delta), with: [])
          index.shift(startingAtLeast: s + we - delta, by: delta)
          index.replace(
            startingIn: (s + ws)..<(s + ws),
            with: found.map { (($0.lowerBound + s + ws)..<($0.upperBound + s + ws), ()) })
          computedRotors[name]!.index = index
        }
      }
    }
  }

  /// Inserts `text` at `index` of element `id`'s text.
  public func insert(_ text: String, at index: String.Index, in id: ID) {
    replace(index..<index, in: id, with: text)
  }

  /// Inserts `element` before the element now at `index` (or at the end).
  public func insert(_ element: TextElement<ID>, at index: Int) {
    precondition(index >= 0 && index <= table.count, "element index \(index) out of 0...\(table.count)")
    precondition(table.indexByID[element.id] == nil, "duplicate element id \(element.id)")
    var text = element.text
    text.makeContiguousUTF8()
    let length = text.utf8.count
    let start = index < table.count ? table.starts[index] : (table.count == 0 ? 0 : table.end(table.count - 1) + 1)
    let shift = length + 1
    table.ids.insert(element.id, at: index)
    table.texts.insert(text, at: index)
    table.starts.insert(start, at: index)
    for j in (index + 1)..<table.count { table.starts[j] += shift }
    table.reindex()
    source = nil
    let bytes = ByteStorage(text.utf8)
    for kind in Array(systemIndexes.keys) {
      do {
        let store = try localSegmenter.segment(bytes, elements: [0..<length], rotor: kind)
        systemIndexes[kind]!.replace(startingIn: start..<start, movingLaterBy: shift, with: store, storeDelta: start)
      } catch {
        systemIndexes[kind] = nil
      }
    }
    for name in Array(customRotors.keys) { customRotors[name]!.shift(startingAtLeast: start, by: shift) }
    for name in Array(computedRotors.keys) {
      guard var index = computedRotors[name]!.index else { continue }
      computedRotors[name]!.index = nil
      guard let found = try? computedRotors[name]!.compute(bytes, 0..<length) else { continue }
      index.shift(startingAtLeast: start, by: shift)
      index.replace(
        startingIn: start..<start, with: found.map { (($0.lowerBound + start)..<($0.upperBound + start), ()) })
      computedRotors[name]!.index = index
    }
  }

  /// Removes element `id` (and every entry in it).
  public func remove(_ id: ID) {
    _ = remove(at: table.index(of: id))
  }

  /// Removes the element at `index` and returns it.
  @discardableResult
  public func remove(at index: Int) -> TextElement<ID> {
    precondition(index >= 0 && index < table.count, "element index \(index) out of 0..<\(table.count)")
    let removed = TextElement(id: table.ids[index], text: table.texts[index])
    let start = table.starts[index]
    let next = index + 1 < table.count ? table.starts[index + 1] : table.end(index) + 1
    let delta = start - next
    for kind in Array(systemIndexes.keys) {
      systemIndexes[kind]!.replace(startingIn: start..<next, movingLaterBy: delta, with: SegmentStore(), storeDelta: 0)
    }
    for name in Array(customRotors.keys) {
      customRotors[name]!.replace(startingIn: start..<next, with: [])
      customRotors[name]!.shift(startingAtLeast: next, by: delta)
    }
    for name in Array(computedRotors.keys) where computedRotors[name]!.index != nil {
      computedRotors[name]!.index!.replace(startingIn: start..<next, with: [])
      computedRotors[name]!.index!.shift(startingAtLeast: next, by: delta)
    }
    table.ids.remove(at: index)
    table.texts.remove(at: index)
    table.starts.remove(at: index)
    for j in index..<table.count { table.starts[j] += delta }
    table.reindex()
    source = nil
    return removed
  }

  /// Moves element `id` to `index` (its index once moved) and returns what a screen reader should
  /// announce: "Moved below <the element now before it>" ("Moved above <the element after it>"
  /// at the top). Custom rotors' entries in the element move with it.
  @discardableResult
  public func move(_ id: ID, to index: Int) -> String {
    let from = table.index(of: id)
    precondition(index >= 0 && index < table.count, "element index \(index) out of 0..<\(table.count)")
    let start = table.starts[from]
    let end = table.end(from)
    // The element's custom entries, relative to its start.
    var carried: [String: [(Range<Int>, CustomPayload<ID>)]] = [:]
    for (name, rotor) in customRotors {
      let i0 = rotor.firstIndex(startingAtLeast: start)
      let i1 = rotor.firstIndex(startingAtLeast: end + 1)
      var entries: [(Range<Int>, CustomPayload<ID>)] = []
      rotor.forEach(in: i0..<i1) { _, range, payload in
        entries.append(((range.lowerBound - start)..<(range.upperBound - start), payload))
        return true
      }
      carried[name] = entries
    }
    let element = remove(at: from)
    insert(element, at: index)
    let newStart = table.starts[index]
    for (name, entries) in carried where !entries.isEmpty {
      customRotors[name]!.replace(
        startingIn: newStart..<newStart,
        with: entries.map { (($0.0.lowerBound + newStart)..<($0.0.upperBound + newStart), $0.1) })
    }
    if index > 0 {
      return "Moved below \(elementName(TextElement(id: table.ids[index - 1], text: table.texts[index - 1])))"
    }
    if table.count > 1 {
      return "Moved above \(elementName(TextElement(id: table.ids[1], text: table.texts[1])))"
    }
    return "Moved"
  }

  /// Segments small windows on the calling thread.
  var localSegmenter: Segmenter { Segmenter(locale: segmenter.locale, threads: 1, pieceSize: segmenter.pieceSize) }
}
