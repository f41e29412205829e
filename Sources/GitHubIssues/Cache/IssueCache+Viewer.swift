import GRDB

// The login behind the token, for `@me`: asked of GitHub once per token and kept with the cache.

extension IssueCache {
  /// The login `@me` stands for with `token`, if it was recorded for that token.
  package func viewerLogin(token: String) throws -> String? {
    try writer.read { db in
      try String.fetchOne(
        db, sql: "SELECT login FROM viewer WHERE id = 1 AND tokenDigest = ?",
        arguments: [Self.digest(of: token)])
    }
  }

  /// Records the login `@me` stands for with `token` (which is not stored: a digest tells it
  /// apart from another token).
  package func setViewerLogin(_ login: String, token: String) throws {
    try writer.write { db in
      try db.execute(
        sql: """
          INSERT INTO viewer(id, login, tokenDigest) VALUES (1, ?, ?)
          ON CONFLICT(id) DO UPDATE SET login = excluded.login, tokenDigest = excluded.tokenDigest
          """, arguments: [Self.storable(login), Self.digest(of: token)])
    }
  }

  /// A 64-bit FNV-1a digest of the token, in hex: enough to notice another token, far too
  /// short to recover one.
  static func digest(of token: String) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in token.utf8 {
      hash ^= UInt64(byte)
      hash &*= 0x100_0000_01b3
    }
    return String(hash, radix: 16)
  }
}
