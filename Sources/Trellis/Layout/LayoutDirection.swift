/// Which way text and layouts flow horizontally.
public enum LayoutDirection: Hashable, Sendable {
  /// Leading is left.
  case leftToRight
  /// Leading is right: frames are mirrored across the content width as a final transform.
  case rightToLeft
}

extension Rect {
  /// The rectangle mirrored across a content width, for right-to-left layouts.
  ///
  /// - Complexity: O(1).
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
