import Foundation
import GitHubIssues
import TrellisTerminal

// `d`: a pull request's diff over the browser, on the same loop and events — read from the
// cache at once (and read again in the background), or read first when none is kept.

extension BrowserHost {
  /// Shows pull request `number`'s diff: the one kept at once, or read first.
  func showDiff(_ number: Int, title: String) {
    let kept: Bool
    do {
      kept = try cache.pullRequestDiff(number) != nil
    } catch {
      browser.show(message: "Could not read the diff from the cache: \(error)")
      return
    }
    if kept {
      diffToShow = (number, title)
      return
    }
    guard let writeClient else {
      browser.show(
        message: "The diff of #\(number) was never read (\(network.offlineReason ?? "no token")).")
      return
    }
    guard diffTask == nil else { return }
    browser.show(message: "Reading the diff of #\(number)…")
    let fetcher = PullRequestDiffFetcher(
      client: writeClient, cache: cache, repository: browser.repository)
    let events = events
    diffTask = Task.detached {
      do throws(GitHubError) {
        _ = try await fetcher.fetch(number)
        events.send(.diffRead(number, title: title, .success(())))
      } catch {
        events.send(.diffRead(number, title: title, .failure(HostFailure(error.summary()))))
      }
    }
  }

  /// Takes a diff read for `d`: shown over the browser, or why not said.
  func diffRead(_ number: Int, title: String, _ result: Result<Void, HostFailure>) {
    diffTask = nil
    switch result {
    case .success: diffToShow = (number, title)
    case .failure(let failure):
      browser.show(
        message: ControlCharacters.visible(
          "Could not read the diff of #\(number): \(failure.message)"))
    }
  }

  /// Runs the diff screen over the browser; a kept diff is read again in the background.
  func presentDiff(
    with host: ScreenHost, in session: TerminalSession, events: AppEvents<Message>
  ) async -> CoverOutcome<Ending> {
    guard let (number, title) = diffToShow else { return .nothingShown }
    diffToShow = nil
    let model: DiffModel
    do {
      guard let kept = try DiffHost.model(of: number, in: cache) else { return .nothingShown }
      model = kept
    } catch {
      browser.show(message: "Could not read the diff from the cache: \(error)")
      return .nothingShown
    }
    let screen = DiffScreen(
      repository: browser.repository, number: number, title: title, model: model,
      size: session.size)
    screen.host = browser.host
    let diff = DiffHost(
      screen: screen, cache: cache, client: writeClient, offlineReason: network.offlineReason,
      options: options)
    // A push since it was read shows as a staged update.
    if writeClient != nil { diff.refresh() }
    let ending = await diff.run(covering: events, in: session, host: host) { [weak self] in
      _ = self?.receive($0)
    }
    _ = receive(.listChanged)
    switch ending {
    case .back: return .shown
    case .interrupted: return .ended(.interrupted)
    }
  }
}
