import DarkroomCore
import DarkroomISOBMFF
import DarkroomRaw
import DarkroomVips
import Foundation

/// What a photo's file says about itself, read once per item without decoding pixels: its upright
/// size and orientation, and the metadata blocks a date is read from and the library's outputs carry
/// (EXIF, XMP, IPTC). The one reader of them for every kind of photo: libvips' header for JPEG, PNG,
/// WebP, TIFF and HEIF (with the XMP item libvips 8.14 leaves out of HEIF files read from the file),
/// and the RAW's own structures for a RAW (`RawMetadata`, LibRaw's identification).
public struct SourceMetadata {
    /// The photo's size, upright, in pixels at full resolution.
    public var width: Int
    public var height: Int
    /// The EXIF orientation the file carries (1...8).
    public var orientation: Int
    /// The EXIF block (`Exif\0\0` and a TIFF structure), if the file has one.
    public var exif: Data?
    /// The XMP packet, if the file has one.
    public var xmp: Data?
    /// The IPTC-IIM block (or the Photoshop resource block holding it), if the file has one.
    public var iptc: Data?
    /// Whether the file is a HEIF file, whose orientation libheif applies when decoding.
    public var isHEIF: Bool
    /// What could not be read (a HEIF file's XMP item, a RAW's damaged metadata), with the file's path.
    public var problems: [String]
}

enum SourceMetadataKey: AttachmentKey {
    typealias Value = SourceMetadata
}

extension Item {
    /// The photo's `SourceMetadata`, read once per item (the header checked against the run's pixel limit).
    public func sourceMetadata(settings: RunSettings) throws -> SourceMetadata {
        if let known = attachments[SourceMetadataKey.self] { return known }
        let metadata = try isRaw ? rawSource(settings: settings).sourceMetadata : headerMetadata(settings: settings)
        attachments[SourceMetadataKey.self] = metadata
        if pixelWidth == nil {
            pixelWidth = metadata.width
            pixelHeight = metadata.height
        }
        orientation = metadata.orientation
        return metadata
    }

    private func headerMetadata(settings: RunSettings) throws -> SourceMetadata {
        let header = try sourceHeader(settings: settings)
        let turned = header.orientation >= 5
        var metadata = SourceMetadata(width: turned ? header.height : header.width, height: turned ? header.width : header.height,
                                      orientation: header.orientation, exif: header.exifData, xmp: header.xmpData,
                                      iptc: header.blob("iptc-data"), isHEIF: header.loader == "heifload", problems: [])
        if metadata.xmp == nil, metadata.isHEIF {
            do {
                metadata.xmp = try HEIFMeta.xmpPacket(ofFileAt: source.path).map { Data($0) }
            } catch let error as ISOBMFFError {
                metadata.problems.append("\(source.path): XMP not read: \(error.reason)")
            } catch {
                metadata.problems.append("\(source.path): XMP not read: \(error)")
            }
        }
        return metadata
    }
}

extension Item {
    /// A RAW's metadata as its own structures record it, read without LibRaw and without its sensor
    /// data: what `explain` shows of a RAW the import fails on. Its size is unknown (0 x 0).
    public func rawMetadataAlone() throws -> SourceMetadata {
        let metadata = try RawMetadata.read(path: source.path)
        return SourceMetadata(width: 0, height: 0, orientation: metadata.exif.orientation ?? 1, exif: metadata.exifBlock,
                              xmp: metadata.xmpPacket, iptc: nil, isHEIF: false, problems: [])
    }
}

extension RawSource {
    /// The RAW's metadata as every photo's is described.
    var sourceMetadata: SourceMetadata {
        SourceMetadata(width: width, height: height, orientation: orientation, exif: metadata?.exifBlock,
                       xmp: metadata?.xmpPacket, iptc: nil, isHEIF: false, problems: metadataProblem.map { [$0] } ?? [])
    }
}
