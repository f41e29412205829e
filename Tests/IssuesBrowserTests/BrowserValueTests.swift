import Foundation
import GitHubIssues
@testable import IssuesBrowser
import Testing
import Trellis
import TrellisTerminal
import TrellisTestSupport

/// The screen geometry, the action rules and the reader's model, as values.
@Suite struct BrowserValueTests {
  static let now = Date(timeIntervalSince1970: 1_800_000_000)

  /// Every frame stays inside the screen, and the preview shows only where there is room for it.
  @Test func everyFrameFitsTheScreen() {
    let seed: UInt64 = 35
    print("BrowserValueTests.everyFrameFitsTheScreen seed: \(seed)")
    var rng = SplitMix64(seed: seed)
    for _ in 0..<500 {
      let size = TerminalSize(
        columns: Int.random(in: 1...300, using: &rng), rows: Int.random(in: 1...120, using: &rng))
      let geometry = ScreenGeometry(size: size)
      let frames = [
        geometry.chipsFrame, geometry.listFrame, geometry.readerArea,
        geometry.helpArea(lineCount: 60), geometry.labelPickerFrame(options: 40),
      ]
      for frame in frames where frame.width > 0 && frame.height > 0 {
        #expect(frame.x >= 0 && frame.y >= 0, "\(size) seed \(seed)")
        #expect(frame.x + frame.width <= size.columns, "\(frame) in \(size) seed \(seed)")
        #expect(frame.y + frame.height <= size.rows, "\(frame) in \(size) seed \(seed)")
      }
      if geometry.hasPreviewPane {
        #expect(geometry.listWidth + geometry.previewArea.width == size.columns)
        #expect(geometry.previewTextWidth >= 8)
      } else {
        #expect(geometry.listWidth == size.columns)
      }
    }
  }

  static func issue(_ number: Int, state: GitHubIssue.State = .open, milestone: Int? = nil)
    -> CachedIssue
  {
    CachedIssue(
      key: IssueKey(rawValue: Int64(number)), id: Int64(number), number: number, title: "t",
      state: state, author: "a",
      milestoneNumber: milestone, labels: [], comments: 0, createdAt: now, updatedAt: now,
      closedAt: nil, isPullRequest: false, htmlURL: nil, body: nil)
  }

  @Test func actionsAreRefusedWithTheReasonAndPlannedWithASummary() {
    let milestones = [3: GitHubMilestone(id: 3, number: 3, title: "1.0", state: .open)]
    func plan(_ command: BrowserCommand, _ issue: CachedIssue, target: MilestoneFilter? = nil)
      -> ActionPlan
    {
      ActionPlan.plan(
        command, on: issue, access: .allowed, target: target, milestones: milestones)
    }
    #expect(
      plan(.close(.completed), Self.issue(1)) == .edit([.close(.completed)], summary: "closing #1"))
    #expect(
      plan(.close(.completed), Self.issue(1, state: .closed)) == .refuse("#1 is already closed."))
    #expect(plan(.reopen, Self.issue(1)) == .refuse("#1 is open."))
    #expect(
      plan(.moveToFocusedChip, Self.issue(2), target: .number(3))
        == .edit([.setMilestone(number: 3)], summary: "moving #2 to 1.0"),
      "the milestone is named by its title")
    #expect(
      plan(.moveToFocusedChip, Self.issue(2, milestone: 3), target: .number(3))
        == .refuse("#2 is in that milestone already."))
    #expect(
      plan(.moveToFocusedChip, Self.issue(2), target: .all)
        == .refuse("Pick a milestone, or \"No milestone\"."))
    #expect(plan(.moveToMilestone, Self.issue(2)) == .pickMilestone(current: .withoutMilestone))
    let offline = ActionPlan.plan(
      .close(.completed), on: Self.issue(1), access: .unavailable(reason: "offline mode"),
      target: nil, milestones: [:])
    #expect(offline == .refuse("Issues cannot be changed here: offline mode."))
  }

  /// Events go under the post written before them; events without a time, at the end; and when
  /// the cache holds fewer comments than announced, the reader says so.
  @Test func theReaderPlacesEventsAndSaysWhatIsMissing() {
    var issue = Self.issue(5)
    issue.comments = 3
    let comments = [10, 20].map { minute in
      CachedComment(
        id: Int64(minute), issueNumber: 5, author: "c\(minute)", body: "at \(minute)",
        createdAt: Self.now.addingTimeInterval(Double(minute) * 60),
        updatedAt: Self.now.addingTimeInterval(Double(minute) * 60))
    }
    let events = [
      CachedTimelineEvent(
        actor: "x", createdAt: Self.now.addingTimeInterval(5 * 60), sentence: "labelled"),
      CachedTimelineEvent(
        actor: "y", createdAt: Self.now.addingTimeInterval(15 * 60), sentence: "closed"),
      CachedTimelineEvent(actor: "z", createdAt: nil, sentence: "pinned"),
    ]
    var model = ReaderModel(number: 5)
    var snapshot = model.restart(
      issue: issue, lines: [[StyledRun("body")]], commentCount: 2, events: events, now: Self.now)
    model.append(comments, to: &snapshot, width: 60, now: Self.now)
    model.finish(issue: issue, to: &snapshot, width: 60, now: Self.now)
    #expect(snapshot.sectionIdentifiers == [0, 10, 20, ReaderModel.commentStatusPost])
    func text(_ post: Int64) -> String {
      (model.posts[post]?.lines ?? []).map { $0.map(\.text).joined() }.joined(separator: "\n")
    }
    #expect(text(0).contains("x labelled"), "the event before the first comment is under the issue")
    #expect(text(10).contains("y closed") && !text(10).contains("z pinned"))
    #expect(text(20).contains("z pinned"), "an event without a time goes at the end")
    #expect(text(ReaderModel.commentStatusPost).contains("2 of the 3 comments are in the cache"))
    #expect(snapshot.numberOfItems == model.posts.values.map(\.lines.count).reduce(0, +))
  }

  /// A pull request's checks follow its description, failing first; its reviews are posts
  /// among the comments in time order, with their line-comment threads and the diff's end.
  @Test func theReaderPlacesReviewsAmongCommentsAndChecksUnderTheDescription() {
    var issue = Self.issue(6)
    issue.comments = 2
    let at = { (minute: Double) in Self.now.addingTimeInterval(minute * 60) }
    let comments = [10, 30].map { minute in
      CachedComment(
        id: Int64(minute), issueNumber: 6, author: "c\(minute)", body: "at \(minute)",
        createdAt: at(Double(minute)), updatedAt: at(Double(minute)))
    }
    let line = ReviewComment(
      id: 500, reviewID: 7, author: "mona", body: "Empty input?", path: "Parser.swift", line: 12,
      diffHunk: "@@ -1,2 +1,3 @@\n let a = 1\n-let b = 2\n+let b = 3", createdAt: at(19))
    let reply = ReviewComment(
      id: 501, reviewID: 8, inReplyTo: 500, author: "octocat", body: "Fixed.",
      path: "Parser.swift", line: 12, createdAt: at(25))
    let reviews = PullRequestReview.threaded(
      [
        PullRequestReview(
          id: 7, author: "mona", state: "CHANGES_REQUESTED", body: "A few things.",
          submittedAt: at(20)),
        PullRequestReview(
          id: 8, author: "octocat", state: "COMMENTED", body: "", submittedAt: at(25)),
        PullRequestReview(id: 9, author: "hubot", state: "APPROVED", body: "", submittedAt: at(40)),
      ], comments: [line, reply])
    let checks = [
      PullRequestCheck(name: "build", state: .passing),
      PullRequestCheck(name: "test", state: .failing),
    ]
    let events = [CachedTimelineEvent(actor: "x", createdAt: at(15), sentence: "labelled")]
    var model = ReaderModel(number: 6)
    var snapshot = model.restart(
      issue: issue, lines: [[StyledRun("body")]], commentCount: 2, events: events,
      reviews: reviews, checks: (checks, 5), now: Self.now)
    model.append(comments, to: &snapshot, width: 60, now: Self.now)
    model.finish(issue: issue, to: &snapshot, width: 60, now: Self.now)
    let (mona, hubot) = (ReaderModel.post(ofReview: 7), ReaderModel.post(ofReview: 9))
    #expect(snapshot.sectionIdentifiers == [0, ReaderModel.checksPost, 10, mona, 30, hubot])
    func text(_ post: Int64) -> String {
      (model.posts[post]?.lines ?? []).map { $0.map(\.text).joined() }.joined(separator: "\n")
    }
    #expect(text(ReaderModel.checksPost).hasPrefix("✗ test\n✓ build\n… and 3 more on GitHub"))
    #expect(model.posts[ReaderModel.checksPost]?.header.detail == "1 failing · 1 passing")
    #expect(text(10).contains("x labelled"), "the event before the review stays with the comment")
    #expect(model.posts[mona]?.header.detail.hasPrefix("changes requested") == true)
    let review = text(mona)
    #expect(
      review.hasPrefix(
        "A few things.\n\n▸ Parser.swift:12\n   let a = 1\n  -let b = 2\n  +let b = 3"))
    #expect(review.contains("│ mona") && review.contains("│ Empty input?"))
    #expect(
      review.contains("│ octocat") && review.contains("│ Fixed."), "the reply is in the thread")
    #expect(text(hubot).hasPrefix("approved"))
    #expect(snapshot.numberOfItems == model.posts.values.map(\.lines.count).reduce(0, +))
    #expect(Set([mona, hubot, ReaderModel.post(ofReview: -7)]).count == 3)
  }
}
