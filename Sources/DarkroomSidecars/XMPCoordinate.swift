/// XMP's GPS coordinate text (`exif:GPSLatitude`), as the XMP specification writes it:
/// `DDD,MM.mmmmk` or `DDD,MM,SSk`, with `k` one of N, S, E, W. A plain signed decimal is accepted
/// too, as some writers use it.
enum XMPCoordinate {
    enum Axis {
        case latitude, longitude

        var limit: Double { self == .latitude ? 90 : 180 }
        var directions: (positive: Character, negative: Character) { self == .latitude ? ("N", "S") : ("E", "W") }
    }

    /// Degrees, negative for S or W; nil when the text is not a coordinate on `axis`.
    static func degrees(_ text: String, axis: Axis) -> Double? {
        var body = Substring(text.trimmingCharacters(in: .whitespaces))
        var sign = 1.0
        if let last = body.last?.uppercased().first, last.isLetter {
            guard last == axis.directions.positive || last == axis.directions.negative else { return nil }
            sign = last == axis.directions.negative ? -1 : 1
            body = body.dropLast()
        }
        let parts = body.split(separator: ",", omittingEmptySubsequences: false).map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard (1...3).contains(parts.count), parts.allSatisfy({ $0 != nil && $0!.isFinite }) else { return nil }
        let numbers = parts.map { $0 ?? 0 }
        if numbers.count > 1 {
            guard numbers[0] >= 0, numbers.dropFirst().allSatisfy({ (0..<60).contains($0) }) else { return nil }
        }
        let value = numbers[0] + (numbers.count > 1 ? numbers[1] / 60 : 0) + (numbers.count > 2 ? numbers[2] / 3600 : 0)
        guard abs(value) <= axis.limit else { return nil }
        return sign * value
    }

    /// An EXIF rational as text (`"4512/10"`) or a decimal, as a number.
    static func rational(_ text: String) -> Double? {
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: "/", omittingEmptySubsequences: false)
        guard let numerator = parts.first.flatMap({ Double($0) }), numerator.isFinite else { return nil }
        guard parts.count == 2 else { return parts.count == 1 ? numerator : nil }
        guard let denominator = Double(parts[1]), denominator != 0 else { return nil }
        return numerator / denominator
    }
}
