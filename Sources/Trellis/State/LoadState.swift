/// Where a screen's data stands — one value, so that "loading" and "failed" can never both be true
/// and an error can never be shown over content it does not belong to.
///
///     var state = LoadState<[Issue], GitHubError>.idle
///     state.startLoading()                  // .loading(previous: nil)
///     state.finish(with: issues)            // .loaded(issues), or .empty if there are none
///     state.startLoading()                  // .loading(previous: issues): keep showing them
///     state.fail(with: .offline)            // .failed(.offline, previous: issues)
///     state.presentation                    // .content(issues, .failedToRefresh(.offline))
///
/// Refreshing keeps the previous content on screen, and a failed refresh keeps it too, with the
/// error beside it, as people expect from a list that was already showing something.
public enum LoadState<Content, Failure: Error> {
  /// Nothing has been asked for yet.
  case idle
  /// A load is running; `previous` is the content shown before it, if any.
  case loading(previous: Content?)
  /// The load succeeded with content to show.
  case loaded(Content)
  /// The load succeeded and there is nothing to show.
  case empty
  /// The load failed; `previous` is the content shown before it, if any.
  case failed(Failure, previous: Content?)

  /// The content on screen: what was loaded, or what was shown before a load that is running or
  /// failed.
  public var content: Content? {
    switch self {
    case .idle, .empty: nil
    case .loading(let previous): previous
    case .loaded(let content): content
    case .failed(_, let previous): previous
    }
  }

  /// Whether a load is running.
  public var isLoading: Bool {
    if case .loading = self { true } else { false }
  }

  /// The error of the last load, if it failed.
  public var failure: Failure? {
    if case .failed(let failure, _) = self { failure } else { nil }
  }

  /// Starts a load, keeping the content on screen.
  public mutating func startLoading() {
    self = .loading(previous: content)
  }

  /// Ends a load with content, which becomes ``empty`` when `isEmpty` says so.
  public mutating func finish(with content: Content, isEmpty: (Content) -> Bool) {
    self = isEmpty(content) ? .empty : .loaded(content)
  }

  /// Ends a load with an error, keeping the content on screen.
  public mutating func fail(with failure: Failure) {
    self = .failed(failure, previous: content)
  }

  /// What a screen shows for this state.
  public var presentation: LoadPresentation<Content, Failure> {
    switch self {
    case .idle: .nothing
    case .loading(nil): .progress
    case .loading(let previous?): .content(previous, .refreshing)
    case .loaded(let content): .content(content, .current)
    case .empty: .empty
    case .failed(let failure, nil): .failure(failure)
    case .failed(let failure, let previous?): .content(previous, .failedToRefresh(failure))
    }
  }
}

extension LoadState where Content: Collection {
  /// Ends a load with content; an empty collection becomes ``empty``.
  public mutating func finish(with content: Content) {
    finish(with: content, isEmpty: \.isEmpty)
  }
}

extension LoadState: Equatable where Content: Equatable, Failure: Equatable {}
extension LoadState: Sendable where Content: Sendable {}

/// What a screen draws for a ``LoadState``: exactly one of these fills the content area.
public enum LoadPresentation<Content, Failure: Error> {
  /// Nothing yet (before the first load).
  case nothing
  /// A progress indicator, since there is nothing to show while loading.
  case progress
  /// The content, with how fresh it is.
  case content(Content, Freshness)
  /// The empty state: a message saying there is nothing here.
  case empty
  /// An error message in place of content that never loaded.
  case failure(Failure)

  /// How fresh shown content is; a screen draws a status line from it.
  public enum Freshness {
    /// The result of the last load.
    case current
    /// From before; a new load is running.
    case refreshing
    /// From before; the last load failed with this error.
    case failedToRefresh(Failure)
  }
}

extension LoadPresentation: Equatable where Content: Equatable, Failure: Equatable {}
extension LoadPresentation.Freshness: Equatable where Failure: Equatable {}
extension LoadPresentation: Sendable where Content: Sendable {}
extension LoadPresentation.Freshness: Sendable {}
