/// How many colours a terminal shows, read from the environment as the conventions say:
/// `NO_COLOR` (no-color.org) turns colour off, `TERM=dumb` or no `TERM` means a terminal that
/// takes no control sequences at all, `COLORTERM=truecolor` (or `24bit`) means 24-bit colour, a
/// `TERM` naming `256color` means 256 colours, and any other terminal gets the 16 ANSI colours.
///
/// ``FrameRenderer`` maps every colour down to what the terminal shows: 24-bit to the nearest of
/// the 256, those to the nearest of the 16, and all of them to the default colours when there is
/// no colour. Attributes (bold, reverse…) stay: `NO_COLOR` is about colour only.
public enum ColorSupport: Hashable, Sendable, Comparable {
  /// No colour: the terminal's default foreground and background only.
  case none
  /// The 16 ANSI colours.
  case ansi16
  /// The 256 indexed colours.
  case indexed256
  /// 24-bit colour.
  case trueColor

  /// What the environment says.
  public static func detect(environment: [String: String]) -> ColorSupport {
    if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return .none }
    guard let term = environment["TERM"], !term.isEmpty, term != "dumb" else { return .none }
    let colorTerm = environment["COLORTERM"]?.lowercased() ?? ""
    if colorTerm == "truecolor" || colorTerm == "24bit" || term.hasSuffix("-direct") {
      return .trueColor
    }
    if term.contains("256color") { return .indexed256 }
    return .ansi16
  }

  /// Whether `TERM` names a terminal that can take a full-screen program: set and not `dumb`.
  public static func isCapableTerminal(environment: [String: String]) -> Bool {
    guard let term = environment["TERM"], !term.isEmpty else { return false }
    return term != "dumb"
  }

  /// A colour as this terminal can show it.
  public func adapt(_ color: Color) -> Color {
    switch (self, color) {
    case (_, .default), (.trueColor, _): return color
    case (.none, _): return .default
    case (.indexed256, .rgb(let red, let green, let blue)):
      return .indexed(Self.nearestIndexed(red, green, blue))
    case (.indexed256, _): return color
    case (.ansi16, .ansi): return color
    case (.ansi16, .indexed(let index)): return .ansi(Self.ansi(forIndexed: index))
    case (.ansi16, .rgb(let red, let green, let blue)):
      return .ansi(Self.ansi(forIndexed: Self.nearestIndexed(red, green, blue)))
    }
  }

  /// A style as this terminal can show it.
  public func adapt(_ style: Style) -> Style {
    var adapted = style
    if style.attributes.contains(.reverseWithoutColor) {
      adapted.attributes.remove(.reverseWithoutColor)
      if self == .none { adapted.attributes.insert(.reverse) }
    }
    guard self != .trueColor else { return adapted }
    adapted.foreground = adapt(style.foreground)
    adapted.background = adapt(style.background)
    return adapted
  }

  /// The nearest colour of the 6×6×6 cube or the grey ramp of the 256.
  static func nearestIndexed(_ red: UInt8, _ green: UInt8, _ blue: UInt8) -> UInt8 {
    let levels = [0, 95, 135, 175, 215, 255]
    func level(_ value: UInt8) -> Int {
      var best = 0
      for index in 1..<levels.count
      where abs(levels[index] - Int(value)) < abs(levels[best] - Int(value)) {
        best = index
      }
      return best
    }
    let (r, g, b) = (level(red), level(green), level(blue))
    let cube = (levels[r], levels[g], levels[b])
    let average = (Int(red) + Int(green) + Int(blue)) / 3
    let greyIndex = min(23, max(0, (average - 8 + 5) / 10))
    let grey = 8 + greyIndex * 10
    func distance(_ color: (Int, Int, Int)) -> Int {
      let dr = color.0 - Int(red)
      let dg = color.1 - Int(green)
      let db = color.2 - Int(blue)
      return dr * dr + dg * dg + db * db
    }
    return distance((grey, grey, grey)) < distance(cube)
      ? UInt8(232 + greyIndex) : UInt8(16 + 36 * r + 6 * g + b)
  }

  /// The nearest of the 16 ANSI colours to one of the 256.
  static func ansi(forIndexed index: UInt8) -> UInt8 {
    if index < 16 { return index }
    let (red, green, blue): (Int, Int, Int)
    if index >= 232 {
      let grey = 8 + Int(index - 232) * 10
      (red, green, blue) = (grey, grey, grey)
    } else {
      let cube = Int(index) - 16
      let levels = [0, 95, 135, 175, 215, 255]
      (red, green, blue) = (levels[cube / 36], levels[(cube / 6) % 6], levels[cube % 6])
    }
    // The 16 as xterm draws them by default.
    let palette: [(Int, Int, Int)] = [
      (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205),
      (0, 205, 205), (229, 229, 229), (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0),
      (92, 92, 255), (255, 0, 255), (0, 255, 255), (255, 255, 255),
    ]
    var best = 0
    var bestDistance = Int.max
    for (candidate, color) in palette.enumerated() {
      let distance =
        (color.0 - red) * (color.0 - red) + (color.1 - green) * (color.1 - green)
        + (color.2 - blue) * (color.2 - blue)
      if distance < bestDistance {
        best = candidate
        bestDistance = distance
      }
    }
    return UInt8(best)
  }
}
