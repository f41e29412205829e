import ArgumentParser

/// `issues help mirror` (or `issues mirror`): what a sync brings, how `sync --all` mirrors every
/// conversation within a token's points, and why no listing loses or wrongly deletes an item.
struct MirrorHelp: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "mirror",
    abstract: "The cache, the mirror and its budget, and listings that lose nothing.",
    discussion: """
      A sync (`issues sync`, the browser's, the dashboard's) brings what changed since the \
      last one, through REST with ETags: a quiet repository answers 304 and costs nothing. \
      Each page is written as it arrives, so an interrupted sync resumes where it stopped. \
      Comments are fetched when an issue is first read (and again once it changed); \
      `sync --comments` lists the repository's comments in one go, bounded by the counts the \
      cached issues announce. Pull requests live in the same cache: with a token, those that \
      changed are asked of GraphQL for their review, checks, branches and size (every open \
      one, and the newest 350 closed ones a sync).

      `sync --all` makes the cache a mirror through GraphQL (it needs a token): every issue \
      with its whole conversation (comments, reactions, the events the reader shows, \
      sub-issues, issue type), so that any conversation reads offline. REST would take a \
      request per issue; a GraphQL page brings 49 issues with their first 100 timeline \
      entries for one point of the 5,000 an hour. Every query asks what it cost and what is \
      left: the sync keeps 50 points for other work (or stops at --points N), stays under \
      2,000 points a minute, waits out a secondary limit and halves its pages when a query \
      times out. Cut off anywhere, it resumes where it stopped. Once a cache is a mirror, \
      every sync probes with REST first and fetches through GraphQL only the conversations \
      that changed. `sync --status` says how many issues read offline, what the mirror spent \
      and what it does not follow: GitHub does not change an issue for an edited or deleted \
      comment or a reaction, so those arrive when the issue changes next, or with \
      `sync --comments`.

      No listing loses an item to GitHub's paging. A listing asks again from the latest \
      update it stored rather than following page numbers, so an item edited while it runs \
      is seen twice rather than shifting another out. Items updated in the same second (a \
      bulk edit) are walked in windows that overlap what was stored and count only when an \
      item is found again unchanged; a page that comes back out of order is asked for again. \
      GitHub does not promise that ties keep their order between requests: a server seen \
      reordering them fails the sync, naming it, rather than being trusted. An answer with \
      partial errors keeps what is valid; an issue GitHub could not read whole is not \
      written, is named with GitHub's message, and is read again by the next run.

      Nothing is deleted without proof. `sync --full` lists everything again and removes an \
      issue only when its listing ended and GitHub answers 404 or 410 for that issue on its \
      own (GitHub's count of issues says where to look for one deleted mid-listing); a \
      comment only after a listing that delivered every comment the issues announce. A \
      listing that cannot prove it saw everything keeps everything, says "the listing of … \
      was incomplete (…): nothing was deleted" and exits 1.

      The cache is $XDG_CACHE_HOME/trellis-issues/HOST/OWNER/REPO.sqlite (issues help \
      environment). Two syncs of one repository run one after the other, never at once. A \
      damaged cache, or one written by a newer version, is moved aside and a new one started, \
      with a warning.
      """)

  func run() {
    // From the root: parsed alone, the command would name itself without "issues".
    print(Issues.helpMessage(for: Self.self), terminator: "")
  }
}
