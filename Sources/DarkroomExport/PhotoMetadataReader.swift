import DarkroomSidecars
import DarkroomVips
import DarkroomXMP
import Foundation
import Synchronization

/// Reads what the library knows of a photo beyond the catalog: its XMP (rating, keywords, title,
/// description, people, labels) from the library file, falling back to the original's own XMP with
/// its sidecar (`photo.jpg.xmp` or `photo.xmp`, the sidecar winning) when the library file says
/// nothing of the kind. Headers only: no pixel is decoded. Safe to call from several threads.
final class PhotoMetadataReader: Sendable {
    /// Sidecar indexes of the originals' folders, made once per folder.
    private let folders = Mutex<[String: SidecarIndex]>([:])

    /// Properties that describe one file's pixels, wrong in a copy turned upright or resized.
    static let pixelProperties: [XMPName] = [
        XMPName(XMPNamespace.tiff, "Orientation"), XMPName(XMPNamespace.tiff, "ImageWidth"), XMPName(XMPNamespace.tiff, "ImageLength"),
        XMPName(XMPNamespace.exif, "PixelXDimension"), XMPName(XMPNamespace.exif, "PixelYDimension"),
    ]

    /// The photo's XMP as the library knows it, and what it says. `libraryFile` is the library's
    /// rendition (nil when there is none); `original` the imported file, which may be gone.
    func read(libraryFile: URL?, original: URL) -> (packet: XMPPacket, description: PhotoDescription) {
        combine(libraryFile.flatMap(embeddedPacket), libraryFile: libraryFile, original: original)
    }

    /// The same, with the library file's XMP already read (`libraryPacket`, nil when it has none).
    func read(libraryPacket data: Data?, libraryFile: URL?, original: URL) -> (packet: XMPPacket, description: PhotoDescription) {
        combine(data.flatMap { $0.isEmpty ? nil : XMPPacket(lenient: [UInt8]($0)) }, libraryFile: libraryFile, original: original)
    }

    private func combine(_ libraryPacket: XMPPacket?, libraryFile: URL?, original: URL) -> (packet: XMPPacket, description: PhotoDescription) {
        var packet = libraryPacket ?? XMPPacket()
        var description = PhotoDescription(packet, source: "library file")
        if description.isEmpty {
            // The library file says nothing a person wrote: the original's own packet and its
            // sidecar fill in, their other properties too (a place, which --keep-location keeps).
            let own = libraryFile == original ? nil : embeddedPacket(original)
            let sidecar = sidecarPacket(of: original)
            let fallback = (own ?? XMPPacket()).merging(sidecar ?? XMPPacket())
            packet = fallback.merging(packet)
            let fallbackDescription = PhotoDescription(fallback, source: sidecar != nil ? "XMP sidecar" : "original")
            if !fallbackDescription.isEmpty { description = fallbackDescription }
        }
        for name in Self.pixelProperties { packet[name] = nil }
        return (packet, description)
    }

    /// The XMP packet embedded in an image file, read leniently (a damaged packet keeps what it
    /// could); nil for a file without one, a video, or a file that cannot be read.
    private func embeddedPacket(_ url: URL) -> XMPPacket? {
        guard ["heic", "heif", "jpg", "jpeg", "png", "webp", "avif", "tif", "tiff"].contains(url.pathExtension.lowercased()),
              let image = try? Image.open(url.path), let data = image.xmpData, !data.isEmpty else { return nil }
        let packet = XMPPacket(lenient: [UInt8](data))
        return packet.properties.isEmpty ? nil : packet
    }

    /// The original's XMP sidecar, when its folder has one and it reads.
    private func sidecarPacket(of original: URL) -> XMPPacket? {
        let folder = original.deletingLastPathComponent().path
        let index = folders.withLock { cached -> SidecarIndex in
            if let index = cached[folder] { return index }
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            let index = SidecarIndex(names: names)
            cached[folder] = index
            return index
        }
        guard let sidecar = index.sidecars(of: original.lastPathComponent).first(where: { $0.kind == .xmp }),
              let data = try? Data(contentsOf: URL(fileURLWithPath: folder).appendingPathComponent(sidecar.name)),
              data.count <= XMPSidecar.maximumSize else { return nil }
        return try? XMPPacket(data: data)
    }
}
