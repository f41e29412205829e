import ArgumentParser
import Foundation
import GitHubIssues
import IssuesBrowser
import TrellisTerminal

/// `issues pr merge`: merges a pull request through the outbox, exactly once, at the head
/// commit read — as `gh pr merge` does with its flags.
struct PullRequestMergeCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "merge",
    abstract: "Merge a pull request, with gh pr merge's flags.",
    discussion: """
      Says the pull request's state first (mergeable or not, its checks and review, read \
      again from GitHub), then merges it at \
      the head commit it read: if the branch moves meanwhile, GitHub refuses and nothing is \
      merged unseen. The merge goes through the queue: offline it waits and is sent once; a \
      lost answer is settled by reading the pull request before anything is sent again. \
      GitHub's refusal (checks failing, a review required, conflicts) is said as it gives it. \
      --delete-branch deletes the head branch once merged (a branch of the repository). \
      --auto turns on the pull request's auto-merge instead: GitHub merges it, at the head \
      read, once its checks and reviews allow (one that could be merged now is refused: merge \
      it without --auto); through the queue too, found on GitHub rather than sent twice.
      """)

  @OptionGroup var issue: IssueArgument

  @OptionGroup var options: RepositoryOptions

  @Flag(name: [.customShort("m"), .long], help: "Merge the commits with a merge commit.")
  var merge = false

  @Flag(name: [.customShort("s"), .long], help: "Squash the commits into one.")
  var squash = false

  @Flag(name: [.customShort("r"), .long], help: "Rebase the commits onto the base branch.")
  var rebase = false

  @Flag(name: [.customShort("d"), .long], help: "Delete the head branch once merged.")
  var deleteBranch = false

  @Option(name: [.customShort("t"), .long], help: "The merge commit's subject.")
  var subject: String?

  @Option(name: [.customShort("b"), .long], help: "The merge commit's body.")
  var body: String?

  @Flag(name: .long, help: "Have GitHub merge it once its requirements are met.")
  var auto = false

  func validate() throws {
    if [merge, squash, rebase].count(where: { $0 }) != 1 {
      throw ValidationError("Give one of --merge, --squash and --rebase.")
    }
    if auto && deleteBranch {
      throw ValidationError(
        "--delete-branch cannot be used with --auto: GitHub deletes the branch after an "
          + "auto-merge when the repository is set to.")
    }
  }

  func run() async throws {
    let method: PullRequestMerge.Method = merge ? .merge : squash ? .squash : .rebase
    let acting = try Acting(issue: issue, options: options)
    let number = acting.number
    // What is known of its review and checks, said before it is merged.
    let details = (try? acting.cache.pullRequestDetails(number: number)) ?? nil
    // The head to merge: GitHub's now, or offline the one whose diff was read (`pr diff`).
    let head: (sha: String, ref: String, base: String)
    var online = false
    // Whether its head branch is this repository's own, as GitHub says now (offline: checked
    // when the merge is sent).
    var ownsHead = true
    let read = try acting.cache.pullRequestDiff(number)
    do {
      let pull = try await acting.client.pullRequest(number, of: acting.repository)
      if pull.mergeable == false {
        throw CommandFailure(
          "GitHub says #\(number) does not merge cleanly (conflicts with \(pull.baseRef)): "
            + "nothing was merged.")
      }
      head = (pull.headSHA, pull.headRef, pull.baseRef)
      ownsHead = pull.headIsOwned(by: acting.repository)
      online = true
    } catch let error as GitHubError where error.code == .notFound {
      throw CommandFailure(
        "\(acting.repository)#\(number) is not a pull request, or the token cannot see it.")
    } catch let error as GitHubError
      where error.status == nil && [.offline, .serverError].contains(error.code)
    {
      // No answer from GitHub at all (offline, a dropped connection): the head read before.
      guard let read else {
        throw CommandFailure(
          "GitHub could not be reached, and no head of #\(number) was read to merge (`issues pr "
            + "diff \(number)` reads it): nothing was merged.")
      }
      guard !deleteBranch || details != nil else {
        throw CommandFailure(
          "GitHub could not be reached, and the head branch of #\(number) is not known: "
            + "merge without --delete-branch, or online.")
      }
      head = (read.headSHA, details?.headRef ?? "", details?.baseRef ?? "its base")
    } catch let error as GitHubError {
      throw Terminal.failure(error, repository: acting.repository)
    }
    // The methods the repository allows, when GitHub says (to those who can push).
    if online, let allowed = try? await acting.client.repository(acting.repository).mergeMethods,
      !allowed.contains(method)
    {
      let others = PullRequestMerge.Method.allCases.filter(allowed.contains)
      throw CommandFailure(
        "\(acting.repository) does not allow \(method.plural)"
          + (others.isEmpty
            ? "" : " (it allows \(others.map(\.plural).joined(separator: " and ")))")
          + ": nothing was merged.")
    }
    // The head a person read is the one merged (gh's --match-head-commit): a push since is
    // for them to read first.
    if online, let read, read.headSHA.lowercased() != head.sha.lowercased() {
      throw CommandFailure(
        "The head of #\(number) moved since you read it (\(read.headSHA.prefix(7)) → "
          + "\(head.sha.prefix(7))): read the new commits (`issues pr diff \(number)`) and merge "
          + "again. Nothing was merged.")
    }
    let cached = try await acting.cachedIssue()
    // What the merge depends on, read again: the cache's may be old ("checks passing" just
    // before GitHub refuses for a failing check). Offline, or unread, it is said as last read.
    var current = details
    var age = " when last read"
    if online,
      await PullRequestFetcher(
        client: acting.client, cache: acting.cache, repository: acting.repository
      ).fetch(number, reviews: nil, lineComments: false)
    {
      current = (try? acting.cache.pullRequestDetails(number: number)) ?? details
      age = ""
    }
    let state = current?.mergeSummary.map { $0 + age }
    Terminal.standardError(
      ControlCharacters.visible(
        (auto ? "Auto-merging" : "Merging")
          + " #\(number) “\(cached.title)” (\(method.rawValue)) at \(head.sha.prefix(7)): "
          + "\(head.ref) into \(head.base)"
          + (state.map { "; " + $0 } ?? "") + ".") + "\n")
    let deleting = deleteBranch && ownsHead
    if deleteBranch && !ownsHead {
      Terminal.standardError(
        ControlCharacters.visible(
          "note: \(head.ref) is a fork's branch, its owner's to delete: it will not be deleted.")
          + "\n")
    }
    let action: QueuedAction
    let merging = PullRequestMerge(
      method: method, headSHA: head.sha, subject: subject, body: body,
      deletingBranch: deleting ? head.ref : nil)
    do {
      action = try acting.cache.enqueue(
        auto ? .enableAutoMerge(merging) : .merge(merging), onIssue: number)
    } catch {
      throw CommandFailure(ControlCharacters.visible("\(error). Nothing was merged."))
    }
    var quick = acting.client
    quick.maximumRetries = min(quick.maximumRetries, 1)
    let replayer = ActionReplayer(client: quick, cache: acting.cache, repository: acting.repository)
    switch await replayer.sendNow([action]) {
    case .landed where auto:
      print("#\(number) will be merged (\(method.rawValue)) once its requirements are met.")
    case .landed:
      // The deletion follows the merge and may fail on its own (a protected branch): said.
      var deleted = deleting
      if deleting,
        (try? await acting.client.hasBranch(head.ref, in: acting.repository)) != false
      {
        deleted = false
        Terminal.standardError(
          ControlCharacters.visible(
            "warning: the branch \(head.ref) was not deleted (protected, moved since the merge, "
              + "or it could not be checked): see it on GitHub.") + "\n")
      }
      print("Merged #\(number) (\(method.rawValue))" + (deleted ? "; deleted \(head.ref)." : "."))
    case .refused(let refusal):
      throw CommandFailure(
        ControlCharacters.visible(
          "Could not merge #\(number): \(refusal.error?.summary() ?? refusal.reason). Nothing "
            + "was merged, and nothing waits in the queue."))
    case .queued(_, let because):
      Terminal.standardError(
        ControlCharacters.visible(
          "Queued: \(auto ? "auto-merge" : "merge") #\(number) — "
            + "\(because?.summary() ?? "GitHub could not be reached"): "
            + "sent once when GitHub can be reached, at the head read now.") + "\n")
    }
  }
}
