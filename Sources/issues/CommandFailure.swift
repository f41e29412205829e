/// A failure of a command, said in a sentence (without the usage that a validation error shows).
struct CommandFailure: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
