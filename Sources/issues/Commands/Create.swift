import ArgumentParser
import Foundation
import GitHubIssues
import IssuesBrowser
import TrellisTerminal

/// `issues create`: files an issue, as `gh issue create` does, through the outbox: shown at once,
/// filed exactly once, queued when GitHub cannot be reached.
struct Create: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "create",
    abstract: "Create an issue, from one of the repository's templates or forms if you like.",
    discussion: """
      Prints the new issue's URL, as gh does. The issue shows in the cache at once; when \
      GitHub cannot be reached it waits in the queue, shown with no number yet, and is filed \
      once when it can (`issues queue send`). In a terminal, without --title, --body, \
      --body-file or --editor, it opens the template chooser and the form on screen: fields \
      typed in place (Ctrl-E writes one in your editor), options chosen with Space, required \
      fields enforced as the web enforces them, Ctrl-S files it (`issues help keys`); `n` in the \
      browser opens the same form over the list, and `e` there rewrites a new issue that waits \
      in the queue. A lost answer is settled by reading your newest issues before anything is \
      sent again, so it is never filed twice.

      --template takes a template's name (or its file name) from the repository's \
      .github/ISSUE_TEMPLATE folder, read through the contents API and kept in the cache for \
      offline use: a Markdown template gives the title and the body to start from, a form its \
      fields composed as GitHub composes them (each "### Label", "_No response_" when empty); \
      both give their labels and assignees. --body replaces the template's body.

      --parent N makes it a sub-issue of issue N once it is filed: a second action queued with \
      it, sent after it; a lost answer is settled by reading the issue's parent. If GitHub \
      refuses the parent, the issue stays filed: its URL is printed and the refusal said.
      """)

  @OptionGroup var options: RepositoryOptions

  @OptionGroup var screen: ScreenFlags

  @Option(name: [.customShort("t"), .long], help: "The title.")
  var title: String?

  @Option(name: [.customShort("b"), .long], help: "The body.")
  var body: String?

  @Option(
    name: [.customShort("F"), .customLong("body-file")],
    help: ArgumentHelp("Read the body from a file (- for standard input).", valueName: "file"))
  var bodyFile: String?

  @Flag(name: [.customShort("e"), .long], help: "Write the body in $VISUAL or $EDITOR.")
  var editor = false

  @Option(
    name: [.customShort("l"), .long],
    help: ArgumentHelp("Add a label (repeat, or separate with commas).", valueName: "name"))
  var label: [String] = []

  @Option(
    name: [.customShort("a"), .long],
    help: ArgumentHelp("Assign a login (@me for you; repeat, or commas).", valueName: "login"))
  var assignee: [String] = []

  @Option(
    name: [.customShort("m"), .long],
    help: ArgumentHelp("Put it in a milestone, by title or number.", valueName: "name"))
  var milestone: String?

  @Option(
    name: [.customShort("T"), .long],
    help: ArgumentHelp("Start from this template or form (its name).", valueName: "name"))
  var template: String?

  @Option(name: .long, help: ArgumentHelp("Its issue type (Bug, Feature…).", valueName: "name"))
  var type: String?

  @Option(
    name: .long,
    help: ArgumentHelp("Make it a sub-issue of this issue (its number).", valueName: "number"))
  var parent: Int?

  @Flag(name: [.customShort("w"), .long], help: "Open the new-issue page in the web browser.")
  var web = false

  @Option(
    name: .long,
    help: ArgumentHelp("Print the created issue as JSON with these fields.", valueName: "fields"))
  var json: String?

  @Option(
    name: [.customShort("q"), .long],
    help: ArgumentHelp("Filter the JSON with this jq expression.", valueName: "expression"))
  var jq: String?

  func validate() throws {
    if [body != nil, bodyFile != nil, editor].count(where: { $0 }) > 1 {
      throw ValidationError("Give one of --body, --body-file and --editor.")
    }
    if let parent, parent <= 0 {
      throw ValidationError("--parent takes an issue's number (1 or more), not \(parent).")
    }
    if let json { _ = try IssueJSON.fields(json) }
    try ScriptingOptions.requireJSON(for: jq, json: json)
  }

  func run() async throws {
    // The jq program is compiled before anything is filed, so that a typo files nothing.
    _ = try ScriptingOptions.program(jq)
    if web {
      let (host, repository) = try options.resolve()
      print(Desktop.open(Self.webURL(host: host, repository: repository, create: self)))
      return
    }
    let acting = try Acting(number: 0, options: options, what: "Creating an issue")
    let templates = await Self.templates(acting)
    var new = NewIssue(title: title ?? "")
    var chosenTemplate: IssueTemplate?
    if let template {
      guard let templates else {
        throw CommandFailure(
          "The templates of \(acting.repository) are not known yet: GitHub could not be reached, "
            + "and they were never read. Nothing was filed.")
      }
      guard let chosen = templates.template(named: template) else {
        let names = templates.templates.map { "“\($0.name)”" }.joined(separator: ", ")
        throw CommandFailure(
          ControlCharacters.visible(
            "\(acting.repository) has no template “\(template)”"
              + (names.isEmpty ? "." : "; it has \(names).")))
      }
      chosenTemplate = chosen
      new = Self.start(from: chosen, title: title)
      if !chosen.projects.isEmpty, !isInteractive {
        Terminal.standardError(
          "warning: the template adds the issue to projects (\(chosen.projects.joined(separator: ", "))), "
            + "which issues cannot do: add it on the web.\n")
      }
    }
    if template == nil, !isInteractive, let templates, !templates.config.blankIssuesEnabled,
      !templates.templates.isEmpty
    {
      Terminal.standardError(
        ControlCharacters.visible(
          "warning: \(acting.repository) asks for one of its templates (blank issues are off "
            + "on the web): -T NAME fills one ("
            + templates.templates.map { "“\($0.name)”" }.joined(separator: ", ") + ").") + "\n")
    }
    // A new issue written and not filed (GitHub refused it, or its form was left) opens first.
    var draft: Draft?
    if isInteractive {
      if template == nil, title == nil {
        draft = try acting.cache.drafts(onIssue: 0).first {
          if case .newIssue = $0.words { true } else { false }
        }
      }
      // The template chooser and the form, on screen.
      let options = try screen.options()
      let session = try Terminal.takeSession()
      let host = await IssueFormHost(
        repository: acting.repository, templates: templates ?? IssueTemplates(),
        chosen: chosenTemplate, size: session.size, options: options)
      if let draft, case .newIssue(let issue) = draft.words {
        await host.screen.restore(issue)
        await host.screen.show(
          message: "Your draft, as you left it: file it, or Esc to keep it for later.")
      }
      let ending = await host.run(in: session)
      switch ending {
      case .file(let filled): new = filled
      case .cancelled, .interrupted:
        let model = await host.screen.model
        if let draft { try acting.cache.discardDraft(draft.id) }
        if model.isUntouched {
          Terminal.standardError(
            draft == nil ? "Nothing was filed.\n" : "Nothing was filed; the draft is dropped.\n")
        } else {
          try acting.cache.saveDraft(.newIssue(model.filled), onIssue: 0)
          Terminal.standardError(
            "Nothing was filed; what you wrote is kept: `issues create` opens it.\n")
        }
        if ending == .interrupted { throw ExitCode(130) }
        return
      }
    }
    if let text = try readBody() { new.body = text }
    if editor { new.body = try Self.edit(new.body, repository: acting.repository) }
    new.labels = Self.distinct(new.labels + Self.split(label))
    let viewer = try await MeResolver.viewer(
      host: acting.host, cache: acting.cache, offline: false, timeout: options.timeout)
    var assignees = new.assignees + Self.split(assignee)
    if assignees.contains(where: { $0.lowercased() == "@me" }) {
      guard let viewer else {
        throw CommandFailure("@me needs the token's account, which GitHub could not tell now.")
      }
      assignees = assignees.map { $0.lowercased() == "@me" ? viewer : $0 }
    }
    new.assignees = Self.distinct(assignees)
    if let milestone { new.milestone = try await acting.milestone(milestone) }
    if let type { new.type = type }
    guard !new.title.allSatisfy(\.isWhitespace) else {
      throw CommandFailure(
        "The title is required: --title TEXT (in a terminal, `issues create` without --title, "
          + "--body, --body-file or --editor opens the form).")
    }
    let queued: [QueuedAction]
    do {
      let create = try acting.cache.enqueueNewIssue(
        new, author: viewer ?? "you", parent: parent, replacingDraft: draft?.id)
      queued = try acting.cache.queuedActions().filter { $0.issueKey == create.issueKey }
    } catch {
      throw CommandFailure(ControlCharacters.visible("\(error). Nothing was filed."))
    }
    var quick = acting.client
    quick.maximumRetries = min(quick.maximumRetries, 1)
    let replayer = ActionReplayer(client: quick, cache: acting.cache, repository: acting.repository)
    let filed = {
      guard let key = queued.first?.issueKey, let issue = try acting.cache.issue(key: key) else {
        throw CommandFailure("The issue was filed, but the cache lost it: `issues sync` shows it.")
      }
      return issue
    }
    switch await replayer.sendNow(queued) {
    case .landed: try output(try filed(), acting: acting)
    case .refused(let refusal):
      let (action, landed) = (refusal.action, refusal.landed)
      let why =
        refusal.error.map { "\(Terminal.failure($0, repository: acting.repository))" }
        ?? "\(refusal.reason)."
      guard landed.contains(where: { if case .create = $0.operation { true } else { false } })
      else {
        throw CommandFailure(
          ControlCharacters.visible(
            refusal.sentence(
              why: refusal.error.map { "\(Terminal.failure($0, repository: acting.repository))" },
              audience: .command)))
      }
      // Filed, but not linked: the URL is printed, and the failure said.
      let issue = try filed()
      try output(issue, acting: acting)
      throw CommandFailure(
        ControlCharacters.visible(
          "Filed #\(issue.number), but could not "
            + action.operation.describe(issue: issue.number) + ": \(why)"))
    case .queued(let waiting, let because):
      let why = because.map { $0.summary() } ?? "GitHub could not be reached"
      if !waiting.contains(where: { if case .create = $0.operation { true } else { false } }) {
        // Filed; the link waits.
        let issue = try filed()
        try output(issue, acting: acting)
        Terminal.standardError(
          "Filed #\(issue.number); making it a sub-issue of #\(parent ?? 0) waits in the queue "
            + "(\(why)): `issues queue send` sends it, once.\n")
        return
      }
      Terminal.standardError(
        ControlCharacters.visible(
          ActionReplayer.Settlement.queuedSentence(
            waiting, because: because, audience: .command)
            + " The cache shows it now, with no number yet.") + "\n")
    }
  }

  /// Whether the issue is written on screen: in a terminal, when no flag gives its text.
  private var isInteractive: Bool {
    title == nil && body == nil && bodyFile == nil && !editor && isatty(STDIN_FILENO) == 1
      && isatty(STDOUT_FILENO) == 1
  }

  /// The new issue's URL (as gh prints it), or its JSON.
  private func output(_ issue: CachedIssue, acting: Acting) throws {
    guard let json else {
      print(
        issue.htmlURL
          ?? "https://\(acting.host.name)/\(acting.repository)/issues/\(issue.number)")
      return
    }
    let fields = try IssueJSON.fields(json)
    let milestones = Dictionary(try acting.cache.milestones().map { ($0.number, $0) }) { a, _ in a }
    let labels = Dictionary(try acting.cache.labels().map { ($0.name, $0) }) { a, _ in a }
    let object = IssueJSON.object(
      issue, fields: fields, context: IssueJSON.Context(milestones: milestones, labels: labels))
    var output = JSONOutput(filter: try ScriptingOptions.program(jq))
    output.write(
      IssueJSON.single(object, pretty: output.pretty(toTerminal: isatty(STDOUT_FILENO) == 1)))
    try output.finish()
  }

  /// The repository's templates: read again from GitHub (one conditional request), or as
  /// kept when GitHub cannot be reached; `nil` when they were never read.
  static func templates(_ acting: Acting) async -> IssueTemplates? {
    let fetcher = IssueTemplateFetcher(
      client: acting.client, cache: acting.cache, repository: acting.repository)
    do {
      let templates = try await fetcher.fetch()
      for problem in templates.problems {
        Terminal.standardError(
          ControlCharacters.visible("warning: \(problem) (template skipped)") + "\n")
      }
      return templates
    } catch {
      return (try? acting.cache.issueTemplates())?.templates
    }
  }

  /// A new issue as a template starts it: its title (unless one is given), its body (a form's
  /// fields as first shown, composed), its labels and assignees.
  static func start(from template: IssueTemplate, title: String?) -> NewIssue {
    let body: String
    switch template.content {
    case .markdown(let text): body = text
    case .form(let form): body = form.body(answers: form.initialAnswers)
    }
    return NewIssue(
      title: title ?? template.title, body: body, labels: template.labels,
      assignees: template.assignees, type: template.type)
  }

  /// The text from --body or --body-file, if given.
  private func readBody() throws -> String? {
    if let body { return body }
    return try bodyFile.map { try BodyFile.read($0, what: "an issue's body") }
  }

  /// The body after the person's editor, starting from `text`.
  private static func edit(_ text: String, repository: RepositoryName) throws -> String {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent(
      "issues-create-\(getpid()).md")
    do {
      try Data(text.utf8).write(to: file)
    } catch {
      throw CommandFailure("Could not write \(file.path): \(error.localizedDescription)")
    }
    defer { try? FileManager.default.removeItem(at: file) }
    try CommentCommand.edit(file)
    guard let data = try? Data(contentsOf: file) else {
      throw CommandFailure("Could not read \(file.path) back.")
    }
    return String(decoding: data, as: UTF8.self)
  }

  /// Names given as repeated options, each possibly a comma-separated list.
  static func split(_ values: [String]) -> [String] {
    values.flatMap { $0.split(separator: ",") }.map {
      $0.trimmingCharacters(in: .whitespaces)
    }.filter { !$0.isEmpty }
  }

  private static func distinct(_ names: [String]) -> [String] {
    var seen: Set<String> = []
    return names.filter { seen.insert($0.lowercased()).inserted }
  }

  /// GitHub's new-issue page with what was given filled in.
  static func webURL(host: GitHubHost, repository: RepositoryName, create: Create) -> String {
    var components = URLComponents()
    components.scheme = "https"
    components.host = host.name
    components.path = "/\(repository.owner)/\(repository.name)/issues/new"
    var items: [URLQueryItem] = []
    if let title = create.title { items.append(URLQueryItem(name: "title", value: title)) }
    if let body = create.body { items.append(URLQueryItem(name: "body", value: body)) }
    let labels = split(create.label)
    if !labels.isEmpty {
      items.append(URLQueryItem(name: "labels", value: labels.joined(separator: ",")))
    }
    let assignees = split(create.assignee)
    if !assignees.isEmpty {
      items.append(URLQueryItem(name: "assignees", value: assignees.joined(separator: ",")))
    }
    if let milestone = create.milestone {
      items.append(URLQueryItem(name: "milestone", value: milestone))
    }
    if let template = create.template {
      items.append(URLQueryItem(name: "template", value: template))
    }
    if !items.isEmpty { components.queryItems = items }
    return components.string ?? "https://\(host.name)/\(repository)/issues/new"
  }
}
