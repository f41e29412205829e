@testable import GitHubIssues
import Testing
import TrellisTestSupport

/// A whole diff, as GitHub's diff media type writes it, cut into each file's part: CRLF files
/// keep their line endings and stay in their own file, and paths are found however git writes
/// them (quoted, with a space and the tab after it).
@Suite struct GitDiffSectionsTests {
  @Test func aCRLFFileKeepsItsLinesAndTheNextFileItsOwn() throws {
    let diff =
      "diff --git a/win.txt b/win.txt\n"
      + "index 1111111..2222222 100644\n"
      + "--- a/win.txt\n"
      + "+++ b/win.txt\n"
      + "@@ -1,2 +1,2 @@\n"
      + " kept\r\n"
      + "-old\r\n"
      + "+new\r\n"
      + "diff --git a/unix.txt b/unix.txt\n"
      + "--- a/unix.txt\n"
      + "+++ b/unix.txt\n"
      + "@@ -1 +1 @@\n"
      + "-a\n"
      + "+b\n"
    let sections = GitDiffSections.sections(diff)
    #expect(sections.count == 2)
    #expect(
      sections["win.txt"]?.header
        == "diff --git a/win.txt b/win.txt\nindex 1111111..2222222 100644\n--- a/win.txt\n"
        + "+++ b/win.txt\n")
    #expect(sections["win.txt"]?.newBlob == "2222222")
    #expect(sections["unix.txt"]?.newBlob == nil)
    #expect(sections["win.txt"]?.content == .patch("@@ -1,2 +1,2 @@\n kept\r\n-old\r\n+new\r\n"))
    #expect(sections["unix.txt"]?.content == .patch("@@ -1 +1 @@\n-a\n+b\n"))
    // The CRLF file's patch reads as two lines each side, their `\r` kept.
    guard case .patch(let text) = sections["win.txt"]?.content else { return }
    let patch = try Patch(parsing: text)
    #expect(patch.hunks.first?.lines.count == 3)
  }

  @Test func pathsAreFoundAsGitWritesThem() {
    let diff = """
      diff --git "a/caf\\303\\251.txt" "b/caf\\303\\251.txt"
      --- "a/caf\\303\\251.txt"
      +++ "b/caf\\303\\251.txt"
      @@ -1 +1 @@
      -a
      +b
      diff --git a/with space.txt b/with space.txt
      --- a/with space.txt\t
      +++ b/with space.txt\t
      @@ -1 +1 @@
      -c
      +d
      diff --git "a/tab\\there" "b/tab\\there"
      Binary files "a/tab\\there" and "b/tab\\there" differ
      diff --git a/gone.txt b/gone.txt
      deleted file mode 100644
      --- a/gone.txt
      +++ /dev/null
      @@ -1 +0,0 @@
      -e

      """
    let sections = GitDiffSections.sections(diff)
    #expect(sections["café.txt"]?.content == .patch("@@ -1 +1 @@\n-a\n+b\n"))
    #expect(sections["with space.txt"]?.content == .patch("@@ -1 +1 @@\n-c\n+d\n"))
    #expect(sections["tab\there"]?.content == .binary)
    #expect(sections["gone.txt"]?.content == .patch("@@ -1 +0,0 @@\n-e\n"))
    #expect(sections.count == 4)
    #expect(sections["gone.txt"]?.header.contains("deleted file mode 100644\n") == true)
  }

  /// Any path, quoted as git quotes it and read back, is the same path.
  ///
  /// One git would not quote is written as it is. Seeded, printed.
  @Test func quotingAnyPathReadsBackTheSamePath() {
    let seed: UInt64 = 0x5EED_0076
    var random = SplitMix64(seed: seed)
    let alphabet: [Unicode.Scalar] = [
      "a", "Z", "0", " ", "\t", "\n", "\r", "\"", "\\", "é", "✓", "ह", "ि", "\u{7F}", "\u{1}", "/",
      ".", "-", "💥",
    ]
    for _ in 0..<2_000 {
      var name = "b/"
      for _ in 0..<(1 + Int(random.next() % 12)) {
        name.unicodeScalars.append(alphabet[Int(random.next() % UInt64(alphabet.count))])
      }
      let quoted = GitPath.quoted(name)
      let plain = name.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C }
      #expect((quoted == name) == plain, "seed \(seed): \(name.debugDescription)")
      let back = GitPath.unquoted(Substring(GitPath.labelled(quoted)), side: "b/")
      // By scalars: a path may begin with a combining mark, which joins the `/` before it.
      let path = String(String.UnicodeScalarView(name.unicodeScalars.dropFirst(2)))
      #expect(back == path, "seed \(seed): \(name.debugDescription) as \(quoted.debugDescription)")
    }
  }

  @Test func cQuotingIsReadOrRefused() {
    #expect(GitPath.cUnquoted(#""a\"b\\c\n""#) == "a\"b\\c\n")
    #expect(GitPath.cUnquoted(#""\342\234\223""#) == "✓")
    #expect(GitPath.cUnquoted(#""no end"#) == nil)
    #expect(GitPath.cUnquoted(#""bad \q""#) == nil)
    // Bytes that are not UTF-8 are no path this client can name.
    #expect(GitPath.cUnquoted(#""\377""#) == nil)
    #expect(GitPath.unquoted("/dev/null", side: "b/") == nil)
    #expect(GitPath.unquoted("b/x y\t", side: "b/") == "x y")
  }
}
