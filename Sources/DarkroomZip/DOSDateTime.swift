import Foundation

/// The MS-DOS date and time ZIP headers carry: local wall-clock time, 2-second resolution, years
/// 1980 to 2107. Dates outside that range are clamped to its ends.
struct DOSDateTime: Equatable {
    /// Bits 15-11 hour, 10-5 minute, 4-0 second / 2.
    var time: UInt16
    /// Bits 15-9 year - 1980, 8-5 month, 4-0 day.
    var date: UInt16

    /// `date` as the wall-clock time in `timeZone`.
    init(_ date: Date, timeZone: TimeZone) {
        self.init(date, calendar: Self.calendar(in: timeZone))
    }

    /// `date` as the wall-clock time of `calendar` (Gregorian, in the zone wanted): made once per
    /// archive, since making a calendar costs more than the conversion.
    init(_ date: Date, calendar: Calendar) {
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let year = parts.year ?? 1980
        if year < 1980 {
            self.init(time: 0, date: 1 << 5 | 1)  // 1980-01-01 00:00:00
        } else if year > 2107 {
            self.init(time: 23 << 11 | 59 << 5 | 29, date: 127 << 9 | 12 << 5 | 31)  // 2107-12-31 23:59:58
        } else {
            let time = (parts.hour ?? 0) << 11 | (parts.minute ?? 0) << 5 | (parts.second ?? 0) / 2
            let day = (year - 1980) << 9 | (parts.month ?? 1) << 5 | (parts.day ?? 1)
            self.init(time: UInt16(time), date: UInt16(day))
        }
    }

    /// The Gregorian calendar in `timeZone`.
    static func calendar(in timeZone: TimeZone) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar
    }

    init(time: UInt16, date: UInt16) {
        self.time = time
        self.date = date
    }
}
