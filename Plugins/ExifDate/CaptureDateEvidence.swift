import DarkroomCore
import DarkroomExif
import DarkroomSidecars
import Foundation
import DarkroomModel

/// Everything known about a file that can date it, gathered before any decision is made.
public struct CaptureDateEvidence: Sendable {
    /// The file's EXIF tags, when it has a readable EXIF block.
    public var exif: ExifTags?
    /// The file's XMP packet as text.
    public var xmp: String?
    /// The file name (with or without its folder).
    public var fileName: String
    /// The file's modification time.
    public var modificationDate: Date?
    /// A video's QuickTime dates (nil for a photo).
    public var video: VideoDateEvidence?
    /// The XMP sidecar beside the file (`photo.jpg.xmp`, `photo.xmp`), when it has a readable one.
    public var xmpSidecar: NamedSidecar<XMPSidecar>?
    /// Google Takeout's JSON of the file, when it has a readable one.
    public var takeout: NamedSidecar<TakeoutMetadata>?
    /// Where it was taken, when anything says (see `ExifDate.location`).
    public var location: GeoLocation?
    /// The IANA time zone at `location` (from the offline map), for times that need a zone.
    public var locationZone: TimeZone?

    /// Evidence from the parts given; a part left out is not known.
    public init(exif: ExifTags? = nil, xmp: String? = nil, fileName: String = "", modificationDate: Date? = nil,
                video: VideoDateEvidence? = nil, xmpSidecar: NamedSidecar<XMPSidecar>? = nil,
                takeout: NamedSidecar<TakeoutMetadata>? = nil, location: GeoLocation? = nil, locationZone: TimeZone? = nil) {
        self.exif = exif
        self.xmp = xmp
        self.fileName = fileName
        self.modificationDate = modificationDate
        self.video = video
        self.xmpSidecar = xmpSidecar
        self.takeout = takeout
        self.location = location
        self.locationZone = locationZone
    }

    /// The file's own UTC offset tag (OffsetTimeOriginal, then OffsetTimeDigitized), when one reads:
    /// the first place to look for the zone of a time that has none.
    var ownOffsetSeconds: Int? {
        [exif?.offsetTimeOriginal, exif?.offsetTimeDigitized].lazy.compactMap { $0.flatMap(DateTimeText.utcOffsetSeconds) }.first
    }
}

/// A sidecar's content with its file name, for the fields of a decision (`IMG_1.jpg.xmp exif:DateTimeOriginal`).
public struct NamedSidecar<Content: Sendable>: Sendable {
    /// The sidecar's file name.
    public var name: String
    /// What it says.
    public var content: Content

    /// `content`, read from the sidecar named `name`.
    public init(name: String, content: Content) {
        self.name = name
        self.content = content
    }
}
