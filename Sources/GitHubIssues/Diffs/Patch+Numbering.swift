// Numbering a patch's lines without reading their text: what a diff of 50,000 lines needs to
// lay out its rows before any of them is drawn.

extension Patch {
  /// Numbers `text`'s lines as ``init(parsing:lastHunkMayEndEarly:)`` does — the same hunks,
  /// the same lines in the same order, the same refusals — without making a string of any
  /// line: `hunk` is told of each hunk (its lines empty), `line` of each line's kind and
  /// numbers.
  ///
  /// - Returns: Whether the patch reads; `false` where parsing it throws.
  package static func number(
    _ text: String, hunk onHunk: (Hunk) -> Void,
    line onLine: (DiffLine.Kind, _ old: Int?, _ new: Int?) -> Void
  ) -> Bool {
    var text = text
    return text.withUTF8 { bytes -> Bool in
      let count = bytes.count
      var start = 0
      var lineCount = 0
      var inHunk = false
      var (oldLeft, newLeft, oldNumber, newNumber) = (0, 0, 0, 0)
      while start < count {
        var end = start
        while end < count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
        lineCount += 1
        guard lineCount <= mostLines else { return false }
        let length = end - start
        if length >= 2, bytes[start] == UInt8(ascii: "@"), bytes[start + 1] == UInt8(ascii: "@") {
          guard !inHunk || (oldLeft == 0 && newLeft == 0) else { return false }
          let line = String(
            decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
          guard let header = header(Substring(line)) else { return false }
          onHunk(
            Hunk(
              oldStart: header.oldStart, oldCount: header.oldCount, newStart: header.newStart,
              newCount: header.newCount, section: header.section, lines: []))
          inHunk = true
          (oldLeft, newLeft) = (header.oldCount, header.newCount)
          (oldNumber, newNumber) = (header.oldStart, header.newStart)
        } else if inHunk {
          switch length == 0 ? UInt8(ascii: " ") : bytes[start] {
          case UInt8(ascii: " "):
            guard oldLeft > 0, newLeft > 0 else { return false }
            onLine(.context, oldNumber, newNumber)
            (oldNumber, newNumber, oldLeft, newLeft) = (
              oldNumber + 1, newNumber + 1, oldLeft - 1, newLeft - 1
            )
          case UInt8(ascii: "+"):
            guard newLeft > 0 else { return false }
            onLine(.added, nil, newNumber)
            (newNumber, newLeft) = (newNumber + 1, newLeft - 1)
          case UInt8(ascii: "-"):
            guard oldLeft > 0 else { return false }
            onLine(.removed, oldNumber, nil)
            (oldNumber, oldLeft) = (oldNumber + 1, oldLeft - 1)
          case UInt8(ascii: "\\"): onLine(.noNewline, nil, nil)
          default: return false
          }
        }
        start = end + 1
      }
      return !inHunk || (oldLeft == 0 && newLeft == 0)
    }
  }
}
