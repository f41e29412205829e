import ArgumentParser
@testable import issues
import Testing

/// A plain browse is parsed as the browser's alone; everything else as from the root, with the
/// same result, messages and usage.
@Suite struct CommandParsingTests {
  @Test func eachRouteIsItsCommandsName() {
    for route in Issues.routes {
      #expect(route.command._commandName == route.name)
    }
    #expect(Set(Issues.subcommandNames).count == Issues.routes.count + 1)
  }

  @Test(arguments: [
    [], ["acme/tracker"], ["acme/tracker", "--offline"],
    ["--repo", "acme/tracker", "--theme", "mono"],
    ["acme/tracker", "--api-url", "http://127.0.0.1:9", "--accessible", "--timeout", "3"],
  ])
  func aPlainBrowseParsesAsFromTheRoot(arguments: [String]) throws {
    let fast = try #require(try Issues.parseCommand(arguments) as? Browse)
    let root = try #require(try Issues.parseAsRoot(arguments) as? Browse)
    #expect(fast.options.repository == root.options.repository)
    #expect(fast.options.repo == root.options.repo)
    #expect(fast.options.apiURL == root.options.apiURL)
    #expect(fast.options.timeout == root.options.timeout)
    #expect(fast.offline == root.offline)
    #expect(fast.screen.accessible == root.screen.accessible)
    #expect(fast.screen.theme == root.screen.theme)
  }

  @Test func argumentsNamingASubcommandRunIt() throws {
    #expect(try Issues.parseCommand(["sync", "acme/tracker"]) is Sync)
    let list = try #require(
      try Issues.parseCommand(["list", "acme/tracker", "-s", "closed", "-L", "5"]) as? List)
    let root = try #require(
      try Issues.parseAsRoot(["list", "acme/tracker", "-s", "closed", "-L", "5"]) as? List)
    #expect(list.options.repository == root.options.repository)
    #expect("\(list.state)" == "\(root.state)")
    #expect(list.limit == root.limit)
    #expect(try Issues.parseCommand(["browse", "acme/tracker"]) is Browse)
    #expect(try Issues.parseCommand(["queue", "send", "-R", "acme/tracker"]) is QueueCommand.Send)
  }

  /// `issues --help` lists the subcommands, as `issues help` does, not the browser's options.
  @Test(arguments: [["--help"], ["-h"]])
  func aLoneHelpFlagIsTheRootsHelp(arguments: [String]) {
    do {
      _ = try Issues.parseCommand(arguments)
      Issue.record("\(arguments) parsed as a command")
    } catch {
      let message = Issues.fullMessage(for: error)
      #expect(message.contains("SUBCOMMANDS:") && message.contains("USAGE: issues"), "\(message)")
      #expect(Issues.exitCode(for: error) == .success)
    }
  }

  /// Help, the version and mistakes say what the root says: usage as `issues`, not `browse`.
  @Test(arguments: [
    ["--version"], ["help"], ["--theme", "neon"], ["acme/tracker", "--bogus"],
    ["acme/tracker", "--timeout", "0"], ["help", "sync"], ["--experimental-dump-help"],
    ["list", "--help"], ["list", "--bogus"], ["sync", "-h"], ["queue", "cancel"], ["keys", "x"],
  ])
  func whatTheBrowserAloneRefusesIsAnsweredByTheRoot(arguments: [String]) {
    /// What parsing gave: the command's type, or the message an error prints.
    func outcome(_ parse: () throws -> any ParsableCommand) -> String {
      do {
        let command = try parse()
        #expect(!(command is Browse), "\(arguments) browses")
        return "\(type(of: command))"
      } catch {
        return Issues.fullMessage(for: error)
      }
    }
    #expect(
      outcome { try Issues.parseCommand(arguments) }
        == outcome { try Issues.parseAsRoot(arguments) })
  }
}
