/// One stop of a rotor, as SwiftUI's `AccessibilityRotorEntry`: a label, the id of the element it
/// targets (nil: the element that owns the rotor), an optional namespace scoping that id, an
/// optional range of the element's text, and an action to run before navigating to it.
///
/// An entry made without a label takes the text at its range once it belongs to a document's
/// rotor (entries of system and pattern rotors always do).
public struct RotorEntry<ID: Hashable> {
  /// The entry's label: the given one, or the text at its range.
  public var label: String { explicitLabel ?? textLabel ?? "" }
  /// The id of the targeted element; nil for the element that owns the rotor.
  public var id: ID?
  /// The namespace scoping `id`; nil for the document's own ids.
  public var namespace: RotorNamespace?
  /// The range of the element's text the entry targets; nil for the whole element.
  public var textRange: Range<String.Index>?
  /// Run before navigating to the entry (scroll it into view, expand a section, ...).
  public var prepare: @Sendable () -> Void

  var explicitLabel: String?
  /// The text at the range, filled in by rotors that know the text.
  var textLabel: String?

  /// An entry for a range of the text of the element that owns the rotor.
  public init(_ label: String? = nil, textRange: Range<String.Index>, prepare: @escaping @Sendable () -> Void = {}) {
    self.init(label: label, id: nil, namespace: nil, textRange: textRange, prepare: prepare)
  }

  /// An entry for the element `id` (or a range of its text).
  public init(
    _ label: String? = nil, id: ID, textRange: Range<String.Index>? = nil,
    prepare: @escaping @Sendable () -> Void = {}
  ) {
    self.init(label: label, id: id, namespace: nil, textRange: textRange, prepare: prepare)
  }

  /// An entry for the element `id` of `namespace` (or a range of its text).
  public init(
    _ label: String? = nil, id: ID, in namespace: RotorNamespace, textRange: Range<String.Index>? = nil,
    prepare: @escaping @Sendable () -> Void = {}
  ) {
    self.init(label: label, id: id, namespace: namespace, textRange: textRange, prepare: prepare)
  }

  // Inlined into the rotors' loops that make entries, so that the generic metadata it needs is
  // looked up once per loop, not once per entry (a viewport makes thousands).
  @inline(__always)
  init(
    label: String?, id: ID?, namespace: RotorNamespace?, textRange: Range<String.Index>?,
    prepare: @escaping @Sendable () -> Void, textLabel: String? = nil
  ) {
    self.explicitLabel = label
    self.id = id
    self.namespace = namespace
    self.textRange = textRange
    self.prepare = prepare
    self.textLabel = textLabel
  }

  /// What the entry points at: its namespace and id (nil id: the rotor's owner).
  public struct Target: Hashable {
    public var namespace: RotorNamespace?
    public var id: ID?
  }

  /// The entry's target; entries with equal targets lead to the same element.
  public var target: Target { Target(namespace: namespace, id: id) }
}

extension RotorEntry.Target: Sendable where ID: Sendable {}
extension RotorEntry: Sendable where ID: Sendable {}

extension RotorEntry: CustomStringConvertible {
  public var description: String {
    var s = "RotorEntry(\"\(label)\""
    if let id { s += ", id: \(id)" }
    if let namespace { s += ", in: \(namespace)" }
    return s + ")"
  }
}
