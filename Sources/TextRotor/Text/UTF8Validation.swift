import Dispatch
import Synchronization
import TextRotorICU

extension TextFacts {
  /// The first byte offset where `bytes` is not well-formed UTF-8, or nil; large texts are checked
  /// in parallel pieces (cut before a lead byte, so no sequence straddles two pieces).
  public static func firstInvalidUTF8(_ bytes: ByteStorage, threads: Int = Segmenter.availableCores) -> Int? {
    let n = bytes.count
    let parts = n >= 8 << 20 ? max(1, threads) : 1
    if parts == 1 { return bytes.firstInvalidUTF8(in: 0..<n) }
    var cuts = [0]
    for k in 1..<parts {
      var cut = max(k * (n / parts), cuts.last!)
      // Step over at most three continuation bytes to the next lead byte.
      var steps = 0
      while cut < n && steps < 3 && bytes[cut] & 0xC0 == 0x80 {
        cut += 1
        steps += 1
      }
      cuts.append(cut)
    }
    cuts.append(n)
    let pieces = cuts
    let found = Mutex<[Int?]>(Array(repeating: nil, count: parts))
    DispatchQueue.concurrentPerform(iterations: parts) { k in
      let result = bytes.firstInvalidUTF8(in: pieces[k]..<pieces[k + 1])
      found.withLock { $0[k] = result }
    }
    return found.withLock { results in results.lazy.compactMap { $0 }.first }
  }
}
