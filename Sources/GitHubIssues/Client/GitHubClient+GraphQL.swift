import Foundation

/// A GraphQL answer: its data (whole, partial or absent) and the errors beside it.
package struct GraphQLResponse<Payload: Decodable & Sendable>: Sendable {
  /// The data; fields named by ``errors`` are `null` in it.
  package var data: Payload?
  /// What went wrong, if anything.
  package var errors: [GraphQLError]
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
