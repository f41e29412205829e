// The TrellisTerminal demo: type (Hangul through an input method included), paste, click, resize
// the window, and watch how many bytes each frame costs.
//
//     swift run trellis-terminal-demo
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TrellisTerminal

/// What the demo shows; each event changes it and a new frame is drawn from it.
struct DemoState {
  var size: TerminalSize
  var text = ""
  var log: [String] = []
  var frames = 0
  var lastFrameBytes = 0
  var totalBytes = 0

  mutating func record(_ line: String) {
    log.append(line)
    if log.count > 200 { log.removeFirst(log.count - 200) }
  }
}

func draw(_ state: DemoState) -> CellBuffer {
  var frame = CellBuffer(width: state.size.columns, height: state.size.rows)
  let title = Style(foreground: .black, background: .cyan, attributes: .bold)
  let dim = Style(foreground: .gray)
  frame.draw { canvas in
    canvas.fill(CellRect(x: 0, y: 0, width: state.size.columns, height: 1), style: title)
    canvas.text(" TrellisTerminal demo · \(state.size)", x: 0, y: 0, style: title)
    canvas.text(
      "Type, paste, click, resize. Esc clears · Ctrl-Z suspends · Ctrl-C quits", x: 1, y: 1,
      style: dim)

    let input = CellRect(x: 0, y: 2, width: state.size.columns, height: 3)
    canvas.box(input, border: .rounded, style: Style(foreground: .blue))
    canvas.draw(in: input.inset(top: 1, left: 2, bottom: 1, right: 2)) { field in
      let shown = DisplayWidth.truncate(state.text, toColumns: max(0, field.bounds.width - 1))
      let end = field.text(shown, x: 0, y: 0, style: Style(attributes: .bold))
      field.text("▏", x: end, y: 0, style: Style(foreground: .cyan))
    }
    canvas.text(
      "\(DisplayWidth.of(state.text)) columns, \(state.text.count) characters", x: 2, y: 5,
      style: dim)

    let logArea = CellRect(x: 0, y: 6, width: state.size.columns, height: state.size.rows - 7)
    canvas.box(logArea, style: Style(foreground: .gray))
    canvas.text(" events ", x: 2, y: 6, style: dim)
    canvas.draw(in: logArea.inset(top: 1, left: 1, bottom: 1, right: 1)) { list in
      let rows = list.bounds.height
      for (row, line) in state.log.suffix(rows).enumerated() {
        list.text(line, x: 0, y: row)
      }
    }
    let status =
      " frame \(state.frames) · \(state.lastFrameBytes) bytes last frame · \(state.totalBytes) bytes in all "
    canvas.fill(
      CellRect(x: 0, y: state.size.rows - 1, width: state.size.columns, height: 1), style: title)
    canvas.text(status, x: 0, y: state.size.rows - 1, style: title)
  }
  return frame
}

let session: TerminalSession
do {
  session = try TerminalSession(options: TerminalOptions(mouse: true, focusReporting: true))
} catch {
  print("Error: \(error)")
  exit(1)
}

var state = DemoState(size: session.size)
var renderer = FrameRenderer()

@MainActor func present() {
  state.frames += 1
  var bytes = renderer.render(draw(state))
  // The status line shows this frame's size: draw again if the count changed what it shows.
  if bytes.count != state.lastFrameBytes {
    state.lastFrameBytes = bytes.count
    bytes += renderer.render(draw(state))
  }
  state.totalBytes += bytes.count
  do {
    try session.write(bytes)
  } catch {
    session.restore()
    print("Error: \(error)")
    exit(1)
  }
}

present()
loop: for await event in session.events {
  switch event {
  case .resize(let size):
    state.size = size
    state.record("resize \(size)")
  case .resumed:
    renderer.invalidate()
    state.record("resumed")
  case .input(.key(let key)):
    state.record("key \(key)")
    switch (key.key, key.modifiers) {
    case (.character("c"), .control): break loop
    case (.character("z"), .control):
      session.suspend()
      continue loop
    case (.escape, []): state.text = ""
    case (.enter, []):
      state.record("text \"\(state.text)\"")
      state.text = ""
    case (.backspace, _):
      if !state.text.isEmpty { state.text.removeLast() }
    case (.character(let character), let modifiers) where modifiers.isSubset(of: .shift):
      state.text.append(character)
    default: break
    }
  case .input(.paste(let text)):
    state.record("paste \(text.count) characters")
    state.text += text.filter { $0 != "\n" && $0 != "\r" }
  case .input(.mouse(let mouse)):
    state.record("mouse \(mouse.kind) at \(mouse.x),\(mouse.y)")
  case .input(.focusGained):
    state.record("focus in")
  case .input(.focusLost):
    state.record("focus out")
  }
  present()
}
session.restore()
