import Testing
import TrellisTerminal

@Suite struct AppEventsTests {
  @Test func terminalEventsMessagesAndTicksArriveInOneStream() async {
    let (terminal, input) = AsyncStream.makeStream(of: TerminalEvent.self)
    let events = AppEvents<String>(terminal, tick: .milliseconds(5))
    input.yield(.resumed)
    events.send("synced")
    var sawTerminal = false
    var sawMessage = false
    var ticks = 0
    for await event in events.stream {
      switch event {
      case .terminal(.resumed): sawTerminal = true
      case .terminal: break
      case .message(let text): sawMessage = text == "synced"
      case .tick: ticks += 1
      }
      if sawTerminal && sawMessage && ticks >= 2 { break }
    }
    #expect(sawTerminal && sawMessage && ticks >= 2)
    events.finish()
  }

  @Test func theStreamEndsWhenTheTerminalsDoes() async {
    let (terminal, input) = AsyncStream.makeStream(of: TerminalEvent.self)
    let events = AppEvents<Never>(terminal, tick: nil)
    input.finish()
    var count = 0
    for await _ in events.stream { count += 1 }
    #expect(count == 0)
  }
}
