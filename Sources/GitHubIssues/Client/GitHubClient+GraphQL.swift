import Foundation

/// A GraphQL answer: its data (whole, partial or absent) and the errors beside it.
///
/// A mutation whose field came back `null` failed in one of two ways that must not be confused
/// (``mutationFailure(_:url:sentToken:)``): GitHub refused it (its errors carry a `type`, such
/// as `NOT_FOUND` or `UNPROCESSABLE`), or it ran into trouble and says nothing of whether it was
/// applied (the generic "Something went wrong while executing your query…", no `type`).
package struct GraphQLResponse<Payload: Decodable & Sendable>: Sendable {
  /// The data; fields named by ``errors`` are `null` in it.
  package var data: Payload?
  /// What went wrong, if anything.
  package var errors: [GraphQLError]

  /// Why a mutation's field came back without its payload, as the outbox must read it: a
  /// refusal (``GitHubError/Code/notFound``, ``GitHubError/Code/validation``), which did not
  /// land; or, for an error without a `type` (GitHub's generic "Something went wrong…" after a
  /// timeout) or no error at all, ``GitHubError/Code/serverError``: it may have been applied,
  /// and is read back before anything is sent again. (`../shared/GITHUB.md`: unknown.)
  package func mutationFailure(_ field: String, url: String, sentToken: Bool) -> GitHubError {
    let detail =
      "\(field): \(String((errors.first?.message ?? "no payload in the answer").prefix(300)))"
    if errors.contains(where: { $0.type == "NOT_FOUND" }) {
      return GitHubError(.notFound, method: "POST", url: url, detail: detail, sentToken: sentToken)
    }
    if errors.contains(where: { $0.type != nil }) {
      return GitHubError(
        .validation, method: "POST", url: url, detail: detail, sentToken: sentToken)
    }
    return GitHubError(
      .serverError, method: "POST", url: url,
      detail: detail + " (GitHub does not say whether it was applied: it is read back first)",
      sentToken: sentToken)
  }
}

extension GitHubClient {
  /// Sends a GraphQL query to the host's ``GitHubHost/graphQLURL`` and decodes its answer.
  ///
  /// A query changes nothing, so it is retried as a `GET` is (5xx and dropped connections, up
  /// to ``maximumRetries``). HTTP failures become the same ``GitHubError``s as REST ones (a 403
  /// with `retry-after` is a secondary limit); an answer without data whose errors say
  /// `RATE_LIMITED` is ``GitHubError/Code/rateLimited``. Any other answer is returned with its
  /// errors, for the caller to keep what is valid (or, without data, to say what failed).
  ///
  /// GraphQL always needs a token: without one GitHub answers 401. A mutation (`changes`) is a
  /// write: sent once, never retried, as a REST write is.
  package func graphQL<Payload: Decodable & Sendable>(
    _ query: String, operationName: String, variables: [String: GraphQLValue] = [:],
    as type: Payload.Type, changes: Bool = false
  ) async throws(GitHubError) -> GraphQLResponse<Payload> {
    let url = host.graphQLURL
    let body: Data
    do {
      body = try JSONEncoder().encode(
        GraphQLBody(query: query, operationName: operationName, variables: variables))
    } catch {
      throw GitHubError(.decoding, method: "POST", url: url.absoluteString, detail: "\(error)")
    }
    let (response, _) = try await fetch(
      url, write: Write(method: "POST", body: body, isQuery: !changes), conditional: false)
    var answer = try decode(GraphQLAnswer<Payload>.self, from: response, url: url)
    let errors = answer.errors ?? []
    if answer.data == nil {
      let rateLimited = errors.first { $0.type == "RATE_LIMITED" }
      if let rateLimited {
        var error = GitHubError(
          .rateLimited, method: "POST", url: url.absoluteString, status: response.status,
          resetAt: RateLimit(headers: response.headers)?.resetAt, detail: rateLimited.message,
          rateLimit: .primary(resource: "graphql", limit: nil), sentToken: isAuthenticated)
        error.host = host
        throw error
      }
    }
    answer.errors = errors
    return GraphQLResponse(data: answer.data, errors: errors)
  }
}

/// What a GraphQL request carries.
struct GraphQLBody: Encodable {
  var query: String
  var operationName: String
  var variables: [String: GraphQLValue]
}

/// A GraphQL answer as sent.
struct GraphQLAnswer<Payload: Decodable>: Decodable {
  var data: Payload?
  var errors: [GraphQLError]?
}
