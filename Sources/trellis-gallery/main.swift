// The Trellis gallery: the chip bar of seed 000, the waterfall of seed 002, the compositional
// screen of seed 004 and the load states, live in the terminal.
//
//     swift run trellis-gallery
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TrellisTerminal

/// What wakes the loop: the terminal, or the ten-a-second clock.
enum GalleryEvent: Sendable {
  case terminal(TerminalEvent)
  case tick
}

let session: TerminalSession
do {
  session = try TerminalSession(options: TerminalOptions(mouse: true))
} catch {
  FileHandleOutput.standardError("trellis-gallery: \(error)\n")
  exit(1)
}

let gallery = Gallery(size: session.size)
let terminalEvents = session.events
let (events, continuation) = AsyncStream.makeStream(of: GalleryEvent.self)
let reader = Task {
  for await event in terminalEvents { continuation.yield(.terminal(event)) }
  continuation.finish()
}
let clock = Task {
  while !Task.isCancelled {
    try? await Task.sleep(nanoseconds: 100_000_000)
    continuation.yield(.tick)
  }
}

@MainActor func present() {
  do {
    try session.write(gallery.frame())
  } catch {
    session.restore()
    FileHandleOutput.standardError("trellis-gallery: \(error)\n")
    exit(1)
  }
}

present()
loop: for await event in events {
  switch event {
  case .tick:
    gallery.tick()
  case .terminal(.resize(let size)):
    gallery.resize(size)
  case .terminal(.resumed):
    gallery.invalidate()
  case .terminal(.input(.key(let key)))
  where key.key == .character("z") && key.modifiers == .control:
    session.suspend()
    continue loop
  case .terminal(.input(let input)):
    if case .quit = gallery.handle(input) { break loop }
  }
  present()
}
clock.cancel()
reader.cancel()
session.restore()

/// Writes to standard error without Foundation.
enum FileHandleOutput {
  static func standardError(_ text: String) {
    var bytes = Array(text.utf8)
    _ = write(2, &bytes, bytes.count)
  }
}
