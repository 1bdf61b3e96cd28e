import DarkroomCore
import DarkroomImaging
import DarkroomPhotoMetadata
import DarkroomSidecars
import DarkroomXMP
import Foundation

/// What `heic-encode` does with a photo's XMP sidecar (ratings, keywords, titles, descriptions,
/// people), so that nothing the user curated is lost in the library. The photo's own XMP and
/// IPTC-IIM, and the capture date, go into the HEIC whatever this says.
public enum XMPHandling: String, CaseIterable, Sendable {
    /// Merged over the photo's own XMP into the HEIC.
    case embed
    /// Merged the same way and written beside the HEIC as `<output name>.xmp`; the HEIC carries
    /// the photo's own XMP.
    case sidecar
    /// Left out; the HEIC carries the photo's own XMP.
    case none

    /// The packets for a photo's HEIC and, with `.sidecar` and a readable sidecar, for the file
    /// beside it (`LibraryXMP`): the photo's own metadata `own`, its XMP sidecar as this says, and
    /// its capture date; `copy` is the HEIC's orientation turned and size. A sidecar that is not a
    /// readable packet is left out (`exif-date` reports it, and the photo goes on without it).
    func packets(for item: Item, own: SourceMetadata, copy: (orientation: Int, width: Int, height: Int)) -> (heic: Data?, beside: Data?) {
        let sidecar = self == .none ? nil : Self.sidecarPacket(of: item)
        func packet(with sidecar: XMPPacket?) -> Data? {
            LibraryXMP(own: own.xmp, iptc: own.iptc, sidecar: sidecar, captureDate: item.captureDate, orientation: copy.orientation,
                       width: copy.width, height: copy.height).packet()?.serialized()
        }
        switch self {
        case .embed: return (packet(with: sidecar), nil)
        case .sidecar: return (packet(with: nil), sidecar.flatMap(packet(with:)))
        case .none: return (packet(with: nil), nil)
        }
    }

    /// The item's first XMP sidecar, read; nil when it has none or it is not a readable packet.
    static func sidecarPacket(of item: Item) -> XMPPacket? {
        guard let sidecar = item.sidecars.first(where: { $0.kind == ExportSidecars.xmpKind }) else { return nil }
        return try? XMPSidecar(contentsOf: sidecar.url).packet
    }

    /// Where the `.sidecar` file goes: the output's path with `.xmp` for its extension.
    static func sidecarPath(forOutput path: String) -> String {
        (path as NSString).deletingPathExtension + ".xmp"
    }
}
