import Synchronization

/// Scopes entry ids, as SwiftUI's `Namespace.ID` does: two entries with the same id in different
/// namespaces are different targets. Each `RotorNamespace()` is a new, distinct namespace.
public struct RotorNamespace: Hashable, Sendable, CustomStringConvertible {
  private static let counter = Atomic<Int>(0)
  let value: Int

  /// A new namespace, different from every other one.
  public init() {
    value = Self.counter.add(1, ordering: .relaxed).newValue
  }

  public var description: String { "RotorNamespace(\(value))" }
}
