import Foundation
import Testing

/// Every public operation of the three types an app calls most — ``CollectionView``,
/// ``DiffableDataSource`` and ``SectionSnapshot`` — says what it costs, as the layouts and the
/// buffers do.
@Suite struct ComplexityDocumentationTests {
  /// A public operation found in a source file, and whether its documentation has a
  /// `- Complexity:` line.
  struct Operation: CustomStringConvertible {
    var file: String
    var line: Int
    var declaration: String
    var documented: Bool

    var description: String { "\(file):\(line): \(declaration)" }
  }

  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// The public functions, initializers, subscripts and computed or observed properties declared
  /// directly in a type's body or in its extensions, in the files that hold them.
  static func operations(ofType type: String, inFilesUnder folder: String, named prefix: String)
    throws -> [Operation]
  {
    let directory = root.appendingPathComponent(folder)
    let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
      .filter { $0.hasPrefix(prefix) && $0.hasSuffix(".swift") }.sorted()
    let declaration = try Regex(
      #"^  (?:@\w+(?:\([^)]*\))? )*public (?:(?:static|mutating|nonisolated|final) )*(func|init|subscript|var)\b(.*)$"#
    )
    var found: [Operation] = []
    for file in files {
      let lines = try String(
        contentsOf: directory.appendingPathComponent(file), encoding: .utf8
      ).components(separatedBy: "\n")
      var inType = false
      for (index, line) in lines.enumerated() {
        // A declaration at the left margin opens a body: the type's own, or another's.
        if let first = line.first, first != " ", first != "}", !line.hasPrefix("//") {
          let words = line.split(separator: " ").map(String.init)
          inType =
            words.contains { $0 == type || $0.hasPrefix(type + "<") || $0.hasPrefix(type + ":") }
            && (words.contains("extension") || words.contains("class")
              || words.contains("struct"))
        }
        guard inType, let match = line.wholeMatch(of: declaration) else { continue }
        let kind = match.output[1].substring.map(String.init) ?? ""
        let rest = match.output[2].substring.map(String.init) ?? ""
        // A stored property without observers is data, not an operation.
        if kind == "var", !rest.contains("{") || rest.split(separator: "{")[0].contains("=") {
          continue
        }
        var above = index - 1
        var documentation: [String] = []
        while above >= 0 {
          let text = lines[above].trimmingCharacters(in: .whitespaces)
          guard text.hasPrefix("///") || text.hasPrefix("@") else { break }
          documentation.append(text)
          above -= 1
        }
        found.append(
          Operation(
            file: "\(folder)/\(file)", line: index + 1,
            declaration: line.trimmingCharacters(in: .whitespaces),
            documented: documentation.contains { $0.hasPrefix("/// - Complexity:") }))
      }
    }
    return found
  }

  @Test(arguments: [
    ("CollectionView", "Sources/TrellisTerminal/Collection", "CollectionView", 31),
    ("DiffableDataSource", "Sources/Trellis/DataSource", "DiffableDataSource", 23),
    ("SectionSnapshot", "Sources/Trellis/Snapshot", "SectionSnapshot", 27),
  ])
  func everyPublicOperationSaysWhatItCosts(
    type: String, folder: String, prefix: String, atLeast: Int
  ) throws {
    let operations = try Self.operations(ofType: type, inFilesUnder: folder, named: prefix)
    // Guards the scan itself: a pattern that found nothing would pass vacuously.
    #expect(operations.count >= atLeast, "only \(operations.count) operations of \(type) found")
    let missing = operations.filter { !$0.documented }
    let list = missing.map(\.description).joined(separator: "\n")
    #expect(
      missing.isEmpty,
      "\(missing.count) of \(operations.count) public operations of \(type) lack it:\n\(list)")
  }
}
