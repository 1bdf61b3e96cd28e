/// Namespace URIs of the XMP schemas Darkroom reads or keeps, with their customary prefixes.
public enum XMPNamespace {
    /// RDF syntax: `rdf:Description`, `rdf:Bag`, `rdf:li`.
    public static let rdf = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
    /// The `x:xmpmeta` wrapper.
    public static let meta = "adobe:ns:meta/"
    /// XML's own attributes: `xml:lang`.
    public static let xml = "http://www.w3.org/XML/1998/namespace"
    /// XMP basic: `xmp:CreateDate`, `xmp:Rating`, `xmp:Label`.
    public static let xmp = "http://ns.adobe.com/xap/1.0/"
    /// Dublin Core: `dc:title`, `dc:description`, `dc:subject` (keywords).
    public static let dc = "http://purl.org/dc/elements/1.1/"
    /// EXIF in XMP: `exif:DateTimeOriginal`, `exif:GPSLatitude`.
    public static let exif = "http://ns.adobe.com/exif/1.0/"
    /// EXIF 2.3+ in XMP: `exifEX:OffsetTimeOriginal`.
    public static let exifEX = "http://cipa.jp/exif/1.0/"
    /// TIFF in XMP: `tiff:Orientation`, `tiff:Make`.
    public static let tiff = "http://ns.adobe.com/tiff/1.0/"
    /// Photoshop: `photoshop:DateCreated`.
    public static let photoshop = "http://ns.adobe.com/photoshop/1.0/"
    /// Media management: `xmpMM:DocumentID`, `xmpMM:History`.
    public static let xmpMM = "http://ns.adobe.com/xap/1.0/mm/"
    /// XMP notes: `xmpNote:HasExtendedXMP` (the GUID of a JPEG's extended XMP segments).
    public static let xmpNote = "http://ns.adobe.com/xmp/note/"
    /// Rights: `xmpRights:WebStatement`.
    public static let xmpRights = "http://ns.adobe.com/xap/1.0/rights/"
    /// Lightroom: `lr:hierarchicalSubject`.
    public static let lightroom = "http://ns.adobe.com/lightroom/1.0/"
    /// Metadata Working Group regions (faces): `mwg-rs:Regions`.
    public static let mwgRegions = "http://www.metadataworkinggroup.com/schemas/regions/"
    /// A region's area (`stArea:x`, `stArea:w`).
    public static let mwgArea = "http://ns.adobe.com/xmp/sType/Area#"
    /// The dimensions regions apply to (`stDim:w`, `stDim:h`).
    public static let mwgDimensions = "http://ns.adobe.com/xap/1.0/sType/Dimensions#"
    /// Windows Photo Gallery people tags: `MP:RegionInfo`.
    public static let microsoftPhoto = "http://ns.microsoft.com/photo/1.2/"
    /// Fields of `MP:RegionInfo` (`MPRI:Regions`).
    public static let microsoftRegionInfo = "http://ns.microsoft.com/photo/1.2/t/RegionInfo#"
    /// Fields of one Windows region (`MPReg:PersonDisplayName`, `MPReg:Rectangle`).
    public static let microsoftRegion = "http://ns.microsoft.com/photo/1.2/t/Region#"
    /// IPTC Extension: `Iptc4xmpExt:PersonInImage`.
    public static let iptcExtension = "http://iptc.org/std/Iptc4xmpExt/2008-02-29/"
    /// IPTC Core: `Iptc4xmpCore:Location`.
    public static let iptcCore = "http://iptc.org/std/Iptc4xmpCore/1.0/xmlns/"
    /// darktable's edit history and tags.
    public static let darktable = "http://darktable.sf.net/"
    /// digiKam's tags: `digiKam:TagsList`.
    public static let digiKam = "http://www.digikam.org/ns/1.0/"
    /// Google Camera: `GCamera:MotionPhoto`.
    public static let googleCamera = "http://ns.google.com/photos/1.0/camera/"
    /// Google's container directory: `Container:Directory`.
    public static let googleContainer = "http://ns.google.com/photos/1.0/container/"
    /// Fields of a `Container:Item`: `Item:Mime`, `Item:Semantic`, `Item:Length`.
    public static let googleContainerItem = "http://ns.google.com/photos/1.0/container/item/"

    private static let prefixes: [String: String] = [
        rdf: "rdf", meta: "x", xml: "xml", xmp: "xmp", dc: "dc", exif: "exif", exifEX: "exifEX", tiff: "tiff",
        photoshop: "photoshop", xmpMM: "xmpMM", xmpNote: "xmpNote", xmpRights: "xmpRights", lightroom: "lr", mwgRegions: "mwg-rs",
        mwgArea: "stArea", mwgDimensions: "stDim", microsoftPhoto: "MP", microsoftRegionInfo: "MPRI",
        microsoftRegion: "MPReg", iptcExtension: "Iptc4xmpExt", iptcCore: "Iptc4xmpCore", darktable: "darktable",
        digiKam: "digiKam", googleCamera: "GCamera", googleContainer: "Container", googleContainerItem: "Item",
    ]

    /// The prefix writers customarily use for `namespace`, if it is one of these schemas.
    public static func preferredPrefix(for namespace: String) -> String? { prefixes[namespace] }
}
