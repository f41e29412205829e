import Foundation
import GitHubIssues

/// A replayable batch of queued actions over a served repository, with the writes GitHub must
/// see from it: each action that changes something, once, in order per issue.
///
/// The expected writes come from a model of its own (state, milestone, labels, assignees), not
/// from the queue's code, so that the two check each other.
package struct QueueScenario: Sendable {
  /// The actions, in the order they are queued.
  package var actions: [(issue: Int, operation: QueuedAction.Operation)]
  /// The writes GitHub must see, by issue, in order, as ``describe(_:)`` says them.
  package var expected: [Int: [String]]

  /// Makes `count` actions over `issues` (the served issues' numbers), with a fixed seed.
  package init(
    count: Int, issues: [Int], milestones: [Int], seed: UInt64, github: LocalGitHub,
    repository: RepositoryName
  ) async {
    var state = seed
    func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
    func pick<T>(_ values: [T]) -> T { values[Int(next() % UInt64(values.count))] }
    struct Model {
      var open: Bool
      var milestone: Int?
      var labels: Set<String>
      var assignees: Set<String>
    }
    let labels = ["bug", "ui", "docs", "needs: triage", "한글"]
    let bodies = ["+1", "Thanks!", "Fixed in main.", "Same here on 2.1 — see the log below."]
    var models: [Int: Model] = [:]
    actions = []
    expected = [:]
    for _ in 0..<count {
      let number = pick(issues)
      if models[number] == nil, let issue = await github.issue(number: number, in: repository) {
        models[number] = Model(
          open: issue.state == .open, milestone: issue.milestone?.number,
          labels: Set(issue.labels.map { $0.name.lowercased() }),
          assignees: Set(issue.assignees.map { $0.login.lowercased() }))
      }
      guard var model = models[number] else { continue }
      let operation: QueuedAction.Operation
      var write: String?
      switch next() % 9 {
      case 0:
        operation = .change(.close(next() % 2 == 0 ? .completed : .notPlanned))
        if model.open { write = "state closed" }
        model.open = false
      case 1:
        operation = .change(.reopen)
        if !model.open { write = "state open" }
        model.open = true
      case 2:
        let milestone = pick(milestones)
        operation = .change(.setMilestone(number: milestone))
        if model.milestone != milestone { write = "milestone \(milestone)" }
        model.milestone = milestone
      case 3:
        operation = .change(.removeMilestone)
        if model.milestone != nil { write = "milestone none" }
        model.milestone = nil
      case 4:
        let label = pick(labels)
        operation = .change(.addLabels([label]))
        if !model.labels.contains(label.lowercased()) { write = "label +\(label)" }
        model.labels.insert(label.lowercased())
      case 5:
        let label = pick(labels)
        operation = .change(.removeLabel(label))
        if model.labels.contains(label.lowercased()) { write = "label -\(label)" }
        model.labels.remove(label.lowercased())
      case 6:
        operation = .change(.addAssignees(["mona"]))
        if !model.assignees.contains("mona") { write = "assign +mona" }
        model.assignees.insert("mona")
      case 7:
        operation = .change(.removeAssignees(["mona"]))
        if model.assignees.contains("mona") { write = "assign -mona" }
        model.assignees.remove("mona")
      default:
        let body = pick(bodies)
        operation = .comment(body)
        write = "comment \(body)"
      }
      models[number] = model
      actions.append((number, operation))
      if let write { expected[number, default: []].append(write) }
    }
  }

  /// The writes GitHub saw, by issue, said as ``expected`` says them.
  package static func served(_ writes: [AppliedWrite]) -> [Int: [String]] {
    var served: [Int: [String]] = [:]
    for write in writes {
      let parts = write.path.split(separator: "/").map(String.init)
      guard parts.count >= 5, parts[3] == "issues", let number = Int(parts[4]) else { continue }
      served[number, default: []].append(describe(write))
    }
    return served
  }

  /// Every issue whose served writes differ from the expected ones, with both.
  package func mismatches(_ writes: [AppliedWrite]) -> [(Int, served: [String], expected: [String])]
  {
    let served = Self.served(writes)
    return Set(expected.keys).union(served.keys).sorted().compactMap { number in
      let (got, wanted) = (served[number] ?? [], expected[number] ?? [])
      return got == wanted ? nil : (number, got, wanted)
    }
  }

  /// A served write, said as the expected writes are.
  package static func describe(_ write: AppliedWrite) -> String {
    let object =
      (try? JSONSerialization.jsonObject(with: Data(write.body.utf8))) as? [String: Any] ?? [:]
    let parts = write.path.split(separator: "/").map(String.init)
    switch (write.method, Array(parts.dropFirst(5))) {
    case ("PATCH", []):
      if let state = object["state"] as? String { return "state \(state)" }
      return "milestone " + ((object["milestone"] as? Int).map(String.init) ?? "none")
    case ("POST", ["labels"]):
      return "label +" + ((object["labels"] as? [String]) ?? []).joined(separator: ",")
    case ("DELETE", let rest) where rest.first == "labels":
      return "label -" + rest.dropFirst().joined(separator: "/")
    case ("POST", ["assignees"]):
      return "assign +" + ((object["assignees"] as? [String]) ?? []).joined(separator: ",")
    case ("DELETE", ["assignees"]):
      return "assign -" + ((object["assignees"] as? [String]) ?? []).joined(separator: ",")
    case ("POST", ["comments"]): return "comment " + (object["body"] as? String ?? "")
    default: return "\(write.method) \(write.path)"
    }
  }
}
