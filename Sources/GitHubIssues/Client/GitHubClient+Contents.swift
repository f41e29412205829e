import Foundation

// The contents API, for the files a repository keeps for its issue tracker: its issue templates
// and forms.

/// An entry of a folder as the contents API lists it.
package struct ContentEntry: Decodable, Hashable, Sendable {
  /// The file's name.
  package var name: String
  /// Its path in the repository.
  package var path: String
  /// The git blob's SHA: it changes exactly when the file's bytes do.
  package var sha: String
  /// Its size in bytes.
  package var size: Int
  /// `file`, `dir`, `symlink` or `submodule`.
  package var type: String
}

/// A file's bytes as the contents API answers them (base64).
struct ContentFile: Decodable {
  var type: String
  var sha: String
  var size: Int
  var encoding: String?
  var content: String?
}

/// What a conditional listing of a folder found.
package enum FolderListing: Sendable, Equatable {
  /// Unchanged since the listing whose entity tag was sent.
  case notModified
  /// The folder does not exist.
  case absent
  /// The folder's entries (the contents API lists at most 1,000, in one answer).
  case listed([ContentEntry])
}

extension GitHubClient {
  /// The largest file read through the contents API: GitHub serves its bytes up to 1 MB and
  /// only a reference above that.
  package static let largestContentFile = 1_000_000

  /// The entries of a folder of the repository's default branch (`GET …/contents/PATH`),
  /// conditional on the entity tag kept for it.
  package func folder(_ path: String, of repository: RepositoryName) async throws(GitHubError)
    -> FolderListing
  {
    let url = host.url("/repos/\(repository.owner)/\(repository.name)/contents/\(path)")
    let response: HTTPResponse
    do {
      response = try await fetch(url, conditional: true).response
    } catch  where error.code == .notFound {
      return .absent
    }
    if response.status == 304 { return .notModified }
    // A file where a folder was asked for is no folder.
    guard response.body.first(where: { !$0.isASCIIWhitespace }) == UInt8(ascii: "[") else {
      return .absent
    }
    return .listed(try decode([ContentEntry].self, from: response, url: url))
  }

  /// A file's text and its blob SHA (`GET …/contents/PATH`), refused when it is larger than
  /// ``largestContentFile``, not a file, or its bytes are not the size GitHub announced.
  package func fileText(_ path: String, of repository: RepositoryName) async throws(GitHubError)
    -> (text: String, sha: String)
  {
    let url = host.url("/repos/\(repository.owner)/\(repository.name)/contents/\(path)")
    let response = try await fetch(url, conditional: false).response
    let file = try decode(ContentFile.self, from: response, url: url)
    func refuse(_ detail: String) -> GitHubError {
      GitHubError(.decoding, url: url.absoluteString, detail: detail)
    }
    guard file.type == "file" else { throw refuse("\(path) is a \(file.type), not a file") }
    guard file.size <= Self.largestContentFile else {
      throw refuse("\(path) is \(file.size) bytes; files over 1 MB are not read")
    }
    guard file.encoding == "base64", let content = file.content,
      let bytes = Data(base64Encoded: content, options: .ignoreUnknownCharacters),
      bytes.count == file.size
    else { throw refuse("\(path) did not come as the \(file.size) bytes announced") }
    guard let text = String(data: bytes, encoding: .utf8) else {
      throw refuse("\(path) is not UTF-8 text")
    }
    return (text, file.sha)
  }
}

extension UInt8 {
  fileprivate var isASCIIWhitespace: Bool {
    self == 0x20 || self == 0x0A || self == 0x0D || self == 0x09
  }
}
