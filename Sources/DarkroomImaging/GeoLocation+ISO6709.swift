import DarkroomCore
import Foundation
import DarkroomModel

extension GeoLocation {
    /// A position written in ISO 6709 (as videos carry it: Apple's `location.ISO6709` key, the
    /// QuickTime `©xyz` tag Android writes): latitude then longitude, each signed, in decimal
    /// degrees (`+37.7858-122.4064`), degrees and decimal minutes (`+3747.148-12224.384`) or
    /// degrees, minutes and decimal seconds (`+374708.9-1222423.0`); then an optional altitude in
    /// metres, an optional `CRS...` and the closing `/`. Nil for anything else or out of range.
    public init?(iso6709 text: String) {
        var scanner = ISO6709Scanner(text.trimmingCharacters(in: .whitespaces))
        guard let latitude = scanner.angle(degreeDigits: 2), let longitude = scanner.angle(degreeDigits: 3) else { return nil }
        let altitude = scanner.signedDecimal()
        guard scanner.atEndOfPosition else { return nil }
        self.init(latitude: latitude, longitude: longitude, altitude: altitude)
    }
}

/// Reads the signed numbers of an ISO 6709 position, one at a time.
private struct ISO6709Scanner {
    private let characters: [Character]
    private var index = 0

    init(_ text: String) { characters = Array(text) }

    /// A signed angle whose whole part has `degreeDigits` digits (degrees), or two (minutes) or
    /// four (minutes and seconds) more; the fraction belongs to the last unit.
    mutating func angle(degreeDigits: Int) -> Double? {
        guard let (negative, whole, fraction) = signedNumber() else { return nil }
        let digits = Array(whole)
        let fractionValue = fraction.isEmpty ? 0 : Double("0." + fraction) ?? 0
        func number(_ range: Range<Int>) -> Double { Double(String(digits[range])) ?? 0 }
        let value: Double
        switch digits.count - degreeDigits {
        case 0:
            value = number(0..<degreeDigits) + fractionValue
        case 2:
            let minutes = number(degreeDigits..<degreeDigits + 2) + fractionValue
            guard minutes < 60 else { return nil }
            value = number(0..<degreeDigits) + minutes / 60
        case 4:
            let minutes = number(degreeDigits..<degreeDigits + 2)
            let seconds = number(degreeDigits + 2..<degreeDigits + 4) + fractionValue
            guard minutes < 60, seconds < 60 else { return nil }
            value = number(0..<degreeDigits) + minutes / 60 + seconds / 3600
        default:
            return nil
        }
        return negative ? -value : value
    }

    /// A signed decimal number (an altitude), if one follows.
    mutating func signedDecimal() -> Double? {
        let start = index
        guard let (negative, whole, fraction) = signedNumber(), let value = Double(whole + (fraction.isEmpty ? "" : "." + fraction)) else {
            index = start
            return nil
        }
        return negative ? -value : value
    }

    /// The end of the position: nothing, `/`, or a `CRS...` name then `/`.
    var atEndOfPosition: Bool {
        let rest = String(characters[index...])
        return rest.isEmpty || rest == "/" || (rest.hasPrefix("CRS") && rest.hasSuffix("/"))
    }

    /// `+` or `-`, digits, and optionally `.` and more digits.
    private mutating func signedNumber() -> (negative: Bool, whole: String, fraction: String)? {
        guard index < characters.count, characters[index] == "+" || characters[index] == "-" else { return nil }
        let negative = characters[index] == "-"
        index += 1
        let whole = digits()
        guard !whole.isEmpty else { return nil }
        var fraction = ""
        if index < characters.count, characters[index] == "." {
            index += 1
            fraction = digits()
            guard !fraction.isEmpty else { return nil }
        }
        return (negative, whole, fraction)
    }

    private mutating func digits() -> String {
        var text = ""
        while index < characters.count, characters[index].isASCII, characters[index].isNumber {
            text.append(characters[index])
            index += 1
        }
        return text
    }
}
