/// What an element of a layout is.
public enum ElementCategory: Hashable, Sendable {
  /// A cell, for an item.
  case cell
  /// A supplementary view of a kind, such as a header or a badge.
  case supplementary(kind: String)
  /// A decoration of a kind, such as a section background.
  case decoration(kind: String)
}

/// Where one element goes: its category, index path, frame and stacking order.
public struct LayoutAttributes: Hashable, Sendable, CustomStringConvertible {
  /// Cell, supplementary or decoration.
  public var category: ElementCategory
  /// The item's index path; for section-level elements, item 0 of the section.
  public var indexPath: IndexPath
  /// The frame in content coordinates.
  public var frame: Rect
  /// Elements with a higher z-index draw on top.
  public var zIndex: Int

  /// Creates attributes.
  public init(category: ElementCategory, indexPath: IndexPath, frame: Rect, zIndex: Int = 0) {
    self.category = category
    self.indexPath = indexPath
    self.frame = frame
    self.zIndex = zIndex
  }

  public var description: String { "\(category) \(indexPath) \(frame)" }
}

/// The supplementary kinds the built-in layouts use.
public enum SupplementaryKind {
  /// A section header.
  public static let header = "header"
  /// A section footer.
  public static let footer = "footer"
}

/// Which way a layout's content scrolls.
public enum ScrollDirection: Hashable, Sendable {
  /// Content grows downwards.
  case vertical
  /// Content grows to the trailing side.
  case horizontal
}

/// Which way text and layouts flow horizontally.
public enum LayoutDirection: Hashable, Sendable {
  /// Leading is left.
  case leftToRight
  /// Leading is right: frames are mirrored across the content width as a final transform.
  case rightToLeft
}

extension Rect {
  /// The rectangle mirrored across a content width, for right-to-left layouts.
  public func mirrored(inWidth width: Double) -> Rect {
    Rect(x: width - maxX, y: minY, width: self.width, height: height)
  }
}

extension LayoutAttributes {
  /// These attributes as laid out in a direction: mirrored across `width` for right-to-left.
  func placed(for direction: LayoutDirection, inWidth width: Double) -> LayoutAttributes {
    guard direction == .rightToLeft else { return self }
    var mirrored = self
    mirrored.frame = frame.mirrored(inWidth: width)
    return mirrored
  }
}

extension Array {
  /// The index of the last element whose key is at most `value`, or `nil` for an empty array.
  ///
  /// A binary search over keys that never decrease; layouts use it to find the section that holds
  /// a scroll position.
  func lastIndex(keyedBy key: (Element) -> Double, notAfter value: Double) -> Int? {
    guard !isEmpty else { return nil }
    var low = 0
    var high = count - 1
    while low < high {
      let middle = (low + high + 1) / 2
      if key(self[middle]) <= value { low = middle } else { high = middle - 1 }
    }
    return low
  }
}
