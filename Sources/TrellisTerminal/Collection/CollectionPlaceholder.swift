import Trellis

/// What a ``CollectionView`` shows in place of its content while there is none to show.
public enum CollectionPlaceholder: Hashable, Sendable {
  /// The content is being loaded for the first time; the message says what.
  case loading(String)
  /// Loading finished with nothing to show; the message says why, or what to do.
  case empty(String)
  /// Loading failed with nothing to show; the message says what went wrong.
  case failure(String)

  /// The placeholder for a load presentation, or `nil` when it has content to show.
  ///
  /// A refresh in progress or a failed refresh keeps showing the previous content: the app says
  /// so elsewhere (a status line), so that the list never disappears under the user.
  public init?<Content, Failure>(
    _ presentation: LoadPresentation<Content, Failure>, loading: String = "Loading…",
    empty: String, failure describe: (Failure) -> String
  ) {
    switch presentation {
    case .content: return nil
    case .nothing, .progress: self = .loading(loading)
    case .empty: self = .empty(empty)
    case .failure(let failure): self = .failure(describe(failure))
    }
  }

  static let spinner: [Character] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]

  /// Draws the placeholder centred in the canvas; `frame` animates the loading spinner.
  func draw(in canvas: inout Canvas, frame: Int) {
    canvas.fill()
    let (symbol, message, style): (String, String, Style) =
      switch self {
      case .loading(let message):
        (
          String(Self.spinner[frame % Self.spinner.count]), message,
          Style(foreground: .cyan)
        )
      case .empty(let message): ("∅", message, Style(foreground: .gray))
      case .failure(let message): ("✖", message, Style(foreground: .red, attributes: .bold))
      }
    let width = canvas.extent.width
    let lines = Self.wrap(message, width: max(1, width - 6))
    let top = max(0, (canvas.extent.height - lines.count - 2) / 2)
    let symbolColumn = max(0, (width - DisplayWidth.of(symbol)) / 2)
    canvas.text(symbol, x: symbolColumn, y: top, style: style)
    for (row, line) in lines.enumerated() {
      let column = max(0, (width - DisplayWidth.of(line)) / 2)
      canvas.text(line, x: column, y: top + 2 + row, style: style.with([]))
    }
  }

  /// Splits a message into lines of at most `width` columns, at spaces where possible.
  static func wrap(_ message: String, width: Int) -> [String] {
    var lines: [String] = []
    for paragraph in message.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
      var line = ""
      for word in paragraph.split(separator: " ") {
        let candidate = line.isEmpty ? String(word) : line + " " + word
        if DisplayWidth.of(candidate) <= width || line.isEmpty {
          line = candidate
        } else {
          lines.append(line)
          line = String(word)
        }
        while DisplayWidth.of(line) > width {
          let head = DisplayWidth.truncate(line, toColumns: width, ellipsis: "")
          lines.append(head)
          line = String(line.dropFirst(head.count))
        }
      }
      lines.append(line)
    }
    return lines
  }
}
