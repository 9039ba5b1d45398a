// Minimal program: the pattern of Segmenter's ParallelResults. Two workers (concurrentPerform)
// claim indices and store results, every access inside Mutex.withLock. ThreadSanitizer reports
// "Swift access race" between the two workers' withLock closures, although the Mutex orders them.
import Dispatch
import Synchronization

final class Results: Sendable {
  struct State {
    var values: [Int]
    var next = 0
  }
  let state = Mutex(State(values: Array(repeating: 0, count: 10_000)))
  func claim() -> Int? {
    state.withLock { s in
      guard s.next < s.values.count else { return nil }
      defer { s.next += 1 }
      return s.next
    }
  }
  func store(_ v: Int, at i: Int) { state.withLock { $0.values[i] = v } }
  var total: Int { state.withLock { $0.values.reduce(0, +) } }
}

let results = Results()
DispatchQueue.concurrentPerform(iterations: 2) { _ in
  while let i = results.claim() { results.store(i, at: i) }
}
print(results.total)
