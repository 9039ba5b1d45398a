/// Builds a rotor's entries the way SwiftUI's `AccessibilityRotorContentBuilder` does: entries,
/// optionals and arrays of entries as statements, `for`-`in` loops, `if`, `if`/`else`, `switch`
/// and `if #available`.
///
/// ```swift
/// Rotor<Message.ID>("VIPs") {
///   for message in messages where message.isVIP {
///     RotorEntry(message.subject, id: message.id)
///   }
/// }
/// ```
@resultBuilder
public enum RotorContentBuilder {
  public static func buildExpression<ID>(_ entry: RotorEntry<ID>) -> [RotorEntry<ID>] { [entry] }
  public static func buildExpression<ID>(_ entry: RotorEntry<ID>?) -> [RotorEntry<ID>] { entry.map { [$0] } ?? [] }
  public static func buildExpression<ID, S: Sequence<RotorEntry<ID>>>(_ entries: S) -> [RotorEntry<ID>] {
    Array(entries)
  }
  public static func buildBlock<ID>(_ parts: [RotorEntry<ID>]...) -> [RotorEntry<ID>] { parts.flatMap { $0 } }
  public static func buildBlock<ID>() -> [RotorEntry<ID>] { [] }
  public static func buildOptional<ID>(_ part: [RotorEntry<ID>]?) -> [RotorEntry<ID>] { part ?? [] }
  public static func buildEither<ID>(first part: [RotorEntry<ID>]) -> [RotorEntry<ID>] { part }
  public static func buildEither<ID>(second part: [RotorEntry<ID>]) -> [RotorEntry<ID>] { part }
  public static func buildArray<ID>(_ parts: [[RotorEntry<ID>]]) -> [RotorEntry<ID>] { parts.flatMap { $0 } }
  public static func buildLimitedAvailability<ID>(_ part: [RotorEntry<ID>]) -> [RotorEntry<ID>] { part }
}
