/// A failure printed as gh prints it: the message alone on standard error, exit status 1.
///
/// `--jq`'s errors are gh's own words (`unexpected EOF`, `error: gone`), which a script may
/// compare; ``CommandFailure`` puts the argument parser's `Error: ` in front.
struct BareFailure: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
