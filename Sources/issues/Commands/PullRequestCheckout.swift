import ArgumentParser
import Foundation
import GitHubIssues
import IssuesBrowser

/// `issues pr checkout`: a pull request's head in the current clone, as `gh pr checkout` does
/// — forks included, never moving uncommitted work.
struct PullRequestCheckoutCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "checkout",
    abstract: "Check out a pull request's head in this clone, with gh pr checkout's flags.",
    discussion: """
      Fetches refs/pull/N/head (a fork's pull request too) from this clone's remote of the \
      repository, into a branch named after the pull request's head branch (-b names it). A \
      fork's branch whose name this clone uses already, or that names the branch it goes into \
      (a fork's main), is checked out as OWNER/BRANCH, as gh does. A branch of that name is \
      only moved forward; one with commits the pull request lacks is \
      left as it is unless --force resets it. Nothing is done while tracked files have \
      uncommitted changes: commit or stash them first.
      """)

  @OptionGroup var issue: IssueArgument

  @OptionGroup var options: RepositoryOptions

  @Option(
    name: [.customShort("b"), .long],
    help: ArgumentHelp(
      "The local branch to use (the head branch's name by default).",
      valueName: "name"))
  var branch: String?

  @Flag(name: [.customShort("f"), .long], help: "Reset the local branch to the head.")
  var force = false

  @Flag(name: .long, help: "Check out the head without a branch.")
  var detach = false

  func validate() throws {
    if detach, branch != nil { throw ValidationError("Give --branch or --detach, not both.") }
  }

  func run() async throws {
    let number = issue.number
    let (host, repository) = try issue.applied(to: options).resolve()
    let git = try Git()
    guard (try? git.run(["rev-parse", "--is-inside-work-tree"]))?.output == "true" else {
      throw CommandFailure("This is not a git clone: run it in a clone of \(repository).")
    }
    let changes = try git.run(["status", "--porcelain", "--untracked-files=no"]).output
    guard changes.isEmpty else {
      throw CommandFailure(
        "Tracked files have uncommitted changes: commit or stash them first. Nothing was "
          + "checked out.")
    }
    let remote = try Self.remote(of: repository, host: host, git: git)
    var name: String?
    // Whether the branch is made for a fork's head: it then records the pull request it is
    // for, so that a later checkout knows it for the pull request's own.
    var forFork = false
    if !detach {
      if let branch {
        name = branch
      } else {
        (name, forFork) = await headBranch(
          number, host: host, repository: repository, git: git, remote: remote)
      }
    }
    if let name {
      // The name may come from GitHub: only a valid branch name, never an option, reaches git.
      guard !name.hasPrefix("-"),
        (try? git.run(["check-ref-format", "--branch", name]))?.status == 0
      else {
        throw CommandFailure(
          "“\(name)” is not a usable branch name: -b NAME names the branch. Nothing was checked out."
        )
      }
    }
    try git.check(
      ["fetch", "--no-tags", remote, "refs/pull/\(number)/head"], doing: "fetch #\(number)")
    let head = try git.run(["rev-parse", "FETCH_HEAD"]).output
    let short = String(head.prefix(7))
    guard let name else {
      try git.check(["checkout", "--quiet", "--detach", head], doing: "check out \(short)")
      print("Checked out #\(number) at \(short), without a branch.")
      return
    }
    let exists =
      (try? git.run(["rev-parse", "--verify", "--quiet", "refs/heads/\(name)"]))?
      .status == 0
    if !exists {
      try git.check(["checkout", "--quiet", "-b", name, head], doing: "create \(name)")
    } else if force {
      try git.check(["checkout", "--quiet", "-B", name, head], doing: "reset \(name)")
    } else {
      guard try git.run(["merge-base", "--is-ancestor", "refs/heads/\(name)", head]).status == 0
      else {
        throw CommandFailure(
          "The branch \(name) has commits #\(number) does not: it is left as it is. --force "
            + "resets it to the pull request's head; -b NAME checks it out as another branch.")
      }
      try git.check(["checkout", "--quiet", name], doing: "check out \(name)")
      try git.check(["merge", "--quiet", "--ff-only", head], doing: "move \(name) forward")
    }
    if forFork {
      // As gh records it: `git pull` on the branch then fetches the pull request's head.
      _ = try? git.run(["config", "branch.\(name).remote", remote])
      _ = try? git.run(["config", "branch.\(name).merge", "refs/pull/\(number)/head"])
    }
    print("Checked out #\(number) at \(short) on \(name).")
  }

  /// The local branch for the pull request's head, and whether the head is a fork's: the head
  /// branch's name, as GitHub says (`pr-N` when it cannot be asked).
  ///
  /// A fork's branch is named `OWNER/BRANCH`, as gh names it, when the plain name is the branch
  /// the pull request goes into or the clone's default (a fork's `main`), or a branch of this
  /// clone that is not this pull request's (one a checkout made records it): a branch that is
  /// not the pull request's is never moved.
  private func headBranch(
    _ number: Int, host: GitHubHost, repository: RepositoryName, git: Git, remote: String
  ) async -> (String, fork: Bool) {
    let client = Syncing.client(
      host: host, token: (try? TokenDiscovery.token(for: host)) ?? nil, timeout: options.timeout)
    guard let pull = try? await client.pullRequest(number, of: repository), !pull.headRef.isEmpty
    else { return ("pr-\(number)", false) }
    let name = pull.headRef
    guard !pull.headIsOwned(by: repository) else { return (name, false) }
    func isOthers(_ branch: String) -> Bool {
      guard
        (try? git.run(["rev-parse", "--verify", "--quiet", "refs/heads/\(branch)"]))?.status == 0
      else { return false }
      let merges = try? git.run(["config", "--get", "branch.\(branch).merge"]).output
      return merges != "refs/pull/\(number)/head"
    }
    // The remote's default branch, as this clone knows it (`origin/HEAD`).
    let remoteDefault = (try? git.run(["symbolic-ref", "--quiet", "refs/remotes/\(remote)/HEAD"]))?
      .output.split(separator: "/").dropFirst(3).joined(separator: "/")
    guard name == pull.baseRef || name == remoteDefault || isOthers(name) else {
      return (name, true)
    }
    // A deleted fork has no owner to name: the pull request's number stands in.
    let owner = pull.headRepository?.split(separator: "/").first.map(String.init) ?? "pr-\(number)"
    return ("\(owner)/\(name)", true)
  }

  /// The clone's remote of the repository: the first whose URL names it.
  static func remote(of repository: RepositoryName, host: GitHubHost, git: Git) throws -> String {
    let names = try git.run(["remote"]).output.split(separator: "\n").map(String.init)
    for name in names {
      // As configured: `get-url` would give what a rewrite (`insteadOf`) makes of it.
      guard let url = try? git.run(["config", "--get", "remote.\(name).url"]).output,
        let remote = GitRemoteURL(url),
        remote.repository.description.lowercased() == repository.description.lowercased(),
        remote.host.lowercased() == host.name.lowercased()
      else { continue }
      return name
    }
    throw CommandFailure(
      "No remote of this clone is \(host.name)/\(repository): add one (git remote add upstream "
        + "https://\(host.name)/\(repository).git). Nothing was checked out.")
  }
}

/// `git` in the current directory: its status and output, and what it said when it failed.
struct Git {
  let path: String

  init() throws {
    guard let tool = ExternalTool(named: "git") else {
      throw CommandFailure("git is not on the PATH.")
    }
    path = tool.path
  }

  /// Runs git with `arguments` and returns its status and trimmed standard output.
  func run(_ arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    let output = Pipe()
    // What it says on failure goes to a file: two pipes read one after the other could fill.
    let errorFile = FileManager.default.temporaryDirectory.appendingPathComponent(
      "issues-git-\(getpid())-\(UUID().uuidString.prefix(8))")
    _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
    defer { try? FileManager.default.removeItem(at: errorFile) }
    let errors = try FileHandle(forWritingTo: errorFile)
    defer { try? errors.close() }
    process.standardOutput = output
    process.standardError = errors
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let outData = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let errData = (try? Data(contentsOf: errorFile)) ?? Data()
    func text(_ data: Data) -> String {
      String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
    return (process.terminationStatus, text(outData), text(errData))
  }

  /// Runs git and fails with what it said when it fails.
  func check(_ arguments: [String], doing what: String) throws {
    let result = try run(arguments)
    guard result.status == 0 else {
      throw CommandFailure(
        "git could not \(what): \(result.errors.isEmpty ? "status \(result.status)" : result.errors)"
      )
    }
  }
}
