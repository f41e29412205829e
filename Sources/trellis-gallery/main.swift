// The Trellis gallery: a milestone chip bar over a sticky list, an endless waterfall, a
// compositional store front, the load states and an outline, live in the terminal.
//
//     swift run trellis-gallery
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TrellisTerminal

let session: TerminalSession
do {
  session = try TerminalSession(options: TerminalOptions(mouse: true))
} catch {
  FileHandleOutput.standardError("trellis-gallery: \(error)\n")
  exit(1)
}

let gallery = Gallery(size: session.size)
// The terminal's events and a clock ten times a second (spinners, simulated network).
let events = AppEvents<Never>(session.events, tick: .milliseconds(100))

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
loop: for await event in events.stream {
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
events.finish()
session.restore()

/// Writes to standard error without Foundation.
enum FileHandleOutput {
  static func standardError(_ text: String) {
    var bytes = Array(text.utf8)
    _ = write(2, &bytes, bytes.count)
  }
}
