import DarkroomCore
import DarkroomSidecars
import Foundation

/// What `heic-encode` does with a photo's XMP sidecar (ratings, keywords, titles, descriptions,
/// people), so that nothing the user curated is lost in the library.
public enum XMPHandling: String, CaseIterable, Sendable {
    /// Merged with the photo's own XMP into the HEIC.
    case embed
    /// Merged the same way and written beside the HEIC as `<output name>.xmp`.
    case sidecar
    /// Left out.
    case none

    /// The XMP to carry for `item`: its first XMP sidecar merged over the photo's own packet
    /// (`embedded`), or nil when it has no sidecar, when this is `.none`, or when the sidecar is
    /// not a readable packet (`exif-date` reports that one, and the photo goes on without it).
    func packet(for item: Item, embedded: Data?) -> Data? {
        guard self != .none, let sidecar = item.sidecars.first(where: { $0.kind == ExportSidecars.xmpKind }),
              let bytes = try? Data(contentsOf: sidecar.url), bytes.count <= XMPSidecar.maximumSize else { return nil }
        return try? XMPSidecar.mergedForRendition(embedded: embedded, sidecar: bytes)
    }

    /// Where the `.sidecar` file goes: the output's path with `.xmp` for its extension.
    static func sidecarPath(forOutput path: String) -> String {
        (path as NSString).deletingPathExtension + ".xmp"
    }
}
