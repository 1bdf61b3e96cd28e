import DarkroomCore
import DarkroomVips
import Foundation

/// What image stages do with colour: keep the embedded profile, or convert to sRGB on purpose.
public enum ColourHandling: String, Codable, Sendable, CaseIterable {
    /// Keep the pixels in their embedded profile and carry the profile along (P3 stays P3).
    case keep
    /// Convert to sRGB (for the web, thumbnails and video).
    case srgb

    /// The profile to pass to a decode as its export profile (nil keeps the embedded one).
    /// Images without a profile, or whose profile is sRGB, are sRGB already: nothing is converted.
    public func exportProfile(for header: Image) -> String? {
        switch self {
        case .keep: return nil
        case .srgb: return header.needsConversionToSRGB ? "srgb" : nil
        }
    }
}
