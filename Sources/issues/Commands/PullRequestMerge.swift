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
      it without --auto); through the queue too, found on GitHub rather than sent twice. \
      Where the base branch merges through a merge queue, the pull request is added to it \
      instead (at the head read; the queue decides the method, so none need be given; with \
      --auto, GitHub adds it once its checks allow).
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
    if [merge, squash, rebase].count(where: { $0 }) > 1 {
      throw ValidationError("Give one of --merge, --squash and --rebase.")
    }
    if auto && deleteBranch {
      throw ValidationError(
        "--delete-branch cannot be used with --auto: GitHub deletes the branch after an "
          + "auto-merge when the repository is set to.")
    }
  }

  /// How the pull request goes to GitHub.
  private enum Way {
    /// Merged now through REST.
    case now
    /// Auto-merge turned on: GitHub merges it once its requirements are met.
    case auto
    /// Added to its base branch's merge queue, which merges it its own way.
    case queue
  }

  func run() async throws {
    let given: PullRequestMerge.Method? =
      merge ? .merge : squash ? .squash : rebase ? .rebase : nil
    let method = given ?? .merge
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
    var queue: MergeQueueState?
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
      // A branch that merges through a merge queue refuses REST's merge: the queue is the way.
      // Unknown (the read failed, a host without queues), the merge goes as ever. Auto-merge
      // is GitHub's to route: on such a branch it enters the queue once the checks allow.
      if !auto {
        queue =
          (try? await acting.client.mergeQueueState(
            ofPullRequest: number, in: acting.repository)) ?? nil
      }
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
    let way: Way = queue?.queueEnabled == true ? .queue : auto ? .auto : .now
    if way == .queue, let entry = queue?.entry {
      print(
        "#\(number) is already in the merge queue of \(head.base)"
          + (entry.position.map { " (position \($0))" } ?? "") + ": nothing was sent.")
      return
    }
    if way != .queue, given == nil {
      throw CommandFailure(
        "Give one of --merge, --squash and --rebase"
          + (online ? ": \(head.base) has no merge queue to decide." : "."))
    }
    // The methods the repository allows, when GitHub says (to those who can push).
    if way != .queue, online,
      let allowed = try? await acting.client.repository(acting.repository).mergeMethods,
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
    let doing =
      switch way {
      case .now: "Merging #\(number) “\(cached.title)” (\(method.rawValue))"
      case .auto: "Auto-merging #\(number) “\(cached.title)” (\(method.rawValue))"
      case .queue: "Adding #\(number) “\(cached.title)” to the merge queue"
      }
    Terminal.standardError(
      ControlCharacters.visible(
        doing + " at \(head.sha.prefix(7)): \(head.ref) into \(head.base)"
          + (state.map { "; " + $0 } ?? "") + ".") + "\n")
    if way == .queue, given != nil || deleteBranch {
      Terminal.standardError(
        ControlCharacters.visible(
          "note: \(head.base) merges through a merge queue, which decides how it is merged"
            + (deleteBranch
              ? " and deletes the branch when the repository is set to; it is not deleted here"
              : "")
            + ".") + "\n")
    }
    let deleting = deleteBranch && ownsHead && way != .queue
    if deleteBranch && !ownsHead && way != .queue {
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
      let operation: QueuedAction.Operation =
        switch way {
        case .now: .merge(merging)
        case .auto: .enableAutoMerge(merging)
        case .queue: .enqueue(merging)
        }
      action = try acting.cache.enqueue(operation, onIssue: number)
    } catch {
      throw CommandFailure(ControlCharacters.visible("\(error). Nothing was merged."))
    }
    var quick = acting.client
    quick.maximumRetries = min(quick.maximumRetries, 1)
    let replayer = ActionReplayer(client: quick, cache: acting.cache, repository: acting.repository)
    switch await replayer.sendNow([action]) {
    case .landed where way == .queue:
      let position =
        (try? await acting.client.mergeQueueState(
          ofPullRequest: number, in: acting.repository))??.entry?.position
      print(
        "Added #\(number) to the merge queue of \(head.base)"
          + (position.map { " (position \($0))" } ?? "")
          + ": it is merged once its checks pass with those ahead of it.")
    case .landed where way == .auto:
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
        ControlCharacters.visible(refusal.sentence(audience: .command)))
    case .queued(let waiting, let because):
      Terminal.standardError(
        ControlCharacters.visible(
          ActionReplayer.Settlement.queuedSentence(
            waiting, because: because, audience: .command)
            + " It goes at the head read now.") + "\n")
    }
  }
}
