import DarkroomXMP
import Foundation

extension MakerBurstID {
    /// Google Camera's burst marks in an XMP packet: `GCamera:BurstID` (shared by the frames) and
    /// `GCamera:BurstPrimary` (1 on the frame the camera chose), as attributes or elements, whatever
    /// the prefix. Nil without a burst identifier.
    public static func google(in packet: XMPPacket) -> (id: MakerBurstID, isPrimary: Bool)? {
        let field = { (name: String) in packet[XMPNamespace.googleCamera, name]?.text?.trimmingCharacters(in: .whitespacesAndNewlines) }
        guard let value = field("BurstID"), !value.isEmpty else { return nil }
        let primary = field("BurstPrimary").map { $0 == "1" || $0.lowercased() == "true" } ?? false
        return (MakerBurstID(source: .google, value: value), primary)
    }
}
