/// Where the cache reader's failures go: set once the browser they are shown by exists.
@MainActor
final class MessageSink {
  var say: ((String) -> Void)?
}
