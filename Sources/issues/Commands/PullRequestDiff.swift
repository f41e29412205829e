import ArgumentParser
import Foundation
import GitHubIssues
import IssuesBrowser
import TrellisTerminal

/// `issues pr diff`: a pull request's changes, as `gh pr diff` prints them, kept in the cache
/// at their head commit for reading offline.
struct PullRequestDiffCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "diff",
    abstract: "Print a pull request's changes, with gh pr diff's flags.",
    discussion: """
      The files are read through the API (100 a page, the 3,000 GitHub lists) and kept in the \
      cache at their head commit: --offline prints the kept ones, and a push is read again. A \
      patch GitHub leaves out for size is read from the pull request's whole diff; a binary \
      file, a rename without changes, and a file whose changes GitHub gives no way to read \
      are said as such, never printed as unchanged. Coloured to a terminal (--color), \
      unless NO_COLOR is set. --patch prints each commit as git format-patch writes it, \
      asked of GitHub.
      """)

  /// When to colour.
  enum ColorChoice: String, ExpressibleByArgument, CaseIterable {
    case always, never, auto
  }

  @OptionGroup var issue: IssueArgument

  @OptionGroup var options: RepositoryOptions

  @Flag(name: .long, help: "Print only the names of the files changed.")
  var nameOnly = false

  @Flag(
    name: .long,
    help: "Print each commit as a patch (as git format-patch writes them); asked of GitHub.")
  var patch = false

  @Option(name: .long, help: "Colour the diff: always, never or auto.")
  var color: ColorChoice = .auto

  @Flag(name: [.customShort("w"), .long], help: "Open the pull request's files in the browser.")
  var web = false

  @Flag(help: "Do not ask GitHub: print the diff the cache keeps.")
  var offline = false

  func validate() throws {
    if patch, nameOnly { throw ValidationError("Give --patch or --name-only, not both.") }
    if patch, offline {
      throw ValidationError(
        "--patch is asked of GitHub each time (the cache keeps the files' changes, not the "
          + "commits'): run without --offline.")
    }
  }

  func run() async throws {
    let number = issue.number
    let (host, repository) = try issue.applied(to: options).resolve()
    if web {
      print(Desktop.open("https://\(host.name)/\(repository)/pull/\(number)/files"))
      return
    }
    if patch { return try await printPatches(number, host: host, repository: repository) }
    let cache = try Terminal.openCache(at: IssueCache.defaultURL(for: repository, host: host))
    let kept = try cache.pullRequestDiff(number)
    let diff: PullRequestDiff
    if offline {
      guard let kept else {
        throw CommandFailure(
          "The changes of \(repository)#\(number) are not in the cache: run without --offline.")
      }
      diff = kept
    } else {
      let client = Syncing.client(
        host: host, token: try TokenDiscovery.token(for: host), timeout: options.timeout)
      do {
        diff = try await PullRequestDiffFetcher(
          client: client, cache: cache, repository: repository
        ).fetch(number)
      } catch  where error.code == .notFound && kept == nil {
        throw CommandFailure(
          "\(repository)#\(number) is not a pull request, or the token cannot see it.")
      } catch {
        guard let kept else { throw Terminal.failure(error, repository: repository) }
        Terminal.standardError(
          "warning: \(Terminal.failure(error, repository: repository)) Printing the changes kept "
            + "at \(kept.headSHA.prefix(7)).\n")
        diff = kept
      }
    }
    // To a terminal, what the files hold is shown, never acted on (an escape sequence in a
    // changed line); to a pipe, the bytes as GitHub gave them.
    let toTerminal = isatty(STDOUT_FILENO) == 1
    var output = ""
    func flush() {
      StandardOutput.write(output)
      output = ""
    }
    for file in diff.files {
      var text = nameOnly ? file.path + "\n" : file.gitText
      if toTerminal { text = ControlCharacters.visible(text, keepingLineBreaks: true) }
      output += colored && !nameOnly ? Self.colored(text) : text
      if output.utf8.count > 1 << 16 { flush() }
    }
    flush()
    if diff.files.count < diff.announcedFiles {
      Terminal.standardError(
        "warning: \(repository)#\(number) changes \(diff.announcedFiles) files; GitHub lists "
          + "the first \(diff.files.count).\n")
    }
  }

  /// `--patch`: the commits as GitHub writes them with the patch media type.
  private func printPatches(
    _ number: Int, host: GitHubHost, repository: RepositoryName
  ) async throws {
    let client = Syncing.client(
      host: host, token: try TokenDiscovery.token(for: host), timeout: options.timeout)
    let text: String?
    do {
      text = try await client.pullRequestDiff(of: repository, pullRequest: number, as: .patch)
    } catch  where error.code == .notFound {
      throw CommandFailure(
        "\(repository)#\(number) is not a pull request, or the token cannot see it.")
    } catch {
      throw Terminal.failure(error, repository: repository)
    }
    guard let text else {
      throw CommandFailure(
        "GitHub will not write the patches of \(repository)#\(number): they are too large. "
          + "`issues pr diff \(number)` prints its files' changes.")
    }
    var output =
      isatty(STDOUT_FILENO) == 1
      ? ControlCharacters.visible(text, keepingLineBreaks: true) : text
    if colored { output = Self.colored(output) }
    StandardOutput.write(output)
  }

  /// Whether to colour, as `--color` and `NO_COLOR` say.
  private var colored: Bool {
    switch color {
    case .always: true
    case .never: false
    case .auto:
      isatty(STDOUT_FILENO) == 1
        && ProcessInfo.processInfo.environment["NO_COLOR"].map(\.isEmpty) ?? true
    }
  }

  /// The lines of a file's header git shows bold.
  private static let metaPrefixes = [
    "diff --git", "--- ", "+++ ", "index ", "new file mode ", "deleted file mode ", "old mode ",
    "new mode ", "similarity index ", "dissimilarity index ", "rename ", "copy ",
  ]

  /// A file's diff coloured as git colours one: headers bold, hunk headers cyan, additions
  /// green, removals red.
  static func colored(_ text: String) -> String {
    var result = ""
    // Within a hunk, `--- x` is a removed line, not a header.
    var inHunk = false
    // Split at `\n` alone: a CRLF line keeps its `\r` (`"\r\n"` is one `Character`).
    for scalars in text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false)
      .dropLast()
    {
      let line = Substring(scalars)
      if line.hasPrefix("diff --git ") { inHunk = false }
      if line.hasPrefix("@@") { inHunk = true }
      let style: String? =
        if !inHunk, metaPrefixes.contains(where: { line.hasPrefix($0) }) {
          "1"
        } else if line.hasPrefix("@@") {
          "36"
        } else if line.hasPrefix("+") {
          "32"
        } else if line.hasPrefix("-") {
          "31"
        } else {
          nil
        }
      result += style.map { "\u{1B}[\($0)m\(line)\u{1B}[m\n" } ?? "\(line)\n"
    }
    return result
  }
}
