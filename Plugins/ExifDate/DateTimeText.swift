import DarkroomCore
import DarkroomModel

/// A date and time read from text, with the UTC offset when the text gave one.
struct ParsedDateTime: Equatable {
    var local: LocalDateTime
    var utcOffsetSeconds: Int?
    /// False when the text held a date only (the time was filled in by `DateOnlyPolicy`).
    var hasTime: Bool
}

/// What Darkroom does with evidence that names a day but no time (WhatsApp file names,
/// XMP dates without a time): it files the photo at 12:00 local time, so that the day survives any
/// later shift by a UTC offset of up to ±12 hours, and marks the date low confidence.
enum DateOnlyPolicy {
    static let hour = 12
}

/// The one parser for every textual date in Darkroom's evidence: EXIF (`2024:01:31 12:34:56`),
/// XMP and ISO 8601 (`2024-01-31T12:34:56.120+05:30`), and the fields that qualify them.
///
/// Lenient in form (`:` or `-` between date fields, ` ` or `T` before the time, missing
/// seconds, trailing NULs and spaces, a fraction, `Z`, `+HH:MM`, `+HHMM` or `+HH`), strict in
/// range (a real calendar day and time; zero dates are refused).
enum DateTimeText {
    /// Parses a date with an optional time; `allowDateOnly` accepts text that stops after the day.
    static func parse(_ text: String, allowDateOnly: Bool = false) -> Result<ParsedDateTime, DateRejection> {
        let trimmed = trim(text)
        guard !trimmed.isEmpty else { return .failure(.blank) }
        let digits = trimmed.filter(\.isNumber)
        if !digits.isEmpty, digits.allSatisfy({ $0 == "0" }) { return .failure(.zero) }

        var scanner = Scanner(Array(trimmed.utf8))
        guard let year = scanner.number(digits: 4), scanner.take(oneOf: ":-"),
              let month = scanner.number(digits: 2), scanner.take(oneOf: ":-"),
              let day = scanner.number(digits: 2) else { return .failure(.malformed) }
        if scanner.atEnd {
            guard allowDateOnly else { return .failure(.malformed) }
            guard let local = LocalDateTime(year: year, month: month, day: day, hour: DateOnlyPolicy.hour) else {
                return .failure(.invalidCalendar)
            }
            return .success(ParsedDateTime(local: local, utcOffsetSeconds: nil, hasTime: false))
        }
        guard scanner.take(oneOf: " T"), let hour = scanner.number(digits: 2), scanner.take(oneOf: ":"),
              let minute = scanner.number(digits: 2) else { return .failure(.malformed) }
        var second = 0
        if scanner.take(oneOf: ":") {
            guard let value = scanner.number(digits: 2) else { return .failure(.malformed) }
            second = value
        }
        var nanosecond = 0
        if scanner.take(oneOf: ".,") {
            guard let value = nanoseconds(fromFractionDigits: scanner.digits()) else { return .failure(.malformed) }
            nanosecond = value
        }
        var offset: Int?
        if !scanner.atEnd {
            guard let value = utcOffsetSeconds(String(decoding: scanner.rest, as: UTF8.self)) else {
                return .failure(.malformed)
            }
            offset = value
        }
        guard let local = LocalDateTime(year: year, month: month, day: day, hour: hour, minute: minute,
                                        second: second, nanosecond: nanosecond) else {
            return .failure(.invalidCalendar)
        }
        return .success(ParsedDateTime(local: local, utcOffsetSeconds: offset, hasTime: true))
    }

    /// A UTC offset (`Z`, `+05:30`, `-0800`, `+09`) in seconds east of UTC; nil when malformed or
    /// outside the offsets in use on Earth (−12:00 ... +14:00).
    static func utcOffsetSeconds(_ text: String) -> Int? {
        let trimmed = trim(text)
        if trimmed == "Z" { return 0 }
        var scanner = Scanner(Array(trimmed.utf8))
        guard let signByte = scanner.next(), signByte == UInt8(ascii: "+") || signByte == UInt8(ascii: "-"),
              let hours = scanner.number(digits: 2) else { return nil }
        var minutes = 0
        if !scanner.atEnd {
            _ = scanner.take(oneOf: ":")
            guard let value = scanner.number(digits: 2), scanner.atEnd else { return nil }
            minutes = value
        }
        guard minutes < 60 else { return nil }
        let seconds = (hours * 60 + minutes) * 60 * (signByte == UInt8(ascii: "-") ? -1 : 1)
        guard (-12 * 3600)...(14 * 3600) ~= seconds else { return nil }
        return seconds
    }

    /// SubSecTime digits (`"5"` is half a second, `"120"` 0.12 s) as nanoseconds; nil when blank
    /// or not all digits. Digits beyond nanoseconds are dropped.
    static func nanoseconds(fromSubSecond text: String) -> Int? {
        nanoseconds(fromFractionDigits: Array(trim(text).utf8))
    }

    private static func nanoseconds(fromFractionDigits digits: [UInt8]) -> Int? {
        guard !digits.isEmpty, digits.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        let nine = digits.prefix(9) + Array(repeating: UInt8(ascii: "0"), count: max(0, 9 - digits.count))
        return nine.reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }

    /// Drops whitespace and NULs at both ends (EXIF ASCII values are often padded with either).
    static func trim(_ text: String) -> String {
        let isPadding: (Character) -> Bool = { $0.isWhitespace || $0 == "\0" }
        guard let first = text.firstIndex(where: { !isPadding($0) }),
              let last = text.lastIndex(where: { !isPadding($0) }) else { return "" }
        return String(text[first...last])
    }
}

/// A cursor over ASCII bytes for the fixed-width fields of date text.
private struct Scanner {
    private let bytes: [UInt8]
    private var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var atEnd: Bool { index >= bytes.count }
    var rest: ArraySlice<UInt8> { bytes[min(index, bytes.count)...] }

    mutating func next() -> UInt8? {
        guard !atEnd else { return nil }
        defer { index += 1 }
        return bytes[index]
    }

    /// Consumes one byte if it is one of `characters`.
    mutating func take(oneOf characters: String) -> Bool {
        guard !atEnd, characters.utf8.contains(bytes[index]) else { return false }
        index += 1
        return true
    }

    /// Exactly `count` decimal digits as a number.
    mutating func number(digits count: Int) -> Int? {
        guard bytes.count - index >= count else { return nil }
        var value = 0
        for byte in bytes[index..<index + count] {
            guard (0x30...0x39).contains(byte) else { return nil }
            value = value * 10 + Int(byte - 0x30)
        }
        index += count
        return value
    }

    /// All decimal digits from here on.
    mutating func digits() -> [UInt8] {
        let start = index
        while !atEnd, (0x30...0x39).contains(bytes[index]) { index += 1 }
        return Array(bytes[start..<index])
    }
}
