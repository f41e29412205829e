import Foundation
import GitHubIssues
import TrellisTerminal

/// The new-issue screen in a terminal, on the one ``ScreenHost`` loop.
///
/// It performs the screen's effects (the editor is lent the terminal). Filing is the caller's:
/// the screen ends with the issue, which goes through the outbox like every write.
@MainActor
package final class IssueFormHost: ScreenDriver {
  /// How the screen ended.
  package enum Ending: Sendable, Equatable {
    /// The person filed this issue.
    case file(NewIssue)
    /// Left without filing (Esc).
    case cancelled
    /// Left without filing (Ctrl-C).
    case interrupted
  }

  /// The screen.
  package let screen: IssueFormScreen
  let options: ScreenOptions
  var session: TerminalSession?

  /// A host for a screen filing an issue in `repository` from `templates`.
  package init(
    repository: RepositoryName, templates: IssueTemplates, chosen: IssueTemplate? = nil,
    size: TerminalSize, options: ScreenOptions = .fromEnvironment()
  ) {
    self.options = options
    screen = IssueFormScreen(
      repository: repository, templates: templates, chosen: chosen, size: size)
    screen.keys = options.config.formKeys
  }

  /// Runs the screen until the person files the issue or leaves.
  package func run(in session: TerminalSession) async -> Ending {
    let events = AppEvents<Never>(session.events, tick: .milliseconds(100))
    self.session = session
    let ending = await ScreenHost(options: options).run(self, in: session, events: events)
    self.session = nil
    session.restore()
    return ending ?? .cancelled
  }

  /// Runs the screen over another screen's, on its events, until the person files the issue
  /// or leaves; the screen below receives its messages meanwhile.
  func run<Message: Sendable>(
    covering events: AppEvents<Message>, in session: TerminalSession, host: ScreenHost,
    below: @escaping @MainActor (Message) -> Void
  ) async -> Ending {
    self.session = session
    let ending = await host.run(self, covering: events, in: session, below: below)
    self.session = nil
    return ending ?? .cancelled
  }

  func receive(_ message: Never) -> Ending? {}

  func perform(_ effect: IssueFormEffect) -> Ending? {
    switch effect {
    case .file(let issue): return .file(issue)
    case .cancel: return .cancelled
    case .interrupted: return .interrupted
    case .edit(let text): edit(text)
    }
    return nil
  }

  /// Lends the terminal to the person's editor on the field's text.
  private func edit(_ text: String) {
    guard let session else { return }
    do {
      screen.finishEditing(try Editor.write(text, in: session, naming: "new"))
    } catch {
      screen.show(message: "The editor did not finish: \(error)")
    }
  }
}
