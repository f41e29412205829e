import FlyingFox
import Foundation
import GitHubIssues

// The write endpoints of issues, over the issues a synthetic repository serves: edits (state,
// milestone), labels, assignees and comments change what later reads return, as on GitHub.

extension LocalGitHub {
  /// Requires this token (`Authorization: Bearer …`) for every write; any other gets 401.
  package func requireToken(forWrites token: String?) {
    writeToken = token
  }

  /// The login comments posted here are written by.
  package func setViewer(_ login: String) {
    viewerLogin = login
  }

  /// A new event identifier, larger than every one before it.
  func nextEventID() -> Int {
    lastEventID += 1
    return lastEventID
  }

  /// `GET /user`: the token's account, the viewer; `401` without a token, or with another one
  /// than writes require.
  func authenticatedUser(headers: [String: String]) -> Route {
    guard let authorization = headers["authorization"], authorization.hasPrefix("Bearer "),
      writeToken.map({ authorization == "Bearer \($0)" }) ?? true
    else { return error(401, "Requires authentication") }
    return (try? json(["login": viewerLogin, "id": 77, "type": "User"]))
      ?? error(500, "Server Error")
  }

  /// Someone writes a comment on the web, as GitHub serves it from now on.
  ///
  /// - Parameters:
  ///   - body: Its text.
  ///   - author: The viewer's login, or another person's.
  ///   - number: The issue.
  ///   - repository: The issue's repository.
  /// - Returns: The comment's identifier.
  /// - Throws: When the served comments cannot be encoded.
  @discardableResult
  package func addComment(
    _ body: String, by author: String, on number: Int, in repository: RepositoryName
  ) throws -> Int {
    let listing = "/repos/\(repository.owner)/\(repository.name)/issues"
    guard let target = IssuePath("\(listing)/\(number)") else { return nextCommentID }
    _ = try editIssue(target) { issue in
      issue["comments"] = (issue["comments"] as? Int ?? 0) + 1
      return nil
    }
    let comment = try appendComment(body, by: author, id: 500, association: "NONE", to: target)
    return comment["id"] as? Int ?? nextCommentID
  }

  /// Adds a comment to the comments an issue serves, as GitHub stores one: the next
  /// identifier, now, and its page's URL.
  func appendComment(
    _ body: String, by author: String, id userID: Int, association: String, to target: IssuePath
  ) throws -> [String: Any] {
    let path = target.listing + "/\(target.number)/comments"
    var comments =
      routes[path].flatMap {
        try? JSONSerialization.jsonObject(with: $0.body) as? [[String: Any]]
      } ?? []
    nextCommentID += 1
    let now = Self.timestamp(Date())
    let comment: [String: Any] = [
      "id": nextCommentID, "body": body, "user": ["login": author, "id": userID],
      "created_at": now, "updated_at": now, "author_association": association,
      "html_url": "https://github.com\(target.listing.dropFirst(6))/\(target.number)"
        + "#issuecomment-\(nextCommentID)",
    ]
    comments.append(comment)
    serve(path, body: try JSONSerialization.data(withJSONObject: comments))
    return comment
  }

  /// Someone closes or reopens an issue on the web: its state changes, its `updated_at` moves,
  /// and its timeline gets the event by `actor`.
  package func setState(
    _ state: GitHubIssue.State, of number: Int, in repository: RepositoryName, by actor: String
  ) throws {
    let path = "/repos/\(repository.owner)/\(repository.name)/issues/\(number)"
    guard let target = IssuePath(path) else { return }
    _ = try editIssue(target) { issue in
      guard issue["state"] as? String != state.rawValue else { return nil }
      issue["state"] = state.rawValue
      issue["closed_at"] = state == .closed ? Self.timestamp(Date()) : NSNull()
      try self.appendEvent(state == .closed ? "closed" : "reopened", by: actor, to: path)
      return nil
    }
  }

  /// Someone moves an issue to a milestone (or out of it, `nil`) on the web.
  package func setMilestone(
    _ milestone: Int?, of number: Int, in repository: RepositoryName
  ) throws {
    let listing = "/repos/\(repository.owner)/\(repository.name)/issues"
    guard let target = IssuePath("\(listing)/\(number)") else { return }
    _ = try editIssue(target) { issue in
      issue["milestone"] = milestone.flatMap { self.milestone($0, listing: listing) } ?? NSNull()
      return nil
    }
  }

  /// Adds an event to an issue's timeline (`/repos/o/r/issues/N`), with a new identifier.
  func appendEvent(_ kind: String, by actor: String, to issuePath: String) throws {
    let path = issuePath + "/timeline"
    var events =
      routes[path].flatMap {
        try? JSONSerialization.jsonObject(with: $0.body) as? [[String: Any]]
      } ?? []
    events.append([
      "id": nextEventID(), "event": kind, "actor": ["login": actor, "id": 500],
      "created_at": Self.timestamp(Date()),
    ])
    serve(path, body: try JSONSerialization.data(withJSONObject: events))
  }

  /// The bodies of the comments served for an issue, oldest first.
  package func commentBodies(of number: Int, in repository: RepositoryName) -> [String] {
    let path = "/repos/\(repository.owner)/\(repository.name)/issues/\(number)/comments"
    let comments =
      routes[path].flatMap {
        try? JSONSerialization.jsonObject(with: $0.body) as? [[String: Any]]
      } ?? []
    return comments.map { $0["body"] as? String ?? "" }
  }

  /// One served issue, decoded.
  package func issue(number: Int, in repository: RepositoryName) -> GitHubIssue? {
    itemJSON(number: number, in: repository).flatMap {
      try? GitHubJSON.decoder.decode(GitHubIssue.self, from: Data($0.utf8))
    }
  }

  /// `GET /repos/o/r/issues/N` for an issue of a served listing (unless a route serves it).
  func singleIssue(at path: String) throws -> Route? {
    guard routes[path] == nil, let target = IssuePath(path), target.rest.isEmpty,
      let json = listings[target.listing]?.items.first(where: { $0.number == target.number })?
        .json
    else { return nil }
    return Route(status: 200, headers: ["content-type": "application/json"], body: json)
  }

  /// The issue `number` was made a sub-issue of, if any.
  package func parent(of number: Int, in repository: RepositoryName) -> Int? {
    subIssueParents["/repos/\(repository.owner)/\(repository.name)/issues/\(number)"]
  }

  /// `GET /repos/o/r/issues/N/parent`: the issue it is a sub-issue of (made so here), or 404.
  func parentIssue(at path: String) throws -> Route? {
    guard routes[path] == nil, let target = IssuePath(path), target.rest == ["parent"] else {
      return nil
    }
    guard let parent = subIssueParents["\(target.listing)/\(target.number)"],
      let json = listings[target.listing]?.items.first(where: { $0.number == parent })?.json
    else { return error(404, "Not Found") }
    return Route(status: 200, headers: ["content-type": "application/json"], body: json)
  }

  /// `GET /repos/o/r/issues/comments`: every served comment of the listing's issues, least
  /// recently updated first, from `since`, in pages of `per_page` with `next` and `last` links.
  func repositoryComments(_ request: FlyingFox.HTTPRequest) throws -> Route? {
    guard request.path.hasSuffix("/issues/comments") else { return nil }
    let listing = String(request.path.dropLast("/comments".count))
    guard listings[listing] != nil else { return nil }
    let formatter = ISO8601DateFormatter()
    var all: [(updated: Date, id: Int, json: [String: Any])] = []
    for (path, route) in routes where path.hasPrefix(listing + "/") && path.hasSuffix("/comments") {
      guard let target = IssuePath(path),
        let comments = try JSONSerialization.jsonObject(with: route.body) as? [[String: Any]]
      else { continue }
      for var comment in comments {
        comment["issue_url"] = "\(baseURL.absoluteString)\(listing)/\(target.number)"
        let updated = (comment["updated_at"] as? String).flatMap { formatter.date(from: $0) }
        all.append((updated ?? .distantPast, comment["id"] as? Int ?? 0, comment))
      }
    }
    if let since = request.query.first(where: { $0.name == "since" })?.value,
      let date = formatter.date(from: since)
    {
      all.removeAll { $0.updated < date }
    }
    all.sort { ($0.updated, $0.id) < ($1.updated, $1.id) }
    let perPage = max(
      1, min(100, Int(request.query.first { $0.name == "per_page" }?.value ?? "") ?? 30))
    let page = max(1, Int(request.query.first { $0.name == "page" }?.value ?? "") ?? 1)
    let pageCount = max(1, (all.count + perPage - 1) / perPage)
    let slice = all.dropFirst((page - 1) * perPage).prefix(perPage).map(\.json)
    if let count = listingEdits[request.path], count > 0, page < pageCount {
      let latest = all.last?.updated ?? Date()
      editComments(
        slice.prefix(count).compactMap { $0["id"] as? Int }, listing: listing, after: latest)
    }
    var headers = ["content-type": "application/json; charset=utf-8"]
    if page < pageCount {
      let query = request.query.filter { $0.name != "page" }.map {
        "\($0.name)=\($0.value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? $0.value)"
      }
      func link(_ page: Int) -> String {
        "<\(baseURL.absoluteString)\(request.path)?\((query + ["page=\(page)"]).joined(separator: "&"))>"
      }
      headers["link"] = "\(link(page + 1)); rel=\"next\", \(link(pageCount)); rel=\"last\""
    }
    return Route(
      status: 200, headers: headers, body: try JSONSerialization.data(withJSONObject: slice))
  }

  /// `GET /repos/o/r/issues/comments/ID`: a served comment, with its `issue_url`.
  func singleComment(at path: String) throws -> Route? {
    let parts = path.split(separator: "/").map(String.init)
    guard parts.count == 6, parts[0] == "repos", parts[3] == "issues", parts[4] == "comments",
      let id = Int(parts[5])
    else { return nil }
    let listing = "/repos/\(parts[1])/\(parts[2])/issues"
    for (route, served) in routes
    where route.hasPrefix(listing + "/") && route.hasSuffix("/comments") {
      guard let target = IssuePath(route),
        let comments = try JSONSerialization.jsonObject(with: served.body) as? [[String: Any]],
        var comment = comments.first(where: { $0["id"] as? Int == id })
      else { continue }
      comment["issue_url"] = "\(baseURL.absoluteString)\(listing)/\(target.number)"
      return try json(comment)
    }
    return error(404, "Not Found")
  }

  /// Gives served comments a later `updated_at` (a second apart, after `latest`), as an edit
  /// on GitHub does: they move to the end of the repository's comment listing.
  func editComments(_ ids: [Int], listing: String, after latest: Date) {
    var next = max(Date(), latest.addingTimeInterval(1)).timeIntervalSince1970.rounded(.down)
    for (path, route) in routes where path.hasPrefix(listing + "/") && path.hasSuffix("/comments") {
      guard var comments = try? JSONSerialization.jsonObject(with: route.body) as? [[String: Any]]
      else { continue }
      var changed = false
      for index in comments.indices where ids.contains(comments[index]["id"] as? Int ?? -1) {
        comments[index]["updated_at"] = Self.timestamp(Date(timeIntervalSince1970: next))
        comments[index]["body"] = "\(comments[index]["body"] as? String ?? "") (edited)"
        next += 1
        changed = true
      }
      if changed, let body = try? JSONSerialization.data(withJSONObject: comments) {
        routes[path]?.body = body
      }
    }
  }

  /// The served comments of the repository: identifier and `updated_at` as the JSON says.
  package func servedComments(in repository: RepositoryName) -> [(id: Int, updatedAt: String)] {
    let listing = "/repos/\(repository.owner)/\(repository.name)/issues"
    var all: [(id: Int, updatedAt: String)] = []
    for (path, route) in routes where path.hasPrefix(listing + "/") && path.hasSuffix("/comments") {
      guard IssuePath(path) != nil,
        let comments = try? JSONSerialization.jsonObject(with: route.body) as? [[String: Any]]
      else { continue }
      for comment in comments {
        all.append((comment["id"] as? Int ?? 0, comment["updated_at"] as? String ?? ""))
      }
    }
    return all.sorted { $0.id < $1.id }
  }

  /// Serves `count` comments on issue `number`, written a minute apart from `start`.
  package func addComments(
    _ count: Int, on number: Int, in repository: RepositoryName, start: Date
  ) throws {
    let path = "/repos/\(repository.owner)/\(repository.name)/issues/\(number)/comments"
    var comments =
      routes[path].flatMap {
        try? JSONSerialization.jsonObject(with: $0.body) as? [[String: Any]]
      } ?? []
    for offset in 0..<count {
      nextCommentID += 1
      let time = Self.timestamp(start.addingTimeInterval(Double(offset * 60)))
      comments.append([
        "id": nextCommentID, "body": "Comment \(nextCommentID)",
        "user": ["login": "user\(offset % 7)", "id": 100 + offset % 7],
        "created_at": time, "updated_at": time, "author_association": "NONE",
        "html_url":
          "https://github.com/\(repository)/issues/\(number)#issuecomment-\(nextCommentID)",
      ])
    }
    serve(path, body: try JSONSerialization.data(withJSONObject: comments))
    // The issue announces them.
    let listing = "/repos/\(repository.owner)/\(repository.name)/issues"
    if let index = listings[listing]?.items.firstIndex(where: { $0.number == number }),
      var issue = try JSONSerialization.jsonObject(with: listings[listing]!.items[index].json)
        as? [String: Any]
    {
      issue["comments"] = comments.count
      listings[listing]?.items[index].json = try JSONSerialization.data(withJSONObject: issue)
    }
  }

  /// Whether a path is under an issue a listing serves (`…/issues/N/…`).
  func listedIssue(at path: String) -> Bool {
    guard let target = IssuePath(path) else { return false }
    return listings[target.listing]?.items.contains { $0.number == target.number } ?? false
  }

  func handleWrite(
    _ request: FlyingFox.HTTPRequest, method: String, fault: Fault?
  ) async throws -> FlyingFox.HTTPResponse {
    let authorization = request.headers[HTTPHeader("Authorization")]
    if let writeToken, authorization != "Bearer \(writeToken)" {
      return response(error(401, "Requires authentication"))
    }
    switch fault {
    case nil, .dropConnection, .failAfterApplying, .delayed, .stallAfterApplying:
      break
    case .stall(let seconds):
      try await Task.sleep(for: .seconds(seconds))
      return response(Route(status: 503, headers: [:], body: Data()))
    case let fault?:
      return try await respond(with: fault, path: request.path, page: nil)
    }
    if case .delayed(let seconds) = fault { try await Task.sleep(for: .seconds(seconds)) }
    // Chaos: the connection drops before the write arrives, or after it applied.
    if rollChaos(\.dropBeforeWrite) { return droppedResponse() }
    let afterApplying: Fault? =
      rollChaos(\.dropAfterWrite)
      ? .dropConnection : rollChaos(\.failAfterWrite) ? .failAfterApplying(status: 502) : nil
    let fault = fault ?? afterApplying
    let body = try await request.bodyData
    // The path as sent: a label's name is one segment even when it holds an escaped `/`.
    let route = try applyWrite(
      method: method, path: request.target.path(percentEncoded: true), body: body)
    if (200..<300).contains(route.status) {
      writeLog.append(
        AppliedWrite(
          method: method, path: request.target.path(percentEncoded: false),
          body: String(decoding: body, as: UTF8.self)))
    }
    switch fault {
    case .dropConnection:
      var usual = route
      return try alterDropping(&usual)
    case .failAfterApplying(let status):
      return response(error(status, "Server Error"))
    case .stallAfterApplying(let seconds):
      try await Task.sleep(for: .seconds(seconds))
      return response(route)
    default:
      return response(route)
    }
  }

  private func alterDropping(_ route: inout Route) throws -> FlyingFox.HTTPResponse {
    let usual = response(route)
    return FlyingFox.HTTPResponse(
      statusCode: usual.statusCode, headers: usual.headers,
      body: HTTPBodySequence(
        from: DroppedBody(bytes: Array(route.body.prefix(route.body.count / 2))),
        count: route.body.count))
  }

  private func error(_ status: Int, _ message: String, field: String? = nil) -> Route {
    var object: [String: Any] = ["message": message]
    if let field {
      object["errors"] = [["resource": "Issue", "field": field, "code": "invalid"]]
    }
    let body = (try? JSONSerialization.data(withJSONObject: object)) ?? Data()
    return Route(status: status, headers: ["content-type": "application/json"], body: body)
  }

  /// Makes a write and returns GitHub's answer to it.
  private func applyWrite(method: String, path: String, body: Data) throws -> Route {
    if let merge = try pullRequestWrite(method: method, path: path, body: body) { return merge }
    if let review = try reviewWrite(method: method, path: path, body: body) { return review }
    if let reply = try replyWrite(method: method, path: path, body: body) { return reply }
    if method == "POST", listings[path] != nil {
      return try fileIssue(in: path, body: body, by: viewerLogin)
    }
    guard let target = IssuePath(path), listings[target.listing] != nil else {
      return error(404, "Not Found")
    }
    let input = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:]
    switch (method, target.rest) {
    case ("PATCH", []):
      return try editIssue(target) { issue in
        if let state = input["state"] as? String {
          guard ["open", "closed"].contains(state) else {
            return self.error(422, "Validation Failed", field: "state")
          }
          if issue["state"] as? String != state {
            try self.appendEvent(
              state == "closed" ? "closed" : "reopened", by: self.viewerLogin,
              to: "\(target.listing)/\(target.number)")
          }
          if state == "closed", issue["state"] as? String != "closed" {
            issue["closed_at"] = Self.timestamp(Date())
          }
          if state == "open" { issue["closed_at"] = NSNull() }
          issue["state"] = state
          issue["state_reason"] = input["state_reason"] ?? NSNull()
        }
        if input.keys.contains("milestone") {
          if let number = input["milestone"] as? Int {
            guard let milestone = self.milestone(number, listing: target.listing) else {
              return self.error(422, "Validation Failed", field: "milestone")
            }
            issue["milestone"] = milestone
          } else {
            issue["milestone"] = NSNull()
          }
        }
        return nil
      }
    case ("POST", ["labels"]):
      let route = try editIssue(target) { issue in
        var current = issue["labels"] as? [[String: Any]] ?? []
        for name in input["labels"] as? [String] ?? []
        where !current.contains(where: {
          ($0["name"] as? String)?.lowercased() == name.lowercased()
        }) {
          current.append(["name": name, "color": "ededed", "description": NSNull()])
        }
        issue["labels"] = current
        return nil
      }
      return try labels(of: route)
    case ("DELETE", let rest) where rest.count == 2 && rest[0] == "labels":
      let route = try editIssue(target) { issue in
        var current = issue["labels"] as? [[String: Any]] ?? []
        let name = rest[1].removingPercentEncoding ?? rest[1]
        guard
          let index = current.firstIndex(where: {
            ($0["name"] as? String)?.lowercased() == name.lowercased()
          })
        else { return self.error(404, "Label does not exist") }
        current.remove(at: index)
        issue["labels"] = current
        return nil
      }
      return try labels(of: route)
    case ("POST", ["assignees"]), ("DELETE", ["assignees"]):
      return try editIssue(target) { issue in
        var current = issue["assignees"] as? [[String: Any]] ?? []
        let logins = input["assignees"] as? [String] ?? []
        if method == "POST" {
          for login in logins
          where !current.contains(where: {
            ($0["login"] as? String)?.lowercased() == login.lowercased()
          }) {
            current.append(["login": login, "id": 9_000 + current.count])
          }
        } else {
          let removed = Set(logins.map { $0.lowercased() })
          current.removeAll { removed.contains((($0["login"] as? String) ?? "").lowercased()) }
        }
        issue["assignees"] = current
        issue["assignee"] = current.first ?? NSNull()
        return nil
      }
    case ("POST", ["sub_issues"]):
      return try addSubIssue(input, to: target)
    case ("POST", ["comments"]):
      guard let text = input["body"] as? String, !text.isEmpty else {
        return error(422, "Validation Failed", field: "body")
      }
      let route = try editIssue(target) { issue in
        issue["comments"] = (issue["comments"] as? Int ?? 0) + 1
        return nil
      }
      guard route.status == 200 else { return route }
      let comment = try appendComment(
        text, by: viewerLogin, id: 77, association: "OWNER", to: target)
      var created = try json(comment)
      created.status = 201
      return created
    default:
      return error(404, "Not Found")
    }
  }

  /// `POST /repos/o/r/issues/N/sub_issues`: makes the issue of `sub_issue_id` a sub-issue of N.
  ///
  /// The id is GitHub's, not a number. Refused as GitHub refuses it: a second parent (unless
  /// `replace_parent`), itself, an id it does not hold. The parent's summary counts it, and its `updated_at` moves
  /// (the inconvenient side: whether GitHub moves it is not documented).
  private func addSubIssue(_ input: [String: Any], to target: IssuePath) throws -> Route {
    guard let id = input["sub_issue_id"] as? Int, let listing = listings[target.listing] else {
      return error(422, "Validation Failed", field: "sub_issue_id")
    }
    guard
      let child = listing.items.first(where: { item in
        ((try? JSONSerialization.jsonObject(with: item.json)) as? [String: Any])?["id"] as? Int
          == id
      })
    else { return error(422, "Validation Failed", field: "sub_issue_id") }
    let childPath = "\(target.listing)/\(child.number)"
    if child.number == target.number {
      return error(422, "An issue cannot be a sub-issue of itself")
    }
    if subIssueParents[childPath] != nil, input["replace_parent"] as? Bool != true {
      return error(422, "Sub issue may only have one parent")
    }
    var route = try editIssue(target) { issue in
      var summary =
        issue["sub_issues_summary"] as? [String: Any]
        ?? ["total": 0, "completed": 0, "percent_completed": 0]
      summary["total"] = (summary["total"] as? Int ?? 0) + 1
      issue["sub_issues_summary"] = summary
      return nil
    }
    guard route.status == 200 else { return route }
    subIssueParents[childPath] = target.number
    let listPath = "\(target.listing)/\(target.number)/sub_issues"
    var children =
      (routes[listPath].flatMap { try? JSONSerialization.jsonObject(with: $0.body) }
        as? [Any]) ?? []
    children.append(try JSONSerialization.jsonObject(with: child.json))
    routes[listPath] = Route(
      status: 200, headers: ["content-type": "application/json"],
      body: try JSONSerialization.data(withJSONObject: children))
    route.status = 201
    return route
  }

  /// Changes one served issue's JSON, unless `change` returns an answer that refuses.
  ///
  /// The issue's `updated_at` moves forward, and it moves to the end of the listing (the newest
  /// update).
  func editIssue(
    _ target: IssuePath, _ change: (inout [String: Any]) throws -> Route?
  ) throws -> Route {
    guard var listing = listings[target.listing],
      let index = listing.items.firstIndex(where: { $0.number == target.number }),
      var issue = try JSONSerialization.jsonObject(with: listing.items[index].json)
        as? [String: Any]
    else { return error(404, "Not Found") }
    if let refusal = try change(&issue) { return refusal }
    let previous = listing.items[index].updatedAt
    let updated = max(Date(), previous.addingTimeInterval(1))
    issue["updated_at"] = Self.timestamp(updated)
    let json = try JSONSerialization.data(withJSONObject: issue)
    listing.items.remove(at: index)
    listing.items.append((number: target.number, updatedAt: updated, json: json))
    listings[target.listing] = listing
    return Route(status: 200, headers: ["content-type": "application/json"], body: json)
  }

  /// Someone files an issue on the web (the viewer, or another person), as GitHub serves it
  /// from now on; returns its number.
  @discardableResult
  package func fileIssueOnTheWeb(
    _ title: String, body: String, by author: String, in repository: RepositoryName
  ) throws -> Int {
    let path = "/repos/\(repository.owner)/\(repository.name)/issues"
    let input = try JSONSerialization.data(withJSONObject: ["title": title, "body": body])
    let route = try fileIssue(in: path, body: input, by: author)
    let object = try JSONSerialization.jsonObject(with: route.body) as? [String: Any]
    return object?["number"] as? Int ?? 0
  }

  /// `POST /repos/o/r/issues`: files an issue under the next number.
  ///
  /// Numbers only grow: never one a deleted issue had. The issue is updated now and the
  /// listing serves it from now on. A title is required; a milestone must exist.
  private func fileIssue(in listingPath: String, body: Data, by author: String) throws -> Route {
    guard var listing = listings[listingPath] else { return error(404, "Not Found") }
    let input = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:]
    guard let title = input["title"] as? String, !title.isEmpty else {
      return error(422, "Validation Failed", field: "title")
    }
    var milestone: Any = NSNull()
    if let number = input["milestone"] as? Int {
      guard let found = self.milestone(number, listing: listingPath) else {
        return error(422, "Validation Failed", field: "milestone")
      }
      milestone = found
    }
    let number = max(listing.items.map(\.number).max() ?? 0, highestFiled[listingPath] ?? 0) + 1
    highestFiled[listingPath] = number
    let updated = Self.nextUpdate(after: listing)
    // Several issues filed within a few seconds share a creation second (GitHub's timestamps
    // have seconds): the created order then has ties.
    let created = Date(
      timeIntervalSince1970: (updated.timeIntervalSince1970 / 10).rounded(.down) * 10)
    let text = input["body"] as? String ?? ""
    let repository = listingPath.dropFirst("/repos/".count).dropLast("/issues".count)
    let issue: [String: Any] = [
      "id": 20_000_000 + number, "node_id": "I_filed\(number)", "number": number,
      "title": title, "body": text.isEmpty ? NSNull() : text as Any, "state": "open",
      "user": ["login": author, "id": author == viewerLogin ? 77 : 500, "type": "User"],
      "labels": (input["labels"] as? [String] ?? []).map {
        ["name": $0, "color": "ededed", "description": NSNull()] as [String: Any]
      },
      "assignees": (input["assignees"] as? [String] ?? []).map {
        ["login": $0, "id": 900, "type": "User"] as [String: Any]
      },
      "milestone": milestone, "comments": 0, "created_at": Self.timestamp(created),
      "updated_at": Self.timestamp(updated), "closed_at": NSNull(),
      "html_url": "https://github.com/\(repository)/issues/\(number)",
      "author_association": "OWNER",
    ]
    let json = try JSONSerialization.data(withJSONObject: issue)
    listing.items.append((number: number, updatedAt: updated, json: json))
    listings[listingPath] = listing
    if author == viewerLogin { filedIssues.append(number) }
    return Route(status: 201, headers: ["content-type": "application/json"], body: json)
  }

  /// A successful edit's answer turned into the issue's labels, as the label endpoints answer.
  private func labels(of route: Route) throws -> Route {
    guard route.status == 200,
      let issue = try JSONSerialization.jsonObject(with: route.body) as? [String: Any]
    else { return route }
    return try json(issue["labels"] ?? [])
  }

  private func milestone(_ number: Int, listing: String) -> Any? {
    let path = String(listing.dropLast("/issues".count)) + "/milestones"
    guard let body = routes[path]?.body,
      let milestones = try? JSONSerialization.jsonObject(with: body) as? [[String: Any]]
    else { return nil }
    return milestones.first { $0["number"] as? Int == number }
  }

  private func json(_ object: Any) throws -> Route {
    Route(
      status: 200, headers: ["content-type": "application/json"],
      body: try JSONSerialization.data(withJSONObject: object))
  }

  /// A date as GitHub writes it, to the second: whole seconds, so it survives a round trip.
  static func timestamp(_ date: Date) -> String {
    let formatter = ISO8601DateFormatter()
    return formatter.string(
      from: Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down)))
  }
}

/// `/repos/OWNER/REPO/issues/NUMBER[/rest…]`, taken apart.
struct IssuePath {
  /// `/repos/OWNER/REPO/issues`: the listing's key.
  var listing: String
  var number: Int
  var rest: [String]

  init?(_ path: String) {
    let parts = path.split(separator: "/", omittingEmptySubsequences: true).map {
      String($0)
    }
    guard parts.count >= 5, parts[0] == "repos", parts[3] == "issues", let number = Int(parts[4])
    else { return nil }
    listing = "/repos/\(parts[1])/\(parts[2])/issues"
    self.number = number
    rest = Array(parts[5...])
  }
}
