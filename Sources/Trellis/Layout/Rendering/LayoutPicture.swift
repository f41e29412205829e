/// Draws laid-out elements as an SVG picture: frames outlined and filled by category, each labelled
/// with its index path, for debugging and documentation.
///
///     let svg = LayoutPicture.svg(of: layout.allAttributes, contentSize: layout.contentSize)
///
/// Cells are blue, headers and footers (and other supplementaries) orange, decorations grey and
/// drawn first, so the picture reads like the screen.
public enum LayoutPicture {
  /// The SVG document for a set of elements.
  ///
  /// - Parameters:
  ///   - attributes: The elements to draw.
  ///   - contentSize: The size of the picture (the layout's content size).
  ///   - scale: Picture units per layout point.
  /// - Returns: A standalone SVG document.
  /// - Complexity: O(*n*) in the attributes drawn.
  public static func svg(of attributes: [LayoutAttributes], contentSize: Size, scale: Double = 1)
    -> String
  {
    let width = number(contentSize.width * scale)
    let height = number(contentSize.height * scale)
    var svg = """
      <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(height)" \
      viewBox="0 0 \(number(contentSize.width)) \(number(contentSize.height))" font-family="monospace">
      <rect width="100%" height="100%" fill="#ffffff"/>

      """
    let ordered = attributes.sorted { order($0) < order($1) }
    for element in ordered {
      let (fill, stroke) = colors(element.category)
      let frame = element.frame
      svg += """
        <rect x="\(number(frame.minX))" y="\(number(frame.minY))" width="\(number(frame.width))" \
        height="\(number(frame.height))" fill="\(fill)" stroke="\(stroke)" stroke-width="1"/>

        """
      let label = labelText(element)
      if frame.width >= 12 && frame.height >= 8 {
        let size = number(Swift.min(10, frame.height * 0.6))
        svg += """
          <text x="\(number(frame.minX + 2))" y="\(number(frame.minY + Swift.min(10, frame.height * 0.6) + 1))" \
          font-size="\(size)" fill="#1f2933">\(label)</text>

          """
      }
    }
    svg += "</svg>\n"
    return svg
  }

  private static func order(_ element: LayoutAttributes) -> (Int, Int, Int, Int) {
    let category =
      switch element.category {
      case .decoration: 0
      case .cell: 1
      case .supplementary: 2
      }
    return (category, element.zIndex, element.indexPath.section, element.indexPath.item)
  }

  private static func colors(_ category: ElementCategory) -> (String, String) {
    switch category {
    case .cell: ("#cfe3ff", "#2f6fd1")
    case .supplementary: ("#ffe0b8", "#d9822b")
    case .decoration: ("#eceff1", "#90a4ae")
    }
  }

  private static func labelText(_ element: LayoutAttributes) -> String {
    let path = "\(element.indexPath.section).\(element.indexPath.item)"
    switch element.category {
    case .cell: return path
    case .supplementary(let kind): return "\(escape(kind)) \(element.indexPath.section)"
    case .decoration(let kind): return escape(kind)
    }
  }

  private static func escape(_ text: String) -> String {
    var result = ""
    for character in text {
      switch character {
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "&": result += "&amp;"
      case "\"": result += "&quot;"
      default: result.append(character)
      }
    }
    return result
  }

  /// A number without a needless fraction: 10 rather than 10.0.
  private static func number(_ value: Double) -> String {
    // Hundredths, rounded half away from zero without libm (the core links nothing).
    let hundredths = Int(value * 100 + (value < 0 ? -0.5 : 0.5))
    let whole = hundredths / 100
    let fraction = abs(hundredths % 100)
    guard fraction != 0 else { return String(whole) }
    let sign = hundredths < 0 && whole == 0 ? "-" : ""
    let digits =
      fraction % 10 == 0
      ? String(fraction / 10) : (fraction < 10 ? "0" + String(fraction) : String(fraction))
    return sign + String(whole) + "." + digits
  }
}
