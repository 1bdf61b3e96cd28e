import DarkroomModel
import DarkroomXMP
import Foundation

/// The XMP packet a library copy of a photo carries (a HEIC made from it): what the user and
/// their apps wrote (ratings, keywords, titles, descriptions, people) and the capture date the
/// catalog holds.
///
/// Made from, each over the one before: the photo's IPTC-IIM (keywords, caption, by-line, object
/// name as `dc:subject`, `dc:description`, `dc:creator`, `dc:title`), the photo's own XMP (which
/// wins over IIM where both say a thing), and its XMP sidecar (the user's latest word, winning
/// property by property). Then what describes the original file rather than the photo is removed
/// (its pixels' orientation and size, a motion photo's or Ultra HDR file's directory of appended
/// items, extended-XMP notes), MWG face regions are turned with the pixels, and the capture-date
/// properties are set to the catalog's date.
public struct LibraryXMP {
    /// The photo's own XMP packet (read leniently: a damaged packet keeps what could be read).
    public var own: Data?
    /// The photo's IPTC-IIM block (`iptc-data`).
    public var iptc: Data?
    /// The photo's XMP sidecar, already read.
    public var sidecar: XMPPacket?
    /// The capture date the catalog holds, if the photo has one.
    public var captureDate: CaptureDate?
    /// The EXIF orientation the copy's pixels were turned by (1...8).
    public var orientation: Int
    /// The copy's size in pixels, upright.
    public var width: Int
    public var height: Int

    /// The sources of a copy `width` x `height`, upright after turning by `orientation`.
    public init(own: Data?, iptc: Data?, sidecar: XMPPacket?, captureDate: CaptureDate?, orientation: Int, width: Int, height: Int) {
        self.own = own
        self.iptc = iptc
        self.sidecar = sidecar
        self.captureDate = captureDate
        self.orientation = orientation
        self.width = width
        self.height = height
    }

    /// Properties that describe the original file, not the photo: wrong in a converted copy whose
    /// pixels are upright and resized (a viewer would rotate it twice), or that point at bytes
    /// appended to the original (a motion photo's video, an Ultra HDR gain map) that the copy has not.
    static let fileProperties: [XMPName] = [
        XMPName(XMPNamespace.tiff, "Orientation"), XMPName(XMPNamespace.tiff, "ImageWidth"), XMPName(XMPNamespace.tiff, "ImageLength"),
        XMPName(XMPNamespace.exif, "PixelXDimension"), XMPName(XMPNamespace.exif, "PixelYDimension"),
        XMPName(XMPNamespace.googleContainer, "Directory"), XMPName(XMPNamespace.xmpNote, "HasExtendedXMP"),
    ] + ["MotionPhoto", "MotionPhotoVersion", "MotionPhotoPresentationTimestampUs", "MicroVideo", "MicroVideoVersion",
         "MicroVideoOffset", "MicroVideoPresentationTimestampUs"].map { XMPName(XMPNamespace.googleCamera, $0) }

    /// The packet, or nil when there is nothing to say (no metadata and no date).
    public func packet() -> XMPPacket? {
        var packet = iptc.flatMap(IPTCRecord.init).map(Self.properties(of:)) ?? XMPPacket()
        if let own { packet = packet.merging(XMPPacket(lenient: [UInt8](own))) }
        if let sidecar { packet = packet.merging(sidecar) }
        for name in Self.fileProperties { packet[name] = nil }
        if let regions = packet[MWGRegions.name] {
            packet[MWGRegions.name] = MWGRegions.turned(regions, orientation: orientation, width: width, height: height)
        }
        if let captureDate { packet.setCaptureDate(captureDate) }
        return packet.properties.isEmpty ? nil : packet
    }

    /// IIM's datasets as their XMP properties (IPTC Core's mapping).
    static func properties(of record: IPTCRecord) -> XMPPacket {
        var packet = XMPPacket()
        let dc = XMPNamespace.dc
        if !record.keywords.isEmpty { packet[XMPName(dc, "subject")] = .array(.bag, record.keywords.map { .text($0) }) }
        if let caption = record.caption { packet[XMPName(dc, "description")] = .array(.alt, [.text(caption, language: "x-default")]) }
        if !record.byLine.isEmpty { packet[XMPName(dc, "creator")] = .array(.seq, record.byLine.map { .text($0) }) }
        if let title = record.objectName { packet[XMPName(dc, "title")] = .array(.alt, [.text(title, language: "x-default")]) }
        return packet
    }
}
