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
}

extension ScreenDriver {
  func started() {}
  func tick() {}
  func willPresent() {}
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
      case .message(let message): ending = driver.receive(message)
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
      driver.willPresent()
      frame.present(driver.screen, in: session)
    }
    events.finish()
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
