import ArgumentParser

/// `issues help offline` (or `issues offline`): how an action reaches GitHub through the queue,
/// exactly once, and what happens when GitHub cannot be reached or disagrees.
struct OfflineHelp: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "offline",
    abstract: "Offline, and the queue every write goes through.",
    discussion: """
      Every write (close, reopen, edit, comment, from a command or a key) is written to the \
      repository's cache first, in its queue of actions, in one transaction with the row it \
      changes: it shows at once, in the list and the counts, and is then sent. The queue is a \
      table of the cache, so it survives kill -9 and a reboot; a sync that brings GitHub's \
      version of an issue shows the queued actions on top of it until they land.

      When GitHub cannot be reached (--offline, a network that is gone, a 5xx, no answer), an \
      action is not lost and not refused: it waits, its row marked ⇡ and the title bar \
      counting them, and is sent when GitHub can be reached: by the browser every half \
      minute, by every sync (before its listing), or by `issues queue send`. The commands say \
      "Queued: …" on standard error and exit 0. A refusal is not queued: a refused token \
      (401), 403, 404, 410, 422 or a redirect outside the API root exits 1 with one sentence, \
      the change taken back. A token that lacks a scope is told which scope and the command \
      that adds it (gh auth refresh -s SCOPE). Writes need a token: without one, nothing is \
      sent or queued.

      Each action leaves the process at most once. It is marked as sent in the same statement \
      that checks it was not cancelled, before its request goes; no request that writes is \
      retried, by the client or the transport. When the answer is lost (a connection dropped \
      after sending), GitHub is read to see whether it landed; until that is known the action \
      waits, marked as sent, and is checked again before anything is sent for that issue. \
      One replay runs at a time per cache, across processes.

      "Landed" is judged exactly, never by a look-alike: a comment landed when the issue's \
      comments hold one with its body by the token's account (asked of GitHub once per token \
      before the first send; nothing is sent while it cannot be known) and newer than every \
      comment listed right before the first send, so the same "+1" by someone else, or your \
      own from before, is not it. A close or reopen landed when the timeline holds your \
      closed (reopened) event newer than the first send. A milestone, label or assignee change \
      landed when GitHub holds what it asks. A new issue (`issues create`) landed when your \
      issues, newest first, hold one with its title and body numbered above the highest \
      number GitHub had given right before the first send (numbers only grow), not already \
      claimed by another new issue: the same issue filed by you earlier, or by someone else, \
      is not it.

      A new issue shows at once as a row with no number ("new"): comments and changes can be \
      queued on it, and are sent after it, on the number GitHub gives it; cancelling it \
      removes the row and what was queued on it.

      An action that conflicts with what GitHub holds when its turn comes (closed or reopened \
      by someone else, moved to another milestone, a milestone deleted), judged against the \
      version it was queued on, is not forced: it waits in conflict with the reason, and the \
      issue's later actions wait behind it. Its row is marked !, the reader opens on a \
      "Queued" post that says each action and why, F sends those in conflict anyway and U \
      cancels those not sent (an action sent without an answer cannot be cancelled: it may \
      have landed). From a script: `issues queue` lists them (id, issue, status, action, \
      detail; --json, --all for the finished ones), `issues queue force ID` and \
      `issues queue cancel ID`.

      A comment written in the editor is kept in a draft file, readable by you only, until it \
      is queued, and comes back there if GitHub refuses it: `issues comment N` offers it \
      again (--send-draft, --editor, --discard-draft, which also cancels the comment waiting \
      in the queue). Running the same `issues comment N --body TEXT` again while that comment \
      waits settles it rather than queuing a second copy.

      The inbox's triage (read, done, unsubscribe) follows the same rules in a queue of its \
      own, per host.
      """)

  func run() {
    // From the root: parsed alone, the command would name itself without "issues".
    print(Issues.helpMessage(for: Self.self), terminator: "")
  }
}
