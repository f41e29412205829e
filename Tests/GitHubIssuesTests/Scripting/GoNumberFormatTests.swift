import GitHubIssues
import Testing
import TrellisTestSupport

/// Numbers as gh's Go code writes them; the literal cases are what gh 2.23 printed.
@Suite struct GoNumberFormatTests {
  static let insideJSONCases: [(Double, String)] = [
    (1.5e-7, "1.5e-7"), (1e21, "1e+21"), (1e20, "100000000000000000000"), (-0.5, "-0.5"),
    (0.1, "0.1"), (10.5, "10.5"), (1e300, "1e+300"), (1e-10, "1e-10"), (0.000001, "0.000001"),
    (123456789.125, "123456789.125"), (0, "0"), (.leastNonzeroMagnitude, "5e-324"),
  ]

  static let aloneCases: [(Double, String)] = [
    (10.5, "10.50"), (2.675, "2.67"), (13.175, "13.18"), (0.125, "0.12"), (0.375, "0.38"),
    (-2.5, "-2.50"), (100.0 / 3, "33.33"), (1.5e-7, "0.00"), (1e17, "100000000000000000"),
    (1e300, GoNumberFormatTests.digitsOf1e300),
    (.infinity, "+Inf"), (-.infinity, "-Inf"), (.nan, "NaN"), (0x1p60, "1152921504606846976"),
  ]

  /// gh 2.23's `--jq 1e300`.
  static let digitsOf1e300 =
    "1000000000000000052504760255204420248704468581108159154915854115511802457988908195786371"
    + "3750804478640437044438328838781769425232353604305756447921847867069828483872009265758037"
    + "3783023379478809005936895323497079994508111903896764088007465274278014249457925878882005"
    + "6842838115669472196386865459400540160"

  @Test(arguments: insideJSONCases)
  func insideJSON(_ value: Double, _ written: String) {
    #expect(GoNumberFormat.json(value) == written)
  }

  @Test(arguments: aloneCases)
  func alone(_ value: Double, _ written: String) {
    #expect(GoNumberFormat.scalar(value) == written)
  }

  /// Every finite number reads back from its JSON form, and alone is within half a hundredth.
  @Test func readsBackForRandomNumbers() {
    var generator = SplitMix64(seed: 0x6A71_2023)
    print("GoNumberFormatTests seed 0x6A712023")
    for _ in 0..<20_000 {
      let value = Double(bitPattern: generator.next())
      guard value.isFinite else { continue }
      #expect(Double(GoNumberFormat.json(value)) == value, "\(value)")
      let alone = GoNumberFormat.scalar(value)
      if value.magnitude < 1e15 {
        #expect((Double(alone)! - value).magnitude <= 0.005 + value.ulp, "\(value) → \(alone)")
      } else {
        #expect(Double(alone) == value, "\(value) → \(alone)")
      }
    }
  }
}
