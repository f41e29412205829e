import FlyingFox
import Foundation
import GitHubIssues

/// A notification thread the local GitHub serves.
package struct NotificationThread: Sendable {
  /// The thread's id.
  package var id: String
  /// The repository, `owner/name`.
  package var repository: String
  /// The issue or pull request it is about.
  package var number: Int
  /// Whether it is about a pull request.
  package var isPullRequest: Bool
  /// Its subject's title.
  package var title: String
  /// Why it reached the person.
  package var reason: String
  /// Whether it is unread.
  package var unread = true
  /// When it last changed.
  package var updatedAt: Date
  /// Whether the person is subscribed.
  package var subscribed = true
  /// Whether the person ignores the thread (`PUT …/subscription {ignored: true}`): no activity
  /// brings it back.
  package var ignored = false

  /// A thread about issue or pull request `number` of `repository`.
  package init(
    id: String, repository: String, number: Int, isPullRequest: Bool, title: String,
    reason: String, unread: Bool = true, updatedAt: Date
  ) {
    self.id = id
    self.repository = repository
    self.number = number
    self.isPullRequest = isPullRequest
    self.title = title
    self.reason = reason
    self.unread = unread
    self.updatedAt = updatedAt
  }
}

// The notifications API: the inbox (unread threads, newest first) with `Last-Modified`,
// `X-Poll-Interval` and `304` for an `If-Modified-Since` it has not changed since; a thread;
// marking read (205), done (204), unsubscribing (204).

extension LocalGitHub {
  /// Adds a notification thread (or replaces one with the same id), changing the inbox now.
  package func addNotification(_ thread: NotificationThread) {
    threads[thread.id] = thread
    inboxModified = max(Date(), inboxModified.addingTimeInterval(1))
  }

  /// The threads served, by id (done ones are gone).
  package func notificationThreads() -> [String: NotificationThread] { threads }

  /// Someone acts on a thread's issue or pull request (a comment, a push): as on GitHub, the
  /// thread comes back unread — a done one too, and one whose subscription was deleted — unless
  /// the person ignores it.
  package func threadActivity(_ id: String, at date: Date = Date()) {
    guard var thread = threads[id] ?? doneThreads[id], !thread.ignored else { return }
    doneThreads[id] = nil
    thread.unread = true
    thread.updatedAt = max(date, thread.updatedAt.addingTimeInterval(1))
    threads[id] = thread
    inboxModified = max(Date(), inboxModified.addingTimeInterval(1))
  }

  /// Sets the `X-Poll-Interval` the inbox asks for.
  package func setPollInterval(_ seconds: Int) { pollInterval = seconds }

  /// How many listings of the inbox were answered in full (they count against the rate limit)
  /// and with `304` (they do not).
  package func inboxListings() -> (full: Int, notModified: Int) { inboxAnswers }

  static let httpDate: DateFormatter = {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
    return formatter
  }()

  func notifications(
    _ request: FlyingFox.HTTPRequest, method: String, headers: [String: String],
    body requestBody: Data?
  ) -> Route {
    let parts = request.path.split(separator: "/").map(String.init)
    let json = ["content-type": "application/json; charset=utf-8"]
    func object(_ thread: NotificationThread) -> [String: Any] {
      let kind = thread.isPullRequest ? "pulls" : "issues"
      return [
        "id": thread.id, "unread": thread.unread, "reason": thread.reason,
        "updated_at": Self.timestamp(thread.updatedAt), "last_read_at": NSNull(),
        "subject": [
          "title": thread.title,
          "url": "\(baseURL.absoluteString)/repos/\(thread.repository)/\(kind)/\(thread.number)",
          "type": thread.isPullRequest ? "PullRequest" : "Issue",
        ],
        "repository": ["full_name": thread.repository],
        "url": "\(baseURL.absoluteString)/notifications/threads/\(thread.id)",
      ]
    }
    switch (method, parts.count) {
    case ("GET", 1):
      let stamp = Self.httpDate.string(from: inboxModified)
      var answer = json
      answer["x-poll-interval"] = String(pollInterval)
      answer["last-modified"] = stamp
      if let since = headers["if-modified-since"].flatMap({ Self.httpDate.date(from: $0) }),
        inboxModified.timeIntervalSince(since) < 1
      {
        inboxAnswers.notModified += 1
        return Route(status: 304, headers: answer, body: Data())
      }
      inboxAnswers.full += 1
      let unread = threads.values.filter(\.unread)
        .sorted { ($0.updatedAt, $0.id) > ($1.updatedAt, $1.id) }
      let perPage = max(
        1,
        min(
          50,
          request.query.first { $0.name == "per_page" }
            .flatMap { Int($0.value) } ?? 50))
      let page = max(1, request.query.first { $0.name == "page" }.flatMap { Int($0.value) } ?? 1)
      let pages = max(1, (unread.count + perPage - 1) / perPage)
      let slice = unread.dropFirst((page - 1) * perPage).prefix(perPage)
      if page < pages {
        let link = { (n: Int) in
          "<\(self.baseURL.absoluteString)/notifications?per_page=\(perPage)&page=\(n)>"
        }
        answer["link"] = "\(link(page + 1)); rel=\"next\", \(link(pages)); rel=\"last\""
      }
      let body = (try? JSONSerialization.data(withJSONObject: slice.map(object))) ?? Data()
      return Route(status: 200, headers: answer, body: body)
    case ("GET", 3) where parts[1] == "threads":
      guard let thread = threads[parts[2]] else { return notFound() }
      let body = (try? JSONSerialization.data(withJSONObject: object(thread))) ?? Data()
      return Route(status: 200, headers: json, body: body)
    case ("PATCH", 3) where parts[1] == "threads":
      guard threads[parts[2]] != nil else { return notFound() }
      threads[parts[2]]?.unread = false
      logTriage(method, request.path)
      return Route(status: 205, headers: [:], body: Data())
    case ("DELETE", 3) where parts[1] == "threads":
      // Done: it leaves the inbox; activity brings it back (unless ignored).
      guard let thread = threads.removeValue(forKey: parts[2]) else { return notFound() }
      doneThreads[parts[2]] = thread
      logTriage(method, request.path)
      return Route(status: 204, headers: [:], body: Data())
    case ("GET", 4) where parts[1] == "threads" && parts[3] == "subscription":
      guard let thread = threads[parts[2]] ?? doneThreads[parts[2]] else { return notFound() }
      guard thread.subscribed || thread.ignored else { return notFound() }
      let body =
        (try? JSONSerialization.data(withJSONObject: [
          "subscribed": thread.subscribed, "ignored": thread.ignored, "reason": NSNull(),
        ])) ?? Data()
      return Route(status: 200, headers: json, body: body)
    case ("PUT", 4) where parts[1] == "threads" && parts[3] == "subscription":
      let id = parts[2]
      guard threads[id] != nil || doneThreads[id] != nil else { return notFound() }
      let ignored =
        (requestBody.flatMap {
          try? JSONSerialization.jsonObject(with: $0) as? [String: Any]
        }?["ignored"] as? Bool) ?? false
      threads[id]?.ignored = ignored
      doneThreads[id]?.ignored = ignored
      threads[id]?.subscribed = !ignored
      doneThreads[id]?.subscribed = !ignored
      logTriage(method, request.path)
      let body =
        (try? JSONSerialization.data(withJSONObject: [
          "subscribed": !ignored, "ignored": ignored, "reason": NSNull(),
        ])) ?? Data()
      return Route(status: 200, headers: json, body: body)
    case ("DELETE", 4) where parts[1] == "threads" && parts[3] == "subscription":
      // Stops future notifications but leaves the thread as it is (GitHub's documentation).
      let id = parts[2]
      guard threads[id] != nil || doneThreads[id] != nil else { return notFound() }
      threads[id]?.subscribed = false
      doneThreads[id]?.subscribed = false
      threads[id]?.ignored = false
      doneThreads[id]?.ignored = false
      logTriage(method, request.path)
      return Route(status: 204, headers: [:], body: Data())
    default:
      return notFound()
    }
  }

  private func logTriage(_ method: String, _ path: String) {
    inboxModified = max(Date(), inboxModified.addingTimeInterval(1))
    writeLog.append(AppliedWrite(method: method, path: path, body: ""))
  }

  private func notFound() -> Route {
    Route(status: 404, headers: [:], body: Data(#"{"message":"Not Found"}"#.utf8))
  }
}
