import Foundation
import GitHubIssues

extension LocalGitHub {
  /// Conversations for every issue (not pull request) a synthetic listing serves: comments (with
  /// reactions) and timeline events, spread with a long tail — most issues have a few, about one
  /// in a hundred has more than a page — and counted on each issue.
  ///
  /// - Parameters:
  ///   - repository: The repository served.
  ///   - comments: About this many comments in all.
  ///   - events: About this many timeline events in all.
  ///   - seed: The seed of the counts and authors.
  /// - Returns: The comments and events served.
  @discardableResult
  package func serveConversations(
    in repository: RepositoryName, comments: Int, events: Int, seed: UInt64 = 11
  ) -> (comments: Int, events: Int) {
    let path = "/repos/\(repository.owner)/\(repository.name)/issues"
    guard var listing = listings[path] else { return (0, 0) }
    let issues = listing.items.indices.filter {
      listing.items[$0].json.range(of: Data("\"pull_request\"".utf8)) == nil
    }
    guard !issues.isEmpty else { return (0, 0) }
    var state = seed
    func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
    /// A count around `mean`: a long tail, one in a hundred at 15 times the mean and more.
    func count(mean: Double) -> Int {
      let roll = next() % 1_000
      if roll < 10 { return Int(mean * 15) + Int(next() % UInt64(max(1, mean * 10))) }
      return Int(next() % UInt64(max(1, (mean * 1.7).rounded())))
    }
    let commentMean = Double(comments) / Double(issues.count)
    let eventMean = Double(events) / Double(issues.count)
    let kinds = ["labeled", "assigned", "closed", "reopened", "milestoned", "unlabeled", "renamed"]
    var servedComments = 0
    var servedEvents = 0
    let stamp = { (seconds: Int) in
      LocalGitHub.timestamp(Date(timeIntervalSince1970: 1_600_000_000 + Double(seconds)))
    }
    for index in issues {
      let number = listing.items[index].number
      let commentCount = count(mean: commentMean)
      let eventCount = count(mean: eventMean)
      if commentCount > 0 {
        var json = "["
        for offset in 0..<commentCount {
          nextCommentID += 1
          let id = nextCommentID
          let time = stamp(number * 1_000 + offset)
          let user = Int(next() % 50)
          let thumbs = next() % 4 == 0 ? #","reactions":{"+1":2,"heart":1}"# : ""
          if offset > 0 { json += "," }
          json +=
            #"{"id":\#(id),"node_id":"IC_\#(id)","body":"Comment \#(id) on #\#(number): "#
            + #"a few words about it.","user":{"login":"user\#(user)","id":\#(1_000 + user)},"#
            + #""created_at":"\#(time)","updated_at":"\#(time)","author_association":"NONE","#
            + #""html_url":"https://github.com/\#(repository)/issues/\#(number)#issuecomment-\#(id)""#
            + thumbs + "}"
        }
        json += "]"
        routes["\(path)/\(number)/comments"] = Route(
          status: 200, headers: ["content-type": "application/json"], body: Data(json.utf8))
        servedComments += commentCount
        // The issue counts them (its JSON was written with `"comments":0`).
        listing.items[index].json = Data(
          String(decoding: listing.items[index].json, as: UTF8.self)
            .replacingOccurrences(of: #""comments":0,"#, with: #""comments":\#(commentCount),"#)
            .utf8)
      }
      if eventCount > 0 {
        var json = "["
        for offset in 0..<eventCount {
          let kind = kinds[Int(next() % UInt64(kinds.count))]
          let time = stamp(number * 1_000 + 500 + offset)
          let detail: String =
            switch kind {
            case "labeled", "unlabeled": #","label":{"name":"area-\#(offset % 5)"}"#
            case "assigned":
              #","assignee":{"login":"user\#(offset % 9)","id":\#(1_000 + offset % 9)}"#
            case "milestoned": #","milestone":{"title":"M\#(offset % 4)"}"#
            case "renamed": #","rename":{"from":"Old \#(offset)","to":"New \#(offset)"}"#
            case "closed": #","state_reason":"completed""#
            default: ""
            }
          if offset > 0 { json += "," }
          json +=
            #"{"id":\#(nextEventID()),"event":"\#(kind)","#
            + #""actor":{"login":"user\#(offset % 7)","id":\#(1_000 + offset % 7)},"#
            + #""created_at":"\#(time)""# + detail + "}"
        }
        json += "]"
        routes["\(path)/\(number)/timeline"] = Route(
          status: 200, headers: ["content-type": "application/json"], body: Data(json.utf8))
        servedEvents += eventCount
      }
    }
    listings[path] = listing
    return (servedComments, servedEvents)
  }

  /// The comments served on an issue: identifier and body, oldest first.
  package func servedComments(
    of number: Int, in repository: RepositoryName
  ) -> [(id: Int64, body: String)] {
    let path = "/repos/\(repository.owner)/\(repository.name)/issues/\(number)/comments"
    let comments =
      routes[path].flatMap { try? JSONSerialization.jsonObject(with: $0.body) as? [[String: Any]] }
      ?? []
    return comments.map { (Int64($0["id"] as? Int ?? 0), $0["body"] as? String ?? "") }
  }

  /// How many timeline events of an issue a reader shows.
  package func servedEventCount(of number: Int, in repository: RepositoryName) -> Int {
    let path = "/repos/\(repository.owner)/\(repository.name)/issues/\(number)/timeline"
    return
      (routes[path].flatMap { try? JSONSerialization.jsonObject(with: $0.body) as? [[String: Any]] }
      ?? []).count
  }
}

extension LocalGitHub {
  /// Every difference between a cache and what this GitHub serves of a repository.
  ///
  /// Compared: the rows (each item there, at the `updated_at` served), and each issue's comments
  /// (identifiers and bodies, in order), comment count and number of events. Empty when the
  /// cache mirrors the repository.
  package func differences(
    from cache: IssueCache, in repository: RepositoryName
  ) throws -> [String] {
    var differences: [String] = []
    let served = servedItems(in: repository)
    let cached = try cache.issues(IssueFilter(state: .all, kind: .both))
    let byNumber = Dictionary(
      cached.map { ($0.number, $0) }, uniquingKeysWith: { first, _ in first })
    if cached.count != served.count {
      differences.append("\(cached.count) cached items, \(served.count) served")
    }
    for item in served {
      guard let row = byNumber[item.number] else {
        differences.append("#\(item.number) missing")
        continue
      }
      let stamp = Self.timestamp(row.updatedAt)
      if stamp != item.updatedAt {
        differences.append("#\(item.number) at \(stamp), served \(item.updatedAt)")
      }
      guard !row.isPullRequest else { continue }
      let comments = try cache.comments(of: item.number).map { "\($0.id) \($0.body)" }
      let servedComments = servedComments(of: item.number, in: repository).map {
        "\($0.id) \($0.body)"
      }
      if comments != servedComments { differences.append("#\(item.number) comments differ") }
      if row.comments != servedComments.count {
        differences.append("#\(item.number) counts \(row.comments) comments")
      }
      let events = try cache.timeline(of: item.number).count
      let servedEvents = servedEventCount(of: item.number, in: repository)
      if events != servedEvents {
        differences.append("#\(item.number) has \(events) events, served \(servedEvents)")
      }
    }
    return differences
  }
}
