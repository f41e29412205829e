/// What wakes an interactive program: the terminal, a clock tick, or its own background work.
public enum AppEvent<Message: Sendable>: Sendable {
  /// A key, paste, mouse event, resize or resume from the session.
  case terminal(TerminalEvent)
  /// The clock ticked (spinners, debounced input, expiring messages).
  case tick
  /// A message sent with ``AppEvents/send(_:)``, from a background task for example.
  case message(Message)
}

/// One stream of everything a program's loop waits for: the session's events, a clock, and
/// messages from background work — so that the loop is a single `for await`.
///
///     let events = AppEvents<SyncMessage>(session.events, tick: .milliseconds(100))
///     Task.detached { events.send(.finished(try await sync())) }
///     for await event in events.stream { … }
public final class AppEvents<Message: Sendable>: Sendable {
  /// The merged events, in the order they happened.
  public let stream: AsyncStream<AppEvent<Message>>
  private let continuation: AsyncStream<AppEvent<Message>>.Continuation
  private let tasks: [Task<Void, Never>]

  /// Merges a session's events with a clock ticking every `interval` (none when `nil`).
  public init(_ terminal: AsyncStream<TerminalEvent>, tick interval: Duration?) {
    let (stream, continuation) = AsyncStream.makeStream(of: AppEvent<Message>.self)
    self.stream = stream
    self.continuation = continuation
    var tasks = [
      Task {
        for await event in terminal { continuation.yield(.terminal(event)) }
        continuation.finish()
      }
    ]
    if let interval {
      let (seconds, attoseconds) = interval.components
      let nanoseconds =
        UInt64(max(0, seconds)) * 1_000_000_000 + UInt64(max(0, attoseconds) / 1_000_000_000)
      tasks.append(
        Task {
          while !Task.isCancelled {
            try? await Task.sleep(nanoseconds: max(1_000_000, nanoseconds))
            continuation.yield(.tick)
          }
        })
    }
    self.tasks = tasks
  }

  /// Adds a message to the stream; safe from any task.
  public func send(_ message: Message) {
    continuation.yield(.message(message))
  }

  /// Adds a tick after `delay`, besides the clock's: a deadline (typing that paused) is met
  /// when it falls, not on the clock's next tick.
  public func tick(after delay: Duration) {
    let continuation = continuation
    Task {
      try? await Task.sleep(for: max(.zero, delay))
      continuation.yield(.tick)
    }
  }

  /// Stops the clock and the stream.
  public func finish() {
    for task in tasks { task.cancel() }
    continuation.finish()
  }

  deinit { finish() }
}
