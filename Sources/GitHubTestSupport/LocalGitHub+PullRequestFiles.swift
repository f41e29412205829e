import FlyingFox
import Foundation
import GitHubIssues

// A pull request's files as GitHub serves them: `GET …/pulls/N/files` in pages (3,000 files at
// most), a patch left out of binary files and of files dropped for size, and the whole diff
// through the diff media type (or refused as too large).

extension LocalGitHub {
  /// What is served of one pull request's files.
  struct ServedPullRequestFiles {
    var files: [PullRequestFile]
    /// Paths served without their patch though they have one (GitHub's size limit).
    var dropped: Set<String>
    /// Paths of binary files (served without a patch; "Binary files … differ" in the diff).
    var binary: Set<String>
    /// The head commit.
    var head: String
    /// Whether the diff media type is refused (too large).
    var diffTooLarge: Bool
    /// Modes of files other than a regular file's `100644` (`100755` for an executable).
    var modes: [String: String] = [:]
    /// A push served right after this page of the files: its head and files (the same head
    /// for a listing that changes under it).
    var push: (afterPage: Int, head: String, files: [PullRequestFile])?
    /// A path whose item is served with a null `filename` (a partial answer).
    var nulled: String?
    /// The base branch, when not the pull request's own (retargeted).
    var base: String?
    /// A retarget served right after this page of the files.
    var retarget: (afterPage: Int, base: String)?
    /// A push served right after the whole diff is: its head and files.
    var pushAfterDiff: (head: String, files: [PullRequestFile])?
    /// Whether the pull request's answer has `changed_files` (a partial answer has not).
    var announcesCount = true
  }

  /// Serves `files` as pull request `number`'s at head commit `head` (GitHub's binary
  /// files' patches left out, and `dropped` ones' too, as counted 0 and 0).
  package func servePullRequestFiles(
    _ files: [PullRequestFile], ofPullRequest number: Int, in repository: RepositoryName,
    head: String, dropped: Set<String> = [], binary: Set<String> = [],
    diffTooLarge: Bool = false, modes: [String: String] = [:],
    pushing push: (afterPage: Int, head: String, files: [PullRequestFile])? = nil,
    nulling nulled: String? = nil, base: String? = nil,
    retargeting retarget: (afterPage: Int, base: String)? = nil,
    pushingAfterDiff pushAfterDiff: (head: String, files: [PullRequestFile])? = nil,
    announcingCount announcesCount: Bool = true
  ) {
    servedPullFiles["/repos/\(repository.owner)/\(repository.name)/pulls/\(number)"] =
      ServedPullRequestFiles(
        files: files, dropped: dropped, binary: binary, head: head, diffTooLarge: diffTooLarge,
        modes: modes, push: push, nulled: nulled, base: base, retarget: retarget,
        pushAfterDiff: pushAfterDiff, announcesCount: announcesCount)
  }

  /// Retargets pull request `number` (whose files are served) to `base`, as GitHub does by
  /// itself when the pull request below it in a stack merges.
  package func retargetPullRequest(_ number: Int, in repository: RepositoryName, to base: String) {
    servedPullFiles["/repos/\(repository.owner)/\(repository.name)/pulls/\(number)"]?.base = base
  }

  /// `…/pulls/N/files` in pages of `per_page` (≤ 100), and `…/pulls/N` as a diff or with the
  /// served head and file count; `nil` for pull requests whose files are not served.
  func pullRequestFilesRoute(_ request: FlyingFox.HTTPRequest, headers: [String: String])
    throws -> Route?
  {
    let path = request.path
    // `GET …/git/ref/heads/NAME`: every branch exists until deleted here.
    let parts = path.split(separator: "/").map(String.init)
    if parts.count >= 7, parts[0] == "repos", parts[3] == "git", parts[4] == "ref",
      parts[5] == "heads"
    {
      let name = parts[6...].map { $0.removingPercentEncoding ?? $0 }.joined(separator: "/")
      guard !deletedRefs.contains(name) else {
        return Route(status: 404, headers: [:], body: Data(#"{"message": "Not Found"}"#.utf8))
      }
      let sha = branchHead(name, in: "/repos/\(parts[1])/\(parts[2])")
      return Route(
        status: 200, headers: ["content-type": "application/json"],
        body: try JSONSerialization.data(withJSONObject: [
          "ref": "refs/heads/\(name)", "object": ["sha": sha, "type": "commit"],
        ]))
    }
    if let served = servedPullFiles[path] {
      if headers["accept"].map({ $0.contains("diff") || $0.contains("patch") }) == true {
        guard !served.diffTooLarge else {
          return Route(
            status: 406, headers: ["content-type": "application/json"],
            body: Data(#"{"message": "Sorry, the diff exceeded the maximum number of lines"}"#.utf8)
          )
        }
        var text = served.files.map { file in
          Self.gitDiffPart(
            of: file, binary: served.binary.contains(file.path),
            mode: served.modes[file.path] ?? "100644")
        }.joined()
        if headers["accept"]?.contains("patch") == true {
          // One commit, as `git format-patch` writes it.
          let title =
            (try? pullRequestRoute(at: path)).flatMap { route in
              (try? JSONSerialization.jsonObject(with: route.body) as? [String: Any])?["title"]
                as? String
            } ?? "Changes"
          text =
            "From \(served.head) Mon Sep 17 00:00:00 2001\nFrom: The Octocat "
            + "<octocat@github.com>\nDate: Mon, 1 Jan 2024 00:00:00 +0000\n"
            + "Subject: [PATCH] \(title)\n\n---\n\(text)--\n2.43.0\n\n"
        }
        if let push = served.pushAfterDiff {
          servedPullFiles[path]?.files = push.files
          servedPullFiles[path]?.head = push.head
          servedPullFiles[path]?.pushAfterDiff = nil
        }
        return Route(
          status: 200, headers: ["content-type": "text/plain; charset=utf-8"], body: Data(text.utf8)
        )
      }
      guard var route = try pullRequestRoute(at: path),
        var object = try JSONSerialization.jsonObject(with: route.body) as? [String: Any]
      else { return nil }
      object["changed_files"] = served.announcesCount ? served.files.count : nil
      var head = object["head"] as? [String: Any] ?? [:]
      head["sha"] = served.head
      object["head"] = head
      // The base: its branch, and the commit that branch points at now.
      var base = object["base"] as? [String: Any] ?? [:]
      let baseRef = served.base ?? base["ref"] as? String ?? "main"
      base["ref"] = baseRef
      base["sha"] = branchHead(baseRef, in: "/" + parts.prefix(3).joined(separator: "/"))
      object["base"] = base
      route.body = try JSONSerialization.data(withJSONObject: object)
      return route
    }
    let pullPath = String(path.dropLast(6))
    guard path.hasSuffix("/files"), let served = servedPullFiles[pullPath] else { return nil }
    let perPage = max(
      1, min(100, Int(request.query.first { $0.name == "per_page" }?.value ?? "") ?? 30))
    let page = max(1, Int(request.query.first { $0.name == "page" }?.value ?? "") ?? 1)
    let listed = Array(served.files.prefix(3_000))
    let pageCount = max(1, (listed.count + perPage - 1) / perPage)
    let slice = listed.dropFirst((page - 1) * perPage).prefix(perPage)
    let items: [[String: Any]] = slice.map { file in
      var item: [String: Any] = [
        "sha": Self.servedBlobs(of: file).after, "filename": file.path, "status": file.status,
        "additions": file.additions, "deletions": file.deletions,
        "changes": file.additions + file.deletions,
      ]
      if let previous = file.previousPath { item["previous_filename"] = previous }
      if served.dropped.contains(file.path) {
        // As GitHub shows a file whose patch it dropped: no patch, nothing counted.
        item["additions"] = 0
        item["deletions"] = 0
        item["changes"] = 0
      } else if !served.binary.contains(file.path), let patch = file.patch {
        item["patch"] = patch
      }
      if file.path == served.nulled { item["filename"] = NSNull() }
      return item
    }
    if let push = served.push, push.afterPage == page {
      servedPullFiles[pullPath]?.files = push.files
      servedPullFiles[pullPath]?.head = push.head
      servedPullFiles[pullPath]?.push = nil
    }
    if let retarget = served.retarget, retarget.afterPage == page {
      servedPullFiles[pullPath]?.base = retarget.base
      servedPullFiles[pullPath]?.retarget = nil
    }
    var headers = ["content-type": "application/json; charset=utf-8"]
    if page < pageCount {
      let base = "\(baseURL.absoluteString)\(path)?per_page=\(perPage)"
      headers["link"] =
        "<\(base)&page=\(page + 1)>; rel=\"next\", <\(base)&page=\(pageCount)>; rel=\"last\""
    }
    return Route(
      status: 200, headers: headers, body: try JSONSerialization.data(withJSONObject: items))
  }

  /// Refuses every merge of pull request `number` with GitHub's 405 and this message (checks
  /// failing, a review required), or lets them through again (`nil`).
  package func refuseMerges(of number: Int, in repository: RepositoryName, saying message: String?)
  {
    mergeRefusals["/repos/\(repository.owner)/\(repository.name)/pulls/\(number)"] = message
  }

  /// Says which merge methods the repository allows (`merge`, `squash`, `rebase`), as GitHub's
  /// repository answer does to those who can push, and refuses merges with the others (405).
  package func allowMergeMethods(_ methods: Set<String>, in repository: RepositoryName) throws {
    let path = "/repos/\(repository.owner)/\(repository.name)"
    var object =
      (routes[path].flatMap { try? JSONSerialization.jsonObject(with: $0.body) }
        as? [String: Any]) ?? ["id": 7, "full_name": "\(repository)", "private": false]
    object["allow_merge_commit"] = methods.contains("merge")
    object["allow_squash_merge"] = methods.contains("squash")
    object["allow_rebase_merge"] = methods.contains("rebase")
    serve(path, body: try JSONSerialization.data(withJSONObject: object))
    allowedMergeMethods[path] = methods
  }

  /// The commit a branch of a repository (`/repos/OWNER/NAME`) points at: what was pushed to
  /// it here, else the head of the pull request of this repository's own that brings it, else
  /// a commit of no pull request.
  func branchHead(_ name: String, in repository: String) -> String {
    if let pushed = branchHeads["\(repository):\(name)"] { return pushed }
    for item in listings[repository + "/issues"]?.items ?? [] {
      let path = "\(repository)/pulls/\(item.number)"
      guard pullHeadRepositories[path] == nil, Self.isPullRequest(item.json),
        let object = try? JSONSerialization.jsonObject(with: item.json) as? [String: Any],
        Self.pullRequestDetails(object)["headRefName"] as? String == name
      else { continue }
      return servedPullFiles[path]?.head ?? Self.headSHA(of: item.number)
    }
    return String(repeating: "e", count: 40)
  }

  /// Makes a pull request's head a branch of a fork (`owner/name`), as a contributor's is —
  /// named `branch` when given (a fork's `main`, say), else as before.
  package func serveHeadFromFork(
    _ fork: String, ofPullRequest number: Int, in repository: RepositoryName,
    branch: String? = nil
  ) {
    let path = "/repos/\(repository.owner)/\(repository.name)/pulls/\(number)"
    pullHeadRepositories[path] = fork
    if let branch { pullHeadBranches[path] = branch }
  }

  /// Pushes a commit to a branch of a repository: it points there from now on.
  package func pushBranch(_ name: String, to sha: String, in repository: RepositoryName) {
    branchHeads["/repos/\(repository.owner)/\(repository.name):\(name)"] = sha
  }

  /// Makes a branch one GitHub refuses to delete (protected).
  package func protectBranch(_ name: String) { protectedRefs.insert(name) }

  /// The branches deleted through `DELETE …/git/refs/heads/NAME`, in order.
  package var deletedBranches: [String] { deletedRefs }

  /// `PUT …/pulls/N/merge` and `DELETE …/git/refs/heads/NAME`, as GitHub answers them; `nil` for
  /// other writes.
  func pullRequestWrite(method: String, path: String, body: Data) throws -> Route? {
    let parts = path.split(separator: "/").map(String.init)
    if method == "DELETE", parts.count >= 6, parts[0] == "repos", parts[3] == "git",
      parts[4] == "refs", parts[5] == "heads"
    {
      let name = parts[6...].map { $0.removingPercentEncoding ?? $0 }.joined(separator: "/")
      if protectedRefs.contains(name) {
        return Route(
          status: 422, headers: ["content-type": "application/json"],
          body: Data(#"{"message": "Cannot delete this protected branch"}"#.utf8))
      }
      guard !name.isEmpty, !deletedRefs.contains(name) else {
        return Route(
          status: 422, headers: ["content-type": "application/json"],
          body: Data(#"{"message": "Reference does not exist"}"#.utf8))
      }
      deletedRefs.append(name)
      return Route(status: 204, headers: [:], body: Data())
    }
    guard method == "PUT", parts.count == 6, parts[0] == "repos", parts[3] == "pulls",
      parts[5] == "merge", let number = Int(parts[4])
    else { return nil }
    let pull = "/repos/\(parts[1])/\(parts[2])/pulls/\(number)"
    func refuse(_ status: Int, _ message: String) -> Route {
      Route(
        status: status, headers: ["content-type": "application/json"],
        body: (try? JSONSerialization.data(withJSONObject: ["message": message])) ?? Data())
    }
    guard let target = IssuePath("/repos/\(parts[1])/\(parts[2])/issues/\(number)"),
      let json = listings[target.listing]?.items.first(where: { $0.number == number })?.json,
      let object = try JSONSerialization.jsonObject(with: json) as? [String: Any],
      object["pull_request"] != nil
    else { return refuse(404, "Not Found") }
    let input = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:]
    let method = input["merge_method"] as? String ?? "merge"
    guard ["merge", "squash", "rebase"].contains(method)
    else { return refuse(422, "Validation Failed") }
    if let allowed = allowedMergeMethods["/repos/\(parts[1])/\(parts[2])"],
      !allowed.contains(method)
    {
      let name = ["merge": "Merge commits", "squash": "Squash merges", "rebase": "Rebase merges"]
      return refuse(405, "\(name[method] ?? method) are not allowed on this repository.")
    }
    let merged = (object["pull_request"] as? [String: Any])?["merged_at"].map { !($0 is NSNull) }
    guard object["state"] as? String == "open", merged != true else {
      return refuse(405, "Pull Request is not mergeable")
    }
    if mergeQueues.contains("/repos/\(parts[1])/\(parts[2])") {
      return refuse(405, "Changes must be made through the merge queue")
    }
    if let message = mergeRefusals[pull] { return refuse(405, message) }
    let head = servedPullFiles[pull]?.head ?? Self.headSHA(of: number)
    if let sha = input["sha"] as? String, sha != head {
      return refuse(409, "Head branch was modified. Review and try the merge again.")
    }
    let now = Self.timestamp(Date())
    let route = try editIssue(target) { issue in
      issue["state"] = "closed"
      issue["closed_at"] = now
      var pullRequest = issue["pull_request"] as? [String: Any] ?? [:]
      pullRequest["merged_at"] = now
      issue["pull_request"] = pullRequest
      return nil
    }
    guard route.status == 200 else { return route }
    mergedPulls.append(number)
    return Route(
      status: 200, headers: ["content-type": "application/json"],
      body: Data(
        #"{"sha": "\#(head)", "merged": true, "message": "Pull Request successfully merged"}"#.utf8)
    )
  }
}
