/// A file's changes in unified diff form, as GitHub gives them in a pull request file's `patch`
/// (and a line comment's `diff_hunk`): hunks of lines, each line numbered in the old file, the
/// new file, or both.
///
/// Parsed from untrusted text: a hunk whose lines do not add up to what its header announces,
/// or a line that is no diff line, is a ``PatchError`` saying where — never a crash, and never
/// lines numbered wrong.
public struct Patch: Hashable, Sendable {
  /// The hunks, in order.
  public var hunks: [Hunk]

  /// A patch of these hunks.
  public init(hunks: [Hunk]) {
    self.hunks = hunks
  }

  /// Lines added and removed, over every hunk.
  public var changeCount: (additions: Int, deletions: Int) {
    var counts = (additions: 0, deletions: 0)
    for line in hunks.lazy.flatMap(\.lines) {
      switch line.kind {
      case .added: counts.additions += 1
      case .removed: counts.deletions += 1
      case .context, .noNewline: break
      }
    }
    return counts
  }
}

/// One hunk: a run of lines around changes, with where it starts in each file.
public struct Hunk: Hashable, Sendable {
  /// The first line's number in the old file (0 for a hunk that adds to an empty file).
  public var oldStart: Int
  /// How many old-file lines it covers (context and removed).
  public var oldCount: Int
  /// The first line's number in the new file (0 for a hunk that empties the file).
  public var newStart: Int
  /// How many new-file lines it covers (context and added).
  public var newCount: Int
  /// The text after the header's second `@@`: the enclosing function or section, if git found
  /// one.
  public var section: String
  /// The lines, numbered.
  public var lines: [DiffLine]

  /// A hunk.
  public init(
    oldStart: Int, oldCount: Int, newStart: Int, newCount: Int, section: String = "",
    lines: [DiffLine]
  ) {
    self.oldStart = oldStart
    self.oldCount = oldCount
    self.newStart = newStart
    self.newCount = newCount
    self.section = section
    self.lines = lines
  }

  /// The header line, as git writes it.
  public var header: String {
    func range(_ start: Int, _ count: Int) -> String {
      count == 1 ? "\(start)" : "\(start),\(count)"
    }
    return "@@ -\(range(oldStart, oldCount)) +\(range(newStart, newCount)) @@"
      + (section.isEmpty ? "" : " " + section)
  }
}

/// A line of a hunk.
public struct DiffLine: Hashable, Sendable {
  /// What the line is.
  public enum Kind: Hashable, Sendable {
    /// In both files.
    case context
    /// Only in the new file.
    case added
    /// Only in the old file.
    case removed
    /// `\ No newline at end of file`, about the line before it.
    case noNewline
  }

  /// What the line is.
  public var kind: Kind
  /// Its text, without the leading ` `, `+` or `-`.
  public var text: String
  /// Its number in the old file (context and removed lines).
  public var oldNumber: Int?
  /// Its number in the new file (context and added lines).
  public var newNumber: Int?

  /// A line.
  public init(kind: Kind, text: String, oldNumber: Int? = nil, newNumber: Int? = nil) {
    self.kind = kind
    self.text = text
    self.oldNumber = oldNumber
    self.newNumber = newNumber
  }

  /// The line as a patch writes it.
  public var patchText: String {
    switch kind {
    case .context: " " + text
    case .added: "+" + text
    case .removed: "-" + text
    case .noNewline: "\\" + text
    }
  }
}

/// Why a patch could not be read, and where.
public struct PatchError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The line of the patch, from 1.
  public var line: Int
  /// What is wrong.
  public var message: String

  /// An error at a line.
  public init(line: Int, message: String) {
    self.line = line
    self.message = message
  }

  public var description: String { "line \(line) of the patch: \(message)" }
}

extension Patch {
  /// The most lines a patch is read to: GitHub gives none longer in a response.
  public static let mostLines = 1_000_000

  /// Reads a unified diff: hunks from their `@@ -a,b +c,d @@` headers, each line numbered.
  ///
  /// Lines before the first hunk (`diff --git`, `index`, `---`, `+++`) are skipped. A final
  /// line break is not a line. CRLF line ends are kept in the text (a file may have them).
  ///
  /// - Parameters:
  ///   - text: The patch.
  ///   - lastHunkMayEndEarly: Whether the last hunk may have fewer lines than its header says:
  ///     a line comment's `diff_hunk` ends at the line commented on.
  /// - Throws: ``PatchError`` for a header that is not one, a line that is no diff line, or a
  ///   hunk with more or fewer lines than its header says.
  public init(parsing text: String, lastHunkMayEndEarly: Bool = false) throws(PatchError) {
    var hunks: [Hunk] = []
    var current: Hunk?
    // What the current hunk still expects, in each file.
    var oldLeft = 0
    var newLeft = 0
    var oldNumber = 0
    var newNumber = 0
    // Split on the byte: a Character split would keep "\r\n" whole (one grapheme), and costs
    // most of the time on a large patch.
    var lines = text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
      .map { Substring($0) }
    if lines.last?.isEmpty == true { lines.removeLast() }
    guard lines.count <= Self.mostLines else {
      throw PatchError(line: Self.mostLines + 1, message: "over \(Self.mostLines) lines")
    }
    func finish(at line: Int, last: Bool = false) throws(PatchError) {
      guard let hunk = current else { return }
      guard oldLeft == 0 && newLeft == 0 || last && lastHunkMayEndEarly else {
        throw PatchError(
          line: line,
          message: "the hunk \(hunk.header) ends \(oldLeft) old and \(newLeft) new lines short")
      }
      hunks.append(hunk)
      current = nil
    }
    for (index, line) in lines.enumerated() {
      let number = index + 1
      if line.hasPrefix("@@") {
        try finish(at: number)
        guard let header = Self.header(line) else {
          throw PatchError(line: number, message: "“\(line.prefix(80))” is not a hunk header")
        }
        current = Hunk(
          oldStart: header.oldStart, oldCount: header.oldCount, newStart: header.newStart,
          newCount: header.newCount, section: header.section, lines: [])
        (oldLeft, newLeft) = (header.oldCount, header.newCount)
        (oldNumber, newNumber) = (header.oldStart, header.newStart)
        continue
      }
      guard current != nil else { continue }  // a file header before the first hunk
      let body = String(line.dropFirst())
      let kind: DiffLine.Kind
      switch line.first {
      case " ": kind = .context
      case "+": kind = .added
      case "-": kind = .removed
      case "\\": kind = .noNewline
      // An empty context line, as some tools trim it.
      case nil: kind = .context
      default:
        throw PatchError(line: number, message: "“\(line.prefix(80))” is no diff line")
      }
      var diffLine = DiffLine(kind: kind, text: body)
      switch kind {
      case .context:
        guard oldLeft > 0, newLeft > 0 else {
          throw PatchError(line: number, message: "a line past the end of its hunk")
        }
        diffLine.oldNumber = oldNumber
        diffLine.newNumber = newNumber
        (oldNumber, newNumber, oldLeft, newLeft) = (
          oldNumber + 1, newNumber + 1, oldLeft - 1, newLeft - 1
        )
      case .removed:
        guard oldLeft > 0 else {
          throw PatchError(line: number, message: "a removed line past the end of its hunk")
        }
        diffLine.oldNumber = oldNumber
        (oldNumber, oldLeft) = (oldNumber + 1, oldLeft - 1)
      case .added:
        guard newLeft > 0 else {
          throw PatchError(line: number, message: "an added line past the end of its hunk")
        }
        diffLine.newNumber = newNumber
        (newNumber, newLeft) = (newNumber + 1, newLeft - 1)
      case .noNewline: break
      }
      current?.lines.append(diffLine)
    }
    try finish(at: lines.count + 1, last: true)
    self.hunks = hunks
  }

  /// The patch as text, one line per line, each ending with a line break.
  public var text: String {
    var text = ""
    for hunk in hunks {
      text += hunk.header + "\n"
      for line in hunk.lines { text += line.patchText + "\n" }
    }
    return text
  }

  /// A hunk header's numbers and section, or `nil` when the line is not one.
  static func header(_ line: Substring) -> (
    oldStart: Int, oldCount: Int, newStart: Int, newCount: Int, section: String
  )? {
    // @@ -a[,b] +c[,d] @@[ section]
    let parts = line.split(separator: " ", maxSplits: 4, omittingEmptySubsequences: false)
    guard parts.count >= 4, parts[0] == "@@", parts[3] == "@@", parts[1].first == "-",
      parts[2].first == "+", let old = range(parts[1].dropFirst()),
      let new = range(parts[2].dropFirst())
    else { return nil }
    let section = parts.count > 4 ? String(parts[4]) : ""
    return (old.start, old.count, new.start, new.count, section)
  }

  /// `a,b` or `a` (a count of 1), within what a file can hold.
  private static func range(_ text: Substring) -> (start: Int, count: Int)? {
    let numbers = text.split(separator: ",", omittingEmptySubsequences: false)
    guard (1...2).contains(numbers.count),
      numbers.allSatisfy({
        !$0.isEmpty && $0.count <= 9 && $0.utf8.allSatisfy { (48...57).contains($0) }
      }),
      let start = Int(numbers[0]), let count = numbers.count == 2 ? Int(numbers[1]) : 1,
      start >= 0, count >= 0, count <= mostLines
    else { return nil }
    return (start, count)
  }
}
