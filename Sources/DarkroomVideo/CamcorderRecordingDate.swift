/// The recording date an AVCHD camcorder (Sony, Panasonic, Canon: `.MTS`, `.M2TS`) writes into its
/// H.264 stream: the "MDPM" (modified DV pack metadata) entries of an SEI `user_data_unregistered`
/// message with UUID `17ee8c60-f84d-11d9-8cd6-0800200c9a66`, which exiftool reads as
/// `H264:DateTimeOriginal`. The container has no date of its own, so without this a camcorder's clip
/// would be dated from its file time.
///
/// Entry 0x18 holds the time zone byte (0x20 west of UTC, bits 1-4 the hours, 0x01 a half hour,
/// 0x40 summer time), the year's two BCD bytes and the month; entry 0x19 the day, hour, minute and
/// second, in BCD. Pure Swift over bytes: a hostile stream yields nil, never a crash.
public enum CamcorderRecordingDate {
    /// The date in the first MDPM message of `annexB` (H.264 NAL units with start codes, as an MPEG-TS
    /// packet carries them), as ISO 8601 text with its offset (`2012-11-26T15:33:10+01:00`), or nil.
    public static func find(inAnnexB annexB: [UInt8]) -> String? {
        for unit in nalUnits(annexB) where unit.first.map({ $0 & 0x1F }) == 6 {
            if let date = fromSEI(removingEmulationPrevention(unit.dropFirst())) { return date }
        }
        return nil
    }

    static let uuidAndTag: [UInt8] = [0x17, 0xEE, 0x8C, 0x60, 0xF8, 0x4D, 0x11, 0xD9,
                                      0x8C, 0xD6, 0x08, 0x00, 0x20, 0x0C, 0x9A, 0x66] + Array("MDPM".utf8)

    /// The NAL units of an Annex B byte stream, each without its start code.
    static func nalUnits(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        var starts: [Int] = []
        var index = 0
        while index + 2 < bytes.count {
            if bytes[index] == 0, bytes[index + 1] == 0, bytes[index + 2] == 1 {
                starts.append(index + 3)
                index += 3
            } else {
                index += 1
            }
        }
        return starts.enumerated().map { number, start in
            var end = number + 1 < starts.count ? starts[number + 1] - 3 : bytes.count
            while end > start, bytes[end - 1] == 0 { end -= 1 }  // a four-byte start code's leading zero
            return bytes[start..<end]
        }
    }

    /// The NAL payload with its emulation prevention bytes (the 3 of `00 00 03`) taken out.
    static func removingEmulationPrevention(_ payload: ArraySlice<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(payload.count)
        var zeros = 0
        for byte in payload {
            if zeros >= 2, byte == 3 { zeros = 0; continue }
            out.append(byte)
            zeros = byte == 0 ? zeros + 1 : 0
        }
        return out
    }

    /// Walks an SEI's messages (type and size each coded in bytes of 255 plus a last byte) to the
    /// first unregistered user data that is MDPM, and reads its date.
    static func fromSEI(_ sei: [UInt8]) -> String? {
        var position = 0
        func codedNumber() -> Int? {
            var value = 0
            while position < sei.count {
                let byte = Int(sei[position])
                position += 1
                value += byte
                if byte != 255 { return value }
            }
            return nil
        }
        while position < sei.count, sei[position] != 0x80 {  // 0x80: the trailing bits
            guard let type = codedNumber(), let size = codedNumber(), size <= sei.count - position else { return nil }
            let message = sei[position..<position + size]
            position += size
            if type == 5, message.count > uuidAndTag.count, message.prefix(uuidAndTag.count).elementsEqual(uuidAndTag) {
                return fromMDPM(Array(message.dropFirst(uuidAndTag.count)))
            }
        }
        return nil
    }

    /// The date of entries 0x18 and 0x19 of an MDPM body (a count, then five-byte entries).
    static func fromMDPM(_ body: [UInt8]) -> String? {
        guard let count = body.first else { return nil }
        var entries: [UInt8: ArraySlice<UInt8>] = [:]
        var position = 1
        for _ in 0..<Int(count) where position + 5 <= body.count {
            entries[body[position]] = body[(position + 1)..<(position + 5)]
            position += 5
        }
        guard let first = entries[0x18].map(Array.init), let second = entries[0x19].map(Array.init),
              let century = bcd(first[1]), let year = bcd(first[2]), let month = bcd(first[3]),
              let day = bcd(second[0]), let hour = bcd(second[1]), let minute = bcd(second[2]), let secondValue = bcd(second[3]),
              (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, secondValue < 61 else { return nil }
        let when = "\(digits(century * 100 + year, 4))-\(digits(month))-\(digits(day))T\(digits(hour)):\(digits(minute)):\(digits(secondValue))"
        let zone = first[0]
        if zone & 0x80 != 0 { return when }  // the zone byte is unset: wall-clock time without an offset
        let sign = zone & 0x20 != 0 ? "-" : "+"
        let zoneHours = Int((zone >> 1) & 0x0F), zoneMinutes = zone & 0x01 != 0 ? 30 : 0
        return when + "\(sign)\(digits(zoneHours)):\(digits(zoneMinutes))"
    }

    private static func bcd(_ byte: UInt8) -> Int? {
        let high = Int(byte >> 4), low = Int(byte & 0x0F)
        return high < 10 && low < 10 ? high * 10 + low : nil
    }

    private static func digits(_ value: Int, _ width: Int = 2) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}
