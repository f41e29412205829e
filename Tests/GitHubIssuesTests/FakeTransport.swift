import Foundation
import GitHubIssues

/// A transport that answers from a closure and records the requests.
final class FakeTransport: HTTPTransport, @unchecked Sendable {
  private let lock = NSLock()
  private var recorded: [HTTPRequest] = []
  private let answer: @Sendable (HTTPRequest) throws -> HTTPResponse

  init(_ answer: @escaping @Sendable (HTTPRequest) throws -> HTTPResponse) {
    self.answer = answer
  }

  var requests: [HTTPRequest] { lock.withLock { recorded } }

  func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    lock.withLock { recorded.append(request) }
    return try answer(request)
  }
}
