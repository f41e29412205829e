/// Every screen's keys, for the README's key section: the browser's tables, then the
/// dashboard's and the inbox's.
public enum ScreenKeys {
  /// The tables as Markdown, in the order the README lists them.
  public static var markdown: String {
    [BrowserKeys.standard.markdown, DashboardKeys.standard.markdown, InboxKeys.standard.markdown]
      .joined(separator: "\n\n")
  }
}
