/// Something the browser asks its host to do, outside the screen.
public enum BrowserEffect: Hashable, Sendable {
  /// Leave the browser.
  case quit
  /// Sync with GitHub now.
  case refresh
  /// Open a URL in the web browser.
  case open(String)
  /// Put text on the clipboard.
  case copy(String)
  /// Find out who `@me` is (the token's account) and tell ``IssueBrowser/setViewer(_:)``.
  case lookUpViewer
  /// Fetch an issue and its comments into the cache and tell
  /// ``IssueBrowser/conversationFetched(_:_:)``.
  case fetchConversation(Int)
}
