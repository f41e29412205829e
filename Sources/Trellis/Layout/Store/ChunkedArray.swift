/// A growable array stored in fixed-size chunks, so that appending never copies what is already
/// stored: a full chunk stays where it is and a new one is allocated at its full size.
///
/// The first chunk grows as an array does (a small layout stays small); every later chunk is
/// allocated once, at ``chunkCapacity`` elements. Copies share chunks until one is written, and a
/// write then copies only that chunk. Indexing is two array accesses.
struct ChunkedArray<Element> {
  /// Elements per chunk, a power of two.
  static var chunkCapacity: Int { 1 << chunkShift }
  static var chunkShift: Int { 12 }

  private var chunks: [[Element]] = []
  private(set) var count = 0

  init() {}

  var isEmpty: Bool { count == 0 }

  subscript(index: Int) -> Element {
    get { chunks[index &>> Self.chunkShift][index & (Self.chunkCapacity - 1)] }
    set { chunks[index &>> Self.chunkShift][index & (Self.chunkCapacity - 1)] = newValue }
  }

  var last: Element? { count > 0 ? self[count - 1] : nil }

  mutating func append(_ element: Element) {
    let offset = count & (Self.chunkCapacity - 1)
    if offset == 0 && count >> Self.chunkShift == chunks.count {
      var chunk: [Element] = []
      if !chunks.isEmpty { chunk.reserveCapacity(Self.chunkCapacity) }
      chunks.append(chunk)
    }
    chunks[count &>> Self.chunkShift].append(element)
    count += 1
  }

  /// Keeps the first `newCount` elements.
  mutating func truncate(to newCount: Int) {
    precondition(newCount >= 0 && newCount <= count, "Truncating \(count) elements to \(newCount).")
    guard newCount < count else { return }
    let keptChunks = (newCount + Self.chunkCapacity - 1) >> Self.chunkShift
    chunks.removeSubrange(keptChunks...)
    if keptChunks > 0 {
      let inLast = newCount - (keptChunks - 1) << Self.chunkShift
      chunks[keptChunks - 1].removeSubrange(inLast...)
    }
    count = newCount
  }

  mutating func removeLast() { truncate(to: count - 1) }
}
