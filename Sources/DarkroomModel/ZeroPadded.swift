import Foundation

extension Int {
    /// The number in decimal, zero-padded to at least `width` characters, as `String(format: "%0<width>d")`
    /// writes it, without parsing a C format each time (dates and paths are written this way for
    /// every photo of a library).
    public func zeroPadded(_ width: Int) -> String {
        guard self >= 0 else { return String(format: "%0\(width)d", self) }
        let digits = String(self)
        let count = digits.utf8.count
        return count >= width ? digits : String(repeating: "0", count: width - count) + digits
    }
}
