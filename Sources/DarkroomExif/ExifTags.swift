import Foundation

/// The EXIF values Darkroom uses, copied out of a blob as they were written (strings trimmed
/// at their first NUL and of surrounding whitespace; nothing interpreted yet).
public struct ExifTags: Sendable, Equatable {
    /// DateTimeOriginal (0x9003): when the shutter fired, `YYYY:MM:DD HH:MM:SS`, local time.
    public var dateTimeOriginal: String?
    /// SubSecTimeOriginal (0x9291): fractional digits of `dateTimeOriginal`.
    public var subSecTimeOriginal: String?
    /// OffsetTimeOriginal (0x9011): the UTC offset of `dateTimeOriginal`, `+HH:MM`.
    public var offsetTimeOriginal: String?
    /// DateTimeDigitized (0x9004, exiftool's CreateDate).
    public var dateTimeDigitized: String?
    /// SubSecTimeDigitized (0x9292).
    public var subSecTimeDigitized: String?
    /// OffsetTimeDigitized (0x9012).
    public var offsetTimeDigitized: String?
    /// DateTime (0x0132, exiftool's ModifyDate): when the file was last changed.
    public var dateTime: String?
    /// GPSDateStamp (GPS 0x001D): the UTC date, `YYYY:MM:DD`.
    public var gpsDateStamp: String?
    /// GPSTimeStamp (GPS 0x0007): the UTC time of day.
    public var gpsTimeStamp: GPSTime?
    /// GPSLatitude/GPSLongitude with their N/S and E/W references (and GPSAltitude): where the
    /// photo was taken. Nil when absent, malformed, or 0/0 (what cameras without a fix write).
    public var gpsPosition: GPSPosition?
    /// Make (0x010F).
    public var make: String?
    /// Model (0x0110).
    public var model: String?
    /// Orientation (0x0112), as stored (valid values are 1...8).
    public var orientation: Int?
    /// The Live Photo identifier of an iPhone still: Apple maker note tag 0x0011 (exiftool's
    /// `MediaGroupUUID`), equal to the paired video's `com.apple.quicktime.content.identifier`.
    public var contentIdentifier: String?
    /// The burst identifier of an iPhone frame: Apple maker note tag 0x000B (exiftool's `BurstUUID`),
    /// shared by the frames of one burst.
    public var burstIdentifier: String?

    /// A UTC time of day from GPSTimeStamp's three rationals (seconds may have a fraction).
    public struct GPSTime: Sendable, Equatable {
        public var hour: Double
        public var minute: Double
        public var second: Double

        public init(hour: Double, minute: Double, second: Double) {
            self.hour = hour
            self.minute = minute
            self.second = second
        }
    }

    /// A position in signed degrees (south and west negative), altitude in metres (below sea level negative).
    public struct GPSPosition: Sendable, Equatable {
        public var latitude: Double
        public var longitude: Double
        public var altitude: Double?

        public init(latitude: Double, longitude: Double, altitude: Double? = nil) {
            self.latitude = latitude
            self.longitude = longitude
            self.altitude = altitude
        }
    }

    /// Tags given directly (for tests and for callers with metadata from elsewhere).
    public init(dateTimeOriginal: String? = nil, subSecTimeOriginal: String? = nil, offsetTimeOriginal: String? = nil,
                dateTimeDigitized: String? = nil, subSecTimeDigitized: String? = nil, offsetTimeDigitized: String? = nil,
                dateTime: String? = nil, gpsDateStamp: String? = nil, gpsTimeStamp: GPSTime? = nil,
                make: String? = nil, model: String? = nil, orientation: Int? = nil, contentIdentifier: String? = nil,
                gpsPosition: GPSPosition? = nil, burstIdentifier: String? = nil) {
        self.dateTimeOriginal = dateTimeOriginal
        self.subSecTimeOriginal = subSecTimeOriginal
        self.offsetTimeOriginal = offsetTimeOriginal
        self.dateTimeDigitized = dateTimeDigitized
        self.subSecTimeDigitized = subSecTimeDigitized
        self.offsetTimeDigitized = offsetTimeDigitized
        self.dateTime = dateTime
        self.gpsDateStamp = gpsDateStamp
        self.gpsTimeStamp = gpsTimeStamp
        self.make = make
        self.model = model
        self.orientation = orientation
        self.contentIdentifier = contentIdentifier
        self.gpsPosition = gpsPosition
        self.burstIdentifier = burstIdentifier
    }

    /// Parses an EXIF blob: `Exif\0\0` followed by TIFF (as libvips returns `exif-data`), bare
    /// TIFF, or HEIC's offset-prefixed form. Hostile or truncated blobs throw or yield fewer
    /// tags; they never crash.
    public init(parsing blob: Data) throws {
        let document = try ExifDocument(blob)
        let apple = document.bytes(Tag.makerNote, in: .exif).flatMap(AppleMakerNote.init)
        self.init(
            dateTimeOriginal: document.string(Tag.dateTimeOriginal, in: .exif),
            subSecTimeOriginal: document.string(Tag.subSecTimeOriginal, in: .exif),
            offsetTimeOriginal: document.string(Tag.offsetTimeOriginal, in: .exif),
            dateTimeDigitized: document.string(Tag.dateTimeDigitized, in: .exif),
            subSecTimeDigitized: document.string(Tag.subSecTimeDigitized, in: .exif),
            offsetTimeDigitized: document.string(Tag.offsetTimeDigitized, in: .exif),
            dateTime: document.string(Tag.dateTime, in: .ifd0),
            gpsDateStamp: document.string(Tag.gpsDateStamp, in: .gps),
            gpsTimeStamp: Self.gpsTime(document.rationals(Tag.gpsTimeStamp, in: .gps)),
            make: document.string(Tag.make, in: .ifd0),
            model: document.string(Tag.model, in: .ifd0),
            orientation: document.integer(Tag.orientation, in: .ifd0),
            contentIdentifier: apple?.contentIdentifier,
            gpsPosition: Self.gpsPosition(document),
            burstIdentifier: apple?.burstIdentifier)
    }

    /// `Make Model`, without repeating the maker when the model already names it
    /// (`Canon` + `Canon EOS 5D` gives `Canon EOS 5D`; `NIKON CORPORATION` + `NIKON D750` gives
    /// `NIKON D750`). Nil when neither is present.
    public var camera: String? { Self.camera(make: make, model: model) }

    /// `Make Model` from any source of the two (EXIF, a video's QuickTime keys), as `camera` says.
    public static func camera(make: String?, model: String?) -> String? {
        switch (make, model) {
        case (nil, nil): return nil
        case (let make?, nil): return make
        case (nil, let model?): return model
        case (let make?, let model?):
            let brand = make.split(separator: " ").first.map(String.init) ?? make
            if model.lowercased().hasPrefix(make.lowercased()) || model.lowercased().hasPrefix(brand.lowercased()) {
                return model
            }
            return "\(make) \(model)"
        }
    }

    private static func gpsTime(_ values: [Double?]) -> GPSTime? {
        guard values.count >= 3, let hour = values[0], let minute = values[1], let second = values[2] else { return nil }
        return GPSTime(hour: hour, minute: minute, second: second)
    }

    /// GPSLatitude and GPSLongitude (degrees, minutes, seconds) signed by their references; nil
    /// unless both read and lie on Earth, and for 0/0.
    private static func gpsPosition(_ document: ExifDocument) -> GPSPosition? {
        func degrees(_ tag: UInt16, reference: UInt16, negative: String, limit: Double) -> Double? {
            let parts = document.rationals(tag, in: .gps)
            guard parts.count == 3, let d = parts[0], let m = parts[1], let s = parts[2],
                  [d, m, s].allSatisfy({ $0.isFinite && $0 >= 0 }), m < 60, s < 60 else { return nil }
            let value = d + m / 60 + s / 3600
            guard value <= limit else { return nil }
            return document.string(reference, in: .gps)?.uppercased().hasPrefix(negative) == true ? -value : value
        }
        guard let latitude = degrees(Tag.gpsLatitude, reference: Tag.gpsLatitudeRef, negative: "S", limit: 90),
              let longitude = degrees(Tag.gpsLongitude, reference: Tag.gpsLongitudeRef, negative: "W", limit: 180),
              latitude != 0 || longitude != 0 else { return nil }
        var altitude = document.rationals(Tag.gpsAltitude, in: .gps).first.flatMap { $0 }.flatMap { $0.isFinite ? $0 : nil }
        if document.bytes(Tag.gpsAltitudeRef, in: .gps)?.first == 1 { altitude = altitude.map { -$0 } }
        return GPSPosition(latitude: latitude, longitude: longitude, altitude: altitude)
    }

    /// The tag numbers read, as in the EXIF 2.32 specification.
    enum Tag {
        static let make: UInt16 = 0x010F
        static let model: UInt16 = 0x0110
        static let orientation: UInt16 = 0x0112
        static let dateTime: UInt16 = 0x0132
        static let dateTimeOriginal: UInt16 = 0x9003
        static let dateTimeDigitized: UInt16 = 0x9004
        static let offsetTimeOriginal: UInt16 = 0x9011
        static let offsetTimeDigitized: UInt16 = 0x9012
        static let subSecTimeOriginal: UInt16 = 0x9291
        static let subSecTimeDigitized: UInt16 = 0x9292
        static let makerNote: UInt16 = 0x927C
        static let gpsLatitudeRef: UInt16 = 0x0001
        static let gpsLatitude: UInt16 = 0x0002
        static let gpsLongitudeRef: UInt16 = 0x0003
        static let gpsLongitude: UInt16 = 0x0004
        static let gpsAltitudeRef: UInt16 = 0x0005
        static let gpsAltitude: UInt16 = 0x0006
        static let gpsTimeStamp: UInt16 = 0x0007
        static let gpsDateStamp: UInt16 = 0x001D
    }
}
