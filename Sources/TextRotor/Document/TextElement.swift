/// One element of a document: an editor's paragraph, a message, a list item, a line of a file.
public struct TextElement<ID: Hashable> {
  public var id: ID
  public var text: String

  public init(id: ID, text: String) {
    self.id = id
    self.text = text
  }
}

extension TextElement: Sendable where ID: Sendable {}
extension TextElement: Equatable where ID: Equatable {}
extension TextElement: Hashable {}
