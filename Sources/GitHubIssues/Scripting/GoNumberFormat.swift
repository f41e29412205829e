/// A binary64 number written the ways gh's Go code writes one: inside JSON as `encoding/json`
/// does, and alone on a `--jq` line as gh's `jsonScalarToString` does.
///
///     GoNumberFormat.json(1.5e-7)        // "1.5e-7"
///     GoNumberFormat.json(1e21)          // "1e+21"
///     GoNumberFormat.scalar(10.5)        // "10.50"
///     GoNumberFormat.scalar(1e300)       // the 301 digits of the binary value, exactly
///
/// gh decodes JSON into Go's `float64`, so these are the forms a script sees from gh; they differ
/// from jq's, which is why a `--jq` line is rewritten rather than passed on.
package enum GoNumberFormat {
  /// `encoding/json`'s form: the shortest digits that read back to `value`, positional from
  /// 10⁻⁶ up to 10²¹ and in exponent form outside (`1e+21`, `1.5e-7`).
  ///
  /// - Precondition: `value` is finite; Go's encoder refuses infinities and NaN.
  package static func json(_ value: Double) -> String {
    precondition(value.isFinite, "GoNumberFormat.json: \(value) is not a JSON number")
    let (negative, digits, point) = shortestDigits(value)
    let sign = negative ? "-" : ""
    let magnitude = value.magnitude
    if magnitude == 0 || (magnitude >= 1e-6 && magnitude < 1e21) {
      return sign + positional(digits, point: point)
    }
    var text = String(digits.prefix(1))
    if digits.count > 1 { text += "." + digits.dropFirst() }
    let exponent = point - 1
    // strconv writes at least two exponent digits; encoding/json trims `e-07` to `e-7`.
    let exponentDigits = String(exponent.magnitude)
    let padded =
      exponent < 0 || exponentDigits.count >= 2 ? exponentDigits : "0" + exponentDigits
    return sign + text + "e" + (exponent < 0 ? "-" : "+") + padded
  }

  /// gh's form for a number printed alone: a whole number as all of its digits (the binary
  /// value's exact decimal expansion, `strconv.FormatFloat(x, 'f', 0, 64)`), any other number
  /// rounded to two decimals (`'f', 2`, ties to even on the exact value), `+Inf`, `-Inf` or `NaN`.
  package static func scalar(_ value: Double) -> String {
    if value.isNaN { return "NaN" }
    if value.isInfinite { return value < 0 ? "-Inf" : "+Inf" }
    let sign = value.sign == .minus ? "-" : ""
    let magnitude = value.magnitude
    if magnitude.rounded(.towardZero) == magnitude {
      return sign + exactDigits(ofWhole: magnitude)
    }
    return sign + twoDecimals(ofFraction: magnitude)
  }

  /// The shortest decimal digits that read back to `value` (Swift's `description` and Go's
  /// `'f', -1` choose the same ones) and where the decimal point goes: `0.digits × 10^point`.
  private static func shortestDigits(_ value: Double) -> (Bool, String, Int) {
    let text = value.magnitude.description
    var mantissa = Substring(text)
    var exponent = 0
    if let marker = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
      mantissa = text[..<marker]
      exponent = Int(text[text.index(after: marker)...]) ?? 0
    }
    let whole = mantissa.prefix { $0 != "." }
    let fraction = mantissa.dropFirst(whole.count + 1)
    var digits = String(whole) + fraction
    var point = whole.count + exponent
    while digits.first == "0" && digits.count > 1 {
      digits.removeFirst()
      point -= 1
    }
    while digits.last == "0" && digits.count > 1 { digits.removeLast() }
    if digits == "0" { point = 1 }
    return (value.sign == .minus, digits, point)
  }

  private static func positional(_ digits: String, point: Int) -> String {
    if point <= 0 { return "0." + String(repeating: "0", count: -point) + digits }
    if point >= digits.count { return digits + String(repeating: "0", count: point - digits.count) }
    let split = digits.index(digits.startIndex, offsetBy: point)
    return digits[..<split] + "." + digits[split...]
  }

  /// A whole binary64 number's decimal digits, exactly.
  private static func exactDigits(ofWhole magnitude: Double) -> String {
    if magnitude < 0x1p63 { return String(UInt64(magnitude)) }
    // magnitude = significand × 2^shift, with shift > 10: doubled in base-10⁹ limbs.
    let significand = UInt64(magnitude.significandBitPattern) | (1 << 52)
    let shift = Int(magnitude.exponent) - 52
    var limbs: [UInt32] = []  // least significant first, each < 10⁹
    var rest = significand
    while rest > 0 {
      limbs.append(UInt32(rest % 1_000_000_000))
      rest /= 1_000_000_000
    }
    for _ in 0..<shift {
      var carry: UInt32 = 0
      for index in limbs.indices {
        let doubled = limbs[index] * 2 + carry
        limbs[index] = doubled % 1_000_000_000
        carry = doubled / 1_000_000_000
      }
      if carry > 0 { limbs.append(carry) }
    }
    var text = String(limbs.last ?? 0)
    for limb in limbs.dropLast().reversed() {
      let part = String(limb)
      text += String(repeating: "0", count: 9 - part.count) + part
    }
    return text
  }

  /// A number with a fraction (so below 2⁵²) rounded to two decimals on its exact binary value.
  private static func twoDecimals(ofFraction magnitude: Double) -> String {
    // magnitude = significand / 2^shift exactly, shift ≥ 1.
    let significand =
      UInt64(magnitude.significandBitPattern) | (magnitude.isNormal ? 1 << 52 : 0)
    let shift = magnitude.isNormal ? 52 - Int(magnitude.exponent) : 1074
    var hundredths: UInt64 = 0
    // significand × 100 < 2⁶⁰, so below half of 2^shift from shift 61 on: it rounds to zero.
    if shift <= 60 {
      let scaled = significand * 100
      hundredths = scaled >> UInt64(shift)
      let remainder = scaled & ((1 << UInt64(shift)) - 1)
      let half: UInt64 = 1 << UInt64(shift - 1)
      if remainder > half || (remainder == half && hundredths % 2 == 1) { hundredths += 1 }
    }
    let cents = String(hundredths % 100)
    return String(hundredths / 100) + "." + (cents.count == 1 ? "0" + cents : cents)
  }
}
