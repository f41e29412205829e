import Foundation
import GRDB

/// Keeps a filter's list in step with the cache, one committed transaction at a time, and hands
/// each new state to an ``IssueListObservation``.
///
/// It watches `issue`, `milestone`, `label` and `issueLabel`. After a commit that touched them it
/// reads, on the writer's connection and before any other write, only the rows that changed, and
/// merges them into the list it holds instead of querying all *n* again: a few changed rows move
/// in place, each in O(log *n*) plus the rows between its old and new places; many are merged in
/// one O(*k* log *k* + *n*) pass. Milestones and labels are read again only after a commit that
/// wrote their tables. A commit that changes nothing the list shows (a row written again as it was, a
/// table the list does not read) yields nothing.
final class IssueListObserver: TransactionObserver, @unchecked Sendable {
  // Touched only on the writer's queue, which GRDB serializes.
  private let filter: IssueFilter
  private var list: OrderedIssueList
  private var changedIDs: Set<Int64> = []
  private var metadataChanged = false
  private var treeChanged = false
  private var queueChanged = false
  private var subIssues: [Int: [Int]]
  /// The milestones and labels, read again only after a commit that touched their tables.
  private var milestones: [GitHubMilestone]
  private var labels: [GitHubLabel]
  private let sink: any ListDelivery
  /// The database the observer watches, to give the list entries of its own after a delivery
  /// (``OrderedIssueList/separateEntries()``) on the writer's queue, outside the write.
  private weak var writer: (any DatabaseWriter)?
  /// Above this many changed rows, the list is read again whole.
  static let incrementalLimit = 5_000

  init(
    filter: IssueFilter, db: Database, sink: any ListDelivery, writer: (any DatabaseWriter)? = nil
  ) throws {
    self.writer = writer
    var everyMilestone = filter
    everyMilestone.milestone = .all
    everyMilestone.limit = nil
    self.filter = everyMilestone
    self.sink = sink
    list = try OrderedIssueList(filter: everyMilestone, db: db)
    subIssues = try IssueCache.subIssues(db)
    milestones = try IssueCache.milestones(db)
    labels = try IssueCache.labels(db)
    sink.send(element(change: .everything, queue: try QueueMarks(db)))
  }

  func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
    switch eventKind.tableName {
    case "issue", "milestone", "label", "issueLabel", "subIssue", "queuedAction": true
    default: false
    }
  }

  func databaseDidChange(with event: DatabaseEvent) {
    // Writes a trigger makes (the search index) are reported too: only these tables count. A
    // label of an issue (`issueLabel`) changes with the issue's row, which is written with it.
    switch event.tableName {
    case "issue": changedIDs.insert(event.rowID)
    case "milestone", "label": metadataChanged = true
    case "subIssue": treeChanged = true
    case "queuedAction": queueChanged = true
    default: break
    }
  }

  func databaseDidCommit(_ db: Database) {
    defer {
      changedIDs.removeAll(keepingCapacity: true)
      metadataChanged = false
      treeChanged = false
      queueChanged = false
    }
    guard !changedIDs.isEmpty || metadataChanged || treeChanged || queueChanged else { return }
    do {
      let queue = queueChanged ? try QueueMarks(db) : nil
      var treeNumbers: Set<Int> = []
      if treeChanged {
        let tree = try IssueCache.subIssues(db)
        for parent in Set(tree.keys).union(subIssues.keys) where tree[parent] != subIssues[parent] {
          treeNumbers.insert(parent)
          treeNumbers.formUnion(tree[parent] ?? [])
          treeNumbers.formUnion(subIssues[parent] ?? [])
        }
        subIssues = tree
      }
      if metadataChanged {
        milestones = try IssueCache.milestones(db)
        labels = try IssueCache.labels(db)
      }
      let change: IssueListChange
      if changedIDs.count > Self.incrementalLimit {
        list = try OrderedIssueList(filter: filter, db: db)
        change = .everything
      } else {
        var keys = try list.merge(changedIDs: changedIDs, db: db)
        if !treeNumbers.isEmpty {
          // Sub-issue lists name issues by number: the rows listed with those numbers.
          for entry in list.entries where treeNumbers.contains(entry.number) {
            keys.insert(entry.key)
          }
        }
        guard !keys.isEmpty || metadataChanged || queue != nil else { return }
        change = .items(keys, metadata: metadataChanged ? .changed : .unchanged)
      }
      sink.send(element(change: change, queue: queue))
      // The entries are now shared with whoever took them: the next merge would copy them all
      // inside its write. Copy them now, after this write, while nothing waits.
      writer?.asyncWriteWithoutTransaction { [weak self] _ in self?.list.separateEntries() }
    } catch {
      sink.fail(error)
    }
  }

  func databaseDidRollback(_ db: Database) {
    changedIDs.removeAll(keepingCapacity: true)
    metadataChanged = false
    treeChanged = false
    queueChanged = false
  }

  private func element(change: IssueListChange, queue: QueueMarks?) -> ObservedIssueList {
    ObservedIssueList(
      entries: list.entries, counts: list.counts, milestones: milestones, labels: labels,
      subIssues: subIssues, change: change, queue: queue)
  }
}

/// A filter's list in its order, with what merging changed rows into it needs: each row's key
/// and sort key.
struct OrderedIssueList {
  /// The order of a row in a list: compared descending, field by field.
  struct SortKey: Comparable {
    var primary: Double
    var secondary: Double
    var number: Int

    static func < (lhs: SortKey, rhs: SortKey) -> Bool {
      (lhs.primary, lhs.secondary, lhs.number) < (rhs.primary, rhs.secondary, rhs.number)
    }
  }

  struct Row {
    var entry: IssueListEntry
    var key: SortKey
    /// When the row last changed on GitHub: a change of it redraws the row.
    var updatedAt: Double
    /// How many times a local edit (shown before GitHub confirmed it, or taken back) wrote the
    /// row: such a write keeps `updatedAt`, and still redraws the row.
    var localRevision: Int
    /// The row's ``IssueKey`` value (its rowid, which is what a commit reports).
    var id: Int64 { entry.key.rawValue }
  }

  let filter: IssueFilter
  /// The rows' sort keys in the list's order (descending), and their entries at the same
  /// positions.
  ///
  /// The entries are handed to observers as they are, without a copy per commit. The keys are
  /// kept apart from the rest of a row so that a row leaving the top of a long list shifts 24
  /// bytes per row below it, not a whole row.
  private(set) var keys: [SortKey]
  private(set) var entries: [IssueListEntry]
  private var byID: [Int64: Row]
  /// The entries per milestone, updated with each merge.
  private(set) var counts: EntryCounts
  /// Up to this many changed rows are moved in place, each in O(log *n*) plus the rows it passes;
  /// more are merged in one pass over the list.
  static let inPlaceLimit = 32

  init(filter: IssueFilter, db: Database) throws {
    self.filter = filter
    let rows = try Self.fetch(filter, extra: nil, db)
    keys = rows.map(\.key)
    entries = rows.map(\.entry)
    byID = Dictionary(rows.map { ($0.id, $0) }) { first, _ in first }
    counts = EntryCounts(entries)
  }

  /// Gives the list entries of its own, apart from those handed out with the last element, so
  /// that the next merge edits them in place: done off the write that merges (a copy of the
  /// whole list), after the element is delivered.
  mutating func separateEntries() {
    entries.reserveCapacity(entries.count)
  }

  /// Reads the rows with these keys again and moves, adds or removes them in the list.
  ///
  /// - Returns: The keys of the items that changed in the list: added, removed, moved or
  ///   edited. Rows written again unchanged are not in it.
  mutating func merge(changedIDs: Set<Int64>, db: Database) throws -> Set<IssueKey> {
    guard !changedIDs.isEmpty else { return [] }
    let ids = Array(changedIDs)
    var fresh: [Int64: Row] = [:]
    for start in stride(from: 0, to: ids.count, by: 500) {
      let chunk = ids[start..<min(start + 500, ids.count)]
      let placeholders = Array(repeating: "?", count: chunk.count).joined(separator: ",")
      for row in try Self.fetch(
        filter,
        extra: ("key IN (\(placeholders))", chunk.map { $0 as any DatabaseValueConvertible }),
        db)
      {
        fresh[row.id] = row
      }
    }
    var changes: [(old: Row?, new: Row?)] = []
    var keys: Set<IssueKey> = []
    for id in changedIDs {
      let old = byID[id]
      let new = fresh[id]
      if let old, let new, old.entry == new.entry, old.key == new.key,
        old.updatedAt == new.updatedAt, old.localRevision == new.localRevision
      {
        continue
      }
      if old == nil && new == nil { continue }
      keys.insert(IssueKey(rawValue: id))
      if let old { counts.remove(old.entry) }
      if let new { counts.add(new.entry) }
      byID[id] = new
      changes.append((old, new))
    }
    guard !changes.isEmpty else { return [] }
    if changes.count <= Self.inPlaceLimit {
      for change in changes { move(change.old, to: change.new) }
    } else {
      mergeInOnePass(changes)
    }
    return keys
  }

  /// The first position whose key is not greater than `key` (rows are in descending order).
  private func position(of key: SortKey) -> Int {
    var low = 0
    var high = keys.count
    while low < high {
      let middle = (low + high) >> 1
      if keys[middle] > key { low = middle + 1 } else { high = middle }
    }
    return low
  }

  /// Where a row of the list is: where its key sorts (two rows share a key only while one
  /// number passes from an issue to another within a commit).
  private func index(of row: Row) -> Int {
    var index = position(of: row.key)
    while index < keys.count && keys[index] == row.key {
      if entries[index].key == row.entry.key { return index }
      index += 1
    }
    guard let found = entries.firstIndex(where: { $0.key == row.entry.key }) else {
      fatalError("Row \(row.id) is in the index but not in the list.")
    }
    return found
  }

  /// Replaces, moves, adds or removes one row, shifting only the rows between its old and new
  /// places.
  private mutating func move(_ old: Row?, to new: Row?) {
    let from = old.map(index(of:))
    guard let new else {
      if let from {
        keys.remove(at: from)
        entries.remove(at: from)
      }
      return
    }
    let place = position(of: new.key)
    guard let from else {
      keys.insert(new.key, at: place)
      entries.insert(new.entry, at: place)
      return
    }
    // Where the row goes once it has left its old place.
    let to = place > from ? place - 1 : place
    if to > from {
      for index in from..<to {
        keys[index] = keys[index + 1]
        entries[index] = entries[index + 1]
      }
    } else if to < from {
      for index in stride(from: from, to: to, by: -1) {
        keys[index] = keys[index - 1]
        entries[index] = entries[index - 1]
      }
    }
    keys[to] = new.key
    entries[to] = new.entry
  }

  /// Merges many changes in one pass over the list.
  private mutating func mergeInOnePass(_ changes: [(old: Row?, new: Row?)]) {
    let removed = Set(changes.compactMap { $0.old?.entry.key })
    // Descending order: greater keys first.
    let added = changes.compactMap(\.new).sorted { $0.key > $1.key }
    var mergedKeys: [SortKey] = []
    var mergedEntries: [IssueListEntry] = []
    let count = entries.count - removed.count + added.count
    mergedKeys.reserveCapacity(count)
    mergedEntries.reserveCapacity(count)
    var next = added.startIndex
    for index in entries.indices where !removed.contains(entries[index].key) {
      while next < added.endIndex && added[next].key > keys[index] {
        mergedKeys.append(added[next].key)
        mergedEntries.append(added[next].entry)
        next += 1
      }
      mergedKeys.append(keys[index])
      mergedEntries.append(entries[index])
    }
    for row in added[next...] {
      mergedKeys.append(row.key)
      mergedEntries.append(row.entry)
    }
    keys = mergedKeys
    entries = mergedEntries
  }

  /// The rows a filter selects, and an extra condition, in the filter's order.
  static func fetch(
    _ filter: IssueFilter, extra: (String, [any DatabaseValueConvertible])?, _ db: Database
  ) throws -> [Row] {
    var (conditions, arguments) = IssueCache.conditions(filter)
    if let (condition, values) = extra {
      conditions.append(condition)
      arguments += values
    }
    // Rows are merged in descending key order: an ascending list's keys are negated.
    let sign = filter.direction == .descending ? "" : "-"
    let keyColumns =
      switch filter.sort {
      case .updated: "\(sign)julianday(updatedAt), 0"
      case .created: "\(sign)julianday(createdAt), 0"
      case .comments: "\(sign)comments, \(sign)julianday(updatedAt)"
      }
    var sql =
      "SELECT key, number, milestoneNumber, state, \(keyColumns), julianday(updatedAt), localRevision, "
      + "\(sign)number FROM issue"
    if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
    sql += " ORDER BY \(IssueCache.orderClause(filter.sort, filter.direction))"
    // A few changed rows (an action, a sync's page of edits) come back commit after commit with
    // the same query: kept prepared. A whole list, or a long list of keys, is read once.
    let statement =
      if let extra, extra.1.count <= inPlaceLimit {
        try db.cachedStatement(sql: sql)
      } else {
        try db.makeStatement(sql: sql)
      }
    let cursor = try GRDB.Row.fetchCursor(statement, arguments: StatementArguments(arguments))
    var rows: [Row] = []
    while let row = try cursor.next() {
      let number: Int = row[1]
      let state: String = row[3]
      rows.append(
        Row(
          entry: IssueListEntry(
            key: IssueKey(rawValue: row[0]), number: number, milestoneNumber: row[2],
            isOpen: state == "open"),
          key: SortKey(primary: row[4], secondary: row[5], number: row[8]), updatedAt: row[6],
          localRevision: row[7]))
    }
    return rows
  }
}
