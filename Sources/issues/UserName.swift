/// A GitHub login as typed in a filter: letters, digits and single hyphens, 1 to 39 characters
/// (GitHub's rules), or `@me`.
enum UserName {
  /// What stands for the token's own account.
  static let me = "@me"

  /// Whether the text is a login or `@me`: anything else never reaches a query or a URL.
  static func isValid(_ text: String) -> Bool {
    if text == me { return true }
    guard (1...39).contains(text.count), !text.hasPrefix("-"), !text.hasSuffix("-"),
      !text.contains("--")
    else { return false }
    return text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
  }
}
