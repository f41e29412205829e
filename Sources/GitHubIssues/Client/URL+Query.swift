import Foundation

extension URL {
  /// This URL with the given query parameters set, replacing any of the same names and keeping
  /// the rest in their order.
  func settingQuery(_ values: [String: String]) -> URL {
    guard var components = URLComponents(url: self, resolvingAgainstBaseURL: false) else {
      return self
    }
    var items = (components.queryItems ?? []).filter { values[$0.name] == nil }
    for name in values.keys.sorted() { items.append(URLQueryItem(name: name, value: values[name])) }
    components.queryItems = items
    return components.url ?? self
  }
}
