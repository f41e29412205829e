import Foundation
import TrellisTerminal

/// What runs a ``Screen`` in a terminal: performs its effects, takes the reports of work done off
/// the loop, and does its own periodic work.
@MainActor
protocol ScreenDriver: AnyObject {
  /// The screen driven.
  associatedtype Driven: Screen
  /// What work off the loop reports back.
  associatedtype Message: Sendable
  /// How a session of the screen ends.
  associatedtype Ending: Sendable

  /// The screen.
  var screen: Driven { get }
  /// Performs one of the screen's effects; an ending leaves the loop.
  func perform(_ effect: Driven.Effect) -> Ending?
  /// Takes a report of work done off the loop; an ending leaves the loop.
  func receive(_ message: Message) -> Ending?
  /// What starts once the first frame is on screen (a sync, a token lookup): nothing outside
  /// the process runs before it.
  func started()
  /// The driver's own work on every tick, after the screen's (a queue due, a cache changed).
  func tick()
  /// The driver's work after every event, before the frame is drawn (follow what the screen
  /// now shows).
  func willPresent()
  /// Runs the screen an effect asked to show over this one (a form opened by a key), if any,
  /// until it ends. The driver keeps receiving its messages meanwhile, and its screen is drawn
  /// again in full after.
  func presentCovering(
    with host: ScreenHost, in session: TerminalSession, events: AppEvents<Message>
  ) async -> CoverOutcome<Ending>
}

/// What came of a driver's chance to show a screen over its own.
enum CoverOutcome<Ending> {
  /// None was asked for.
  case nothingShown
  /// One was shown and ended; the driver's screen goes on.
  case shown
  /// One was shown, and its ending ends the driver's too (Ctrl-C).
  case ended(Ending)
}

extension ScreenDriver {
  func started() {}
  func tick() {}
  func willPresent() {}
  func presentCovering(
    with host: ScreenHost, in session: TerminalSession, events: AppEvents<Message>
  ) async -> CoverOutcome<Ending> { .nothingShown }
}

/// The one run loop every screen of the app runs on: ticks, the terminal's input and size, the
/// messages of work off the loop, suspend and resume, and the frame — only changed cells reach the
/// terminal.
@MainActor
struct ScreenHost {
  /// How the frame is drawn: colours, and the accessible mode's cursor.
  var options: ScreenOptions

  /// A host drawing with `options`.
  init(options: ScreenOptions = .fromEnvironment()) {
    self.options = options
  }

  /// Runs `driver`'s screen in `session` on `events` until an effect or a message ends it, or
  /// the input ends; the events are finished, the session is not restored (the caller may run
  /// another screen in it).
  func run<Driver: ScreenDriver>(
    _ driver: Driver, in session: TerminalSession, events: AppEvents<Driver.Message>
  ) async -> Driver.Ending? {
    let ending = await loop(
      driver, in: session, events: events, receive: { driver.receive($0) },
      covering: { await driver.presentCovering(with: self, in: session, events: events) })
    events.finish()
    return ending
  }

  /// Runs `driver`'s screen over another's, on that one's events, until an effect ends it or
  /// the input ends: the messages of the screen below go to `below` (which cannot end while
  /// covered), and the events go on for it after.
  func run<Driver: ScreenDriver, Message: Sendable>(
    _ driver: Driver, covering events: AppEvents<Message>, in session: TerminalSession,
    below: @escaping @MainActor (Message) -> Void
  ) async -> Driver.Ending? {
    // One screen covers another, never more: what it asks to show over itself is not shown.
    await loop(
      driver, in: session, events: events,
      receive: { message in
        below(message)
        return nil
      }, covering: { CoverOutcome<Driver.Ending>.nothingShown })
  }

  private func loop<Driver: ScreenDriver, Message: Sendable>(
    _ driver: Driver, in session: TerminalSession, events: AppEvents<Message>,
    receive: @MainActor (Message) -> Driver.Ending?,
    covering: @MainActor () async -> CoverOutcome<Driver.Ending>
  ) async -> Driver.Ending? {
    Theme.current = options.theme
    var frame = ScreenFrame(options: options, size: session.size)
    driver.screen.resize(session.size)
    driver.willPresent()
    frame.present(driver.screen, in: session)
    driver.started()
    driver.willPresent()
    frame.present(driver.screen, in: session)
    var ending: Driver.Ending?
    func perform(_ effects: [Driver.Driven.Effect]) {
      for effect in effects where ending == nil { ending = driver.perform(effect) }
    }
    for await event in events.stream {
      switch event {
      case .tick:
        perform(driver.screen.tick())
        if ending == nil { driver.tick() }
      case .message(let message): ending = receive(message)
      case .terminal(.resize(let size)): driver.screen.resize(size)
      case .terminal(.resumed): frame.invalidate()
      case .terminal(.input(.key(let key)))
      where key.key == .character("z") && key.modifiers == .control:
        session.suspend()
        continue
      case .terminal(.input(let input)):
        perform(driver.screen.handle(input))
        if let deadline = driver.screen.deadline {
          events.tick(after: .milliseconds(max(0, Int(deadline.timeIntervalSinceNow * 1000) + 1)))
        }
      }
      if ending != nil { break }
      switch await covering() {
      case .nothingShown: break
      case .shown:
        // Covered meanwhile: the size may have changed, and every cell must be drawn again.
        driver.screen.resize(session.size)
        frame = ScreenFrame(options: options, size: session.size)
        Theme.current = options.theme
      case .ended(let covered):
        ending = covered
      }
      if ending != nil { break }
      driver.willPresent()
      frame.present(driver.screen, in: session)
    }
    return ending
  }
}

/// The frame of a screen in a terminal: the cells last drawn and the renderer that sends only
/// those that changed.
@MainActor
struct ScreenFrame {
  var renderer: FrameRenderer
  var buffer: CellBuffer
  let options: ScreenOptions
  /// What the accessible mode last said of the focus.
  var announced: String?

  init(options: ScreenOptions, size: TerminalSize) {
    self.options = options
    renderer = FrameRenderer(colors: options.colors)
    buffer = CellBuffer(width: size.columns, height: size.rows)
  }

  /// Draws `screen` and writes what changed; in the accessible mode the cursor is shown on
  /// the screen's focus.
  mutating func present(_ screen: some Screen, in session: TerminalSession) {
    if options.accessible {
      let description = screen.focusDescription
      if let description, description != announced { screen.show(message: description) }
      announced = description
    }
    screen.render(into: &buffer)
    let cursor = options.accessible ? screen.cursorPosition : nil
    try? session.write(renderer.render(buffer, cursor: cursor))
    screen.prepareNextFrame()
  }

  mutating func invalidate() { renderer.invalidate() }
}
