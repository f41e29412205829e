/// What the keyboard is talking to.
public enum BrowserMode: Hashable, Sendable {
  /// The chips and the list.
  case browsing
  /// Typing a search; the draft is applied after a pause in typing.
  case searching
  /// The label picker is open.
  case pickingLabel
  /// The list of keys is shown, scrolled by `offset` lines; keys other than scrolling close it.
  case help(offset: Int)
  /// The focused issue and its conversation, full screen.
  case reading
  /// Picking the milestone chip to move an issue to; the list stays as it is meanwhile.
  case movingToMilestone(issue: Int)
}
