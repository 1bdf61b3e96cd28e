import DarkroomModel
import DarkroomXMP
import Foundation

extension BurstMark {
    /// Google Camera's burst mark in an XMP packet: `GCamera:BurstID` (shared by the frames) and
    /// `GCamera:BurstPrimary` (1 on the frame the camera chose), as attributes or elements, whatever
    /// the prefix. Nil without a burst identifier.
    public static func google(in packet: XMPPacket) -> BurstMark? {
        let field = { (name: String) in packet[XMPNamespace.googleCamera, name]?.text?.trimmingCharacters(in: .whitespacesAndNewlines) }
        guard let value = field("BurstID"), !value.isEmpty else { return nil }
        let primary = field("BurstPrimary").map { $0 == "1" || $0.lowercased() == "true" } ?? false
        return BurstMark(source: .google, identifier: value, isPrimary: primary)
    }

    /// Google Camera's burst mark in a photo's XMP bytes; the packet is only parsed when its bytes
    /// name `BurstID` (most photos have none), and a damaged packet yields what could be read.
    public static func google(inXMP bytes: [UInt8]) -> BurstMark? {
        guard contains(bytes, Array("BurstID".utf8)) else { return nil }
        return google(in: XMPPacket(lenient: bytes))
    }

    private static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard haystack.count >= needle.count else { return false }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if haystack[start..<start + needle.count].elementsEqual(needle) { return true }
        }
        return false
    }
}
