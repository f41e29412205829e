import ArgumentParser
@testable import issues
import Testing

/// A plain browse is parsed as the browser's alone; everything else as from the root, with the
/// same result, messages and usage.
@Suite struct CommandParsingTests {
  @Test func theRoutingNamesAreTheSubcommandsNames() {
    let names = Issues.configuration.subcommands.map { $0._commandName }
    #expect(Set(Issues.subcommandNames) == Set(names + ["help"]))
    #expect(Issues.subcommandNames.count == names.count + 1)
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
    #expect(try Issues.parseCommand(["list", "acme/tracker", "--state", "closed"]) is List)
    #expect(try Issues.parseCommand(["browse", "acme/tracker"]) is Browse)
  }

  /// Help, the version and mistakes say what the root says: usage as `issues`, not `browse`.
  @Test(arguments: [
    ["--version"], ["--help"], ["-h"], ["help"], ["--theme", "neon"], ["acme/tracker", "--bogus"],
    ["acme/tracker", "--timeout", "0"], ["help", "sync"], ["--experimental-dump-help"],
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
