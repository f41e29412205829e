/// A section of the issue list: by milestone when every milestone is shown, by state otherwise.
package enum ListSection: Hashable, Sendable {
  case milestone(number: Int)
  case noMilestone
  case open
  case closed
}
