import Foundation
import Synchronization

/// A payload that carries the query's `rateLimit`.
protocol RateLimitedPayload: Decodable, Sendable {
  var rateLimit: GraphQLRateLimit? { get }
}

/// The GraphQL side of one mirror sync: every query goes through it, so it knows what was spent
/// and what is left, keeps within the budget and GitHub's secondary limits, and makes pages
/// smaller when GitHub cannot answer them in time.
///
/// - **Budget.** Each answer's `rateLimit` says what is left; a query whose estimated price
///   would leave less than ``reserve`` points (or pass ``pointLimit``) is not sent: the sync
///   stops with ``GitHubError/Code/rateLimited`` and everything before it is kept.
/// - **Secondary limits.** At most ``pointsPerMinute`` points in any minute, one query at a
///   time; a 403 or 429 with `retry-after` waits that long (at most five minutes, ten times).
/// - **Large pages.** A timeout, or an answer whose errors say the query timed out or asked for
///   too many nodes, halves the page and the nested timeline sizes and asks again; after ten
///   answers in a row the sizes grow back. A 5xx or a dropped connection may be a query GitHub
///   stopped at its ten seconds or a passing fault: the same query is asked again, up to
///   ``flakyRetries`` times, and only a query that keeps failing is halved — so random 5xx do
///   not shrink pages to one item and spend the budget on them. At the smallest size a failure
///   is retried three times, then reported.
final class MirrorSession: Sendable {
  /// How large the next queries ask their pages to be: what they would ask, divided.
  struct Sizes: Hashable, Sendable {
    /// 1 when nothing failed, doubled by each shrink.
    var divisor = 1

    /// Items of a page, or aliases of a batch, for a query that would ask `planned`.
    func page(_ planned: Int) -> Int { max(1, planned / divisor) }
    /// Entries of each nested timeline.
    var timeline: Int { max(5, 100 / divisor) }
    /// The largest divisor: a page of one item with a short timeline.
    static let smallest = 128
  }

  struct State {
    var spent = 0
    var queries = 0
    var remaining: Int?
    var limit: Int?
    var resetAt: Date?
    var recent: [(at: ContinuousClock.Instant, points: Int)] = []
    var sizes: Sizes
    var successesSinceShrink = 0
    var shrinks = 0
    var waits = 0
    var features = SchemaFeatures.all
  }

  let client: GitHubClient
  /// Points never spent: a query that would leave fewer is not sent.
  let reserve: Int
  /// The most points this sync may spend, or `nil` for as many as the budget allows.
  let pointLimit: Int?
  /// GitHub allows 2,000 points a minute to GraphQL; this stays under it.
  let pointsPerMinute: Int
  /// How many times in a row the same query is asked again after a 5xx before it is halved.
  static let flakyRetries = 2
  private let state: Mutex<State>

  init(
    client: GitHubClient, reserve: Int = 50,
    pointLimit: Int? = nil, pointsPerMinute: Int = 1_800
  ) {
    var client = client
    // Failures are handled here, by shrinking or waiting: the client does not resend.
    client.maximumRetries = 0
    self.client = client
    self.reserve = reserve
    self.pointLimit = pointLimit
    self.pointsPerMinute = pointsPerMinute
    self.state = Mutex(State(sizes: Sizes()))
  }

  /// Points spent so far.
  var spent: Int { state.withLock { $0.spent } }
  /// Queries sent so far, answered or not.
  var queries: Int { state.withLock { $0.queries } }
  /// Points left, as the last answer said.
  var remaining: Int? { state.withLock { $0.remaining } }
  /// How many times a page was made smaller.
  var shrinks: Int { state.withLock { $0.shrinks } }
  /// The sizes the next query uses.
  var sizes: Sizes { state.withLock { $0.sizes } }
  /// What the host's schema has of the fields the queries may ask (every feature until read).
  var features: SchemaFeatures {
    get { state.withLock { $0.features } }
    set { state.withLock { $0.features = newValue } }
  }

  /// Sends a query built for the current sizes (`build` gives its text, variables and
  /// estimated points), within the budget and limits, shrinking it while GitHub cannot answer.
  func send<Payload: RateLimitedPayload>(
    _ name: String, as type: Payload.Type,
    build: (Sizes) -> (query: String, variables: [String: GraphQLValue], points: Int)
  ) async throws(GitHubError) -> GraphQLResponse<Payload> {
    var attempts = 0
    var flaky = 0
    while true {
      try checkCancellation()
      let sizes = self.sizes
      let (query, variables, points) = build(sizes)
      try checkBudget(points)
      try await pace(points)
      state.withLock { $0.queries += 1 }
      let response: GraphQLResponse<Payload>
      do {
        response = try await client.graphQL(
          query, operationName: name, variables: variables, as: type)
      } catch let error where error.code == .rateLimited && error.rateLimit == .secondary {
        try await waitOut(error)
        continue
      } catch let error where error.code == .rateLimited {
        throw budgetStop(resetAt: error.resetAt, detail: error.detail, byGitHub: true)
      } catch let error where error.isTimeout {
        attempts += 1
        flaky = 0
        try await recover(from: error, attempts: attempts)
        continue
      } catch let error where error.code == .serverError {
        // Perhaps a passing fault: the same query again, a bounded number of times, before it
        // is taken for one too large.
        if flaky < Self.flakyRetries {
          flaky += 1
          do { try await Task.sleep(for: .milliseconds(100 << flaky)) } catch {
            throw GitHubError(.offline, url: "mirror", detail: "cancelled")
          }
          continue
        }
        flaky = 0
        attempts += 1
        try await recover(from: error, attempts: attempts)
        continue
      }
      guard let data = response.data else {
        let message = response.errors.first?.message ?? "an answer without data"
        if response.errors.contains(where: \.meansTooLarge) {
          attempts += 1
          try await recover(
            from: GitHubError(
              .serverError, method: "POST", url: client.host.graphQLURL.absoluteString,
              detail: message), attempts: attempts)
          continue
        }
        throw GitHubError(
          .validation, method: "POST", url: client.host.graphQLURL.absoluteString,
          detail: "\(name): \(String(message.prefix(300)))", sentToken: client.isAuthenticated)
      }
      record(data.rateLimit, estimate: points)
      return response
    }
  }

  private func checkCancellation() throws(GitHubError) {
    if Task.isCancelled { throw GitHubError(.offline, url: "mirror", detail: "cancelled") }
  }

  private func checkBudget(_ points: Int) throws(GitHubError) {
    let (spent, remaining, resetAt) = state.withLock { ($0.spent, $0.remaining, $0.resetAt) }
    if let pointLimit, spent + points > pointLimit {
      throw budgetStop(
        resetAt: nil, detail: "the \(pointLimit) points allowed to this sync are spent")
    }
    if let remaining, remaining - points < reserve {
      throw budgetStop(
        resetAt: resetAt,
        detail: "\(remaining) GraphQL points left, and \(reserve) are kept for other work")
    }
  }

  /// The error that stops the sync: GitHub said the points are spent (`byGitHub`), or the next
  /// query would pass the sync's own budget.
  private func budgetStop(resetAt: Date?, detail: String?, byGitHub: Bool = false) -> GitHubError {
    var error = GitHubError(
      .rateLimited, method: "POST", url: client.host.graphQLURL.absoluteString, resetAt: resetAt,
      detail: (detail ?? "no points left")
        + "; everything fetched is kept, and the next sync resumes from there",
      rateLimit: byGitHub
        ? .primary(resource: "graphql", limit: state.withLock { $0.limit }) : .budget,
      sentToken: client.isAuthenticated)
    error.host = client.host
    return error
  }

  /// Waits until the last minute's points leave room for `points` more.
  private func pace(_ points: Int) async throws(GitHubError) {
    let clock = ContinuousClock()
    while true {
      let wait: Duration? = state.withLock { state in
        let now = clock.now
        state.recent.removeAll { $0.at.duration(to: now) >= .seconds(60) }
        let used = state.recent.reduce(0) { $0 + $1.points }
        guard used + points > pointsPerMinute, let oldest = state.recent.first else { return nil }
        return .seconds(60) - oldest.at.duration(to: now)
      }
      guard let wait else { return }
      do { try await Task.sleep(for: wait) } catch {
        throw GitHubError(.offline, url: "mirror", detail: "cancelled")
      }
    }
  }

  /// Waits out a secondary limit, as long as GitHub asks (within bounds).
  private func waitOut(_ error: GitHubError) async throws(GitHubError) {
    let waits = state.withLock {
      $0.waits += 1
      return $0.waits
    }
    guard waits <= 10 else { throw error }
    let seconds = min(300, max(1, error.resetAt.map { $0.timeIntervalSinceNow } ?? 60))
    do { try await Task.sleep(for: .seconds(seconds)) } catch {
      throw GitHubError(.offline, url: "mirror", detail: "cancelled")
    }
  }

  /// Makes the next query smaller, or (at the smallest size) waits before the same again.
  private func recover(from error: GitHubError, attempts: Int) async throws(GitHubError) {
    let shrunk = state.withLock { state -> Bool in
      state.successesSinceShrink = 0
      guard state.sizes.divisor < Sizes.smallest else { return false }
      state.sizes.divisor *= 2
      state.shrinks += 1
      return true
    }
    if shrunk { return }
    guard attempts <= 3 + 8 else { throw error }
    do { try await Task.sleep(for: .milliseconds(250 << min(attempts, 4))) } catch {
      throw GitHubError(.offline, url: "mirror", detail: "cancelled")
    }
  }

  private func record(_ rateLimit: GraphQLRateLimit?, estimate: Int) {
    let clock = ContinuousClock()
    state.withLock { state in
      // A cost below zero would hand back points this sync never had.
      let cost = max(0, rateLimit?.cost ?? estimate)
      state.spent += cost
      state.recent.append((clock.now, cost))
      if let rateLimit {
        state.remaining = rateLimit.remaining
        state.limit = rateLimit.limit ?? state.limit
        state.resetAt = rateLimit.resetAt ?? state.resetAt
      }
      state.successesSinceShrink += 1
      if state.successesSinceShrink >= 10, state.sizes.divisor > 1 {
        state.sizes.divisor /= 2
        state.successesSinceShrink = 0
      }
    }
  }
}

extension GraphQLError {
  /// Whether GitHub could not answer because the query was too large: it timed out, or asked
  /// for more nodes than allowed.
  var meansTooLarge: Bool {
    let type = self.type?.uppercased() ?? ""
    let text = message.lowercased()
    return type == "MAX_NODE_LIMIT_EXCEEDED" || type == "TIMEOUT" || text.contains("timeout")
      || text.contains("timed out") || text.contains("node limit")
      || text.contains("something went wrong while executing your query")
  }
}

extension GitHubError {
  /// Whether the request failed because the server sent nothing in time.
  var isTimeout: Bool { code == .offline && (detail?.hasPrefix("no answer in") ?? false) }
}

extension GitHubError {
  /// Whether GitHub refused the query for its cursor (`INVALID_CURSOR_ARGUMENTS`: "does not
  /// appear to be a valid cursor"), which it does when a cursor expired: nothing was answered,
  /// and the query may be asked again from a point it proved.
  var isRefusedCursor: Bool {
    code == .validation && (detail?.lowercased().contains("cursor") ?? false)
  }
}
