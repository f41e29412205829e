/// Where a changed line differs from the line it replaced, by words: what a diff view marks
/// within the line, so that a one-word change in a long line is seen at a glance.
///
/// Lines are cut into words (runs of letters, digits and `_`), runs of spaces, and single other
/// characters; the words the two lines share at their start and at their end are left out, and
/// what is between is the change. Linear in the lines' length, whatever they hold.
public enum ChangedWords {
  /// The changed part of each line, or `nil` when the lines are the same.
  public static func ranges(old: String, new: String) -> (
    old: Range<String.Index>, new: Range<String.Index>
  )? {
    guard old != new else { return nil }
    let oldWords = words(old)
    let newWords = words(new)
    var prefix = 0
    while prefix < oldWords.count, prefix < newWords.count,
      old[oldWords[prefix]] == new[newWords[prefix]]
    {
      prefix += 1
    }
    var suffix = 0
    while suffix < oldWords.count - prefix, suffix < newWords.count - prefix,
      old[oldWords[oldWords.count - 1 - suffix]] == new[newWords[newWords.count - 1 - suffix]]
    {
      suffix += 1
    }
    func changed(_ text: String, _ words: [Range<String.Index>]) -> Range<String.Index> {
      let start = prefix < words.count ? words[prefix].lowerBound : text.endIndex
      let end = suffix > 0 ? words[words.count - suffix].lowerBound : text.endIndex
      return start..<max(start, end)
    }
    return (changed(old, oldWords), changed(new, newWords))
  }

  /// The changed part of every changed line of a hunk, by the line's index in the hunk.
  ///
  /// A run of removed lines followed by a run of added lines of the same length is read as
  /// those lines rewritten, the first removed with the first added and so on; runs of other
  /// lengths are whole changes, with nothing marked within them.
  public static func inHunk(_ hunk: Hunk) -> [Int: Range<String.Index>] {
    var marks: [Int: Range<String.Index>] = [:]
    let lines = hunk.lines
    var index = 0
    while index < lines.count {
      guard lines[index].kind == .removed else {
        index += 1
        continue
      }
      let removedStart = index
      while index < lines.count, lines[index].kind == .removed { index += 1 }
      let addedStart = index
      while index < lines.count, lines[index].kind == .added { index += 1 }
      let removed = addedStart - removedStart
      guard index - addedStart == removed else { continue }
      for offset in 0..<removed {
        let (old, new) = (removedStart + offset, addedStart + offset)
        if let ranges = Self.ranges(old: lines[old].text, new: lines[new].text) {
          marks[old] = ranges.old
          marks[new] = ranges.new
        }
      }
    }
    return marks
  }

  /// The line cut into words, runs of spaces, and single other characters.
  static func words(_ text: String) -> [Range<String.Index>] {
    var words: [Range<String.Index>] = []
    var index = text.startIndex
    func isWord(_ character: Character) -> Bool {
      character.isLetter || character.isNumber || character == "_"
    }
    while index < text.endIndex {
      let character = text[index]
      var end = text.index(after: index)
      if isWord(character) {
        while end < text.endIndex, isWord(text[end]) { end = text.index(after: end) }
      } else if character == " " || character == "\t" {
        while end < text.endIndex, text[end] == " " || text[end] == "\t" {
          end = text.index(after: end)
        }
      }
      words.append(index..<end)
      index = end
    }
    return words
  }
}
