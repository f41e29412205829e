/// Makes text from outside (an issue title, a server's message) safe to write to a terminal:
/// every control character is shown, never interpreted.
///
/// A title may hold ESC, OSC or BEL sequences (set the clipboard, rewrite links, hide the rest of
/// a table), or CR and line feeds that would overwrite a line or split a record. Each C0 control
/// and DEL becomes its Unicode *control picture* (ESC → `␛`, line feed → `␊`), each C1 control
/// (U+0080–U+009F, which some terminals read as CSI and OSC) becomes `�`, and the bidirectional
/// overrides that can reorder what is shown become `�` too.
///
///     ControlCharacters.visible("fix \u{1B}]52;c;aGk=\u{07} now")  // "fix ␛]52;c;aGk=␇ now"
public enum ControlCharacters {
  /// The text with every control character made visible; with `keepingLineBreaks`, line feeds
  /// (and tabs) stay as they are for text laid out over several lines.
  public static func visible(_ text: String, keepingLineBreaks: Bool = false) -> String {
    guard text.unicodeScalars.contains(where: { needsReplacement($0, keepingLineBreaks) }) else {
      return text
    }
    var result = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      guard needsReplacement(scalar, keepingLineBreaks) else {
        result.append(scalar)
        continue
      }
      switch scalar.value {
      case 0x00...0x1F: result.append(Unicode.Scalar(0x2400 + scalar.value) ?? "\u{FFFD}")
      case 0x7F: result.append("\u{2421}")
      default: result.append("\u{FFFD}")
      }
    }
    return String(result)
  }

  /// Whether a terminal may act on a scalar instead of showing it: a C0 or C1 control, DEL, or
  /// a bidirectional override or isolate.
  public static func isInterpreted(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: true
    default: false
    }
  }

  private static func needsReplacement(_ scalar: Unicode.Scalar, _ keepingLineBreaks: Bool)
    -> Bool
  {
    if keepingLineBreaks && (scalar == "\n" || scalar == "\t") { return false }
    return isInterpreted(scalar)
  }
}
